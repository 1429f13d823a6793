/*
 * server.c: the daemon. One evconnlistener per configured listener, one protocol
 * session per connection, SIGINT/SIGTERM for a clean shutdown, SIGHUP to reopen
 * the trace log.
 *
 * Shutdown runs in reverse order of start: listeners, sessions (which free their
 * engines), refused connections, signal events, then the loop runs on until every
 * engine child is reaped, and the base is freed last.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/thread.h>

#include "bridge/front.h"
#include "bridge/config.h"
#include "bridge/engine_builtin.h"
#include "bridge/log.h"
#include "bridge/proc.h"
#include "bridge/server.h"

#define SERVER_REFUSAL   "err Too many sessions.\nok\n"
#define REFUSE_LINGER_MS 2000    /* how long a refused client may take to hang up */
#define ACCEPT_PAUSE_MS  200     /* after EMFILE and friends */
#define DRAIN_EXTRA_MS   1000

struct server;

struct listener {
	struct server              *srv;
	const struct listener_conf *conf;
	const struct engine_profile *profile;
	const struct front         *front;
	struct session_limits       limits;    /* the daemon's, plus this listener's think time */
	struct evconnlistener      *lev;
	struct event               *resume;    /* re-enables accepting after an error */
};

struct conn {
	struct server      *srv;
	unsigned            id;
	const struct front *front;
	void               *session;           /* NULL for a refused connection */
	struct bufferevent *bev;               /* refused connection only */
	struct event       *linger;            /* refused connection only */
	struct conn        *prev, *next;
};

struct server {
	struct config      *conf;
	struct event_base  *base;
	struct listener    *listeners;
	size_t              nlisteners;
	struct event       *sigint, *sigterm, *sighup;
	struct conn        *sessions;          /* live sessions */
	size_t              nsessions;
	struct conn        *refused;           /* refusals being flushed */
	unsigned            next_id;
	struct session_limits limits;
};

static void conn_link(struct conn **head, struct conn *c)
{
	c->prev = NULL;
	c->next = *head;
	if (*head)
		(*head)->prev = c;
	*head = c;
}

static void conn_unlink(struct conn **head, struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		*head = c->next;
	if (c->next)
		c->next->prev = c->prev;
}

static void session_closed(void *arg)
{
	struct conn *c = arg;
	struct server *srv = c->srv;

	log_note(c->id, "session closed");
	conn_unlink(&srv->sessions, c);
	srv->nsessions--;
	c->front->session_free(c->session);
	free(c);
}

static void refused_free(struct conn *c)
{
	conn_unlink(&c->srv->refused, c);
	if (c->bev)
		bufferevent_free(c->bev);
	if (c->linger)
		event_free(c->linger);
	free(c);
}

/* A refused client: its input is dropped until it hangs up or the linger ends, so
 * that closing never resets the connection before it has read the refusal. */
static void refused_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer *in = bufferevent_get_input(bev);
	evbuffer_drain(in, evbuffer_get_length(in));
}

static void refused_written(struct bufferevent *bev, void *arg)
{
	shutdown(bufferevent_getfd(bev), SHUT_WR);
	bufferevent_setcb(bev, refused_read, NULL, NULL, arg);
	(void)arg;
}

static void refused_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		refused_free(arg);
}

static void refused_timeout(evutil_socket_t fd, short what, void *arg)
{
	refused_free(arg);
}

static void server_refuse(struct server *srv, evutil_socket_t fd, unsigned id)
{
	struct conn *c = calloc(1, sizeof *c);
	struct timeval tv = { REFUSE_LINGER_MS / 1000, (REFUSE_LINGER_MS % 1000) * 1000 };

	log_note(id, "refused: %zu sessions already", srv->nsessions);
	if (!c) {
		evutil_closesocket(fd);
		return;
	}
	c->srv = srv;
	c->id = id;
	conn_link(&srv->refused, c);
	c->bev = bufferevent_socket_new(srv->base, fd, BEV_OPT_CLOSE_ON_FREE);
	c->linger = evtimer_new(srv->base, refused_timeout, c);
	if (!c->bev || !c->linger) {
		if (!c->bev)
			evutil_closesocket(fd);
		refused_free(c);
		return;
	}
	bufferevent_setcb(c->bev, refused_read, refused_written, refused_event, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	log_proto(id, LOG_CLIENT_OUT, "err Too many sessions.", 22);
	bufferevent_write(c->bev, SERVER_REFUSAL, strlen(SERVER_REFUSAL));
	evtimer_add(c->linger, &tv);
}

static void server_accept(struct evconnlistener *lev, evutil_socket_t fd, struct sockaddr *sa,
			  int salen, void *arg)
{
	struct listener *l = arg;
	struct server *srv = l->srv;
	unsigned id = ++srv->next_id;
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (sa->sa_family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)sa;
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
		port = ntohs(in->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)sa;
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
		port = ntohs(in6->sin6_port);
	}
	if (srv->nsessions >= srv->conf->max_sessions) {
		server_refuse(srv, fd, id);
		return;
	}
	log_note(id, "connection from %s port %u on %s", host, port, l->conf->name);

	struct conn *c = calloc(1, sizeof *c);
	if (!c) {
		evutil_closesocket(fd);
		return;
	}
	/* Lines are small and interactive: no Nagle delay on answers. */
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	struct bufferevent *bev = bufferevent_socket_new(srv->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		evutil_closesocket(fd);
		free(c);
		return;
	}
	c->srv = srv;
	c->id = id;
	/* The session owns bev from here on, also when it cannot start. */
	c->front = l->front;
	c->session = l->front->session_new(srv->base, bev, bev, id, l->profile, &l->limits,
					   session_closed, c);
	if (!c->session) {
		log_note(id, "cannot start a session");
		free(c);
		return;
	}
	conn_link(&srv->sessions, c);
	srv->nsessions++;
}

static void listener_resume(evutil_socket_t fd, short what, void *arg)
{
	struct listener *l = arg;
	evconnlistener_enable(l->lev);
}

static void listener_error(struct evconnlistener *lev, void *arg)
{
	struct listener *l = arg;
	int err = EVUTIL_SOCKET_ERROR();
	struct timeval tv = { 0, ACCEPT_PAUSE_MS * 1000 };

	/* Out of descriptors: stop accepting for a moment rather than spin. */
	log_note(0, "accept on %s: %s", l->conf->name, evutil_socket_error_to_string(err));
	evconnlistener_disable(lev);
	evtimer_add(l->resume, &tv);
}

/* "127.0.0.1:5000" or "[::1]:5000" into buf. */
static void format_addr(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
		snprintf(buf, len, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else {
		const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
		snprintf(buf, len, "%s:%u", host, ntohs(in->sin_port));
	}
}

static int listener_open(struct server *srv, struct listener *l, const struct listener_conf *lc)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	char where[INET6_ADDRSTRLEN + 16];

	memset(&ss, 0, sizeof ss);
	l->srv = srv;
	l->conf = lc;
	l->limits = srv->limits;
	l->limits.think_ms = lc->think_ms;
	l->limits.depth = lc->depth;
	l->limits.max_depth = lc->max_depth;
	l->limits.max_think_ms = lc->max_think_ms;
	l->front = front_find(lc->protocol);
	if (!l->front) {
		fprintf(stderr, "hivebridge: listener %s: protocol %s is not served yet\n",
			lc->name, lc->protocol);
		return -1;
	}
	l->profile = config_profile(srv->conf, lc->engine);
	if (!l->profile) {
		fprintf(stderr, "hivebridge: listener %s: no engine profile %s\n", lc->name, lc->engine);
		return -1;
	}
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, lc->address, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(lc->port);
		sslen = sizeof *in;
	} else if (inet_pton(AF_INET6, lc->address, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(lc->port);
		sslen = sizeof *in6;
	} else {
		fprintf(stderr, "hivebridge: listener %s: bad address %s\n", lc->name, lc->address);
		return -1;
	}
	l->lev = evconnlistener_new_bind(srv->base, server_accept, l,
					 LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
					 511, (struct sockaddr *)&ss, (int)sslen);
	if (!l->lev) {
		format_addr(&ss, where, sizeof where);
		fprintf(stderr, "hivebridge: cannot listen on %s: %s\n", where, strerror(errno));
		return -1;
	}
	l->resume = evtimer_new(srv->base, listener_resume, l);
	if (!l->resume) {
		fprintf(stderr, "hivebridge: out of memory\n");
		return -1;
	}
	evconnlistener_set_error_cb(l->lev, listener_error);
	/* Port 0 gets a free port: say which. */
	sslen = sizeof ss;
	getsockname(evconnlistener_get_fd(l->lev), (struct sockaddr *)&ss, &sslen);
	format_addr(&ss, where, sizeof where);
	fprintf(stderr, "listening on %s (%s)\n", where, lc->protocol);
	log_note(0, "listening on %s (%s, engine %s)", where, lc->name, lc->engine);
	return 0;
}

static void server_signal(evutil_socket_t sig, short what, void *arg)
{
	struct server *srv = arg;

	if (sig == SIGHUP) {
		if (log_reopen() < 0)
			fprintf(stderr, "hivebridge: cannot reopen the log\n");
		log_note(0, "SIGHUP: log reopened");
		return;
	}
	log_note(0, "%s: shutting down", sig == SIGINT ? "SIGINT" : "SIGTERM");
	event_base_loopbreak(srv->base);
}

/* Allows as many descriptors as the hard limit: each session costs one or more. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Longest time a dying engine may take: its farewell, SIGTERM, SIGKILL. */
static unsigned drain_ms(const struct config *c)
{
	unsigned ms = 0;
	for (size_t i = 0; i < c->nprofiles; i++)
		if (c->profiles[i].stop_timeout_ms > ms)
			ms = c->profiles[i].stop_timeout_ms;
	return 2 * ms + DRAIN_EXTRA_MS;
}

static void server_teardown(struct server *srv)
{
	for (size_t i = 0; i < srv->nlisteners; i++) {
		if (srv->listeners[i].lev)
			evconnlistener_free(srv->listeners[i].lev);
		if (srv->listeners[i].resume)
			event_free(srv->listeners[i].resume);
	}
	free(srv->listeners);
	srv->listeners = NULL;
	while (srv->sessions) {
		struct conn *c = srv->sessions;
		conn_unlink(&srv->sessions, c);
		srv->nsessions--;
		c->front->session_free(c->session);
		free(c);
	}
	while (srv->refused)
		refused_free(srv->refused);
	if (srv->sigint)
		event_free(srv->sigint);
	if (srv->sigterm)
		event_free(srv->sigterm);
	if (srv->sighup)
		event_free(srv->sighup);
	if (srv->base) {
		proc_drain(srv->base, drain_ms(srv->conf));
		event_base_free(srv->base);
	}
	srv->base = NULL;
}

int server_run(struct config *c)
{
	struct server srv;
	int rc = -1;

	memset(&srv, 0, sizeof srv);
	srv.conf = c;
	srv.limits.max_line = c->max_line;
	srv.limits.max_buffer = c->max_buffer;
	srv.limits.idle_timeout_ms = 0;
	engine_builtin_configure(c->hash_budget_mb, c->search_threads);

	/* Before the base: the built-in engine hands results over from its threads. */
	if (evthread_use_pthreads() < 0) {
		fprintf(stderr, "hivebridge: libevent has no thread support\n");
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	if (c->log_path && log_open(c->log_path) < 0) {
		fprintf(stderr, "hivebridge: cannot open the log %s: %s\n", c->log_path, strerror(errno));
		return -1;
	}
	srv.base = event_base_new();
	if (!srv.base) {
		fprintf(stderr, "hivebridge: cannot create the event loop\n");
		log_close();
		return -1;
	}
	if (c->nlisteners == 0) {
		fprintf(stderr, "hivebridge: no listener configured\n");
		goto out;
	}
	srv.listeners = calloc(c->nlisteners, sizeof *srv.listeners);
	if (!srv.listeners) {
		fprintf(stderr, "hivebridge: out of memory\n");
		goto out;
	}
	srv.nlisteners = c->nlisteners;
	for (size_t i = 0; i < c->nlisteners; i++)
		if (listener_open(&srv, &srv.listeners[i], &c->listeners[i]) < 0)
			goto out;

	srv.sigint = evsignal_new(srv.base, SIGINT, server_signal, &srv);
	srv.sigterm = evsignal_new(srv.base, SIGTERM, server_signal, &srv);
	srv.sighup = evsignal_new(srv.base, SIGHUP, server_signal, &srv);
	if (!srv.sigint || !srv.sigterm || !srv.sighup || evsignal_add(srv.sigint, NULL) < 0 ||
	    evsignal_add(srv.sigterm, NULL) < 0 || evsignal_add(srv.sighup, NULL) < 0) {
		fprintf(stderr, "hivebridge: cannot watch signals\n");
		goto out;
	}

	if (event_base_dispatch(srv.base) < 0) {
		fprintf(stderr, "hivebridge: event loop failed\n");
		goto out;
	}
	rc = 0;
out:
	server_teardown(&srv);
	log_note(0, "stopped");
	log_close();
	return rc;
}
