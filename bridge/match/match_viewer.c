/*
 * match_viewer.c: the viewers of `hivebridge match --viewer ADDR:PORT`: TCP clients
 * that get the GameString of every position of the running games (or of the one
 * game they "attach" to). A slow viewer is dropped, never waited for.
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
#include <sys/socket.h>

#include "bridge/log.h"
#include "bridge/match/match_int.h"
#include "bridge/util.h"

/* A viewer whose unread output passes this is dropped: it cannot slow a match. */
#define VIEWER_MAX_PENDING        (1024 * 1024)
/* At the end, how long viewers get to receive the last positions. */
#define VIEWER_FLUSH_MS           2000

static void viewer_drop(struct match *m, struct viewer_client *c)
{
	for (struct viewer_client **p = &m->viewers; *p; p = &(*p)->next) {
		if (*p == c) {
			*p = c->next;
			break;
		}
	}
	bufferevent_free(c->bev);
	free(c);
	if (m->finishing && !m->viewers)
		event_base_loopexit(m->base, NULL);
}

static void viewer_send(struct match *m, struct viewer_client *c, const char *line)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);
	if (evbuffer_get_length(out) > VIEWER_MAX_PENDING) {
		log_note(0, "match: viewer too slow, dropped");
		viewer_drop(m, c);
		return;
	}
	evbuffer_add_printf(out, "%s\n", line);
}

/* Every viewer attached to game (or to all) gets its GameString, a line as UHP prints one. */
void viewer_broadcast(struct match *m, unsigned game, const struct hive_game *g)
{
	if (!m->viewers)
		return;
	char *gs = match_game_string(g);
	if (!gs)
		return;
	struct viewer_client *c = m->viewers, *next;
	for (; c; c = next) {
		next = c->next;
		if (!c->game || c->game == game)
			viewer_send(m, c, gs);
	}
	free(gs);
}

/* The games under way (or game n alone), so that a viewer need not wait for a move. */
static void viewer_catch_up(struct match *m, struct viewer_client *c)
{
	for (unsigned i = 0; i < m->nslots; i++) {
		unsigned g = m->slots[i].game_no;
		if (!g || (c->game && c->game != g))
			continue;
		char *gs = match_game_string(&m->slots[i].game);
		if (gs) {
			viewer_send(m, c, gs);
			free(gs);
		}
	}
}

/* A viewer may say "attach N" to follow game N only ("attach 0": every game);
 * anything else is ignored, and lines are bounded. */
static void viewer_read(struct bufferevent *bev, void *arg)
{
	struct match *m = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	struct viewer_client *c = m->viewers;
	char *line;
	size_t len;

	while (c && c->bev != bev)
		c = c->next;
	while (c && (line = evbuffer_readln(in, &len, EVBUFFER_EOL_CRLF)) != NULL) {
		unsigned long long n;
		if (!strncmp(line, "attach ", 7) && parse_uint(line + 7, 0, UINT32_MAX, &n) == 0) {
			c->game = (unsigned)n;
			log_note(0, "match: viewer attached to %s %llu", n ? "game" : "every game", n);
			viewer_catch_up(m, c);
		}
		free(line);
	}
	if (evbuffer_get_length(in) > 256)
		evbuffer_drain(in, evbuffer_get_length(in));
}

static void viewer_event(struct bufferevent *bev, short what, void *arg)
{
	struct match *m = arg;
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	for (struct viewer_client *c = m->viewers; c; c = c->next) {
		if (c->bev == bev) {
			viewer_drop(m, c);
			return;
		}
	}
}

static void viewer_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
			  int salen, void *arg)
{
	struct match *m = arg;
	struct viewer_client *c = calloc(1, sizeof *c);
	if (!c) {
		evutil_closesocket(fd);
		return;
	}
	c->bev = bufferevent_socket_new(m->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!c->bev) {
		evutil_closesocket(fd);
		free(c);
		return;
	}
	bufferevent_setcb(c->bev, viewer_read, NULL, viewer_event, m);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	c->next = m->viewers;
	m->viewers = c;
	log_note(0, "match: viewer connected");
	viewer_catch_up(m, c);
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

/* At the end: the viewer has everything. */
static void viewer_flushed(struct bufferevent *bev, void *arg)
{
	struct match *m = arg;
	for (struct viewer_client *c = m->viewers; c; c = c->next) {
		if (c->bev == bev) {
			viewer_drop(m, c);
			return;
		}
	}
}

/* Ends the loop once every viewer has its last lines (or after VIEWER_FLUSH_MS). */
void match_exit(struct match *m)
{
	struct viewer_client *c, *next;

	if (m->finishing)
		return;
	m->finishing = 1;
	if (m->listener) {
		evconnlistener_free(m->listener);
		m->listener = NULL;
	}
	for (c = m->viewers; c; c = next) {
		next = c->next;
		if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
			viewer_drop(m, c);
		else
			bufferevent_setcb(c->bev, viewer_read, viewer_flushed, viewer_event, m);
	}
	if (!m->viewers) {
		event_base_loopexit(m->base, NULL);
		return;
	}
	struct timeval tv = { VIEWER_FLUSH_MS / 1000, (VIEWER_FLUSH_MS % 1000) * 1000 };
	event_base_loopexit(m->base, &tv);
}

int viewer_listen(struct match *m, const char *spec)
{
	struct sockaddr_storage ss;
	int len = 0;

	if (parse_addr_port(spec, &ss, &len) < 0) {
		fprintf(stderr, "hivebridge match: bad --viewer %s (want ADDR:PORT)\n", spec);
		return -1;
	}
	m->listener = evconnlistener_new_bind(m->base, viewer_accept, m,
					      LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 16,
					      (struct sockaddr *)&ss, len);
	if (!m->listener) {
		fprintf(stderr, "hivebridge match: cannot listen on %s: %s\n", spec, strerror(errno));
		return -1;
	}
	/* Port 0 asks for a free one: say which (tests read it). */
	struct sockaddr_storage bound;
	socklen_t blen = sizeof bound;
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;
	if (getsockname(evconnlistener_get_fd(m->listener), (struct sockaddr *)&bound, &blen) == 0) {
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

void viewer_free_all(struct match *m)
{
	while (m->viewers)
		viewer_drop(m, m->viewers);
	if (m->listener) {
		evconnlistener_free(m->listener);
		m->listener = NULL;
	}
}
