/*
 * hub_back.c: an external Hub engine (docs/hub-hive.md) as a back end of the
 * engine interface.
 * (Over 800 lines: the whole Hub dialogue, hello/init, the parameter table and
 * go/stop, is one state machine and reads best in one place.)
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/event.h>

#include "adapters/hub/hub_back.h"
#include "adapters/hub/hub_codec.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_child.h"
#include "bridge/engine_options.h"
#include "bridge/log.h"
#include "bridge/util.h"
#include "core/game.h"

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

struct hub_back {
	struct engine         e;
	struct engine_child  *child;
	enum he_state         state;
	unsigned              log_id;
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

	struct engine_reply   reply;         /* the finished job's, delivered by kick */
	engine_info_cb       *res_info;      /* info to deliver before the reply */

	struct event         *kick;
	struct event         *info_ev;
};

static const struct engine_ops he_ops;

static void params_clear(struct hub_back *h)
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

static struct he_param *param_find(struct hub_back *h, const char *name)
{
	for (size_t i = 0; i < h->nparams; i++)
		if (!strcmp(h->params[i].name, name))
			return &h->params[i];
	return NULL;
}

static void he_kick(struct hub_back *h)
{
	event_active(h->kick, EV_TIMEOUT, 1);
}

/* Ends the job with a result; the kick event delivers it. Takes lines. */
static void he_finish(struct hub_back *h, enum engine_status st, const char *msg,
		      const struct hive_move *move, char **lines)
{
	engine_reply_set(&h->reply, h->done, h->arg, st, msg, move, lines);
	h->res_info = NULL;

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
	engine_child_disarm(h->child);
	he_kick(h);
}

/* The child has been killed (engine_child_fail): fail the job (if any). */
static void he_failed(void *arg, const char *why)
{
	struct hub_back *h = arg;

	h->state = HE_DOWN;
	h->wait = HE_W_NONE;
	if (h->job != HE_JOB_NONE)
		he_finish(h, ENGINE_FAILED, why, NULL, NULL);
}

static int he_send_writer(struct hub_back *h, struct hub_writer *w)
{
	if (hub_writer_end(w) < 0) {
		engine_child_fail(h->child, "cannot write a '%.16s' line: %s", w->buf, w->error);
		return -1;
	}
	return engine_child_send(h->child, w->buf);
}

static void he_expect(struct hub_back *h, enum he_wait w, uint64_t ms)
{
	h->wait = w;
	free(h->errmsg);
	h->errmsg = NULL;
	engine_child_arm(h->child, ms);
}

static void he_spawn(struct hub_back *h)
{
	const struct engine_profile *p = h->e.profile;

	if (engine_child_spawn(h->child, p->argv, p->workdir) < 0)
		return;
	h->state = HE_HELLO;
	params_clear(h);
	if (engine_child_send(h->child, "hub") == 0)
		he_expect(h, HE_W_WAIT, p->start_timeout_ms);
}

/* Records a value we set (the engine says nothing when it accepts one). */
static void param_set_value(struct hub_back *h, const char *name, const char *value)
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
static void he_configure(struct hub_back *h)
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
	if (engine_child_send(h->child, "init") == 0)
		he_expect(h, HE_W_READY, p->start_timeout_ms);
}

/* The level for the job's limits; *budget_ms gets the time it may take (0: none). */
static void he_level(const struct hub_back *h, struct hub_level *lv, uint64_t *budget_ms)
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
static void he_send_setup(struct hub_back *h)
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
		engine_child_fail(h->child, "out of memory");
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
		engine_child_fail(h->child, "cannot write level: %s", why);
		return;
	}
	if (engine_child_send(h->child, line) < 0 || engine_child_send(h->child, "ping") < 0)
		return;
	he_expect(h, HE_W_SETUP, p->command_timeout_ms);
}

/* go, part 2: the search itself. */
static void he_send_go(struct hub_back *h)
{
	const struct engine_profile *p = h->e.profile;
	struct hub_level lv;
	uint64_t budget;

	he_level(h, &lv, &budget);
	if (engine_child_send(h->child, lv.infinite ? "go analyze" : "go think") < 0)
		return;
	he_expect(h, HE_W_DONE, lv.infinite ? 0 : budget + p->command_timeout_ms);
	if (h->stop_requested) {
		/* Stopped before it began: ask for the move at once. */
		if (engine_child_send(h->child, "stop") < 0)
			return;
		h->stop_sent = 1;
		engine_child_arm(h->child, p->stop_timeout_ms);
	}
}

/* The declared parameters as UHP option lines (string parameters have no UHP
 * type and are left out). name NULL: all of them. */
static char **he_option_lines(struct hub_back *h, const char *name)
{
	char **lines = calloc(h->nparams + 1, sizeof *lines);
	size_t n = 0;

	if (!lines)
		return NULL;
	for (size_t i = 0; i < h->nparams; i++) {
		const struct he_param *p = &h->params[i];
		struct engine_option o;
		char buf[4096];

		if (name && strcasecmp(p->name, name))
			continue;
		if (strchr(p->name, ';') || strlen(p->name) >= sizeof o.name)
			continue;
		memset(&o, 0, sizeof o);
		snprintf(o.name, sizeof o.name, "%s", p->name);
		if (!strcmp(p->type, "bool")) {
			o.type = ENGINE_OPT_BOOL;
			snprintf(o.value, sizeof o.value, "%s", strcasecmp(p->value, "true") ? "False" : "True");
			snprintf(o.def, sizeof o.def, "%s", strcasecmp(p->def, "true") ? "False" : "True");
		} else if (!strcmp(p->type, "int") || !strcmp(p->type, "real")) {
			o.type = p->type[0] == 'i' ? ENGINE_OPT_INT : ENGINE_OPT_DOUBLE;
			snprintf(o.value, sizeof o.value, "%s", p->value);
			snprintf(o.def, sizeof o.def, "%s", p->def);
			snprintf(o.min, sizeof o.min, "%s", p->min ? p->min : "");
			snprintf(o.max, sizeof o.max, "%s", p->max ? p->max : "");
		} else if (!strcmp(p->type, "enum") && p->values) {
			o.type = ENGINE_OPT_ENUM;
			snprintf(o.value, sizeof o.value, "%s", p->value);
			snprintf(o.def, sizeof o.def, "%s", p->def);
			char *copy = strdup(p->values), *save = NULL;
			for (char *t = copy ? strtok_r(copy, " ", &save) : NULL;
			     t && o.nvalues < ENGINE_OPT_MAX_VALUES; t = strtok_r(NULL, " ", &save))
				snprintf(o.values[o.nvalues++], sizeof o.values[0], "%s", t);
			free(copy);
		} else {
			continue;
		}
		if (strchr(o.value, ';') || engine_option_format(&o, buf, sizeof buf) >= sizeof buf)
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
static void he_advance(struct hub_back *h)
{
	const struct engine_profile *p = h->e.profile;
	struct hub_writer w;
	char line[4096];

	if (h->job == HE_JOB_NONE || h->wait != HE_W_NONE || engine_child_eof(h->child))
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
				char *msg = xasprintf("The option \"%s\" is not valid.", h->opt_name);
				he_finish(h, ENGINE_ERROR, msg, NULL, NULL);
				free(msg);
				return;
			}
			hub_writer_begin(&w, line, sizeof line, "set-param");
			hub_writer_add(&w, "name", param_find(h, h->opt_name)->name);
			hub_writer_add(&w, "value", h->opt_value);
			if (he_send_writer(h, &w) < 0 || engine_child_send(h->child, "ping") < 0)
				return;
			he_expect(h, HE_W_SETPARAM, p->command_timeout_ms);
			return;
		}
		char **lines = he_option_lines(h, h->opt_argc == 2 ? h->opt_name : NULL);
		if (!lines) {
			he_finish(h, ENGINE_ERROR, "Out of memory.", NULL, NULL);
		} else if (h->opt_argc == 2 && !lines[0]) {
			char *msg = xasprintf("The option \"%s\" is not valid.", h->opt_name);
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
	struct hub_back *h = arg;

	if (h->reply.ready && h->res_info) {
		engine_info_cb *info = h->res_info;
		h->res_info = NULL;
		info(h->reply.arg, &h->last_info);     /* must not free the engine */
	}
	if (!engine_reply_deliver(&h->reply))
		he_advance(h);
}

static void he_info_cb(evutil_socket_t fd, short what, void *arg)
{
	struct hub_back *h = arg;

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

static void he_on_param(struct hub_back *h, const struct hub_msg *m)
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
		engine_child_fail(h->child, "out of memory");
}

/* The engine's capabilities from its variant parameter (all of them without one). */
static void he_caps(struct hub_back *h)
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

static void he_on_info(struct hub_back *h, const struct hub_msg *m)
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

static void he_on_done(struct hub_back *h, const struct hub_msg *m)
{
	const char *move = hub_msg_get(m, "move");
	struct hive_move mo;
	char err[256], shown[80];

	if (!move || !*move) {
		engine_child_fail(h->child, "done without a move");
		return;
	}
	int rc = hive_move_parse(&h->want.board, move, &mo, err, sizeof err);
	if (rc != HIVE_OK) {
		snprintf(shown, sizeof shown, "%s", move);
		engine_child_fail(h->child, "%s move \"%s\": %s",
				  rc == HIVE_ERR_SYNTAX ? "unreadable" : "illegal", shown, err);
		return;
	}
	/* Info still pending describes this search: the kick hands it over first. */
	engine_info_cb *info = h->info_ready ? h->info : NULL;
	he_finish(h, ENGINE_OK, NULL, &mo, NULL);
	h->res_info = info;
}

/* One line from the engine's stdout (without its newline). */
static void he_line(void *arg, const char *line, size_t len)
{
	struct hub_back *h = arg;
	struct hub_msg m;
	char err[256];
	const struct engine_profile *p = h->e.profile;

	if (hub_line_parse_max(line, len, HUB_BACK_MAX_LINE, &m, err, sizeof err) < 0) {
		hub_msg_free(&m);
		engine_child_fail(h->child, "unreadable line: %s", err);
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
			engine_child_disarm(h->child);
			h->state = HE_IDLE;
			he_kick(h);
		}
	} else if (!strcmp(cmd, "pong")) {
		if (h->wait == HE_W_SETUP) {
			if (h->errmsg) {
				char *msg = xasprintf("the engine refused the position or level: %s",
						      h->errmsg);
				he_finish(h, ENGINE_ERROR, msg, NULL, NULL);
				free(msg);
			} else {
				h->wait = HE_W_NONE;
				he_send_go(h);
			}
		} else if (h->wait == HE_W_SETPARAM) {
			if (h->errmsg) {
				char *msg = xasprintf("%s", h->errmsg);
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

/* The child ended: say when, and fail it. */
static void he_ended(void *arg, const char *what)
{
	struct hub_back *h = arg;

	if (h->job == HE_JOB_NONE)
		log_note(h->log_id, "engine %s %s while idle; it restarts on next use",
			 h->e.profile->name, what);
	engine_child_fail(h->child, "%s%s", what,
			  h->state == HE_HELLO || h->state == HE_INIT ? " during start" : "");
}

/* The wait in progress ran out. */
static void he_timeout(void *arg)
{
	struct hub_back *h = arg;
	const struct engine_profile *p = h->e.profile;

	switch (h->wait) {
	case HE_W_WAIT:
		engine_child_fail(h->child, "no \"wait\" within %u ms of \"hub\"",
				  p->start_timeout_ms);
		break;
	case HE_W_READY:
		engine_child_fail(h->child, "no \"ready\" within %u ms of \"init\"",
				  p->start_timeout_ms);
		break;
	case HE_W_DONE:
		if (h->stop_sent)
			engine_child_fail(h->child, "no \"done\" within %u ms of \"stop\"",
					  p->stop_timeout_ms);
		else
			engine_child_fail(h->child, "no \"done\" in time");
		break;
	default:
		engine_child_fail(h->child, "no \"pong\" in time");
		break;
	}
}

static const struct engine_child_ops he_child_ops = {
	.line = he_line,
	.ended = he_ended,
	.timeout = he_timeout,
	.failed = he_failed,
};

static int he_begin(struct hub_back *h, enum he_job job, engine_done_cb *done, void *arg)
{
	if (h->job != HE_JOB_NONE || h->reply.ready)
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
	struct hub_back *h = e->priv;

	if (h->job != HE_JOB_NONE || h->reply.ready)
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
	struct hub_back *h = e->priv;

	if (h->job != HE_JOB_GO || h->stop_requested)
		return;
	h->stop_requested = 1;
	if (h->wait == HE_W_DONE && engine_child_running(h->child)) {
		if (engine_child_send(h->child, "stop") < 0)
			return;
		h->stop_sent = 1;
		engine_child_arm(h->child, e->profile->stop_timeout_ms);
	}
	/* Before go is sent, he_send_go follows it with stop at once. */
}

static int he_options(struct engine *e, int argc, const char **argv, engine_done_cb *done, void *arg)
{
	struct hub_back *h = e->priv;

	if (h->job != HE_JOB_NONE || h->reply.ready)
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
	struct hub_back *h = e->priv;

	engine_child_close(h->child, "quit", e->profile->stop_timeout_ms);
	engine_child_free(h->child);
	event_free(h->kick);
	event_free(h->info_ev);
	params_clear(h);
	free(h->errmsg);
	free(h->opt_name);
	free(h->opt_value);
	engine_reply_free(&h->reply);
	hive_game_free(&h->want);
	free(h);
}

static void he_set_log_id(struct engine *e, unsigned id)
{
	struct hub_back *h = e->priv;

	h->log_id = id;
	engine_child_set_log_id(h->child, id);
}

struct engine *hub_back_new(struct event_base *base, const struct engine_profile *p, char **cause)
{
	if (!p->argv || !p->argv[0]) {
		*cause = xasprintf("engine %s: no command", p->name);
		return NULL;
	}
	struct hub_back *h = calloc(1, sizeof *h);
	if (!h) {
		*cause = xasprintf("out of memory");
		return NULL;
	}
	h->e.ops = &he_ops;
	h->e.base = base;
	h->e.profile = p;
	h->e.priv = h;
	hive_game_init(&h->want, 0);
	/* A CR before the LF may come on top; hub_line_parse_max checks the rest. */
	h->child = engine_child_new(base, p->name, HUB_BACK_MAX_LINE, 1, &he_child_ops, h);
	h->kick = event_new(base, -1, 0, he_kick_cb, h);
	h->info_ev = event_new(base, -1, 0, he_info_cb, h);
	if (!h->child || !h->kick || !h->info_ev) {
		engine_child_free(h->child);
		if (h->kick)
			event_free(h->kick);
		if (h->info_ev)
			event_free(h->info_ev);
		hive_game_free(&h->want);
		free(h);
		*cause = xasprintf("out of memory");
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
	.set_log_id = he_set_log_id,
	.free = he_free,
};
