/*
 * otep_back.c: an external OTEP Hive engine (docs/otep-hive.md) as a back end of
 * the engine interface: the bridge as an OTEP host.
 *
 * The job (start, go, options) is the engine interface's; the child plumbing is
 * bridge/engine_child.h's. The child is brought up on first use and must say
 * "hello" within start_timeout. A go sends rules when needed, then opponent-move,
 * play and clock, and waits for "move" (checked by the interface) under a timer of
 * the time given plus command_timeout; an infinite go analyses in slices.
 *
 * Any breakage kills the child after "finish 0" and "goodbye" and leaves the back
 * end down; the next job spawns a fresh one.
 */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "adapters/otep/otep_back.h"
#include "adapters/otep/otep_codec.h"
#include "adapters/otep/otep_hive.h"
#include "adapters/otep/otep_ini.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_child.h"
#include "bridge/engine_line.h"
#include "bridge/log.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/game.h"

/* Analysis slices: the first, and the longest (a stop waits for the one running). */
#define OB_SLICE_FIRST_S       1
#define OB_SLICE_MAX_S         4
/* Move lists asked of an analysis (the engine interface has no number of its own). */
#define OB_ANALYSIS_LINES      8
#define OB_INI_MAX             (64 * 1024)

enum ob_state { OB_DOWN, OB_HELLO, OB_IDLE };
enum ob_wait { OB_W_NONE, OB_W_HELLO, OB_W_MOVE, OB_W_ANALYSIS };

struct ob {
	struct engine_line    el;            /* the engine, its child and the job */
	enum ob_state         state;

	/* What to run: from the .ini or the profile. */
	char                **argv;          /* owned copy when from the .ini, else the profile's */
	char                 *workdir;
	char                 *filename;      /* .ini: the executable checked before starting */
	char                 *name;          /* shown as the engine's id */
	int                   own_argv;

	int                   rules_type;    /* rules sent since hello, -1 none */

	enum ob_wait          wait;
	unsigned              slice_s;       /* analysis: the slice running */
	unsigned              slices;        /* analysis answers so far (the infos' depth) */
};

static const struct engine_ops ob_ops;

/* The job ends (engine_job_finish): forget its wait. */
static void ob_ending(struct engine *e)
{
	struct ob *h = e->priv;

	engine_child_disarm(h->el.child);
	h->wait = OB_W_NONE;
}

/* The child has been killed (engine_child_fail): fail the job (if any). */
static void ob_failed(void *arg, const char *why)
{
	struct ob *h = arg;

	h->state = OB_DOWN;
	h->wait = OB_W_NONE;
	h->rules_type = -1;
	engine_job_finish(&h->el.e, ENGINE_FAILED, why, NULL);
}

/* The engine broke while it still reads: tell it the game is off, then kill it. */
static void ob_fail(struct ob *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ob_fail(struct ob *h, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (h->state == OB_IDLE && engine_child_running(h->el.child) && !engine_child_eof(h->el.child) &&
	    (engine_child_send(h->el.child, "finish 0") < 0 || engine_child_send(h->el.child, "goodbye") < 0))
		return;    /* it failed already, with why it could not be written */
	engine_child_fail(h->el.child, "%s", why);
}

/* Formats with f into a buffer that fits a GameString of g, and sends it. */
static int ob_send_game(struct ob *h, int (*f)(char *, size_t, const struct hive_game *),
			const struct hive_game *g)
{
	size_t n = 2 * hive_game_format(g, NULL, 0) + 256;
	char *buf = malloc(n);

	if (!buf) {
		ob_fail(h, "out of memory");
		return -1;
	}
	if (f(buf, n, g) < 0) {
		free(buf);
		ob_fail(h, "cannot write the game as an OTEP line");
		return -1;
	}
	int rc = engine_child_send(h->el.child, buf);
	free(buf);
	return rc;
}

static void ob_expect(struct ob *h, enum ob_wait w, uint64_t ms)
{
	h->wait = w;
	engine_child_arm(h->el.child, ms);
}

static void ob_spawn(struct ob *h)
{
	const struct engine_profile *p = h->el.e.profile;

	if (h->filename && access(h->filename, X_OK) < 0) {
		int err = errno;
		/* No child yet: fail the job as the plumbing would. */
		char *why = xasprintf("cannot start: %s (the .ini's filename): %s", h->filename,
				      strerror(err));
		log_note(h->el.log_id, "engine %s failed: %s", p->name, why);
		ob_failed(h, why);
		free(why);
		return;
	}
	if (engine_child_spawn(h->el.child, h->argv, h->workdir) < 0)
		return;
	h->state = OB_HELLO;
	h->rules_type = -1;
	ob_expect(h, OB_W_HELLO, p->start_timeout_ms);
}

/* The clock line for the job's limits; *budget_ms gets the time the move may take. */
static void ob_clock(const struct ob *h, struct otep_clock *c, uint64_t *budget_ms)
{
	const struct engine_limits *l = &h->el.e.job.limits;
	int side = hive_side_to_move(&h->el.e.job.game.board);
	uint64_t cap = l->max_ms;

	memset(c, 0, sizeof *c);
	if (l->time_ms[0] || l->time_ms[1]) {
		/* A Fischer increment has no field: it is part of the time left. */
		for (int s = 0; s < 2; s++) {
			uint64_t t = l->time_ms[s] ? l->time_ms[s] + l->inc_ms[s] : 1;
			if (cap && t > cap)
				t = cap;
			c->ms[s] = (int64_t)(t > (uint64_t)OTEP_MS_MAX ? (uint64_t)OTEP_MS_MAX : t);
		}
		*budget_ms = (uint64_t)c->ms[side];
		return;
	}
	/* A time per move is an overtime period running out: the engine may use it all. */
	uint64_t mt = l->movetime_ms ? l->movetime_ms : OTEP_BACK_DEFAULT_MOVETIME_MS;
	if (cap && mt > cap)
		mt = cap;
	for (int s = 0; s < 2; s++) {
		c->ms[s] = (int64_t)mt;
		c->in_overtime[s] = 1;
		c->overtimes[s] = 1;
	}
	c->has_overtime = 1;
	c->overtime_s = (int64_t)((mt + 999) / 1000);
	*budget_ms = mt;
}

static int ob_send_clock(struct ob *h, uint64_t *budget_ms)
{
	struct otep_clock c;
	char line[256];

	ob_clock(h, &c, budget_ms);
	if (otep_format_clock(line, sizeof line, &c) < 0) {
		ob_fail(h, "cannot write the clock");
		return -1;
	}
	return engine_child_send(h->el.child, line);
}

static int ob_send_analyze(struct ob *h)
{
	char line[64];

	if (otep_format_analyze(line, sizeof line, OB_ANALYSIS_LINES, (int)h->slice_s) < 0 ||
	    engine_child_send(h->el.child, line) < 0)
		return -1;
	ob_expect(h, OB_W_ANALYSIS, h->slice_s * 1000ULL + h->el.e.profile->command_timeout_ms);
	return 0;
}

/* go: rules when the engine has another game type (or a new game began), then the
 * move request or the analysis. */
static void ob_send_go(struct ob *h)
{
	const struct engine_profile *p = h->el.e.profile;
	enum otep_side side = otep_side_to_move(&h->el.e.job.game.board);
	char line[64];
	uint64_t budget;

	if (h->rules_type != (int)h->el.e.job.game.type) {
		if (ob_send_game(h, otep_format_game_rules, &h->el.e.job.game) < 0)
			return;
		h->rules_type = (int)h->el.e.job.game.type;
	}
	if (h->el.e.job.limits.infinite) {
		h->slice_s = OB_SLICE_FIRST_S;
		h->slices = 0;
		if (ob_send_game(h, otep_format_game_position, &h->el.e.job.game) < 0 ||
		    otep_format_side(line, sizeof line, side) < 0 ||
		    engine_child_send(h->el.child, line) < 0 || ob_send_clock(h, &budget) < 0)
			return;
		ob_send_analyze(h);
		return;
	}
	/* opponent-move comes before every play, "-" before the first move. */
	if (ob_send_game(h, otep_format_game_opponent_move, &h->el.e.job.game) < 0 ||
	    otep_format_play(line, sizeof line, side) < 0 || engine_child_send(h->el.child, line) < 0 ||
	    ob_send_clock(h, &budget) < 0)
		return;
	ob_expect(h, OB_W_MOVE, budget + p->command_timeout_ms);
}

/* Sends the next command of the job, or finishes it. */
static void ob_advance(struct engine *e)
{
	struct ob *h = e->priv;

	enum engine_line_next next = engine_line_next(&h->el, h->wait != OB_W_NONE,
						       h->state == OB_DOWN, h->state == OB_IDLE);

	if (next == ENGINE_LINE_SPAWN)
		ob_spawn(h);
	if (next != ENGINE_LINE_SEND)
		return;
	switch (engine_job_kind(&h->el.e)) {
	case ENGINE_JOB_GO:
		ob_send_go(h);
		return;
	case ENGINE_JOB_OPTIONS: {
		/* OTEP has no options: an empty list, and no option to get or set. */
		if (h->el.e.job.argc == 0) {
			char **lines = calloc(1, sizeof *lines);
			engine_job_finish(&h->el.e, lines ? ENGINE_OK : ENGINE_ERROR,
					  lines ? NULL : "Out of memory.", lines);
			return;
		}
		engine_job_unknown_option(&h->el.e);
		return;
	}
	case ENGINE_JOB_START:      /* engine_line_next ended it */
	case ENGINE_JOB_NONE:
		return;
	}
}

/* The engine's move for the play in progress. */
static void ob_on_move(struct ob *h, const char *text)
{
	const struct hive_game *g = &h->el.e.job.game;
	char err[256], line[64];

	if (engine_job_move(&h->el.e, NULL, text, err, sizeof err) < 0) {
		char side[128];
		int code = otep_move_fault(&g->board, text, side, sizeof side);
		if (otep_format_error(line, sizeof line, OTEP_FROM_HOST, code, NULL) < 0 ||
		    engine_child_send(h->el.child, line) < 0)
			return;
		if (code == OTEP_ERR_WRONG_SIDE)
			ob_fail(h, "wrong-side move \"%.32s\": %s", text, side);
		else
			ob_fail(h, "%s", err);
		return;
	}
	/* Accepted: the game after it, and the end when it ended by the queens. */
	struct hive_game after;
	if (hive_game_copy(&after, g) != HIVE_OK) {
		ob_fail(h, "out of memory");
		return;
	}
	if (hive_game_play(&after, h->el.e.job.move) != HIVE_OK) {
		hive_game_free(&after);
		ob_fail(h, "out of memory");
		return;
	}
	int rc = ob_send_game(h, otep_format_game_move_result, &after);
	if (rc == 0 && hive_game_over(&after.board)) {
		if (otep_format_finish(line, sizeof line, otep_finish_of(&after.board)) >= 0)
			rc = engine_child_send(h->el.child, line);
		h->rules_type = -1;      /* the next game starts with rules */
	}
	hive_game_free(&after);
	if (rc < 0)
		return;
	engine_job_finish(&h->el.e, ENGINE_OK, NULL, NULL);
}

/* One analysis answer: each move list an info, then the next slice or the end. */
static void ob_on_analysis(struct ob *h, const struct otep_msg *m)
{
	char err[256];

	h->slices++;
	for (size_t i = 0; i < m->nlines; i++) {
		struct hive_board b = h->el.e.job.game.board;
		struct hive_search_info info, *si = &info;
		const struct otep_moves *l = &m->lines[i];

		memset(si, 0, sizeof *si);
		si->depth = (int)h->slices;
		si->score = (int)(l->eval_cp > 1000000 ? 1000000 : l->eval_cp < -1000000 ? -1000000 : l->eval_cp);
		for (size_t k = 0; k < l->n && si->pvlen < HIVE_MAX_PLY; k++) {
			struct hive_move mo;
			struct hive_undo u;
			/* The first line's first move is the result's: the interface checks it. */
			if (i == 0 && k == 0) {
				if (engine_job_move(&h->el.e, NULL, l->moves[k], err, sizeof err) < 0) {
					ob_fail(h, "analysis with an %s", err);
					return;
				}
				mo = h->el.e.job.move;
			} else if (hive_move_parse(&b, l->moves[k], &mo, err, sizeof err) != HIVE_OK) {
				if (k == 0) {
					ob_fail(h, "analysis with an illegal move \"%.32s\": %s", l->moves[k], err);
					return;
				}
				break;       /* the rest of the line is not trustworthy */
			}
			si->pv[si->pvlen++] = mo;
			hive_board_do(&b, mo, &u);
		}
		/* Infos not handed over yet are kept; what does not fit is dropped. */
		engine_job_info(&h->el.e, si, 0);
	}
	if (h->el.e.job.stop_requested) {
		engine_job_finish(&h->el.e, ENGINE_OK, NULL, NULL);
		return;
	}
	h->wait = OB_W_NONE;
	h->slice_s = h->slice_s * 2 > OB_SLICE_MAX_S ? OB_SLICE_MAX_S : h->slice_s * 2;
	ob_send_analyze(h);
}

/* One line from the engine's stdout (without its newline). */
static void ob_line(void *arg, const char *line, size_t len)
{
	struct ob *h = arg;
	const struct engine_profile *p = h->el.e.profile;
	struct otep_msg m;
	char err[256], out[64];

	if (otep_msg_parse_max(line, len, OTEP_BACK_MAX_LINE, OTEP_FROM_ENGINE, &m, err, sizeof err) < 0) {
		otep_msg_free(&m);
		if (h->wait == OB_W_HELLO) {
			/* Before hello anything goes (a JVM's banner, say): logged only. */
			log_note(h->el.log_id, "engine %s: before hello, ignored: %s", p->name, err);
			return;
		}
		ob_fail(h, "unreadable line: %s", err);
		return;
	}
	if (h->wait == OB_W_HELLO && m.cmd != OTEP_HELLO) {
		log_note(h->el.log_id, "engine %s: %s before hello ignored", p->name, otep_cmd_name(m.cmd));
		otep_msg_free(&m);
		return;
	}
	switch (m.cmd) {
	case OTEP_HELLO:
		if (h->wait == OB_W_HELLO) {
			h->wait = OB_W_NONE;
			engine_child_disarm(h->el.child);
			h->state = OB_IDLE;
			engine_kick(&h->el.e);
		}
		break;
	case OTEP_MOVE:
		if (h->wait == OB_W_MOVE) {
			ob_on_move(h, m.text);
		} else {
			log_note(h->el.log_id, "engine %s: move when not asked to play", p->name);
			if (otep_format_error(out, sizeof out, OTEP_FROM_HOST, OTEP_ERR_WRONG_SIDE, NULL) >= 0)
				engine_child_send(h->el.child, out);
		}
		break;
	case OTEP_ANALYSIS:
		if (h->wait == OB_W_ANALYSIS)
			ob_on_analysis(h, &m);
		else
			log_note(h->el.log_id, "engine %s: analysis out of turn ignored", p->name);
		break;
	case OTEP_ERROR:
		if (m.code == OTEP_ERR_CRITICAL) {
			ob_fail(h, "critical error: %s", m.text ? m.text : "(no message)");
		} else {
			/* Non-critical: for the user, and the game goes on. */
			log_warn(h->el.log_id, "engine %s: error 0 %s", p->name, m.text ? m.text : "");
		}
		break;
	case OTEP_RULES:
		/* The engine asks for the rules: the host's own. */
		if (h->rules_type >= 0 &&
		    otep_format_rules(out, sizeof out, hive_gametype_name((unsigned)h->rules_type)) >= 0)
			engine_child_send(h->el.child, out);
		break;
	case OTEP_POSITION:
		if (engine_job_kind(&h->el.e) == ENGINE_JOB_GO)
			ob_send_game(h, otep_format_game_position, &h->el.e.job.game);
		break;
	case OTEP_STATUS:
		log_note(h->el.log_id, "engine %s: status %s", p->name, m.text ? m.text : "");
		break;
	default:
		/* simple-moves, side, clock: nothing changes for Hive (logged already). */
		break;
	}
	otep_msg_free(&m);
}

/* The child ended: it reads nothing any more, so it just fails. */
static void ob_ended(void *arg, const char *what)
{
	struct ob *h = arg;

	engine_line_ended(&h->el, what, h->state == OB_HELLO ? " before hello" : "");
}

/* The wait in progress ran out. */
static void ob_timeout(void *arg)
{
	struct ob *h = arg;
	const struct engine_profile *p = h->el.e.profile;

	switch (h->wait) {
	case OB_W_HELLO:
		engine_child_fail(h->el.child, "no \"hello\" within %u ms of starting", p->start_timeout_ms);
		break;
	case OB_W_ANALYSIS:
		ob_fail(h, "no \"analysis\" in time (%u s asked)", h->slice_s);
		break;
	default:
		ob_fail(h, "no \"move\" in time");
		break;
	}
}

static const struct engine_child_ops ob_child_ops = {
	.line = ob_line,
	.ended = ob_ended,
	.timeout = ob_timeout,
	.failed = ob_failed,
};

/* A finished game is no go for OTEP. (A stop needs nothing of the back end: an
 * analysis ends with the slice running; a play cannot be cut short in OTEP.) */
static int ob_go(struct engine *e)
{
	return hive_game_over(&e->job.game.board) ? -1 : 0;
}

/* A new game: the next go starts with rules. */
static void ob_reset(struct engine *e)
{
	struct ob *h = e->priv;
	h->rules_type = -1;
}

static void ob_paths_free(struct ob *h)
{
	if (h->own_argv) {
		lines_free(h->argv);
		free(h->workdir);
	}
	free(h->filename);
	free(h->name);
}

static void ob_release(struct ob *h, const char *farewell)
{
	engine_line_release(&h->el, farewell);
	ob_paths_free(h);
	free(h);
}

static void ob_free(struct engine *e)
{
	struct ob *h = e->priv;

	/* Mid-game, the engine hears that the game is off before goodbye. */
	if (h->state == OB_IDLE && engine_child_running(h->el.child) && !engine_child_eof(h->el.child) &&
	    engine_job_kind(&h->el.e) == ENGINE_JOB_GO)
		engine_child_send(h->el.child, "finish 0");
	ob_release(h, "goodbye");
}

int otep_back_ini_read(const char *path, struct otep_ini *ini, char *err, size_t errlen)
{
	char why[256], *text, *copy = NULL, *dir = NULL;
	size_t n;
	int rc = -1;

	memset(ini, 0, sizeof *ini);
	if (!(text = util_read_file(path, OB_INI_MAX, &n, why, sizeof why)))
		return errbuf_set(err, errlen, "%s: %s", path, why);
	copy = strdup(path);
	dir = copy ? realpath(dirname(copy), NULL) : NULL;
	if (!dir) {
		errbuf_set(err, errlen, "%s: cannot resolve its folder: %s", path, strerror(errno));
		goto out;
	}
	if (otep_ini_parse(text, dir, ini, why, sizeof why) < 0) {
		errbuf_set(err, errlen, "%s: %s", path, why);
		goto out;
	}
	rc = 0;
out:
	free(text);
	free(copy);
	free(dir);
	return rc;
}

int otep_back_check(const struct engine_profile *p, char *err, size_t errlen)
{
	struct otep_ini ini;
	struct stat st;

	/* A command line is left to the runtime's check. */
	if (!p->argv || !p->argv[0] || p->argv[1] || !otep_ini_is_path(p->argv[0]))
		return 0;
	if (otep_back_ini_read(p->argv[0], &ini, err, errlen) < 0)
		return -1;
	int rc = 1;
	if (stat(ini.directory, &st) < 0 || !S_ISDIR(st.st_mode)) {
		errbuf_set(err, errlen, "directory %s: %s", ini.directory,
				   errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a folder");
		rc = -1;
	} else if (stat(ini.filename, &st) < 0 || !S_ISREG(st.st_mode) || access(ini.filename, X_OK) < 0) {
		errbuf_set(err, errlen, "filename %s: not an executable file", ini.filename);
		rc = -1;
	}
	otep_ini_free(&ini);
	return rc;
}

struct engine *otep_back_new(struct event_base *base, const struct engine_profile *p,
			     char *err, size_t errlen)
{
	struct ob *h = engine_line_alloc(p, sizeof *h, err, errlen);

	if (!h)
		return NULL;
	h->rules_type = -1;
	/* A CR before the LF may come on top; the codec checks the rest. */
	if (engine_line_init(&h->el, base, p, &ob_ops, h, OTEP_BACK_MAX_LINE, 1,
			     &ob_child_ops, err, errlen) < 0) {
		ob_release(h, NULL);
		return NULL;
	}
	if (!p->argv[1] && otep_ini_is_path(p->argv[0])) {
		struct otep_ini ini;
		if (otep_back_ini_read(p->argv[0], &ini, err, errlen) < 0) {
			ob_release(h, NULL);
			return NULL;
		}
		/* The struct's strings change hands. */
		h->argv = ini.argv;
		h->workdir = ini.directory;
		h->filename = ini.filename;
		h->name = ini.name;
		h->own_argv = 1;
	} else {
		const char *b = strrchr(p->argv[0], '/');
		h->argv = p->argv;
		h->workdir = p->workdir;
		h->name = strdup(b ? b + 1 : p->argv[0]);
	}
	snprintf(h->el.e.id, sizeof h->el.e.id, "%s", h->name ? h->name : p->name);
	/* An OTEP engine names no expansions: it is offered all of them. */
	snprintf(h->el.e.caps, sizeof h->el.e.caps, "Mosquito;Ladybug;Pillbug");
	if (!h->name) {
		ob_release(h, NULL);
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	return &h->el.e;
}

static const struct engine_ops ob_ops = {
	.name = "otep",
	.keeps_time = 1,
	.go = ob_go,
	.advance = ob_advance,
	.ending = ob_ending,
	.reset = ob_reset,
	.set_log_id = engine_line_set_log_id,
	.free = ob_free,
};
