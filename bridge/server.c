/*
 * server.c: the daemon. One evconnlistener per configured listener, one protocol
 * session per connection, SIGINT/SIGTERM for a clean shutdown, SIGHUP to reopen
 * the trace log.
 *
 * The first SIGINT or SIGTERM stops accepting and ends every game in progress with
 * "aborted: server shutdown" (the lobbies and the page's games tell their players and
 * write their results files); the loop then runs until every session that had
 * something to tell has told it and closed, and every event stream has its last
 * event, for SHUTDOWN_GRACE_MS at most; a second signal cuts that short.
 *
 * Then shutdown runs in reverse order of start: listeners, sessions (which free their
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
#include <sys/queue.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/thread.h>

#include "bridge/protocol.h"
#include "bridge/bot.h"
#include "bridge/config.h"
#include "bridge/engine_builtin.h"
#include "bridge/http/http.h"
#include "bridge/log.h"
#include "bridge/proc.h"
#include "bridge/search_pool.h"
#include "bridge/server.h"
#include "bridge/session_io.h"
#include "bridge/util.h"

#define REFUSE_LINGER_MS 2000    /* how long a refused client may take to hang up */
#define REFUSED_MAX      256     /* refusals lingering at once; beyond, closed at once */
#define PEER_BUCKETS     1024    /* the per-address session count table */
#define DRAIN_EXTRA_MS   1000
#define SHUTDOWN_REASON  "aborted: server shutdown"
/* How long the clients get to read how their games ended: a session's linger, and a
 * second for the answers to get there. */
#define SHUTDOWN_GRACE_MS (SESSION_IO_LINGER_MS + 1000)
#define SHUTDOWN_POLL_MS 10

struct server;

/* Sessions of one client address (IPv4, or IPv6 with v4-mapped ones as IPv4). */
struct peer {
	LIST_ENTRY(peer) link;         /* in its bucket */
	size_t       n;                /* live sessions */
	uint8_t      family;
	uint8_t      addr[16];
};

struct listener {
	struct server              *srv;
	const struct listener_conf *conf;
	const struct engine_profile *profile;
	const struct front         *front;
	struct session_limits       limits;    /* the daemon's, plus this listener's think time */
	struct evconnlistener      *lev;
	struct event               *resume;    /* re-enables accepting after an error */
	void                       *shared;    /* front->listener_new's, or NULL */
};

struct conn {
	struct server      *srv;
	unsigned            id;
	const struct front *front;
	void               *session;           /* NULL for a refused connection */
	struct bufferevent *bev;               /* refused connection only */
	struct event       *linger;            /* refused connection only */
	struct peer        *peer;              /* live session only */
	LIST_ENTRY(conn)    link;              /* srv->sessions or srv->refused */
};

struct server {
	struct config      *conf;
	struct event_base  *base;
	struct listener    *listeners;
	size_t              nlisteners;
	struct event       *sigint, *sigterm, *sighup;
	LIST_HEAD(, conn)   sessions;          /* live sessions (empty when zeroed) */
	size_t              nsessions;
	LIST_HEAD(, conn)   refused;           /* refusals being flushed */
	size_t              nrefused;
	LIST_HEAD(peer_list, peer) peers[PEER_BUCKETS];
	unsigned            next_id;
	struct session_limits limits;
	struct http_server *http;              /* the web page, NULL if none */
	struct bots        *bots;              /* [site NAME]'s bots, NULL if none */
	int                 stopping;          /* a signal came: the games are ended */
	struct event       *grace;             /* polls for the end of the shutdown */
	int64_t             stop_us;           /* when the signal came */
};

/* The address of sa as a peer key; 0, or -1 for a family without addresses. */
static int peer_key(const struct sockaddr *sa, uint8_t *family, uint8_t addr[16])
{
	memset(addr, 0, 16);
	if (sa->sa_family == AF_INET) {
		memcpy(addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		*family = AF_INET;
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		if (IN6_IS_ADDR_V4MAPPED(a)) {
			memcpy(addr, a->s6_addr + 12, 4);
			*family = AF_INET;
		} else {
			memcpy(addr, a->s6_addr, 16);
			*family = AF_INET6;
		}
		return 0;
	}
	return -1;
}

static struct peer_list *peer_bucket(struct server *srv, uint8_t family, const uint8_t addr[16])
{
	uint32_t h = 2166136261u ^ family;    /* FNV-1a */
	for (int i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 16777619u;
	return &srv->peers[h % PEER_BUCKETS];
}

/* The entry of sa's address, created with n = 0 if new; NULL when out of memory or
 * for an address-less family (not counted). */
static struct peer *peer_get(struct server *srv, const struct sockaddr *sa)
{
	uint8_t family, addr[16];
	if (peer_key(sa, &family, addr) < 0)
		return NULL;
	struct peer_list *b = peer_bucket(srv, family, addr);
	struct peer *p;
	LIST_FOREACH(p, b, link)
		if (p->family == family && !memcmp(p->addr, addr, 16))
			return p;
	p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->family = family;
	memcpy(p->addr, addr, 16);
	LIST_INSERT_HEAD(b, p, link);
	return p;
}

/* Drops an entry whose last session ended. */
static void peer_put(struct server *srv, struct peer *p)
{
	if (!p || p->n)
		return;
	LIST_REMOVE(p, link);
	free(p);
}

/* Unlinks and frees a live session, its peer count with it. */
static void session_drop(struct server *srv, struct conn *c)
{
	LIST_REMOVE(c, link);
	srv->nsessions--;
	if (c->peer) {
		c->peer->n--;
		peer_put(srv, c->peer);
	}
	c->front->session_free(c->session);
	free(c);
}

static void session_closed(void *arg)
{
	struct conn *c = arg;

	log_note(c->id, "session closed");
	session_drop(c->srv, c);
}

static void refused_free(struct conn *c)
{
	LIST_REMOVE(c, link);
	c->srv->nrefused--;
	util_bev_free(&c->bev);
	util_event_free(&c->linger);
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

/* Answers a refused client in its listener's protocol (why: one sentence), then
 * closes. A flood of refusals costs no more than REFUSED_MAX descriptors. */
static void server_refuse(struct server *srv, const struct front *front, evutil_socket_t fd,
			  unsigned id, const char *why)
{
	struct timeval tv = { REFUSE_LINGER_MS / 1000, (REFUSE_LINGER_MS % 1000) * 1000 };
	char answer[512];
	size_t len = front->refusal(answer, sizeof answer, why);

	log_note(id, "refused: %s", why);
	if (srv->nrefused >= REFUSED_MAX || len == 0) {
		evutil_closesocket(fd);
		return;
	}
	struct conn *c = calloc(1, sizeof *c);
	if (!c) {
		evutil_closesocket(fd);
		return;
	}
	c->srv = srv;
	c->id = id;
	LIST_INSERT_HEAD(&srv->refused, c, link);
	srv->nrefused++;
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
	/* One trace entry per line, as sessions write them. */
	for (const char *p = answer, *nl; p < answer + len; p = nl + 1) {
		nl = memchr(p, '\n', len - (size_t)(p - answer));
		if (!nl)
			nl = answer + len;
		log_proto(id, LOG_CLIENT_OUT, p, (size_t)(nl - p));
	}
	bufferevent_write(c->bev, answer, len);
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
	log_note(id, "connection from %s port %u on %s (%s)", host, port, l->conf->name,
		 l->conf->protocol);
	if (srv->nsessions >= srv->conf->max_sessions) {
		server_refuse(srv, l->front, fd, id, "Too many sessions.");
		return;
	}
	struct peer *peer = peer_get(srv, sa);
	if (peer && peer->n >= srv->conf->max_sessions_per_peer) {
		server_refuse(srv, l->front, fd, id, "Too many sessions from this address.");
		return;
	}

	struct conn *c = calloc(1, sizeof *c);
	if (!c) {
		peer_put(srv, peer);
		evutil_closesocket(fd);
		return;
	}
	/* Lines are small and interactive: no Nagle delay on answers. */
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	struct bufferevent *bev = bufferevent_socket_new(srv->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		peer_put(srv, peer);
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
		peer_put(srv, peer);
		free(c);
		return;
	}
	LIST_INSERT_HEAD(&srv->sessions, c, link);
	srv->nsessions++;
	c->peer = peer;
	if (peer)
		peer->n++;
}

static void listener_error(struct evconnlistener *lev, void *arg)
{
	struct listener *l = arg;
	int err = EVUTIL_SOCKET_ERROR();

	log_note(0, "accept on %s: %s", l->conf->name, evutil_socket_error_to_string(err));
	util_accept_pause(lev, l->resume, UTIL_ACCEPT_PAUSE_MS);
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
	l->limits.idle_timeout_ms = lc->idle_timeout_ms;
	l->limits.game_idle_timeout_ms = lc->game_idle_timeout_ms;
	l->limits.max_depth = lc->max_depth;
	l->limits.max_think_ms = lc->max_think_ms;
	const struct protocol *pr = protocol_find(lc->protocol);
	l->front = pr && pr->front.session_new ? &pr->front : NULL;
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
	if (l->front->listener_new) {
		char err[256] = "";
		l->shared = l->front->listener_new(srv->base, srv->conf, lc, err, sizeof err);
		if (!l->shared) {
			fprintf(stderr, "hivebridge: listener %s: %s\n", lc->name, err[0] ? err : "out of memory");
			return -1;
		}
		l->limits.shared = l->shared;
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
	l->resume = evtimer_new(srv->base, util_accept_resume, &l->lev);
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

/* Whether every client has what the shutdown told it: the sessions that had
 * something to tell are gone and the event streams have sent everything. */
static int server_told(const struct server *srv, size_t *left)
{
	*left = 0;
	const struct conn *c;
	LIST_FOREACH(c, &srv->sessions, link)
		*left += c->front->session_shutdown != NULL;
	return *left == 0 && !http_pending(srv->http);
}

static void server_grace(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	uint64_t ms = (uint64_t)(now_us() - srv->stop_us) / 1000;
	size_t left;

	if (server_told(srv, &left)) {
		log_note(0, "shutdown: every client told in %llu ms", (unsigned long long)ms);
		event_base_loopbreak(srv->base);
	} else if (ms >= SHUTDOWN_GRACE_MS) {
		log_note(0, "shutdown: %zu sessions%s still busy after %llu ms: closed", left,
			 http_pending(srv->http) ? " and event streams" : "", (unsigned long long)ms);
		event_base_loopbreak(srv->base);
	}
}

/* The first signal: no new client, every game ends with SHUTDOWN_REASON, and the
 * sessions finish; server_grace ends the loop. */
static void server_stop(struct server *srv)
{
	struct timeval tv = { 0, SHUTDOWN_POLL_MS * 1000 };

	srv->stopping = 1;
	srv->stop_us = now_us();
	for (size_t i = 0; i < srv->nlisteners; i++) {
		struct listener *l = &srv->listeners[i];
		if (l->lev)
			evconnlistener_disable(l->lev);
		if (l->resume)
			evtimer_del(l->resume);
	}
	for (size_t i = 0; i < srv->nlisteners; i++) {
		struct listener *l = &srv->listeners[i];
		if (l->shared && l->front->listener_shutdown)
			l->front->listener_shutdown(l->shared, SHUTDOWN_REASON);
	}
	http_shutdown(srv->http, SHUTDOWN_REASON);
	/* The bots stop polling; their games go on on the site (found again on restart). */
	bots_free(srv->bots);
	srv->bots = NULL;
	/* A session closes from an event of its own, never inside this call. */
	struct conn *c;
	LIST_FOREACH(c, &srv->sessions, link)
		if (c->front->session_shutdown)
			c->front->session_shutdown(c->session);
	srv->grace = event_new(srv->base, -1, EV_PERSIST, server_grace, srv);
	if (!srv->grace || event_add(srv->grace, &tv) < 0)
		event_base_loopbreak(srv->base);
}

static void server_signal(evutil_socket_t sig, short what, void *arg)
{
	struct server *srv = arg;
	const char *name = sig == SIGINT ? "SIGINT" : "SIGTERM";

	if (sig == SIGHUP) {
		if (log_reopen() < 0)
			fprintf(stderr, "hivebridge: cannot reopen the log\n");
		log_note(0, "SIGHUP: log reopened");
		return;
	}
	if (srv->stopping) {
		log_note(0, "%s again: stopping now", name);
		event_base_loopbreak(srv->base);
		return;
	}
	log_note(0, "%s: shutting down: the games in progress are aborted", name);
	server_stop(srv);
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
		util_event_free(&srv->listeners[i].resume);
	}
	bots_free(srv->bots);
	srv->bots = NULL;
	while (!LIST_EMPTY(&srv->sessions))
		session_drop(srv, LIST_FIRST(&srv->sessions));
	/* The listeners' shared state outlives their sessions (games wait for resumes). */
	for (size_t i = 0; i < srv->nlisteners; i++)
		if (srv->listeners[i].shared)
			srv->listeners[i].front->listener_free(srv->listeners[i].shared);
	free(srv->listeners);
	srv->listeners = NULL;
	/* After the sessions and the listeners' games, which close their live games through it. */
	http_free(srv->http);
	srv->http = NULL;
	while (!LIST_EMPTY(&srv->refused))
		refused_free(LIST_FIRST(&srv->refused));
	util_event_free(&srv->sigint);
	util_event_free(&srv->sigterm);
	util_event_free(&srv->sighup);
	util_event_free(&srv->grace);
	if (srv->base) {
		proc_drain(srv->base, drain_ms(srv->conf));
		event_base_free(srv->base);
	}
	srv->base = NULL;
}

/* The loop, until broken or out of events. With busy_us, it keeps polling for
 * busy_us after any pass in which an event was active (libevent's own included): a
 * client in request-reply then finds this thread awake, where a sleeping one (a
 * halted virtual CPU above all) takes tens of microseconds to wake. It sleeps while
 * idle, and while searches run: a spinning loop would take CPU time from the
 * workers, which run nicer than it. A pass clears libevent's break and exit flags
 * as it starts, so a break must come from a callback, as server_signal's does
 * (other threads activate events). */
static int server_loop(struct event_base *base, unsigned busy_us)
{
	if (!busy_us)
		return event_base_dispatch(base);
	int64_t deadline = 0;
	for (;;) {
		int poll = now_us() < deadline && search_pool_busy() == 0;
		int rc = event_base_loop(base, poll ? EVLOOP_NONBLOCK : EVLOOP_ONCE);
		if (rc != 0 || event_base_got_break(base) || event_base_got_exit(base))
			return rc < 0 ? -1 : 0;
		/* Read and reset at once: an event another thread activates between
		 * passes is counted in the next reading. */
		if (event_base_get_max_events(base, EVENT_BASE_COUNT_ACTIVE, 1) > 0)
			deadline = now_us() + busy_us;
	}
}

int server_run(struct config *c)
{
	struct server srv;
	int rc = -1;

	memset(&srv, 0, sizeof srv);
	srv.conf = c;
	srv.limits.max_line = c->max_line;
	srv.limits.max_buffer = c->max_buffer;
	engine_builtin_configure(c->hash_budget_mb, c->search_threads, c->hash_idle_timeout);

	/* Before the base: the built-in engine hands results over from its threads. */
	if (evthread_use_pthreads() < 0) {
		fprintf(stderr, "hivebridge: libevent has no thread support\n");
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	if (c->log_path && log_open(c->log_path) < 0) {
		fprintf(stderr, "hivebridge serve: log %s: cannot open: %s\n", c->log_path, strerror(errno));
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
	/* Before the first "listening on" line: whoever reads it may signal at once
	 * (SIGHUP's default action would kill the daemon). */
	srv.sigint = evsignal_new(srv.base, SIGINT, server_signal, &srv);
	srv.sigterm = evsignal_new(srv.base, SIGTERM, server_signal, &srv);
	srv.sighup = evsignal_new(srv.base, SIGHUP, server_signal, &srv);
	if (!srv.sigint || !srv.sigterm || !srv.sighup || evsignal_add(srv.sigint, NULL) < 0 ||
	    evsignal_add(srv.sigterm, NULL) < 0 || evsignal_add(srv.sighup, NULL) < 0) {
		fprintf(stderr, "hivebridge: cannot watch signals\n");
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
	if (c->http) {
		char err[256] = "";
		srv.http = http_start(srv.base, c, c->http, err, sizeof err);
		if (!srv.http) {
			fprintf(stderr, "hivebridge: http: %s\n", err[0] ? err : "cannot start");
			goto out;
		}
	}
	if (c->nsites) {
		/* Beside the listeners: [site NAME]'s bots (bridge/bot.h). */
		char err[512] = "";
		if (!(srv.bots = bots_start(srv.base, c, err, sizeof err))) {
			fprintf(stderr, "hivebridge: %s\n", err);
			goto out;
		}
	}

	if (server_loop(srv.base, c->busy_poll_us) < 0) {
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
