/*
 * engine.c: the engine interface's own part: engine_new(), the factory that picks
 * the back end a profile names (the built-in one, or the back end of the protocol
 * its kind names, bridge/protocol.h); the job (one command at a time, the game
 * copied, the move checked with the core once) and its one deferred event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "bridge/protocol.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/game.h"

struct engine *engine_new(struct event_base *base, const struct engine_profile *p,
			  char *err, size_t errlen)
{
	const char *kind = p && p->kind ? p->kind : "builtin";
	const struct protocol *pr;

	if (!strcmp(kind, "builtin"))
		return engine_builtin_new(base, p, err, errlen);
	if ((pr = protocol_by_kind(kind)) != NULL && pr->back_new)
		return pr->back_new(base, p, err, errlen);
	errbuf_set(err, errlen, "profile %s: unknown engine kind \"%s\"", p && p->name ? p->name : "?", kind);
	return NULL;
}

/* Share of the remaining clock one move may use when no movetime is given. */
#define ENGINE_CLOCK_MOVES 30

uint64_t engine_limits_budget(const struct engine_limits *l, int side)
{
	if (l->infinite)
		return 0;
	if (l->movetime_ms)
		return l->movetime_ms;
	if (!l->time_ms[side])
		return 0;
	uint64_t moves = l->moves_to_go > 0 ? (uint64_t)l->moves_to_go : ENGINE_CLOCK_MOVES;
	uint64_t t = l->time_ms[side] / moves + l->inc_ms[side] / 2;
	uint64_t cap = l->time_ms[side] / 2;
	/* Never 0 (no limit) on a clock: under 30 ms and no increment the share is 0. */
	return t > cap ? (cap ? cap : 1) : t ? t : 1;
}

/* Forgets the job (not its result). */
static void job_clear(struct engine *e)
{
	struct engine_job *j = &e->job;

	free(j->name);
	free(j->value);
	j->name = j->value = NULL;
	j->kind = ENGINE_JOB_NONE;
	j->done = NULL;
	j->info = NULL;
	j->arg = NULL;
	j->stop_requested = 0;
	j->has_move = 0;
	e->ninfos = 0;
}

static void result_clear(struct engine *e)
{
	free(e->message);
	lines_free(e->lines);
	e->message = NULL;
	e->lines = NULL;
	memset(&e->res, 0, sizeof e->res);
	e->finished = 0;
}

/* Hands the queued infos over, in order (an info callback must not free e). */
static void infos_flush(struct engine *e)
{
	size_t n = e->ninfos;

	e->ninfos = 0;
	for (size_t i = 0; i < n && e->job.kind == ENGINE_JOB_GO && e->job.info; i++)
		e->job.info(e->job.arg, &e->infos[i]);
}

/* The engine's one event: the back end's next step, then the infos, then the result
 * (the last act: done may free e or start the next command). */
static void engine_event(evutil_socket_t fd, short what, void *arg)
{
	struct engine *e = arg;

	if (!e->finished && e->job.kind != ENGINE_JOB_NONE && e->ops->advance)
		e->ops->advance(e);
	if (e->ninfos)
		infos_flush(e);
	if (!e->finished)
		return;
	engine_done_cb *done = e->job.done;
	void *done_arg = e->job.arg;
	e->finished = 0;
	job_clear(e);
	if (done)
		done(done_arg, &e->res);
}

int engine_init(struct engine *e, struct event_base *base, const struct engine_profile *p,
		const struct engine_ops *ops, void *priv, char *err, size_t errlen)
{
	e->ops = ops;
	e->base = base;
	e->profile = p;
	e->priv = priv;
	hive_game_init(&e->job.game, 0);
	if (!(e->ev = event_new(base, -1, 0, engine_event, e)))
		return errbuf_set(err, errlen, "out of memory");
	return 0;
}

void engine_release(struct engine *e)
{
	if (e->ev)
		event_free(e->ev);      /* also takes a pending activation off the queue */
	e->ev = NULL;
	job_clear(e);
	result_clear(e);
	hive_game_free(&e->job.game);
	free(e->infos);
	e->infos = NULL;
	e->infos_cap = 0;
}

void engine_kick(struct engine *e)
{
	if (e->ev)
		event_active(e->ev, EV_TIMEOUT, 1);
}

int engine_busy(const struct engine *e)
{
	return e->job.kind != ENGINE_JOB_NONE || e->finished;
}

/* Takes the job for done(arg) and lets the back end begin it (begin may be NULL). */
static int job_begin(struct engine *e, enum engine_job_kind kind, int (*begin)(struct engine *),
		     engine_done_cb *done, void *arg)
{
	e->job.kind = kind;
	e->job.done = done;
	e->job.arg = arg;
	result_clear(e);
	if (begin && begin(e) < 0) {
		job_clear(e);
		return -1;
	}
	engine_kick(e);
	return 0;
}

int engine_start(struct engine *e, engine_done_cb *done, void *arg)
{
	if (engine_busy(e))
		return -1;     /* one command at a time */
	return job_begin(e, ENGINE_JOB_START, e->ops->start, done, arg);
}

int engine_go(struct engine *e, const struct hive_game *g, const struct engine_limits *l,
	      engine_info_cb *info, engine_done_cb *done, void *arg)
{
	if (engine_busy(e))
		return -1;
	hive_game_free(&e->job.game);
	hive_game_init(&e->job.game, g->type);
	if (hive_game_copy(&e->job.game, g) != HIVE_OK)
		return -1;
	e->job.limits = *l;
	e->job.go_ms = now_ms();
	e->job.info = info;
	return job_begin(e, ENGINE_JOB_GO, e->ops->go, done, arg);
}

int engine_options(struct engine *e, int argc, const char **argv, engine_done_cb *done, void *arg)
{
	if (engine_busy(e))
		return -1;
	if (!(argc == 0 || (argc == 2 && !strcmp(argv[0], "get")) ||
	      (argc == 3 && !strcmp(argv[0], "set"))))
		return -1;
	e->job.name = argc >= 2 ? strdup(argv[1]) : NULL;
	e->job.value = argc == 3 ? strdup(argv[2]) : NULL;
	e->job.argc = argc;
	if ((argc >= 2 && !e->job.name) || (argc == 3 && !e->job.value)) {
		job_clear(e);
		return -1;
	}
	return job_begin(e, ENGINE_JOB_OPTIONS, e->ops->options, done, arg);
}

void engine_stop(struct engine *e)
{
	if (e->job.kind != ENGINE_JOB_GO || e->job.stop_requested || e->finished)
		return;
	e->job.stop_requested = 1;
	if (e->ops->stop)
		e->ops->stop(e);
}

void engine_free(struct engine *e)
{
	/* What the teardown reports reaches nobody: the back end frees the event
	 * (engine_release) before it returns. */
	if (e)
		e->ops->free(e);
}

int engine_job_move(struct engine *e, const struct hive_move *m, const char *text,
		    char *err, size_t errlen)
{
	struct engine_job *j = &e->job;
	struct hive_move legal;
	char why[256];

	if (j->kind != ENGINE_JOB_GO || e->finished)
		return errbuf_set(err, errlen, "a move nobody asked for");
	if (text) {
		int rc = hive_move_parse(&j->game.board, text, &legal, why, sizeof why);
		if (rc != HIVE_OK)
			return errbuf_set(err, errlen, "%s move \"%.79s\": %s",
					  rc == HIVE_ERR_SYNTAX ? "unreadable" : "illegal", text, why);
	} else if (!hive_board_find_move(&j->game.board, *m, &legal)) {
		if (m->piece == HIVE_PASS_PIECE)
			return errbuf_set(err, errlen, "illegal move: pass while moves exist");
		if (m->piece >= HIVE_PIECES)
			return errbuf_set(err, errlen, "illegal move: no such piece");
		return errbuf_set(err, errlen, "illegal move: %s to cell %u",
				  hive_piece_name(m->piece), (unsigned)m->to);
	}
	j->move = legal;
	j->has_move = 1;
	return 0;
}

void engine_job_finish(struct engine *e, enum engine_status st, const char *msg, char **lines)
{
	if (e->job.kind == ENGINE_JOB_NONE || e->finished) {
		lines_free(lines);
		return;
	}
	if (e->job.kind == ENGINE_JOB_GO && st == ENGINE_OK && !e->job.has_move) {
		st = ENGINE_FAILED;        /* never a move that was not checked */
		msg = "answered with no move";
	}
	result_clear(e);
	e->res.status = st;
	/* Messages quote the engine: keep them one printable line for any protocol
	 * (its line breaks read " / ", not '?'). */
	size_t mlen = msg ? 3 * strlen(msg) + 1 : 0;
	e->message = msg ? malloc(mlen) : NULL;
	if (e->message)
		util_one_line(e->message, mlen, msg);
	for (char *c = e->message; c && *c; c++)
		if ((unsigned char)*c >= 0x7f)
			*c = '?';
	e->res.message = e->message;
	if (e->job.kind == ENGINE_JOB_GO && st == ENGINE_OK)
		e->res.move = e->job.move;
	e->lines = lines;
	e->res.lines = (const char **)lines;
	if (st != ENGINE_OK)
		e->ninfos = 0;
	e->finished = 1;
	if (e->ops->ending)
		e->ops->ending(e);
	engine_kick(e);
}

void engine_job_unknown_option(struct engine *e)
{
	char msg[160];

	snprintf(msg, sizeof msg, "The option \"%.100s\" is not valid.", e->job.name ? e->job.name : "");
	engine_job_finish(e, ENGINE_ERROR, msg, NULL);
}

void engine_job_info(struct engine *e, const struct hive_search_info *info, int latest)
{
	if (e->job.kind != ENGINE_JOB_GO || e->finished || !e->job.info)
		return;
	if (latest)
		e->ninfos = 0;
	if (e->ninfos == e->infos_cap) {
		size_t cap = e->infos_cap ? 2 * e->infos_cap : 4;
		struct hive_search_info *n;
		if (e->ninfos >= ENGINE_INFO_MAX || !(n = realloc(e->infos, cap * sizeof *n)))
			return;    /* dropped: only a progress report */
		e->infos = n;
		e->infos_cap = cap;
	}
	e->infos[e->ninfos++] = *info;
	engine_kick(e);
}

void engine_failure_reason(const struct engine_result *r, char *buf, size_t len)
{
	const char *msg = r->message ? r->message : "no reason given";
	if (r->status == ENGINE_FAILED) {
		if (!strncmp(msg, "illegal move", 12))
			snprintf(buf, len, "%s", msg);
		else if (!strncmp(msg, "unreadable move", 15))
			snprintf(buf, len, "illegal move: %s", msg);
		else if (strstr(msg, "in time") || strstr(msg, "did not stop"))
			snprintf(buf, len, "time forfeit (engine stalled: %s)", msg);
		else
			snprintf(buf, len, "engine crashed: %s", msg);
	} else if (r->status == ENGINE_INVALID) {
		snprintf(buf, len, "engine refused a legal move: %s", msg);
	} else {
		snprintf(buf, len, "engine error: %s", msg);
	}
}
