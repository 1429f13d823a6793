/*
 * hub_back.c: an external Hub engine (docs/hub-hive.md) as a back end of the
 * engine interface.
 *
 * The job (start, go, options) is the engine interface's. The child is brought up
 * on first use: "hub" until "wait" (collecting id and param lines), one set-param
 * per profile option, "init" until "ready". A go sends pos and level followed by a
 * ping: an error before the pong means the engine refused them (ENGINE_ERROR, still
 * usable); then "go" until "done", whose move the interface checks.
 *
 * Every wait has a timer. Any breakage (exit, EOF, time-out, unreadable or
 * over-long line, illegal move) kills the child and leaves the back end down; the
 * next job spawns a fresh one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#include "adapters/hub/hub_back.h"
#include "adapters/hub/hub_codec.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_child.h"
#include "bridge/engine_line.h"
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
	struct engine_line    el;            /* the engine, its child and the job */
	enum he_state         state;
	struct he_param       params[HE_MAX_PARAMS];
	size_t                nparams;
	int                   stop_sent;

	enum he_wait          wait;
	char                 *errmsg;        /* first error line of the wait */

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

/* The job ends (engine_job_finish): forget its wait. */
static void he_ending(struct engine *e)
{
	struct hub_back *h = e->priv;

	engine_child_disarm(h->el.child);
	h->wait = HE_W_NONE;
	h->stop_sent = 0;
	free(h->errmsg);
	h->errmsg = NULL;
}

/* The child has been killed (engine_child_fail): fail the job (if any). */
static void he_failed(void *arg, const char *why)
{
	struct hub_back *h = arg;

	h->state = HE_DOWN;
	h->wait = HE_W_NONE;
	if (engine_job_kind(&h->el.e) != ENGINE_JOB_NONE)
		engine_job_finish(&h->el.e, ENGINE_FAILED, why, NULL);
}

static int he_send_writer(struct hub_back *h, struct span_writer *w)
{
	if (hub_writer_end(w) < 0) {
		engine_child_fail(h->el.child, "cannot write a '%.16s' line: %s", w->buf, w->error);
		return -1;
	}
	return engine_child_send(h->el.child, w->buf);
}

static void he_expect(struct hub_back *h, enum he_wait w, uint64_t ms)
{
	h->wait = w;
	free(h->errmsg);
	h->errmsg = NULL;
	engine_child_arm(h->el.child, ms);
}

static void he_spawn(struct hub_back *h)
{
	const struct engine_profile *p = h->el.e.profile;

	if (engine_child_spawn(h->el.child, p->argv, p->workdir) < 0)
		return;
	h->state = HE_HELLO;
	params_clear(h);
	if (engine_child_send(h->el.child, "hub") == 0)
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
	const struct engine_profile *p = h->el.e.profile;
	struct span_writer w;
	char line[4096];

	for (size_t i = 0; i < p->noptions; i++) {
		if (!param_find(h, p->options[i][0]))
			log_note(h->el.log_id, "engine %s declares no parameter %s; set anyway",
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
	if (engine_child_send(h->el.child, "init") == 0)
		he_expect(h, HE_W_READY, p->start_timeout_ms);
}

/* The level for the job's limits; *budget_ms gets the time it may take (0: none). */
static void he_level(const struct hub_back *h, struct hub_level *lv, uint64_t *budget_ms)
{
	const struct engine_limits *l = &h->el.e.job.limits;
	int side = hive_side_to_move(&h->el.e.job.game.board);

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
	const struct engine_profile *p = h->el.e.profile;
	struct span_writer w;
	struct hub_level lv;
	uint64_t budget;
	char why[128];
	char line[512];

	size_t n = hive_game_format(&h->el.e.job.game, NULL, 0);
	char *gs = malloc(n + 1), *buf = malloc(2 * n + 64);
	if (!gs || !buf) {
		free(gs);
		free(buf);
		engine_child_fail(h->el.child, "out of memory");
		return;
	}
	hive_game_format(&h->el.e.job.game, gs, n + 1);
	hub_writer_begin(&w, buf, 2 * n + 64, "pos");
	hub_writer_add(&w, "pos", gs);
	int rc = he_send_writer(h, &w);
	free(gs);
	free(buf);
	if (rc < 0)
		return;
	he_level(h, &lv, &budget);
	if (hub_level_write(line, sizeof line, &lv, why, sizeof why) < 0) {
		engine_child_fail(h->el.child, "cannot write level: %s", why);
		return;
	}
	if (engine_child_send(h->el.child, line) < 0 || engine_child_send(h->el.child, "ping") < 0)
		return;
	he_expect(h, HE_W_SETUP, p->command_timeout_ms);
}

/* go, part 2: the search itself. */
static void he_send_go(struct hub_back *h)
{
	const struct engine_profile *p = h->el.e.profile;
	struct hub_level lv;
	uint64_t budget;

	he_level(h, &lv, &budget);
	if (engine_child_send(h->el.child, lv.infinite ? "go analyze" : "go think") < 0)
		return;
	he_expect(h, HE_W_DONE, lv.infinite ? 0 : budget + p->command_timeout_ms);
	if (h->el.e.job.stop_requested) {
		/* Stopped before it began: ask for the move at once. */
		if (engine_child_send(h->el.child, "stop") < 0)
			return;
		h->stop_sent = 1;
		engine_child_arm(h->el.child, p->stop_timeout_ms);
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
static void he_advance(struct engine *e)
{
	struct hub_back *h = e->priv;
	const struct engine_profile *p = h->el.e.profile;
	struct span_writer w;
	char line[4096];

	enum engine_line_next next = engine_line_next(&h->el, h->wait != HE_W_NONE,
						       h->state == HE_DOWN, h->state == HE_IDLE);

	if (next == ENGINE_LINE_SPAWN)
		he_spawn(h);
	if (next != ENGINE_LINE_SEND)
		return;
	switch (engine_job_kind(&h->el.e)) {
	case ENGINE_JOB_GO:
		he_send_setup(h);
		return;
	case ENGINE_JOB_OPTIONS:
		if (h->el.e.job.argc == 3) {
			if (!param_find(h, h->el.e.job.name)) {
				engine_job_unknown_option(&h->el.e);
				return;
			}
			hub_writer_begin(&w, line, sizeof line, "set-param");
			hub_writer_add(&w, "name", param_find(h, h->el.e.job.name)->name);
			hub_writer_add(&w, "value", h->el.e.job.value);
			if (he_send_writer(h, &w) < 0 || engine_child_send(h->el.child, "ping") < 0)
				return;
			he_expect(h, HE_W_SETPARAM, p->command_timeout_ms);
			return;
		}
		char **lines = he_option_lines(h, h->el.e.job.argc == 2 ? h->el.e.job.name : NULL);
		if (!lines) {
			engine_job_finish(&h->el.e, ENGINE_ERROR, "Out of memory.", NULL);
		} else if (h->el.e.job.argc == 2 && !lines[0]) {
			lines_free(lines);
			engine_job_unknown_option(&h->el.e);
		} else {
			engine_job_finish(&h->el.e, ENGINE_OK, NULL, lines);
		}
		return;
	case ENGINE_JOB_START:      /* engine_line_next ended it */
	case ENGINE_JOB_NONE:
		return;
	}
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
		log_note(h->el.log_id, "engine %s: param line ignored", h->el.e.profile->name);
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
		engine_child_fail(h->el.child, "out of memory");
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
	snprintf(h->el.e.caps, sizeof h->el.e.caps, "%s%s%s%s", exp & HIVE_EXP_M ? "Mosquito" : "",
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
	struct hive_board b = h->el.e.job.game.board;
	struct hive_search_info info, *si = &info;

	if (hub_info_parse(m, &in, &pv, err, sizeof err) < 0) {
		log_note(h->el.log_id, "engine %s: info ignored: %s", h->el.e.profile->name, err);
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
	/* The latest only: the client sees the newest iteration when the loop gets to it. */
	engine_job_info(&h->el.e, si, 1);
}

static void he_on_done(struct hub_back *h, const struct hub_msg *m)
{
	const char *move = hub_msg_get(m, "move");
	char err[256];

	if (!move || !*move) {
		engine_child_fail(h->el.child, "done without a move");
		return;
	}
	if (engine_job_move(&h->el.e, NULL, move, err, sizeof err) < 0) {
		engine_child_fail(h->el.child, "%s", err);
		return;
	}
	/* Info still queued describes this search: the interface hands it over first. */
	engine_job_finish(&h->el.e, ENGINE_OK, NULL, NULL);
}

/* One line from the engine's stdout (without its newline). */
static void he_line(void *arg, const char *line, size_t len)
{
	struct hub_back *h = arg;
	struct hub_msg m;
	char err[256];
	const struct engine_profile *p = h->el.e.profile;

	if (hub_line_parse_max(line, len, HUB_BACK_MAX_LINE, &m, err, sizeof err) < 0) {
		hub_msg_free(&m);
		engine_child_fail(h->el.child, "unreadable line: %s", err);
		return;
	}
	const char *cmd = m.cmd;
	if (!strcmp(cmd, "error")) {
		const char *msg = hub_msg_get(&m, "message");
		log_note(h->el.log_id, "engine %s: error: %s", p->name, msg ? msg : "");
		if (!h->errmsg)
			h->errmsg = util_scrub_text(strdup(msg && *msg ? msg : "the engine refused a command"));
	} else if (!strcmp(cmd, "id")) {
		const char *name = hub_msg_get(&m, "name"), *version = hub_msg_get(&m, "version");
		if (name)
			snprintf(h->el.e.id, sizeof h->el.e.id, "%s%s%s", name, version ? " " : "",
				 version ? version : "");
		util_scrub_text(h->el.e.id);
	} else if (!strcmp(cmd, "param")) {
		if (h->wait == HE_W_WAIT)
			he_on_param(h, &m);
	} else if (!strcmp(cmd, "wait")) {
		if (h->wait == HE_W_WAIT) {
			h->wait = HE_W_NONE;
			if (!h->el.e.id[0])
				snprintf(h->el.e.id, sizeof h->el.e.id, "%s", p->argv[0]);
			he_caps(h);
			he_configure(h);
		}
	} else if (!strcmp(cmd, "ready")) {
		if (h->wait == HE_W_READY) {
			h->wait = HE_W_NONE;
			engine_child_disarm(h->el.child);
			h->state = HE_IDLE;
			engine_kick(&h->el.e);
		}
	} else if (!strcmp(cmd, "pong")) {
		if (h->wait == HE_W_SETUP) {
			if (h->errmsg) {
				char *msg = xasprintf("the engine refused the position or level: %s",
						      h->errmsg);
				engine_job_finish(&h->el.e, ENGINE_ERROR, msg, NULL);
				free(msg);
			} else {
				h->wait = HE_W_NONE;
				he_send_go(h);
			}
		} else if (h->wait == HE_W_SETPARAM) {
			if (h->errmsg) {
				char *msg = xasprintf("%s", h->errmsg);
				engine_job_finish(&h->el.e, ENGINE_ERROR, msg, NULL);
				free(msg);
			} else {
				param_set_value(h, h->el.e.job.name, h->el.e.job.value);
				char **lines = he_option_lines(h, h->el.e.job.name);
				engine_job_finish(&h->el.e, ENGINE_OK, NULL, lines);
			}
		}
	} else if (!strcmp(cmd, "info")) {
		if (h->wait == HE_W_DONE)
			he_on_info(h, &m);
	} else if (!strcmp(cmd, "done")) {
		if (h->wait == HE_W_DONE)
			he_on_done(h, &m);
		else
			log_note(h->el.log_id, "engine %s: done out of turn ignored", p->name);
	}
	/* Anything else is a command we do not know: ignored, as Hub wants. */
	hub_msg_free(&m);
}

/* The child ended: say when, and fail it. */
static void he_ended(void *arg, const char *what)
{
	struct hub_back *h = arg;

	engine_line_ended(&h->el, what, h->state == HE_HELLO || h->state == HE_INIT ? " during start" : "");
}

/* The wait in progress ran out. */
static void he_timeout(void *arg)
{
	struct hub_back *h = arg;
	const struct engine_profile *p = h->el.e.profile;

	switch (h->wait) {
	case HE_W_WAIT:
		engine_child_fail(h->el.child, "no \"wait\" within %u ms of \"hub\"",
				  p->start_timeout_ms);
		break;
	case HE_W_READY:
		engine_child_fail(h->el.child, "no \"ready\" within %u ms of \"init\"",
				  p->start_timeout_ms);
		break;
	case HE_W_DONE:
		if (h->stop_sent)
			engine_child_fail(h->el.child, "no \"done\" within %u ms of \"stop\"",
					  p->stop_timeout_ms);
		else
			engine_child_fail(h->el.child, "no \"done\" in time");
		break;
	default:
		engine_child_fail(h->el.child, "no \"pong\" in time");
		break;
	}
}

static const struct engine_child_ops he_child_ops = {
	.line = he_line,
	.ended = he_ended,
	.timeout = he_timeout,
	.failed = he_failed,
};

static void he_stop(struct engine *e)
{
	struct hub_back *h = e->priv;

	if (h->wait == HE_W_DONE && engine_child_running(h->el.child)) {
		if (engine_child_send(h->el.child, "stop") < 0)
			return;
		h->stop_sent = 1;
		engine_child_arm(h->el.child, e->profile->stop_timeout_ms);
	}
	/* Before go is sent, he_send_go follows it with stop at once. */
}

static void he_release(struct hub_back *h, const char *farewell)
{
	engine_line_release(&h->el, farewell);
	params_clear(h);
	free(h->errmsg);
	free(h);
}

static void he_free(struct engine *e)
{
	he_release(e->priv, "quit");
}

struct engine *hub_back_new(struct event_base *base, const struct engine_profile *p,
			    char *err, size_t errlen)
{
	struct hub_back *h = engine_line_alloc(p, sizeof *h, err, errlen);

	if (!h)
		return NULL;
	/* A CR before the LF may come on top; hub_line_parse_max checks the rest. */
	if (engine_line_init(&h->el, base, p, &he_ops, h, HUB_BACK_MAX_LINE, 1,
			     &he_child_ops, err, errlen) < 0) {
		he_release(h, NULL);
		return NULL;
	}
	return &h->el.e;
}

static const struct engine_ops he_ops = {
	.name = "hub",
	.keeps_time = 1,
	.advance = he_advance,
	.ending = he_ending,
	.stop = he_stop,
	.set_log_id = engine_line_set_log_id,
	.free = he_free,
};
