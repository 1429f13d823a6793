/*
 * engine_hub.c: an external Hub engine (docs/hub-hive.md) as a back end of the
 * engine interface.
 *
 * One job at a time (start, go, options). The child is brought up on first use:
 * "hub" until "wait" (collecting id and param lines), one set-param per profile
 * option, "init" until "ready". A go sends pos and level followed by a ping: an
 * error before the pong means the engine refused them (ENGINE_ERROR, still usable);
 * then "go" until "done". Results and info are delivered from deferred events,
 * never from inside an engine_* call or a bufferevent callback, so a callback may
 * free the engine or start the next job.
 *
 * Every wait has a timer. Any breakage (exit, EOF, time-out, unreadable or
 * over-long line, illegal move) kills the child and leaves the back end down; the
 * next job spawns a fresh one.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "adapters/hub/hub_codec.h"
#include "adapters/uhp/uhp_codec.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_hub.h"
#include "bridge/log.h"
#include "bridge/proc.h"
#include "core/game.h"

/* After EOF on its stdout, how long to wait for the child's exit status. */
#define HE_EOF_GRACE_MS 200
/* go without any limit the caller set. */
#define HE_DEFAULT_MOVETIME_MS 5000
#define HE_MAX_PARAMS 64

enum he_state {
	HE_DOWN,        /* no child */
	HE_HELLO,       /* "hub" sent, waiting for "wait" */
	HE_INIT,        /* "init" sent, waiting for "ready" */
	HE_IDLE         /* ready */
};

enum he_job { HE_JOB_NONE, HE_JOB_START, HE_JOB_GO, HE_JOB_OPTIONS };

enum he_wait {
	HE_W_NONE,
	HE_W_WAIT,      /* "wait" */
	HE_W_READY,     /* "ready" */
	HE_W_SETUP,     /* "pong" after pos + level */
	HE_W_DONE,      /* "done" */
	HE_W_SETPARAM   /* "pong" after set-param */
};

/* One declared parameter, as the engine wrote it. */
struct he_param {
	char *name, *value, *def, *type, *min, *max, *values;
};

struct he {
	struct engine         e;
	struct proc          *proc;
	enum he_state         state;
	unsigned              log_id;
	int                   io_eof;
	struct he_param       params[HE_MAX_PARAMS];
	size_t                nparams;

	/* The job. */
	enum he_job           job;
	engine_done_cb       *done;
	engine_info_cb       *info;
	void                 *arg;
	struct hive_game      want;          /* go: the game to search */
	struct engine_limits  limits;
	int                   stop_requested;
	int                   stop_sent;
	int                   opt_argc;      /* options: the request */
	char                 *opt_name, *opt_value;

	enum he_wait          wait;
	char                 *errmsg;        /* first error line of the wait */

	/* Latest info, delivered by info_ev. */
	struct hive_search_info last_info;
	int                   info_ready;

	/* The finished job's result, delivered by the kick event. */
	int                   result_ready;
	engine_done_cb       *res_done;
	engine_info_cb       *res_info;      /* info to deliver before the result */
	void                 *res_arg;
	struct engine_result  res;
	char                 *res_message;
	char                **res_lines;

	struct event         *timer;
	struct event         *kick;
	struct event         *info_ev;
};

static const struct engine_ops he_ops;
static void he_wire(struct he *h);

static char *he_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *he_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static void lines_free(char **lines)
{
	if (!lines)
		return;
	for (char **l = lines; *l; l++)
		free(*l);
	free(lines);
}

static void params_clear(struct he *h)
{
	for (size_t i = 0; i < h->nparams; i++) {
		struct he_param *p = &h->params[i];
		free(p->name);
		free(p->value);
		free(p->def);
		free(p->type);
		free(p->min);
		free(p->max);
		free(p->values);
	}
	memset(h->params, 0, sizeof h->params);
	h->nparams = 0;
}

static struct he_param *param_find(struct he *h, const char *name)
{
	for (size_t i = 0; i < h->nparams; i++)
		if (!strcmp(h->params[i].name, name))
			return &h->params[i];
	return NULL;
}

static void he_kick(struct he *h)
{
	event_active(h->kick, EV_TIMEOUT, 1);
}

static void he_arm(struct he *h, uint64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	evtimer_del(h->timer);
	if (ms)
		evtimer_add(h->timer, &tv);
}

/* Ends the job with a result; the kick event delivers it. Takes lines. */
static void he_finish(struct he *h, enum engine_status st, const char *msg,
		      const struct hive_move *move, char **lines)
{
	free(h->res_message);
	lines_free(h->res_lines);
	memset(&h->res, 0, sizeof h->res);
	h->res.status = st;
	h->res_message = msg ? strdup(msg) : NULL;
	/* Messages quote the engine: keep them one printable line for any protocol. */
	for (char *c = h->res_message; c && *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
			*c = '?';
	h->res.message = h->res_message;
	if (move)
		h->res.move = *move;
	h->res_lines = lines;
	h->res.lines = (const char **)lines;
	h->res_done = h->done;
	h->res_info = NULL;
	h->res_arg = h->arg;
	h->result_ready = 1;

	h->job = HE_JOB_NONE;
	h->done = NULL;
	h->info = NULL;
	h->arg = NULL;
	h->info_ready = 0;
	h->wait = HE_W_NONE;
	h->stop_requested = 0;
	h->stop_sent = 0;
	free(h->errmsg);
	h->errmsg = NULL;
	free(h->opt_name);
	free(h->opt_value);
	h->opt_name = h->opt_value = NULL;
	evtimer_del(h->timer);
	he_kick(h);
}

/* The engine broke: kill it, fail the job (if any). */
static void he_fail(struct he *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void he_fail(struct he *h, const char *fmt, ...)
{
	va_list ap;
	char *why;
	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	log_note(h->log_id, "engine %s failed: %s", h->e.profile->name, why ? why : "?");
	if (h->proc) {
		proc_free(h->proc);     /* SIGKILL; the registry reaps it */
		h->proc = NULL;
	}
	h->state = HE_DOWN;
	h->io_eof = 0;
	h->wait = HE_W_NONE;
	evtimer_del(h->timer);
	if (h->job != HE_JOB_NONE)
		he_finish(h, ENGINE_FAILED, why ? why : "engine failed", NULL, NULL);
	free(why);
}

/* Sends one line (built by a hub_writer or literal) to the engine. */
static int he_send(struct he *h, const char *line)
{
	size_t len = strlen(line);
	struct evbuffer *out = bufferevent_get_output(proc_stdio(h->proc));

	log_proto(h->log_id, LOG_ENGINE_OUT, line, len);
	if (evbuffer_add(out, line, len) < 0 || evbuffer_add(out, "\n", 1) < 0) {
		he_fail(h, "cannot write to the engine");
		return -1;
	}
	return 0;
}

static int he_send_writer(struct he *h, struct hub_writer *w)
{
	if (hub_writer_end(w) < 0) {
		he_fail(h, "cannot write a '%.16s' line: %s", w->buf, w->error);
		return -1;
	}
	return he_send(h, w->buf);
}

static void he_expect(struct he *h, enum he_wait w, uint64_t ms)
{
	h->wait = w;
	free(h->errmsg);
	h->errmsg = NULL;
	he_arm(h, ms);
}

static void he_spawn(struct he *h)
{
	const struct engine_profile *p = h->e.profile;
	char *cause = NULL;

	h->proc = proc_spawn(h->e.base, p->argv, p->workdir, &cause);
	if (!h->proc) {
		he_fail(h, "cannot start: %s", cause ? cause : "?");
		free(cause);
		return;
	}
	h->state = HE_HELLO;
	h->io_eof = 0;
	params_clear(h);
	log_note(h->log_id, "engine %s started: pid %ld", p->name, (long)proc_pid(h->proc));
	he_wire(h);
	if (he_send(h, "hub") == 0)
		he_expect(h, HE_W_WAIT, p->start_timeout_ms);
}

/* Records a value we set (the engine says nothing when it accepts one). */
static void param_set_value(struct he *h, const char *name, const char *value)
{
	struct he_param *p = param_find(h, name);
	char *v = strdup(value);

	if (p && v) {
		free(p->value);
		p->value = v;
	} else {
		free(v);
	}
}

/* After "wait": the profile's options and hash as set-param, then init. */
static void he_configure(struct he *h)
{
	const struct engine_profile *p = h->e.profile;
	struct hub_writer w;
	char line[4096];

	for (size_t i = 0; i < p->noptions; i++) {
		if (!param_find(h, p->options[i][0]))
			log_note(h->log_id, "engine %s declares no parameter %s; set anyway",
				 p->name, p->options[i][0]);
		hub_writer_begin(&w, line, sizeof line, "set-param");
		hub_writer_add(&w, "name", p->options[i][0]);
		hub_writer_add(&w, "value", p->options[i][1]);
		if (he_send_writer(h, &w) < 0)
			return;
		param_set_value(h, p->options[i][0], p->options[i][1]);
	}
	if (p->hash_mb && param_find(h, "hash")) {
		hub_writer_begin(&w, line, sizeof line, "set-param");
		hub_writer_add(&w, "name", "hash");
		hub_writer_addf(&w, "value", "%zu", p->hash_mb);
		if (he_send_writer(h, &w) < 0)
			return;
		char hv[32];
		snprintf(hv, sizeof hv, "%zu", p->hash_mb);
		param_set_value(h, "hash", hv);
	}
	h->state = HE_INIT;
	if (he_send(h, "init") == 0)
		he_expect(h, HE_W_READY, p->start_timeout_ms);
}

/* The level for the job's limits; *budget_ms gets the time it may take (0: none). */
static void he_level(const struct he *h, struct hub_level *lv, uint64_t *budget_ms)
{
	const struct engine_limits *l = &h->limits;
	int side = hive_side_to_move(&h->want.board);

	memset(lv, 0, sizeof *lv);
	*budget_ms = 0;
	if (l->infinite) {
		lv->infinite = 1;
		return;
	}
	lv->depth = l->depth > 0 ? l->depth : 0;
	lv->nodes = l->nodes;
	if (l->movetime_ms) {
		lv->has_move_time = 1;
		lv->move_time_ms = l->movetime_ms;
		*budget_ms = l->movetime_ms;
	}
	if (l->time_ms[side]) {
		lv->has_time = 1;
		lv->time_ms = l->time_ms[side];
		lv->inc_ms = l->inc_ms[side];
		lv->moves = l->moves_to_go > 0 ? l->moves_to_go : 0;
		if (lv->time_ms + lv->inc_ms > *budget_ms)
			*budget_ms = lv->time_ms + lv->inc_ms;
	}
	if (!lv->depth && !lv->nodes && !lv->has_move_time && !lv->has_time) {
		lv->has_move_time = 1;
		lv->move_time_ms = HE_DEFAULT_MOVETIME_MS;
		*budget_ms = HE_DEFAULT_MOVETIME_MS;
	}
}

/* go, part 1: the position and the limits, then a ping to learn whether they were
 * accepted. */
static void he_send_setup(struct he *h)
{
	const struct engine_profile *p = h->e.profile;
	struct hub_writer w;
	struct hub_level lv;
	uint64_t budget;
	const char *why;
	char line[512];

	size_t n = hive_game_format(&h->want, NULL, 0);
	char *gs = malloc(n + 1), *buf = malloc(2 * n + 64);
	if (!gs || !buf) {
		free(gs);
		free(buf);
		he_fail(h, "out of memory");
		return;
	}
	hive_game_format(&h->want, gs, n + 1);
	hub_writer_begin(&w, buf, 2 * n + 64, "pos");
	hub_writer_add(&w, "pos", gs);
	int rc = he_send_writer(h, &w);
	free(gs);
	free(buf);
	if (rc < 0)
		return;
	he_level(h, &lv, &budget);
	if (hub_level_write(line, sizeof line, &lv, &why) < 0) {
		he_fail(h, "cannot write level: %s", why);
		return;
	}
	if (he_send(h, line) < 0 || he_send(h, "ping") < 0)
		return;
	he_expect(h, HE_W_SETUP, p->command_timeout_ms);
}

/* go, part 2: the search itself. */
static void he_send_go(struct he *h)
{
	const struct engine_profile *p = h->e.profile;
	struct hub_level lv;
	uint64_t budget;

	he_level(h, &lv, &budget);
	if (he_send(h, lv.infinite ? "go analyze" : "go think") < 0)
		return;
	he_expect(h, HE_W_DONE, lv.infinite ? 0 : budget + p->command_timeout_ms);
	if (h->stop_requested) {
		/* Stopped before it began: ask for the move at once. */
		if (he_send(h, "stop") < 0)
			return;
		h->stop_sent = 1;
		he_arm(h, p->stop_timeout_ms);
	}
}

/* The declared parameters as UHP option lines (string parameters have no UHP
 * type and are left out). name NULL: all of them. */
static char **he_option_lines(struct he *h, const char *name)
{
	char **lines = calloc(h->nparams + 1, sizeof *lines);
	size_t n = 0;

	if (!lines)
		return NULL;
	for (size_t i = 0; i < h->nparams; i++) {
		const struct he_param *p = &h->params[i];
		struct uhp_option o;
		char buf[4096];

		if (name && strcasecmp(p->name, name))
			continue;
		if (strchr(p->name, ';') || strlen(p->name) >= sizeof o.name)
			continue;
		memset(&o, 0, sizeof o);
		snprintf(o.name, sizeof o.name, "%s", p->name);
		if (!strcmp(p->type, "bool")) {
			o.type = UHP_OPT_BOOL;
			snprintf(o.value, sizeof o.value, "%s", strcasecmp(p->value, "true") ? "False" : "True");
			snprintf(o.def, sizeof o.def, "%s", strcasecmp(p->def, "true") ? "False" : "True");
		} else if (!strcmp(p->type, "int") || !strcmp(p->type, "real")) {
			o.type = p->type[0] == 'i' ? UHP_OPT_INT : UHP_OPT_DOUBLE;
			snprintf(o.value, sizeof o.value, "%s", p->value);
			snprintf(o.def, sizeof o.def, "%s", p->def);
			snprintf(o.min, sizeof o.min, "%s", p->min ? p->min : "");
			snprintf(o.max, sizeof o.max, "%s", p->max ? p->max : "");
		} else if (!strcmp(p->type, "enum") && p->values) {
			o.type = UHP_OPT_ENUM;
			snprintf(o.value, sizeof o.value, "%s", p->value);
			snprintf(o.def, sizeof o.def, "%s", p->def);
			char *copy = strdup(p->values), *save = NULL;
			for (char *t = copy ? strtok_r(copy, " ", &save) : NULL;
			     t && o.nvalues < UHP_OPT_MAX_VALUES; t = strtok_r(NULL, " ", &save))
				snprintf(o.values[o.nvalues++], sizeof o.values[0], "%s", t);
			free(copy);
		} else {
			continue;
		}
		if (strchr(o.value, ';') || uhp_option_format(&o, buf, sizeof buf) >= sizeof buf)
			continue;
		if (!(lines[n] = strdup(buf))) {
			lines_free(lines);
			return NULL;
		}
		n++;
	}
	return lines;
}

/* Sends the next command of the job, or finishes it. */
static void he_advance(struct he *h)
{
	const struct engine_profile *p = h->e.profile;
	struct hub_writer w;
	char line[4096];

	if (h->job == HE_JOB_NONE || h->wait != HE_W_NONE || h->io_eof)
		return;
	if (h->state == HE_DOWN) {
		he_spawn(h);
		return;
	}
	if (h->state != HE_IDLE)
		return;
	switch (h->job) {
	case HE_JOB_START:
		he_finish(h, ENGINE_OK, NULL, NULL, NULL);
		return;
	case HE_JOB_GO:
		he_send_setup(h);
		return;
	case HE_JOB_OPTIONS:
		if (h->opt_argc == 3) {
			if (!param_find(h, h->opt_name)) {
				char *msg = he_printf("The option \"%s\" is not valid.", h->opt_name);
				he_finish(h, ENGINE_ERROR, msg, NULL, NULL);
				free(msg);
				return;
			}
			hub_writer_begin(&w, line, sizeof line, "set-param");
			hub_writer_add(&w, "name", param_find(h, h->opt_name)->name);
			hub_writer_add(&w, "value", h->opt_value);
			if (he_send_writer(h, &w) < 0 || he_send(h, "ping") < 0)
				return;
			he_expect(h, HE_W_SETPARAM, p->command_timeout_ms);
			return;
		}
		char **lines = he_option_lines(h, h->opt_argc == 2 ? h->opt_name : NULL);
		if (!lines) {
			he_finish(h, ENGINE_ERROR, "Out of memory.", NULL, NULL);
		} else if (h->opt_argc == 2 && !lines[0]) {
			char *msg = he_printf("The option \"%s\" is not valid.", h->opt_name);
			lines_free(lines);
			he_finish(h, ENGINE_ERROR, msg, NULL, NULL);
			free(msg);
		} else {
			he_finish(h, ENGINE_OK, NULL, NULL, lines);
		}
		return;
	case HE_JOB_NONE:
		return;
	}
}

static void he_kick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct he *h = arg;

	if (h->result_ready) {
		h->result_ready = 0;
		engine_done_cb *done = h->res_done;
		void *darg = h->res_arg;
		h->res_done = NULL;
		if (h->res_info) {
			engine_info_cb *info = h->res_info;
			h->res_info = NULL;
			info(darg, &h->last_info);     /* must not free the engine */
		}
		/* Last thing: the callback may free the engine or start a job. */
		if (done)
			done(darg, &h->res);
		return;
	}
	he_advance(h);
}

static void he_info_cb(evutil_socket_t fd, short what, void *arg)
{
	struct he *h = arg;

	if (!h->info_ready || h->job != HE_JOB_GO || !h->info)
		return;
	h->info_ready = 0;
	h->info(h->arg, &h->last_info);
}

static char *dup_arg(const struct hub_msg *m, const char *name)
{
	const char *v = hub_msg_get(m, name);
	return v ? strdup(v) : NULL;
}

static void he_on_param(struct he *h, const struct hub_msg *m)
{
	const char *name = hub_msg_get(m, "name"), *value = hub_msg_get(m, "value");
	const char *type = hub_msg_get(m, "type");

	if (!name || !*name || !value || h->nparams == HE_MAX_PARAMS || param_find(h, name)) {
		log_note(h->log_id, "engine %s: param line ignored", h->e.profile->name);
		return;
	}
	struct he_param *p = &h->params[h->nparams++];
	p->name = strdup(name);
	p->value = strdup(value);
	p->def = strdup(value);
	p->type = strdup(type ? type : "string");
	p->min = dup_arg(m, "min");
	p->max = dup_arg(m, "max");
	p->values = dup_arg(m, "values");
	if (!p->name || !p->value || !p->def || !p->type)
		he_fail(h, "out of memory");
}

/* The engine's capabilities from its variant parameter (all of them without one). */
static void he_caps(struct he *h)
{
	struct he_param *v = param_find(h, "variant");
	unsigned exp = 0;

	if (!v || !v->values) {
		exp = HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P;
	} else {
		char *copy = strdup(v->values), *save = NULL;
		for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; t; t = strtok_r(NULL, " ", &save)) {
			unsigned type;
			if (hive_gametype_parse(t, &type) == 0)
				exp |= type;
		}
		free(copy);
	}
	snprintf(h->e.caps, sizeof h->e.caps, "%s%s%s%s", exp & HIVE_EXP_M ? "Mosquito" : "",
		 (exp & HIVE_EXP_M) && (exp & (HIVE_EXP_L | HIVE_EXP_P)) ? ";" : "",
		 exp & HIVE_EXP_L ? (exp & HIVE_EXP_P ? "Ladybug;" : "Ladybug") : "",
		 exp & HIVE_EXP_P ? "Pillbug" : "");
}

static void he_on_info(struct he *h, const struct hub_msg *m)
{
	struct hub_info in;
	const char *pv, *item;
	char err[256], mv[64];
	size_t len;
	struct hive_board b = h->want.board;
	struct hive_search_info *si = &h->last_info;

	if (hub_info_parse(m, &in, &pv, err, sizeof err) < 0) {
		log_note(h->log_id, "engine %s: info ignored: %s", h->e.profile->name, err);
		return;
	}
	memset(si, 0, sizeof *si);
	si->depth = in.depth;
	si->score = in.has_score ? in.score_cp : 0;
	si->nodes = in.nodes;
	while (pv && si->pvlen < HIVE_MAX_PLY && hub_list_next(&pv, &item, &len)) {
		struct hive_move mo;
		struct hive_undo u;
		if (len >= sizeof mv)
			break;
		memcpy(mv, item, len);
		mv[len] = 0;
		if (hive_move_parse(&b, mv, &mo, err, sizeof err) != HIVE_OK)
			break;        /* the rest of the PV is not trustworthy */
		si->pv[si->pvlen++] = mo;
		hive_board_do(&b, mo, &u);
	}
	h->info_ready = 1;
	event_active(h->info_ev, EV_TIMEOUT, 1);
}

static void he_on_done(struct he *h, const struct hub_msg *m)
{
	const char *move = hub_msg_get(m, "move");
	struct hive_move mo;
	char err[256], shown[80];

	if (!move || !*move) {
		he_fail(h, "done without a move");
		return;
	}
	int rc = hive_move_parse(&h->want.board, move, &mo, err, sizeof err);
	if (rc != HIVE_OK) {
		snprintf(shown, sizeof shown, "%s", move);
		he_fail(h, "%s move \"%s\": %s", rc == HIVE_ERR_SYNTAX ? "unreadable" : "illegal",
			shown, err);
		return;
	}
	/* Info still pending describes this search: the kick hands it over first. */
	engine_info_cb *info = h->info_ready ? h->info : NULL;
	he_finish(h, ENGINE_OK, NULL, &mo, NULL);
	h->res_info = info;
}

/* One line from the engine's stdout (without its newline). */
static void he_line(struct he *h, const char *line, size_t len)
{
	struct hub_msg m;
	char err[256];
	const struct engine_profile *p = h->e.profile;

	log_proto(h->log_id, LOG_ENGINE_IN, line, len);
	if (hub_line_parse_max(line, len, ENGINE_HUB_MAX_LINE, &m, err, sizeof err) < 0) {
		hub_msg_free(&m);
		he_fail(h, "unreadable line: %s", err);
		return;
	}
	const char *cmd = m.cmd;
	if (!strcmp(cmd, "error")) {
		const char *msg = hub_msg_get(&m, "message");
		log_note(h->log_id, "engine %s: error: %s", p->name, msg ? msg : "");
		if (!h->errmsg)
			h->errmsg = strdup(msg && *msg ? msg : "the engine refused a command");
	} else if (!strcmp(cmd, "id")) {
		const char *name = hub_msg_get(&m, "name"), *version = hub_msg_get(&m, "version");
		if (name)
			snprintf(h->e.id, sizeof h->e.id, "%s%s%s", name, version ? " " : "",
				 version ? version : "");
	} else if (!strcmp(cmd, "param")) {
		if (h->wait == HE_W_WAIT)
			he_on_param(h, &m);
	} else if (!strcmp(cmd, "wait")) {
		if (h->wait == HE_W_WAIT) {
			h->wait = HE_W_NONE;
			if (!h->e.id[0])
				snprintf(h->e.id, sizeof h->e.id, "%s", p->argv[0]);
			he_caps(h);
			he_configure(h);
		}
	} else if (!strcmp(cmd, "ready")) {
		if (h->wait == HE_W_READY) {
			h->wait = HE_W_NONE;
			evtimer_del(h->timer);
			h->state = HE_IDLE;
			he_kick(h);
		}
	} else if (!strcmp(cmd, "pong")) {
		if (h->wait == HE_W_SETUP) {
			if (h->errmsg) {
				char *msg = he_printf("the engine refused the position or level: %s",
						      h->errmsg);
				he_finish(h, ENGINE_ERROR, msg, NULL, NULL);
				free(msg);
			} else {
				h->wait = HE_W_NONE;
				he_send_go(h);
			}
		} else if (h->wait == HE_W_SETPARAM) {
			if (h->errmsg) {
				char *msg = he_printf("%s", h->errmsg);
				he_finish(h, ENGINE_ERROR, msg, NULL, NULL);
				free(msg);
			} else {
				param_set_value(h, h->opt_name, h->opt_value);
				char **lines = he_option_lines(h, h->opt_name);
				he_finish(h, ENGINE_OK, NULL, NULL, lines);
			}
		}
	} else if (!strcmp(cmd, "info")) {
		if (h->wait == HE_W_DONE)
			he_on_info(h, &m);
	} else if (!strcmp(cmd, "done")) {
		if (h->wait == HE_W_DONE)
			he_on_done(h, &m);
		else
			log_note(h->log_id, "engine %s: done out of turn ignored", p->name);
	}
	/* Anything else is a command we do not know: ignored, as Hub wants. */
	hub_msg_free(&m);
}

/* Reads whole lines from the engine's stdout; fails on an over-long one. */
static void he_read_lines(struct he *h)
{
	struct evbuffer *in = bufferevent_get_input(proc_stdio(h->proc));

	for (;;) {
		size_t eol_len;
		struct evbuffer_ptr eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);
		if (eol.pos < 0) {
			if (evbuffer_get_length(in) > ENGINE_HUB_MAX_LINE)
				he_fail(h, "line longer than %d bytes", ENGINE_HUB_MAX_LINE);
			return;
		}
		if ((size_t)eol.pos > ENGINE_HUB_MAX_LINE + 1) {
			he_fail(h, "line longer than %d bytes", ENGINE_HUB_MAX_LINE);
			return;
		}
		size_t len = (size_t)eol.pos;
		const char *line = (const char *)evbuffer_pullup(in, (ev_ssize_t)(len + eol_len));
		if (!line) {
			he_fail(h, "out of memory");
			return;
		}
		size_t show = len && line[len - 1] == '\r' ? len - 1 : len;
		he_line(h, line, show);
		if (!h->proc)
			return;        /* failed: the buffer is gone with the child */
		evbuffer_drain(in, len + eol_len);
	}
}

static void he_read_cb(struct bufferevent *bev, void *arg)
{
	he_read_lines(arg);
}

static const char *he_status_text(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended (status 0x%x)", status);
	return buf;
}

static void he_down(struct he *h, const char *what)
{
	if (h->job == HE_JOB_NONE)
		log_note(h->log_id, "engine %s %s while idle; it restarts on next use",
			 h->e.profile->name, what);
	he_fail(h, "%s%s", what, h->state == HE_HELLO || h->state == HE_INIT ? " during start" : "");
}

static void he_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct he *h = arg;
	const struct engine_profile *p = h->e.profile;

	if (h->io_eof) {
		he_down(h, "closed its output");
		return;
	}
	switch (h->wait) {
	case HE_W_WAIT:
		he_fail(h, "no \"wait\" within %u ms of \"hub\"", p->start_timeout_ms);
		break;
	case HE_W_READY:
		he_fail(h, "no \"ready\" within %u ms of \"init\"", p->start_timeout_ms);
		break;
	case HE_W_DONE:
		if (h->stop_sent)
			he_fail(h, "no \"done\" within %u ms of \"stop\"", p->stop_timeout_ms);
		else
			he_fail(h, "no \"done\" in time");
		break;
	default:
		he_fail(h, "no \"pong\" in time");
		break;
	}
}

static void he_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct he *h = arg;
	int status;
	char buf[96];

	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	he_read_lines(h);          /* what came before the end still counts */
	if (!h->proc)
		return;
	h->io_eof = 1;
	bufferevent_disable(bev, EV_READ);
	if (proc_exited(h->proc, &status)) {
		he_down(h, he_status_text(status, buf, sizeof buf));
		return;
	}
	/* Most likely it is dying: wait a moment for its exit status, which says more. */
	he_arm(h, HE_EOF_GRACE_MS);
}

static void he_exit_cb(void *arg, int status)
{
	struct he *h = arg;
	struct bufferevent *io = proc_stdio(h->proc);
	char buf[96];

	/* Its last words are in the socket already: read them before judging. */
	if (!h->io_eof) {
		evutil_socket_t fd = bufferevent_getfd(io);
		struct evbuffer *in = bufferevent_get_input(io);
		while (evbuffer_read(in, fd, 65536) > 0 &&
		       evbuffer_get_length(in) <= ENGINE_HUB_MAX_LINE + 65536)
			;
		he_read_lines(h);
		if (!h->proc)
			return;
	}
	he_down(h, he_status_text(status, buf, sizeof buf));
}

/* stderr: logged line by line, never judged. */
static void he_err_cb(struct bufferevent *bev, void *arg)
{
	struct he *h = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char *line;
	size_t len;

	while ((line = evbuffer_readln(in, &len, EVBUFFER_EOL_CRLF)) != NULL) {
		log_proto(h->log_id, LOG_ENGINE_ERR, line, len);
		free(line);
	}
	if (evbuffer_get_length(in) > ENGINE_HUB_MAX_LINE) {
		len = evbuffer_get_length(in);
		log_proto(h->log_id, LOG_ENGINE_ERR, (const char *)evbuffer_pullup(in, -1), len);
		evbuffer_drain(in, len);
	}
}

static void he_err_event_cb(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		bufferevent_disable(bev, EV_READ);
}

static void he_wire(struct he *h)
{
	bufferevent_setcb(proc_stdio(h->proc), he_read_cb, NULL, he_event_cb, h);
	bufferevent_enable(proc_stdio(h->proc), EV_READ | EV_WRITE);
	bufferevent_setcb(proc_stderr(h->proc), he_err_cb, NULL, he_err_event_cb, h);
	bufferevent_enable(proc_stderr(h->proc), EV_READ);
	proc_set_exit_cb(h->proc, he_exit_cb, h);
}

static int he_begin(struct he *h, enum he_job job, engine_done_cb *done, void *arg)
{
	if (h->job != HE_JOB_NONE || h->result_ready)
		return -1;     /* one command at a time */
	h->job = job;
	h->done = done;
	h->arg = arg;
	h->stop_requested = 0;
	h->stop_sent = 0;
	he_kick(h);
	return 0;
}

static int he_start(struct engine *e, engine_done_cb *done, void *arg)
{
	return he_begin(e->priv, HE_JOB_START, done, arg);
}

static int he_go(struct engine *e, const struct hive_game *g, const struct engine_limits *l,
		 engine_info_cb *info, engine_done_cb *done, void *arg)
{
	struct he *h = e->priv;

	if (h->job != HE_JOB_NONE || h->result_ready)
		return -1;
	hive_game_free(&h->want);
	hive_game_init(&h->want, g->type);
	if (hive_game_copy(&h->want, g) != HIVE_OK)
		return -1;
	h->limits = *l;
	h->info = info;
	h->info_ready = 0;
	return he_begin(h, HE_JOB_GO, done, arg);
}

static void he_stop(struct engine *e)
{
	struct he *h = e->priv;

	if (h->job != HE_JOB_GO || h->stop_requested)
		return;
	h->stop_requested = 1;
	if (h->wait == HE_W_DONE && h->proc) {
		if (he_send(h, "stop") < 0)
			return;
		h->stop_sent = 1;
		he_arm(h, e->profile->stop_timeout_ms);
	}
	/* Before go is sent, he_send_go follows it with stop at once. */
}

static int he_options(struct engine *e, int argc, const char **argv, engine_done_cb *done, void *arg)
{
	struct he *h = e->priv;

	if (h->job != HE_JOB_NONE || h->result_ready)
		return -1;
	if (!(argc == 0 || (argc == 2 && !strcmp(argv[0], "get")) ||
	      (argc == 3 && !strcmp(argv[0], "set"))))
		return -1;
	free(h->opt_name);
	free(h->opt_value);
	h->opt_name = argc >= 2 ? strdup(argv[1]) : NULL;
	h->opt_value = argc == 3 ? strdup(argv[2]) : NULL;
	if ((argc >= 2 && !h->opt_name) || (argc == 3 && !h->opt_value))
		return -1;
	h->opt_argc = argc;
	return he_begin(h, HE_JOB_OPTIONS, done, arg);
}

static void he_free(struct engine *e)
{
	struct he *h = e->priv;

	if (h->proc) {
		/* Polite first; the registry escalates and reaps after we are gone. */
		proc_close(h->proc, "quit\n", e->profile->stop_timeout_ms);
		log_proto(h->log_id, LOG_ENGINE_OUT, "quit", 4);
		h->proc = NULL;
	}
	event_free(h->timer);
	event_free(h->kick);
	event_free(h->info_ev);
	params_clear(h);
	free(h->errmsg);
	free(h->opt_name);
	free(h->opt_value);
	free(h->res_message);
	lines_free(h->res_lines);
	hive_game_free(&h->want);
	free(h);
}

void engine_hub_set_log_id(struct engine *e, unsigned id)
{
	((struct he *)e->priv)->log_id = id;
}

struct engine *engine_hub_new(struct event_base *base, const struct engine_profile *p, char **cause)
{
	if (!p->argv || !p->argv[0]) {
		*cause = he_printf("engine %s: no command", p->name);
		return NULL;
	}
	struct he *h = calloc(1, sizeof *h);
	if (!h) {
		*cause = he_printf("out of memory");
		return NULL;
	}
	h->e.ops = &he_ops;
	h->e.base = base;
	h->e.profile = p;
	h->e.priv = h;
	hive_game_init(&h->want, 0);
	h->timer = evtimer_new(base, he_timeout, h);
	h->kick = event_new(base, -1, 0, he_kick_cb, h);
	h->info_ev = event_new(base, -1, 0, he_info_cb, h);
	if (!h->timer || !h->kick || !h->info_ev) {
		if (h->timer)
			event_free(h->timer);
		if (h->kick)
			event_free(h->kick);
		if (h->info_ev)
			event_free(h->info_ev);
		hive_game_free(&h->want);
		free(h);
		*cause = he_printf("out of memory");
		return NULL;
	}
	return &h->e;
}

static const struct engine_ops he_ops = {
	.name = "hub",
	.start = he_start,
	.go = he_go,
	.stop = he_stop,
	.options = he_options,
	.free = he_free,
};
