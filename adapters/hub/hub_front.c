/*
 * hub_front.c: the bridge as a Hub engine (docs/hub-hive.md). The session owns the
 * canonical game; pos, level and the parameters are answered from the core and the
 * codec, go and the engine's options go to the engine through bridge/engine.h.
 * (Over 800 lines: Hub's whole command set, pos, level, go/ponder/stop and the
 * parameter table, is one session state machine; the codec is apart.)
 *
 * Unlike UHP, Hub keeps reading during a search (ping, stop and ponder-hit must get
 * through), so the input is a queue only while an engine start or option command is
 * outstanding. Memory stays bounded: the read watermark holds one maximal line, input
 * pauses while the client leaves more than max_buffer of answers unread, and info
 * lines are dropped (never done) while it does. Every resumption and every close
 * goes through an event of the session_io (bridge/session_io.h, which has the
 * plumbing), so nothing re-enters the session from inside an engine call.
 */
#include <event2/event.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "adapters/hub/hub_codec.h"
#include "adapters/hub/hub_front.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_options.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/session_io.h"
#include "bridge/util.h"
#include "bridge/version.h"
#include "core/game.h"

/* go think with no level yet: the profile has no limit of its own, so this one. */
#define HF_DEFAULT_MOVETIME_MS 5000
/* Slack on top of move-time before the session itself asks the engine to stop. */
#define HF_STOP_SLACK_MS       50
#define HF_HASH_MIN            1
#define HF_HASH_MAX            256    /* when the profile does not say (hash_mb_max) */
#define HF_ERROR_MAX           1024
/* The engine option the hash parameter stands for, and the one that turns info on. */
#define HF_OPT_HASH            "HashMB"
#define HF_OPT_REPORT          "ReportIntermediateBestMoves"

enum hf_busy {
	HF_IDLE,
	HF_START,       /* engine_start outstanding: input queued */
	HF_OPTIONS,     /* engine_options outstanding: input queued */
	HF_SEARCH       /* engine_go outstanding: only ping, stop, ponder-hit, quit */
};

enum hf_optjob { HF_JOB_LIST, HF_JOB_REPORT, HF_JOB_SET };

struct hub_front {
	struct session_io      io;           /* the client, the engine, closing */


	/* Parameters. */
	unsigned               variant;
	size_t                 hash_mb;
	int                    hash_mb_max;  /* the profile's client limit */
	struct engine_option     *opts;         /* the engine's options, owned */
	size_t                 nopts;

	/* The next search. */
	struct hive_game       game;
	int                    have_pos;
	struct live_game      *lg;           /* the game on the web page, NULL if none */
	struct hub_level       level;
	int                    have_level;

	/* The engine command outstanding. */
	enum hf_busy           busy;
	enum hf_optjob         optjob;
	char                  *opt_argv[3];  /* options command in flight, owned */
	enum hub_go_mode       mode;
	int                    stopping;     /* stop sent: the next done is final */
	int                    restart;      /* ponder-hit: search again when done comes */
	int64_t                t0_ms;        /* when the limits started to count, now_ms() */
	struct hive_search_info last;        /* latest info, for ponder= and fall-backs */
	int                    have_last;

};

/* ---- output ---- */

static void out_line(struct hub_front *s, const char *line, size_t len)
{
	session_io_write_line(&s->io, line, len);
}

static void out_str(struct hub_front *s, const char *line)
{
	out_line(s, line, strlen(line));
}

/* Ends a hub_writer line: sends it, or logs why it could not be built. */
static void out_writer(struct hub_front *s, struct hub_writer *w)
{
	int n = hub_writer_end(w);
	if (n < 0) {
		log_note(s->io.id, "hub: cannot write a '%.16s' line: %s", w->buf, w->error);
		return;
	}
	out_line(s, w->buf, (size_t)n);
}

static void out_error(struct hub_front *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_error(struct hub_front *s, const char *fmt, ...)
{
	char msg[HF_ERROR_MAX], line[HF_ERROR_MAX + 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int n = hub_error_write(line, sizeof line, msg);
	if (n >= 0)
		out_line(s, line, (size_t)n);
}

/* ---- session plumbing ---- */

/* ---- the engine's options, as Hub parameters ---- */

static struct engine_option *option_find(struct hub_front *s, const char *name)
{
	for (size_t i = 0; i < s->nopts; i++)
		if (!strcasecmp(s->opts[i].name, name))
			return &s->opts[i];
	return NULL;
}

/* Replaces the cached option lines with the engine's list. */
static void options_load(struct hub_front *s, const char **lines)
{
	size_t n = 0;
	char err[128];

	free(s->opts);
	s->opts = NULL;
	s->nopts = 0;
	for (const char **l = lines; l && *l; l++)
		n++;
	if (n == 0 || !(s->opts = calloc(n, sizeof *s->opts)))
		return;
	for (const char **l = lines; *l; l++) {
		if (engine_option_parse(*l, strlen(*l), &s->opts[s->nopts], err, sizeof err) < 0) {
			log_note(s->io.id, "hub: engine option line ignored (%s): %s", err, *l);
			continue;
		}
		s->nopts++;
	}
}

/* Takes the engine's answer to "options set" into the cache. */
static void options_update(struct hub_front *s, const char **lines, const char *name,
			   const char *value)
{
	struct engine_option o;
	struct engine_option *cur = option_find(s, name);
	char err[128];

	if (!cur)
		return;
	if (lines && lines[0] && engine_option_parse(lines[0], strlen(lines[0]), &o, err, sizeof err) == 0 &&
	    !strcasecmp(o.name, name))
		*cur = o;
	else
		snprintf(cur->value, sizeof cur->value, "%s", value);
}

static void opt_argv_free(struct hub_front *s)
{
	for (int i = 0; i < 3; i++) {
		free(s->opt_argv[i]);
		s->opt_argv[i] = NULL;
	}
}

static void options_cb(void *arg, const struct engine_result *r);

/* Sends "options set name value" to the engine; the answer comes to options_cb. */
static int engine_set(struct hub_front *s, enum hf_optjob job, const char *name, const char *value)
{
	char cause[256] = "";
	struct engine *e = session_io_engine(&s->io, cause, sizeof cause);

	if (!e) {
		if (job == HF_JOB_SET)
			out_error(s, "engine failed: %s", cause[0] ? cause : "cannot create it");
		return -1;
	}
	opt_argv_free(s);
	s->opt_argv[0] = strdup("set");
	s->opt_argv[1] = strdup(name);
	s->opt_argv[2] = strdup(value);
	if (!s->opt_argv[0] || !s->opt_argv[1] || !s->opt_argv[2]) {
		opt_argv_free(s);
		if (job == HF_JOB_SET)
			out_error(s, "out of memory");
		return -1;
	}
	s->busy = HF_OPTIONS;
	s->optjob = job;
	if (engine_options(e, 3, (const char **)s->opt_argv, options_cb, s) < 0) {
		s->busy = HF_IDLE;
		opt_argv_free(s);
		if (job == HF_JOB_SET)
			out_error(s, "the engine cannot take parameters now");
		return -1;
	}
	return 0;
}

static void options_cb(void *arg, const struct engine_result *r)
{
	struct hub_front *s = arg;
	enum hf_optjob job = s->optjob;

	s->busy = HF_IDLE;
	switch (job) {
	case HF_JOB_LIST:
		if (r->status != ENGINE_OK) {
			log_note(s->io.id, "hub: the engine lists no options: %s",
				 r->message ? r->message : "?");
			break;
		}
		options_load(s, r->lines);
		/* info lines need the engine to report its iterations. */
		struct engine_option *rep = option_find(s, HF_OPT_REPORT);
		if (rep && strcasecmp(rep->value, "true") != 0 &&
		    engine_set(s, HF_JOB_REPORT, HF_OPT_REPORT, "True") == 0)
			return;
		break;
	case HF_JOB_REPORT:
	case HF_JOB_SET:
		if (r->status == ENGINE_OK) {
			options_update(s, r->lines, s->opt_argv[1], s->opt_argv[2]);
		} else if (job == HF_JOB_SET) {
			out_error(s, "set-param %s: %s", s->opt_argv[1],
				  r->message ? r->message : "refused by the engine");
		} else {
			log_note(s->io.id, "hub: the engine refused %s: %s", HF_OPT_REPORT,
				 r->message ? r->message : "?");
		}
		break;
	}
	opt_argv_free(s);
	session_io_schedule(&s->io);
}

static void started_cb(void *arg, const struct engine_result *r)
{
	struct hub_front *s = arg;

	s->busy = HF_IDLE;
	if (r->status != ENGINE_OK && session_io_start_failed(&s->io, r->message))
		return;
	if (r->status != ENGINE_OK) {
		/* Said at the next command that needs it; the back end restarts on use. */
		log_note(s->io.id, "hub: engine did not start: %s", r->message ? r->message : "?");
		session_io_schedule(&s->io);
		return;
	}
	s->busy = HF_OPTIONS;
	s->optjob = HF_JOB_LIST;
	if (engine_options(s->io.engine, 0, (const char **)s->opt_argv, options_cb, s) < 0) {
		s->busy = HF_IDLE;
		log_note(s->io.id, "hub: the engine cannot list its options");
	}
	session_io_schedule(&s->io);
}

/* param line of one engine option (UHP option types mapped onto Hub's). */
static void out_param_option(struct hub_front *s, const struct engine_option *o)
{
	char line[4096], values[ENGINE_OPT_MAX_VALUES * (ENGINE_OPT_VALUE_MAX + 1)];
	struct hub_writer w;
	size_t n = 0;

	hub_writer_begin(&w, line, sizeof line, "param");
	hub_writer_add(&w, "name", o->name);
	switch (o->type) {
	case ENGINE_OPT_BOOL:
		hub_writer_add(&w, "value", strcasecmp(o->value, "true") ? "false" : "true");
		hub_writer_add(&w, "type", "bool");
		break;
	case ENGINE_OPT_INT:
	case ENGINE_OPT_DOUBLE:
		hub_writer_add(&w, "value", o->value);
		hub_writer_add(&w, "type", o->type == ENGINE_OPT_INT ? "int" : "real");
		if (o->min[0])
			hub_writer_add(&w, "min", o->min);
		if (o->max[0])
			hub_writer_add(&w, "max", o->max);
		break;
	case ENGINE_OPT_ENUM:
		hub_writer_add(&w, "value", o->value);
		hub_writer_add(&w, "type", "enum");
		values[0] = 0;
		for (size_t i = 0; i < o->nvalues; i++)
			n += (size_t)snprintf(values + n, sizeof values - n, "%s%s", i ? " " : "",
					      o->values[i]);
		hub_writer_add(&w, "values", values);
		break;
	}
	out_writer(s, &w);
}

/* Game types in the order the docs list them (expansion bits M=1, L=2, P=4). */
static const unsigned hf_variants[] = { 0, 1, 2, 4, 3, 5, 6, 7 };

static void variant_list(char *buf, size_t len, const char *sep, const char *last_sep)
{
	size_t n = 0, nv = sizeof hf_variants / sizeof hf_variants[0];
	buf[0] = 0;
	for (size_t i = 0; i < nv && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      i == 0 ? "" : i + 1 == nv ? last_sep : sep,
				      hive_gametype_name(hf_variants[i]));
}

/* ---- search ---- */

/* The engine limits of a search of the given mode under the current level. */
static void search_limits(const struct hub_front *s, enum hub_go_mode mode, struct engine_limits *l)
{
	const struct hub_level *lv = &s->level;
	int side = hive_side_to_move(&s->game.board);

	memset(l, 0, sizeof *l);
	/* Every search ends by the listener's max_think_time, pondering and analysis too. */
	l->max_ms = s->io.lim.max_think_ms;
	if (mode == HUB_GO_PONDER) {
		l->infinite = 1;         /* the clock starts at ponder-hit */
		return;
	}
	if (!s->have_level) {
		if (mode == HUB_GO_ANALYZE)
			l->infinite = 1;
		else
			l->movetime_ms = HF_DEFAULT_MOVETIME_MS;
		return;
	}
	l->depth = lv->depth;
	l->nodes = lv->nodes;
	if (lv->has_move_time)
		l->movetime_ms = lv->move_time_ms ? lv->move_time_ms : 1;
	if (lv->has_time) {
		/* 0 would mean "no clock": an overrun clock still asks for a move now. */
		l->time_ms[side] = lv->time_ms ? lv->time_ms : 1;
		l->inc_ms[side] = lv->inc_ms;
		l->moves_to_go = lv->moves;
	}
	l->infinite = lv->infinite;
}

static void info_cb(void *arg, const struct hive_search_info *info);
static void search_done(void *arg, const struct engine_result *r);

/* Starts engine_go; 0, or -1 (nothing started). */
static int search_start(struct hub_front *s, enum hub_go_mode mode)
{
	struct engine_limits l;

	search_limits(s, mode, &l);
	s->t0_ms = now_ms();
	if (engine_go(s->io.engine, &s->game, &l, info_cb, search_done, s) < 0)
		return -1;
	if (l.movetime_ms && !l.infinite)
		session_io_arm_stop(&s->io, l.movetime_ms + HF_STOP_SLACK_MS);
	return 0;
}

static void info_cb(void *arg, const struct hive_search_info *info)
{
	struct hub_front *s = arg;
	struct hive_board b = s->game.board;
	char mvs[HIVE_MAX_PLY][HIVE_MOVESTR_MAX];
	const char *pv[HIVE_MAX_PLY];
	char line[HIVE_MAX_PLY * (HIVE_MOVESTR_MAX + 1) + 256];
	size_t n = 0;
	const char *why;

	if (s->busy != HF_SEARCH || s->io.finishing)
		return;
	s->last = *info;
	s->have_last = 1;
	live_analysis(s->lg, info);
	if (session_io_output_full(&s->io))
		return;          /* a client that does not read misses progress, not results */
	for (int i = 0; i < info->pvlen && i < HIVE_MAX_PLY; i++) {
		struct hive_move m;
		struct hive_undo u;
		if (!hive_board_find_move(&b, info->pv[i], &m))
			break;       /* the rest of the PV is not trustworthy */
		hive_move_format(&b, m, mvs[n], sizeof mvs[n]);
		pv[n] = mvs[n];
		n++;
		hive_board_do(&b, m, &u);
	}
	struct hub_info hi = {
		.depth = info->depth, .has_score = 1, .score_cp = info->score,
		.nodes = info->nodes, .has_time = 1, .time_ms = (uint64_t)(now_ms() - s->t0_ms),
		.pv = pv, .pvlen = n,
	};
	int len = hub_info_write(line, sizeof line, &hi, &why);
	if (len < 0) {
		log_note(s->io.id, "hub: cannot write info: %s", why);
		return;
	}
	out_line(s, line, (size_t)len);
}

/* done move=... [ponder=...] for a legal move of the current position. */
static void out_done(struct hub_front *s, struct hive_move move)
{
	char mv[HIVE_MOVESTR_MAX], pd[HIVE_MOVESTR_MAX] = "", line[128];
	const char *why;

	hive_move_format(&s->game.board, move, mv, sizeof mv);
	if (s->have_last && s->last.pvlen >= 2 && s->last.pv[0].piece == move.piece &&
	    s->last.pv[0].to == move.to) {
		struct hive_board b = s->game.board;
		struct hive_undo u;
		struct hive_move reply;
		hive_board_do(&b, move, &u);
		if (hive_board_find_move(&b, s->last.pv[1], &reply))
			hive_move_format(&b, reply, pd, sizeof pd);
	}
	int n = hub_done_write(line, sizeof line, mv, pd, &why);
	if (n < 0) {
		log_note(s->io.id, "hub: cannot write done: %s", why);
		return;
	}
	out_line(s, line, (size_t)n);
}

/* The engine gave no usable move, but every go gets one done: the best move of the
 * last reported iteration, else the first legal move. */
static void out_done_fallback(struct hub_front *s)
{
	struct hive_move m, *moves;

	if (s->have_last && s->last.pvlen > 0 &&
	    hive_board_find_move(&s->game.board, s->last.pv[0], &m)) {
		out_done(s, m);
		return;
	}
	moves = malloc(HIVE_MAX_MOVES * sizeof *moves);
	if (moves && hive_board_moves(&s->game.board, moves) > 0)
		out_done(s, moves[0]);
	else
		log_note(s->io.id, "hub: no move to answer with");
	free(moves);
}

static void search_done(void *arg, const struct engine_result *r)
{
	struct hub_front *s = arg;

	evtimer_del(s->io.stop_ev);
	if (s->io.finishing) {
		s->busy = HF_IDLE;
		return;
	}
	if (s->restart && !s->stopping && r->status == ENGINE_OK) {
		/* ponder-hit: the same position, now with the clock running. */
		s->restart = 0;
		if (search_start(s, HUB_GO_THINK) == 0)
			return;
		log_note(s->io.id, "hub: cannot search again after ponder-hit; the pondering move stands");
	}
	s->restart = 0;
	if (r->status == ENGINE_OK) {
		out_done(s, r->move);      /* checked with the core by the interface */
	} else {
		out_error(s, "engine %s: %s", r->status == ENGINE_FAILED ? "failed" : "error",
			  r->message && *r->message ? r->message : "unknown error");
		out_done_fallback(s);
	}
	s->busy = HF_IDLE;
	session_io_schedule(&s->io);
}

/* ---- commands ---- */

static void cmd_hub(struct hub_front *s, const struct hub_msg *m)
{
	struct hub_writer w;
	char line[4096], values[256];
	const struct engine_option *hash = option_find(s, HF_OPT_HASH);

	hub_writer_begin(&w, line, sizeof line, "id");
	hub_writer_add(&w, "name", "hivebridge");
	hub_writer_add(&w, "version", version_string);
	hub_writer_add(&w, "author", "The hivebridge authors");
	if (s->io.engine && s->io.engine->id[0] && strcmp(s->io.engine->ops->name, "builtin") != 0)
		hub_writer_add(&w, "engine", s->io.engine->id);
	out_writer(s, &w);

	variant_list(values, sizeof values, " ", " ");
	hub_writer_begin(&w, line, sizeof line, "param");
	hub_writer_add(&w, "name", "variant");
	hub_writer_add(&w, "value", hive_gametype_name(s->variant));
	hub_writer_add(&w, "type", "enum");
	hub_writer_add(&w, "values", values);
	out_writer(s, &w);

	hub_writer_begin(&w, line, sizeof line, "param");
	hub_writer_add(&w, "name", "hash");
	if (hash)
		hub_writer_add(&w, "value", hash->value);
	else
		hub_writer_addf(&w, "value", "%zu", s->hash_mb);
	hub_writer_add(&w, "type", "int");
	hub_writer_addf(&w, "min", "%d", HF_HASH_MIN);
	hub_writer_addf(&w, "max", "%d", s->hash_mb_max);
	out_writer(s, &w);

	for (size_t i = 0; i < s->nopts; i++)
		if (strcasecmp(s->opts[i].name, HF_OPT_HASH) != 0)
			out_param_option(s, &s->opts[i]);
	out_str(s, "wait");
}

/* An integer in [lo, hi]; -1 otherwise. */
static int parse_int(const char *v, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 10);
	if (!*v || *end || errno || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

/* Checks a parameter value against its option's type; *uhp gets the value as the
 * engine spells it. -1 with the reason in err. */
static int option_value(const struct engine_option *o, const char *v, const char **uhp,
			char *err, size_t errlen)
{
	long long n, lo = INT64_MIN, hi = INT64_MAX;
	char *end;

	*uhp = v;
	switch (o->type) {
	case ENGINE_OPT_BOOL:
		if (!strcasecmp(v, "true"))
			*uhp = "True";
		else if (!strcasecmp(v, "false"))
			*uhp = "False";
		else
			goto bad;
		return 0;
	case ENGINE_OPT_INT:
		if (o->min[0])
			lo = strtoll(o->min, NULL, 10);
		if (o->max[0])
			hi = strtoll(o->max, NULL, 10);
		if (parse_int(v, lo, hi, &n) < 0)
			goto bad;
		return 0;
	case ENGINE_OPT_DOUBLE: {
		errno = 0;
		double d = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(d) ||
		    (o->min[0] && d < strtod(o->min, NULL)) || (o->max[0] && d > strtod(o->max, NULL)))
			goto bad;
		return 0;
	}
	case ENGINE_OPT_ENUM:
		for (size_t i = 0; i < o->nvalues; i++)
			if (!strcmp(o->values[i], v))
				return 0;
		goto bad;
	}
bad:
	snprintf(err, errlen, "bad value '%.64s' for parameter '%s'", v, o->name);
	return -1;
}

static void cmd_set_param(struct hub_front *s, const struct hub_msg *m)
{
	const char *name = hub_msg_get(m, "name"), *value = hub_msg_get(m, "value");
	char err[256], list[256];
	const char *uhp;
	long long n;
	unsigned type;

	if (!name || !value || !hub_msg_arg(m, "value")->has_value) {
		out_error(s, "set-param needs name= and value=");
		return;
	}
	if (!strcmp(name, "variant")) {
		if (hive_gametype_parse(value, &type) != 0) {
			variant_list(list, sizeof list, ", ", " or ");
			out_error(s, "unknown variant '%.64s' (%s)", value, list);
			return;
		}
		s->variant = type;
		return;
	}
	if (!strcmp(name, "hash")) {
		if (parse_int(value, HF_HASH_MIN, s->hash_mb_max, &n) < 0) {
			out_error(s, "bad hash '%.64s': expected an integer from %d to %d", value,
				  HF_HASH_MIN, s->hash_mb_max);
			return;
		}
		s->hash_mb = (size_t)n;
		if (option_find(s, HF_OPT_HASH))
			engine_set(s, HF_JOB_SET, HF_OPT_HASH, value);
		return;
	}
	const struct engine_option *o = option_find(s, name);
	if (!o || !strcasecmp(name, HF_OPT_HASH)) {
		out_error(s, "unknown parameter '%.64s'", name);
		return;
	}
	if (option_value(o, value, &uhp, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		return;
	}
	engine_set(s, HF_JOB_SET, o->name, uhp);
}

static void cmd_init(struct hub_front *s, const struct hub_msg *m)
{
	out_str(s, "ready");
}

static void cmd_new_game(struct hub_front *s, const struct hub_msg *m)
{
	s->have_last = 0;
	engine_reset(s->io.engine);
	live_close(s->lg);             /* the next pos opens the new game on the web page */
	s->lg = NULL;
	log_note(s->io.id, "hub: new game");
}

/* Plays a ';'-separated list of MoveStrings on g; -1 with the culprit in err. */
static int play_list(struct hive_game *g, const char *list, char *err, size_t errlen)
{
	const char *cur = list, *item;
	size_t len;
	char mv[64], why[256];
	struct hive_move m;

	while (hub_list_next(&cur, &item, &len)) {
		if (len >= sizeof mv) {
			snprintf(err, errlen, "invalid move '%.32s...': too long", item);
			return -1;
		}
		memcpy(mv, item, len);
		mv[len] = 0;
		int rc = hive_move_parse(&g->board, mv, &m, why, sizeof why);
		if (rc == HIVE_OK)
			rc = hive_game_play(g, m);
		if (rc == HIVE_ERR_NOMEM)
			snprintf(why, sizeof why, "out of memory");
		if (rc != HIVE_OK) {
			snprintf(err, errlen, "invalid move '%s': %s", mv, why);
			return -1;
		}
	}
	return 0;
}

static void cmd_pos(struct hub_front *s, const struct hub_msg *m)
{
	const char *pos = hub_msg_get(m, "pos"), *var = hub_msg_get(m, "variant");
	const char *moves = hub_msg_get(m, "moves");
	char err[512], list[256];
	unsigned type = s->variant;
	struct hive_game g;

	/* Whatever happens below, the previous position is gone. */
	if (s->have_pos)
		hive_game_free(&s->game);
	s->have_pos = 0;
	s->have_last = 0;
	if (var && hive_gametype_parse(var, &type) != 0) {
		variant_list(list, sizeof list, ", ", " or ");
		out_error(s, "unknown variant '%.64s' (%s)", var, list);
		return;
	}
	hive_game_init(&g, type);
	if (pos) {
		if (hive_game_parse(&g, pos, err, sizeof err) != HIVE_OK) {
			out_error(s, "bad position: %s", err);
			hive_game_free(&g);
			return;
		}
		if (var && g.type != type) {
			out_error(s, "pos= is a %s game but variant= says %s", hive_gametype_name(g.type),
				  hive_gametype_name(type));
			hive_game_free(&g);
			return;
		}
	}
	if (moves && play_list(&g, moves, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		hive_game_free(&g);
		return;
	}
	s->game = g;
	s->have_pos = 1;
	live_report(&s->lg, "hub", "client", s->io.profile ? s->io.profile->name : "builtin", &s->game);
}

static void cmd_level(struct hub_front *s, const struct hub_msg *m)
{
	struct hub_level lv;
	char err[256];

	if (hub_level_parse(m, &lv, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		return;
	}
	if (s->io.lim.max_depth && lv.depth > s->io.lim.max_depth) {
		out_error(s, "depth=%d is beyond this server's limit (%d)", lv.depth, s->io.lim.max_depth);
		return;
	}
	if (s->io.lim.max_think_ms && lv.has_move_time && lv.move_time_ms > s->io.lim.max_think_ms) {
		out_error(s, "move-time is beyond this server's limit (%u s)", s->io.lim.max_think_ms / 1000);
		return;
	}
	s->level = lv;
	s->have_level = 1;
}

static void cmd_go(struct hub_front *s, const struct hub_msg *m)
{
	enum hub_go_mode mode;
	char err[256], cause[256] = "";

	if (hub_go_parse(m, &mode, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		return;
	}
	if (!s->have_pos) {
		out_error(s, "no position: send pos first");
		return;
	}
	if (hive_game_over(&s->game.board)) {
		out_error(s, "the game is over");
		return;
	}
	if (!session_io_engine(&s->io, cause, sizeof cause)) {
		out_error(s, "engine failed: %s", cause[0] ? cause : "cannot create it");
		return;
	}
	s->busy = HF_SEARCH;
	s->mode = mode;
	s->stopping = 0;
	s->restart = 0;
	s->have_last = 0;
	if (search_start(s, mode) < 0) {
		s->busy = HF_IDLE;
		out_error(s, "the engine cannot search now");
	}
}

static void cmd_ponder_hit(struct hub_front *s, const struct hub_msg *m)
{
	struct engine_limits l;

	if (s->busy != HF_SEARCH || s->mode != HUB_GO_PONDER || s->stopping)
		return;      /* it crossed the done on the wire */
	s->mode = HUB_GO_THINK;
	search_limits(s, HUB_GO_THINK, &l);
	if (l.infinite)
		return;      /* nothing to count: the search goes on until stop */
	/* The limits count from now: end the pondering search, then search again
	 * (the engine's tables keep most of the work). */
	s->restart = 1;
	engine_stop(s->io.engine);
}

static void cmd_stop(struct hub_front *s, const struct hub_msg *m)
{
	if (s->busy != HF_SEARCH || s->stopping)
		return;
	s->stopping = 1;
	s->restart = 0;
	engine_stop(s->io.engine);
}

static void cmd_ping(struct hub_front *s, const struct hub_msg *m)
{
	out_str(s, "pong");
}

static void cmd_quit(struct hub_front *s, const struct hub_msg *m)
{
	session_io_finish(&s->io, 1);
}

/* One table drives dispatch; in_search marks what a search lets through. */
static const struct hf_cmd {
	const char *name;
	int         in_search;
	void      (*run)(struct hub_front *s, const struct hub_msg *m);
} hf_cmds[] = {
	{ "hub", 0, cmd_hub },
	{ "set-param", 0, cmd_set_param },
	{ "init", 0, cmd_init },
	{ "new-game", 0, cmd_new_game },
	{ "pos", 0, cmd_pos },
	{ "level", 0, cmd_level },
	{ "go", 0, cmd_go },
	{ "ponder-hit", 1, cmd_ponder_hit },
	{ "stop", 1, cmd_stop },
	{ "ping", 1, cmd_ping },
	{ "quit", 1, cmd_quit },
};

static void session_command(struct hub_front *s, const char *line, size_t len)
{
	struct hub_msg m;
	char err[512];

	log_proto(s->io.id, LOG_CLIENT_IN, line, len);
	if (hub_line_parse_max(line, len, s->io.lim.max_line, &m, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		hub_msg_free(&m);
		return;
	}
	const struct hf_cmd *c = NULL;
	for (size_t i = 0; i < sizeof hf_cmds / sizeof hf_cmds[0]; i++)
		if (!strcmp(hf_cmds[i].name, m.cmd))
			c = &hf_cmds[i];
	if (!c) {
		if (*m.cmd)
			log_note(s->io.id, "hub: unknown command '%.32s' ignored", m.cmd);
	} else if (s->busy == HF_SEARCH && !c->in_search) {
		out_error(s, "%s is not allowed during a search (only ping, ponder-hit and stop)",
			  c->name);
	} else {
		c->run(s, &m);
	}
	hub_msg_free(&m);
}

/* ---- input: the session_io hooks ---- */

/* Whether the next command may run now: a search lets some through. */
static int io_ready(void *arg)
{
	const struct hub_front *s = arg;
	return s->busy == HF_IDLE || s->busy == HF_SEARCH;
}

/* A go is what the stop timer ends (and closing). */
static int io_searching(void *arg)
{
	const struct hub_front *s = arg;
	return s->busy == HF_SEARCH;
}

static int io_busy(void *arg)
{
	const struct hub_front *s = arg;
	return s->busy != HF_IDLE;
}

static void io_line(void *arg, char *line, size_t len)
{
	session_command(arg, line, len);
}

static void io_too_long(void *arg)
{
	struct hub_front *s = arg;
	out_error(s, "line too long: more than %zu bytes, discarded", s->io.lim.max_line);
}

/* Input closed and fully read: as quit, even during a search (the GUI is gone). */
static void io_eof(void *arg)
{
	struct hub_front *s = arg;
	log_note(s->io.id, "client EOF: quit");
}

/* stdio: the input ended during a search. One with a limit ends by itself and its
 * done goes out; an endless one (analyze, ponder, level infinite) is stopped as by
 * stop, so that its done goes out too. */
static void io_eof_busy(void *arg)
{
	struct hub_front *s = arg;
	struct engine_limits l;

	if (s->busy != HF_SEARCH || s->stopping)
		return;
	search_limits(s, s->mode, &l);
	if (!l.infinite)
		return;
	log_note(s->io.id, "client EOF during an endless search: stop");
	cmd_stop(s, NULL);
}

/* Closing stops a search, whose done then goes nowhere. */
static void io_finishing(void *arg)
{
	struct hub_front *s = arg;
	if (io_searching(s) && s->io.engine)
		engine_stop(s->io.engine);
}

/* A position set and not over: a game in progress (idle time-outs). */
static int io_in_game(void *arg)
{
	const struct hub_front *s = arg;
	return s->have_pos && !hive_game_over(&s->game.board);
}

static const struct session_io_ops hub_io_ops = {
	.title = "Hub",
	.ready = io_ready,
	.searching = io_searching,
	.in_game = io_in_game,
	.busy = io_busy,
	.line = io_line,
	.too_long = io_too_long,
	.eof = io_eof,
	.eof_busy = io_eof_busy,
	.finishing = io_finishing,
	.max_line_default = HUB_LINE_MAX,
};

void *hub_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		    unsigned id, const struct engine_profile *profile,
		    const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	struct hub_front *s = calloc(1, sizeof *s);
	char cause[256] = "";

	if (!s) {
		session_io_release(in, out);
		return NULL;
	}
	s->variant = HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P;
	s->hash_mb = profile && profile->hash_mb ? profile->hash_mb : 16;
	s->hash_mb_max = profile && profile->hash_mb_max ? (int)profile->hash_mb_max : HF_HASH_MAX;
	if ((size_t)s->hash_mb_max < s->hash_mb)
		s->hash_mb_max = (int)s->hash_mb;
	if (session_io_open(&s->io, base, in, out, id, profile, lim, &hub_io_ops, s, closed, arg) < 0) {
		hub_front_free(s);
		return NULL;
	}

	/* The engine starts now, so that "hub" can list its options at once. */
	if (!session_io_engine(&s->io, cause, sizeof cause)) {
		if (!session_io_start_failed(&s->io, cause))
			log_note(id, "hub: no engine: %s", cause[0] ? cause : "?");
		return s;
	}
	s->busy = HF_START;
	if (engine_start(s->io.engine, started_cb, s) < 0) {
		s->busy = HF_IDLE;
		if (!session_io_start_failed(&s->io, "the engine did not start"))
			log_note(id, "hub: the engine did not start");
	}
	return s;
}

void hub_front_free(void *session)
{
	struct hub_front *s = session;

	if (!s)
		return;
	session_io_free(&s->io);       /* the engine first: it calls nothing afterwards */
	live_close(s->lg);
	if (s->have_pos)
		hive_game_free(&s->game);
	opt_argv_free(s);
	free(s->opts);
	free(s);
}

/* One "error message=..." line: the answer to a client refused before any session. */
size_t hub_front_refusal(char *buf, size_t len, const char *why)
{
	int n = len > 1 ? hub_error_write(buf, len - 1, why) : -1;
	if (n <= 0)
		return 0;
	buf[n++] = '\n';
	buf[n] = 0;
	return (size_t)n;
}
