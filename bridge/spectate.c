/*
 * spectate.c: spectators of running games (see spectate.h): the set, its
 * connections, their commands and the bounded fan-out of GameStrings.
 *
 * A spectator is either owned by the set (spectate_listen's, for match) or by a
 * daemon session (spectator_new); either way it is linked in the set's list while
 * the set lives, and freed by exactly one of spectator_free/spectate_free.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include "bridge/log.h"
#include "bridge/spectate.h"
#include "bridge/util.h"
#include "bridge/version.h"
#include "core/errbuf.h"

/* A command line longer than this is junk: dropped (and, answering, refused). */
#define SPECTATE_MAX_LINE 256

struct spectator {
	struct spectate    *sp;          /* NULL once the set is gone */
	struct bufferevent *bev;
	unsigned            log_id;
	unsigned            game;        /* attached to this game, 0 = none (or all) */
	int                 all;         /* follows every game */
	int                 owned;       /* by the set (spectate_listen) */
	int                 dead;        /* dropped: only its closed callback is pending */
	void              (*closed)(void *arg);
	void               *arg;
	struct event       *close_ev;    /* closed() from the loop, never from a callback */
	LIST_ENTRY(spectator) link;      /* sp->list while sp is set */
};

struct spectate {
	struct event_base       *base;
	const struct spectate_ops *ops;
	void                    *arg;
	struct spectate_limits   l;
	struct evconnlistener   *lev;
	LIST_HEAD(, spectator)   list;     /* empty when zeroed */
	unsigned                 n;
	int                      finishing;
	void                   (*done)(void *arg);
	void                    *done_arg;
};

static void spectator_unlink(struct spectator *c)
{
	struct spectate *sp = c->sp;
	if (!sp)
		return;
	LIST_REMOVE(c, link);
	c->sp = NULL;
	sp->n--;
}

static void spectate_maybe_done(struct spectate *sp)
{
	if (sp->finishing && LIST_EMPTY(&sp->list) && sp->done) {
		void (*done)(void *) = sp->done;
		sp->done = NULL;
		done(sp->done_arg);
	}
}

void spectator_free(struct spectator *c)
{
	if (!c)
		return;
	struct spectate *sp = c->sp;
	spectator_unlink(c);
	util_bev_free(&c->bev);
	util_event_free(&c->close_ev);
	free(c);
	if (sp)
		spectate_maybe_done(sp);
}

/* The connection is over (EOF, error, too slow, exit): an owned spectator goes at
 * once, a session's is reported to its session, which frees it. */
static void spectator_drop(struct spectator *c, const char *why)
{
	if (c->dead)
		return;
	log_note(c->log_id, "spectator %s", why);
	c->dead = 1;
	bufferevent_disable(c->bev, EV_READ | EV_WRITE);
	event_active(c->close_ev, EV_TIMEOUT, 1);
}

static void spectator_close_cb(evutil_socket_t fd, short what, void *arg)
{
	struct spectator *c = arg;
	if (c->owned)
		spectator_free(c);
	else
		c->closed(c->arg);
}

/* One line to c, or c is dropped when it has not read what it was sent: 0 or -1. */
static int spectator_send(struct spectator *c, const char *line)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);
	size_t max = c->sp ? c->sp->l.max_pending : 0;

	if (c->dead)
		return -1;
	if (max && evbuffer_get_length(out) > max) {
		spectator_drop(c, "too slow, dropped");
		return -1;
	}
	evbuffer_add_printf(out, "%s\n", line);
	return 0;
}

static int answers(const struct spectator *c)
{
	return c->sp ? c->sp->l.answers : 1;
}

static void reply(struct spectator *c, const char *line)
{
	if (answers(c))
		spectator_send(c, line);
}

/* The current position of game n (every game for 0) so that nobody waits for a move. */
static void spectator_catch_up(struct spectator *c, unsigned n)
{
	struct spectate *sp = c->sp;
	for (unsigned g = n ? n : sp->ops->next_game(sp->arg, 0); g;
	     g = n ? 0 : sp->ops->next_game(sp->arg, g)) {
		char *gs = sp->ops->game_string(sp->arg, g);
		if (gs) {
			int rc = spectator_send(c, gs);
			free(gs);
			if (rc < 0)
				return;
		}
	}
}

unsigned spectate_count(const struct spectate *sp, unsigned n)
{
	unsigned k = 0;
	const struct spectator *c;
	LIST_FOREACH(c, &sp->list, link)
		k += !c->dead && !c->all && c->game == n;
	return k;
}

static void cmd_attach(struct spectator *c, const char *arg)
{
	struct spectate *sp = c->sp;
	unsigned long long n;
	char buf[128];

	if (parse_uint(arg, 0, UINT32_MAX, &n) < 0) {
		reply(c, "err attach needs a game number (list shows them).");
		return;
	}
	if (n && !answers(c)) {
		/* match: a game that has not started yet may still be followed. */
	} else if (n) {
		char *gs = sp->ops->game_string(sp->arg, (unsigned)n);
		if (!gs) {
			snprintf(buf, sizeof buf, "err No game %llu is in progress.", n);
			reply(c, buf);
			return;
		}
		free(gs);
		if (c->game != n && sp->l.max_per_game && spectate_count(sp, (unsigned)n) >= sp->l.max_per_game) {
			snprintf(buf, sizeof buf, "err Game %llu has %u spectators already.", n,
				 sp->l.max_per_game);
			reply(c, buf);
			return;
		}
	}
	c->game = (unsigned)n;
	c->all = n == 0;
	log_note(c->log_id, "spectator attached to %s %llu", n ? "game" : "every game", n);
	spectator_catch_up(c, (unsigned)n);
}

static void spectator_command(struct spectator *c, char *line)
{
	char buf[256];

	if (!c->sp) {
		reply(c, "err The games are gone.");
	} else if (!strncmp(line, "attach ", 7)) {
		cmd_attach(c, line + 7);
	} else if (!answers(c)) {
		return;          /* match's viewers: anything else is ignored */
	} else if (!strcmp(line, "list")) {
		struct spectate *sp = c->sp;
		for (unsigned g = sp->ops->next_game(sp->arg, 0); g; g = sp->ops->next_game(sp->arg, g)) {
			char d[200];
			sp->ops->describe(sp->arg, g, d, sizeof d);
			snprintf(buf, sizeof buf, "game %u %s spectators=%u", g, d, spectate_count(sp, g));
			if (spectator_send(c, buf) < 0)
				return;
		}
	} else if (!strcmp(line, "detach")) {
		c->game = 0;
		c->all = 0;
	} else if (!strcmp(line, "help")) {
		reply(c, "list");
		reply(c, "attach");
		reply(c, "detach");
		reply(c, "exit");
	} else if (!strcmp(line, "exit")) {
		spectator_drop(c, "said exit");
		return;
	} else {
		reply(c, "err Invalid command. Try 'help' to see a list of valid commands.");
	}
	if (!c->dead)
		reply(c, "ok");
}

static void spectator_read(struct bufferevent *bev, void *arg)
{
	struct spectator *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char *line;
	size_t len;

	while (!c->dead && (line = evbuffer_readln(in, &len, EVBUFFER_EOL_CRLF)) != NULL) {
		if (len > SPECTATE_MAX_LINE) {
			reply(c, "err Line too long.");
			reply(c, "ok");
		} else {
			spectator_command(c, line);
		}
		free(line);
	}
	if (!c->dead && evbuffer_get_length(in) > SPECTATE_MAX_LINE)
		evbuffer_drain(in, evbuffer_get_length(in));
}

static void spectator_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		spectator_drop(arg, "disconnected");
}

/* Finishing: the spectator has everything. */
static void spectator_flushed(struct bufferevent *bev, void *arg)
{
	spectator_free(arg);
}

static void spectator_sent_all(struct bufferevent *bev, void *arg)
{
	spectator_drop(arg, "closed: the server is shutting down");
}

void spectator_finish(struct spectator *c)
{
	if (c->dead)
		return;
	if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0) {
		spectator_drop(c, "closed: the server is shutting down");
		return;
	}
	/* Nothing more is read; the write callback fires once the output is empty. */
	bufferevent_disable(c->bev, EV_READ);
	bufferevent_setwatermark(c->bev, EV_WRITE, 0, 0);
	bufferevent_setcb(c->bev, NULL, spectator_sent_all, spectator_event, c);
	bufferevent_enable(c->bev, EV_WRITE);
}

static struct spectator *spectator_link(struct spectate *sp, struct bufferevent *bev, unsigned log_id,
					char *err, size_t errlen)
{
	if (sp->l.max_total && sp->n >= sp->l.max_total) {
		errbuf_set(err, errlen, "Too many spectators (%u); try again later.", sp->l.max_total);
		return NULL;
	}
	struct spectator *c = calloc(1, sizeof *c);
	if (!c || !(c->close_ev = event_new(sp->base, -1, 0, spectator_close_cb, c))) {
		errbuf_set(err, errlen, "Out of memory.");
		free(c);
		return NULL;
	}
	c->sp = sp;
	c->bev = bev;
	c->log_id = log_id;
	c->all = sp->l.all_by_default;
	LIST_INSERT_HEAD(&sp->list, c, link);
	sp->n++;
	bufferevent_setcb(bev, spectator_read, NULL, spectator_event, c);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	if (sp->l.answers) {
		char buf[160];
		if (sp->l.greeting)
			snprintf(buf, sizeof buf, "id hivebridge v%s %s", version_string, sp->l.greeting);
		else
			snprintf(buf, sizeof buf, "id spectator");
		spectator_send(c, buf);
		spectator_send(c, "ok");
	}
	return c;
}

struct spectator *spectator_new(struct spectate *sp, struct bufferevent *bev, unsigned log_id,
				void (*closed)(void *arg), void *arg, char *err, size_t errlen)
{
	struct spectator *c = spectator_link(sp, bev, log_id, err, errlen);
	if (!c)
		return NULL;
	c->closed = closed;
	c->arg = arg;
	log_note(log_id, "spectator connected");
	return c;
}

void spectate_update(struct spectate *sp, unsigned n, const char *gamestring)
{
	struct spectator *c, *next;
	for (c = LIST_FIRST(&sp->list); c; c = next) {
		next = LIST_NEXT(c, link);
		if (c->all || c->game == n)
			spectator_send(c, gamestring);
	}
}

void spectate_end(struct spectate *sp, unsigned n, const char *gamestring, const char *outcome)
{
	struct spectator *c, *next;
	char buf[400];

	snprintf(buf, sizeof buf, "over %u %s", n, outcome ? outcome : "");
	for (c = LIST_FIRST(&sp->list); c; c = next) {
		next = LIST_NEXT(c, link);
		if (c->all || c->game != n || c->dead)
			continue;
		c->game = 0;
		if (!sp->l.answers)
			continue;
		if (gamestring && spectator_send(c, gamestring) < 0)
			continue;
		if (outcome)
			spectator_send(c, buf);
	}
}

static void spectate_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
			    int salen, void *arg)
{
	struct spectate *sp = arg;
	char why[128];
	struct bufferevent *bev = bufferevent_socket_new(sp->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		evutil_closesocket(fd);
		return;
	}
	struct spectator *c = spectator_link(sp, bev, 0, why, sizeof why);
	if (!c) {
		bufferevent_free(bev);
		log_note(0, "viewer refused: %s", why);
		return;
	}
	c->owned = 1;
	log_note(0, "viewer connected");
	if (c->all)
		spectator_catch_up(c, 0);
}

/* "ADDR:PORT" or "[V6ADDR]:PORT", numeric; port 0 picks a free one. */
static int parse_addr_port(const char *spec, struct sockaddr_storage *ss, int *len)
{
	const char *colon = strrchr(spec, ':');
	char host[INET6_ADDRSTRLEN + 2];
	unsigned long long port;

	if (!colon || parse_uint(colon + 1, 0, 65535, &port) < 0)
		return -1;
	size_t hlen = (size_t)(colon - spec);
	if (hlen >= 2 && spec[0] == '[' && spec[hlen - 1] == ']') {
		spec++;
		hlen -= 2;
	}
	if (hlen == 0 || hlen >= sizeof host)
		return -1;
	memcpy(host, spec, hlen);
	host[hlen] = 0;
	memset(ss, 0, sizeof *ss);
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		*len = sizeof *in;
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*len = sizeof *in6;
	} else {
		return -1;
	}
	return 0;
}

int spectate_listen(struct spectate *sp, const char *spec, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	int len = 0;

	if (parse_addr_port(spec, &ss, &len) < 0)
		return errbuf_set(err, errlen, "bad address %s (want ADDR:PORT)", spec);
	sp->lev = evconnlistener_new_bind(sp->base, spectate_accept, sp,
					  LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 16,
					  (struct sockaddr *)&ss, len);
	if (!sp->lev)
		return errbuf_set(err, errlen, "cannot listen on %s: %s", spec, strerror(errno));
	/* Port 0 asks for a free one: say which (tests read it). */
	struct sockaddr_storage bound;
	socklen_t blen = sizeof bound;
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;
	if (getsockname(evconnlistener_get_fd(sp->lev), (struct sockaddr *)&bound, &blen) == 0) {
		if (bound.ss_family == AF_INET) {
			struct sockaddr_in *in = (struct sockaddr_in *)&bound;
			inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
			port = ntohs(in->sin_port);
		} else if (bound.ss_family == AF_INET6) {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&bound;
			inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
			port = ntohs(in6->sin6_port);
		}
	}
	fprintf(stderr, "viewer listening on %s:%u\n", host, port);
	return 0;
}

void spectate_finish(struct spectate *sp, void (*done)(void *arg), void *arg)
{
	struct spectator *c, *next;

	sp->finishing = 1;
	sp->done = done;
	sp->done_arg = arg;
	if (sp->lev) {
		evconnlistener_free(sp->lev);
		sp->lev = NULL;
	}
	for (c = LIST_FIRST(&sp->list); c; c = next) {
		next = LIST_NEXT(c, link);
		if (!c->owned)
			continue;
		if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
			spectator_free(c);
		else
			bufferevent_setcb(c->bev, spectator_read, spectator_flushed, spectator_event, c);
	}
	spectate_maybe_done(sp);
}

struct spectate *spectate_new(struct event_base *base, const struct spectate_ops *ops, void *arg,
			      const struct spectate_limits *l)
{
	struct spectate *sp = calloc(1, sizeof *sp);
	if (!sp)
		return NULL;
	sp->base = base;
	sp->ops = ops;
	sp->arg = arg;
	sp->l = *l;
	return sp;
}

void spectate_free(struct spectate *sp)
{
	if (!sp)
		return;
	sp->done = NULL;
	if (sp->lev)
		evconnlistener_free(sp->lev);
	struct spectator *c;
	while ((c = LIST_FIRST(&sp->list))) {
		if (c->owned)
			spectator_free(c);
		else
			spectator_unlink(c);
	}
	free(sp);
}
