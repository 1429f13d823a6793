/*
 * trylobot_back.c: a remote Trylobot AI module as a back end (trylobot_back.h).
 *
 * The job (start, go, options) is the engine interface's. The connection goes DOWN
 * -> CONNECTING -> GREETING -> IDLE, and IDLE -> WAITING -> IDLE for each Choose
 * Turn; every wait runs under a timer.
 *
 * Trylobot pairs answers with requests by order only, so a frame we did not ask for
 * would be taken as the answer to the next request: it breaks the connection like
 * any other fault.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "adapters/trylobot/trylobot_back.h"
#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/log.h"
#include "bridge/util.h"
#include "bridge/version.h"
#include "core/errbuf.h"
#include "core/game.h"

#define TE_READ_CHUNK  4096

enum te_state { TE_DOWN, TE_CONNECTING, TE_GREETING, TE_IDLE, TE_WAITING };

struct trylobot_back {
	struct engine         e;
	unsigned              log_id;
	enum te_state         state;
	struct bufferevent   *bev;          /* the connection, NULL when down */
	struct tb_reader      rd;
	unsigned              seq;          /* for request ids */

	struct tb_replay      rp;           /* go: the game as sent */
	int                   have_rp;
	struct hive_game      last;         /* the game of the previous go (game_id reuse) */
	char                  game_id[8];
	char                  request_id[8];

	struct event         *timer;        /* the current wait */
};

static const struct engine_ops te_ops;

static void te_arm(struct trylobot_back *t, uint64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	evtimer_del(t->timer);
	evtimer_add(t->timer, &tv);
}

static void te_forget_game(struct trylobot_back *t)
{
	if (t->have_rp)
		tb_replay_free(&t->rp);
	t->have_rp = 0;
}

/* The job ends (engine_job_finish): forget its game. */
static void te_ending(struct engine *e)
{
	te_forget_game(e->priv);
}

/* The module broke: drop the connection, fail the job (if any). */
static void te_fail(struct trylobot_back *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void te_fail(struct trylobot_back *t, const char *fmt, ...)
{
	char text[TB_ERR_MAX + 96], why[TB_ERR_MAX + 96];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	/* A module's error is often a multi-line JavaScript trace: one line of it. */
	util_one_line(why, sizeof why, text);
	log_warn(t->log_id, "engine %s failed: %s", t->e.profile->name, why);
	if (t->bev) {
		bufferevent_free(t->bev);
		t->bev = NULL;
	}
	tb_reader_reset(&t->rd);
	t->state = TE_DOWN;
	evtimer_del(t->timer);
	engine_job_finish(&t->e, ENGINE_FAILED, why, NULL);
}

/* Frames msg and sends it; consumes msg. */
static int te_send(struct trylobot_back *t, cJSON *msg)
{
	size_t len;
	char *frame = msg ? tb_frame_build(msg, &len) : NULL;
	cJSON_Delete(msg);
	if (!frame)
		return -1;
	const char *json = strchr(frame, '#');
	json = json ? json + 1 : frame;
	log_proto(t->log_id, LOG_ENGINE_OUT, json, len - (size_t)(json - frame));
	int rc = bufferevent_write(t->bev, frame, len);
	free(frame);
	return rc;
}

/* Five base62 characters, like the core's ids. */
static void te_make_id(struct trylobot_back *t, char *buf)
{
	static const char digits[] =
		"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec * 2654435761u + (uint64_t)ts.tv_sec + ++t->seq * 0x9e3779b9u;
	for (int i = 0; i < 5; i++) {
		buf[i] = digits[x % 62];
		x /= 62;
	}
	buf[5] = 0;
}

static int64_t te_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sends the Choose Turn request of the go job. */
static void te_send_request(struct trylobot_back *t)
{
	const struct engine_profile *p = t->e.profile;
	struct tb_request rq;
	char err[TB_ERR_MAX];

	memset(&rq, 0, sizeof rq);
	rq.type = TB_REQ_CHOOSE_TURN;
	if (tb_replay_state(&t->rp, &rq.state, err, sizeof err) < 0) {
		engine_job_finish(&t->e, ENGINE_ERROR, err, NULL);
		return;
	}
	uint64_t budget = engine_limits_budget(&t->e.job.limits, hive_side_to_move(&t->rp.game.board));
	te_make_id(t, t->request_id);
	rq.request_id = t->request_id;
	rq.game_id = t->game_id;
	rq.request_timestamp = te_now_ms();
	rq.response_deadline = budget ? rq.request_timestamp + (int64_t)budget : 0;
	cJSON *msg = tb_request_json(&rq);
	tb_state_free(&rq.state);     /* the ids are ours, not rq's */
	if (te_send(t, msg) < 0) {
		te_fail(t, "cannot send the Choose Turn request");
		return;
	}
	t->state = TE_WAITING;
	te_arm(t, budget + p->command_timeout_ms);
}

/* A go: prepares the job's game for the request (a game it cannot be sent finishes
 * the job with the reason, delivered as every result is). */
static int te_go(struct engine *e)
{
	struct trylobot_back *t = e->priv;
	const struct hive_game *g = &e->job.game;
	char err[TB_ERR_MAX];

	if (hive_game_over(&g->board)) {
		engine_job_finish(e, ENGINE_ERROR, "The game is over.", NULL);
		return 0;
	}
	if (g->type & ~t->e.profile->expansions) {
		snprintf(err, sizeof err, "engine %s plays %s only (profile key expansions)",
			 t->e.profile->name, hive_gametype_name(t->e.profile->expansions));
		engine_job_finish(e, ENGINE_ERROR, err, NULL);
		return 0;
	}
	if (tb_replay_from_game(&t->rp, g, err, sizeof err) < 0) {
		engine_job_finish(e, ENGINE_ERROR, err, NULL);
		return 0;
	}
	t->have_rp = 1;
	/* A new game gets a new game_id; a continuation keeps it. */
	if (!t->game_id[0] || !hive_game_is_prefix(&t->last, g))
		te_make_id(t, t->game_id);
	hive_game_free(&t->last);
	hive_game_init(&t->last, g->type);
	if (hive_game_copy(&t->last, g) != HIVE_OK)
		hive_game_init(&t->last, g->type);   /* only costs a fresh game_id */
	return 0;
}

static void te_connect(struct trylobot_back *t);

/* Sends the next message of the job, or finishes it. */
static void te_advance(struct engine *e)
{
	struct trylobot_back *t = e->priv;
	char **lines;

	switch (t->state) {
	case TE_DOWN:
		te_connect(t);
		return;
	case TE_CONNECTING:
	case TE_GREETING:
	case TE_WAITING:
		return;
	case TE_IDLE:
		break;
	}
	switch (engine_job_kind(e)) {
	case ENGINE_JOB_START:
		engine_job_finish(e, ENGINE_OK, NULL, NULL);
		return;
	case ENGINE_JOB_OPTIONS:
		/* The protocol has no options: an empty list, and none to get or set. */
		if (e->job.argc) {
			engine_job_unknown_option(e);
			return;
		}
		lines = calloc(1, sizeof *lines);
		engine_job_finish(e, lines ? ENGINE_OK : ENGINE_ERROR, lines ? NULL : "Out of memory.", lines);
		return;
	case ENGINE_JOB_GO:
		te_send_request(t);
		return;
	case ENGINE_JOB_NONE:
		return;
	}
}

static void te_greeted(struct trylobot_back *t, const struct tb_response *rs)
{
	if (rs->type == TB_RESP_ERROR) {
		te_fail(t, "module answered Greetings with an error: %s", rs->error);
		return;
	}
	if (rs->type != TB_RESP_GREETINGS) {
		te_fail(t, "module answered Greetings with something else");
		return;
	}
	if (!rs->active) {
		te_fail(t, "module says it is not active");
		return;
	}
	const char *name = rs->long_name ? rs->long_name : rs->name ? rs->name : "Trylobot module";
	if (rs->version)
		snprintf(t->e.id, sizeof t->e.id, "%s v%s", name, rs->version);
	else
		snprintf(t->e.id, sizeof t->e.id, "%s", name);
	for (char *c = t->e.id; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
			*c = '?';
	evtimer_del(t->timer);
	t->state = TE_IDLE;
	log_note(t->log_id, "engine %s ready: %s", t->e.profile->name, t->e.id);
	engine_kick(&t->e);
}

static void te_answered(struct trylobot_back *t, const struct tb_response *rs)
{
	struct hive_move m;
	char err[TB_ERR_MAX];

	if (rs->type == TB_RESP_ERROR) {
		te_fail(t, "module answered with an error: %s", rs->error);
		return;
	}
	if (rs->type != TB_RESP_TURN) {
		te_fail(t, "module answered Choose Turn with a Greetings answer");
		return;
	}
	/* The turn in core terms, unchecked: the interface checks the move, once. */
	if (tb_replay_turn_candidate(&t->rp, &rs->turn, &m, err, sizeof err) < 0) {
		te_fail(t, "module chose an illegal turn: %s", err);
		return;
	}
	if (engine_job_move(&t->e, &m, NULL, err, sizeof err) < 0) {
		char what[96];
		te_fail(t, "module chose an illegal turn: %s: %s",
			tb_turn_format(&rs->turn, what, sizeof what), err);
		return;
	}
	evtimer_del(t->timer);
	t->state = TE_IDLE;
	engine_job_finish(&t->e, ENGINE_OK, NULL, NULL);
}

/* One complete frame from the module. */
static void te_frame(struct trylobot_back *t, const char *json, size_t len)
{
	struct tb_response rs;
	char err[TB_ERR_MAX];

	log_proto(t->log_id, LOG_ENGINE_IN, json, len);
	if (t->state != TE_GREETING && t->state != TE_WAITING) {
		te_fail(t, "module sent a frame nobody asked for");
		return;
	}
	if (tb_response_parse(json, len, &rs, err, sizeof err) < 0) {
		te_fail(t, "unreadable answer: %s", err);
		return;
	}
	if (t->state == TE_GREETING)
		te_greeted(t, &rs);
	else
		te_answered(t, &rs);
	tb_response_free(&rs);
}

static void te_read_cb(struct bufferevent *bev, void *arg)
{
	struct trylobot_back *t = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	while (t->bev == bev) {
		size_t avail = evbuffer_get_length(in);
		if (!avail)
			return;
		size_t take = avail < TE_READ_CHUNK ? avail : TE_READ_CHUNK, used = 0;
		const unsigned char *p = evbuffer_pullup(in, (ev_ssize_t)take);
		if (!p) {
			te_fail(t, "out of memory");
			return;
		}
		int rc = tb_reader_push(&t->rd, p, take, &used);
		if (rc < 0) {
			char shown[48];
			/* From the offending byte (the last one consumed) on. */
			size_t at = used ? used - 1 : 0, k = take - at < 40 ? take - at : 40;
			snprintf(shown, sizeof shown, "%.*s", (int)k, (const char *)p + at);
			log_proto(t->log_id, LOG_ENGINE_IN, shown, strlen(shown));
			te_fail(t, "garbage from the module: %s", tb_reader_error(&t->rd));
			return;
		}
		evbuffer_drain(in, used);
		if (rc == 1) {
			size_t len;
			const char *frame = tb_reader_frame(&t->rd, &len);
			te_frame(t, frame, len);
		}
	}
}

static void te_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct trylobot_back *t = arg;
	const struct engine_profile *p = t->e.profile;

	if (what & BEV_EVENT_CONNECTED) {
		int one = 1;
		setsockopt(bufferevent_getfd(bev), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		log_note(t->log_id, "engine %s: connected to %s port %u", p->name, p->host, p->port);
		t->state = TE_GREETING;
		te_make_id(t, t->request_id);
		if (te_send(t, tb_greetings_request_json(t->request_id, version_string)) < 0)
			te_fail(t, "cannot send Greetings");
		return;
	}
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
		int err = EVUTIL_SOCKET_ERROR();
		te_read_cb(bev, t);          /* what came before the end still counts */
		if (t->bev != bev)
			return;
		if (t->state == TE_CONNECTING) {
			int dns = bufferevent_socket_get_dns_error(bev);
			te_fail(t, "cannot connect to %s port %u: %s", p->host, p->port,
				dns ? evutil_gai_strerror(dns) : evutil_socket_error_to_string(err));
		} else if (what & BEV_EVENT_EOF) {
			te_fail(t, "module closed the connection%s",
				t->state == TE_WAITING ? " instead of answering" :
				t->state == TE_GREETING ? " instead of answering Greetings" : "");
		} else {
			te_fail(t, "connection error: %s", evutil_socket_error_to_string(err));
		}
	}
}

static void te_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct trylobot_back *t = arg;
	const struct engine_profile *p = t->e.profile;

	switch (t->state) {
	case TE_CONNECTING:
	case TE_GREETING:
		te_fail(t, "no connection and Greetings answer within %u ms", p->start_timeout_ms);
		break;
	case TE_WAITING:
		te_fail(t, t->e.job.stop_requested ? "no answer in time after stop" : "no answer in time");
		break;
	default:
		break;
	}
}

static void te_connect(struct trylobot_back *t)
{
	const struct engine_profile *p = t->e.profile;

	tb_reader_reset(&t->rd);
	t->bev = bufferevent_socket_new(t->e.base, -1, BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS);
	if (!t->bev) {
		te_fail(t, "cannot create a socket");
		return;
	}
	bufferevent_setcb(t->bev, te_read_cb, NULL, te_event_cb, t);
	bufferevent_setwatermark(t->bev, EV_READ, 0, TE_READ_CHUNK * 16);
	bufferevent_enable(t->bev, EV_READ | EV_WRITE);
	t->state = TE_CONNECTING;
	te_arm(t, p->start_timeout_ms);
	log_note(t->log_id, "engine %s: connecting to %s port %u", p->name, p->host, p->port);
	/* No DNS base: a host name is resolved at once (numeric addresses need nothing). */
	if (bufferevent_socket_connect_hostname(t->bev, NULL, AF_UNSPEC, p->host, p->port) < 0 &&
	    t->bev && t->state == TE_CONNECTING)
		te_fail(t, "cannot connect to %s port %u", p->host, p->port);
}

static void te_stop(struct engine *e)
{
	struct trylobot_back *t = e->priv;

	/* A module cannot be interrupted: it gets stop_timeout more to answer. */
	if (t->state == TE_WAITING)
		te_arm(t, e->profile->stop_timeout_ms);
}

static void te_free(struct engine *e)
{
	struct trylobot_back *t = e->priv;

	util_bev_free(&t->bev);
	util_event_free(&t->timer);
	tb_reader_free(&t->rd);
	te_forget_game(t);
	hive_game_free(&t->last);
	engine_release(&t->e);
	free(t);
}

static void te_set_log_id(struct engine *e, unsigned id)
{
	((struct trylobot_back *)e->priv)->log_id = id;
}

/* The UHP capability line of expansion bits: "" for Base only. */
static void te_caps(char *buf, size_t len, unsigned exp)
{
	static const char *const names[] = { "Mosquito", "Ladybug", "Pillbug" };
	size_t n = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < 3; i++)
		if (exp & (1u << i) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ";" : "", names[i]);
}

struct engine *trylobot_back_new(struct event_base *base, const struct engine_profile *p,
				 char *err, size_t errlen)
{
	if (!p->host || !p->port) {
		errbuf_set(err, errlen, "engine %s: kind trylobot needs host and port", p->name);
		return NULL;
	}
	struct trylobot_back *t = calloc(1, sizeof *t);
	if (!t) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	tb_reader_init(&t->rd, 0);
	hive_game_init(&t->last, 0);
	if (engine_init(&t->e, base, p, &te_ops, t, err, errlen) < 0 ||
	    !(t->timer = evtimer_new(base, te_timeout, t))) {
		te_free(&t->e);
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(t->e.id, sizeof t->e.id, "Trylobot module at %s:%u", p->host, p->port);
	/* Only what the profile says the module plays: modules that list the pieces of
	 * an expansion may still fail its games (Base only by default). */
	te_caps(t->e.caps, sizeof t->e.caps, p->expansions);
	t->e.caps_known = 1;
	return &t->e;
}

static const struct engine_ops te_ops = {
	.name = "trylobot",
	.go = te_go,
	.advance = te_advance,
	.ending = te_ending,
	.stop = te_stop,
	.set_log_id = te_set_log_id,
	.free = te_free,
};
