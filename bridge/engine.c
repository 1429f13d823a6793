/*
 * engine.c: engine_new(), the factory that picks the back end a profile names: the
 * built-in one, or the back end of the protocol its kind names (bridge/protocol.h);
 * and the deferred result every back end delivers (struct engine_reply).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "bridge/protocol.h"
#include "bridge/util.h"

struct engine *engine_new(struct event_base *base, const struct engine_profile *p, char **cause)
{
	const char *kind = p && p->kind ? p->kind : "builtin";
	const struct protocol *pr;

	if (!strcmp(kind, "builtin"))
		return engine_builtin_new(base, p, cause);
	if ((pr = protocol_by_kind(kind)) != NULL && pr->back_new)
		return pr->back_new(base, p, cause);
	if (asprintf(cause, "profile %s: unknown engine kind \"%s\"",
		     p && p->name ? p->name : "?", kind) < 0)
		*cause = NULL;
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

void engine_reply_set(struct engine_reply *r, engine_done_cb *done, void *arg,
		      enum engine_status st, const char *msg, const struct hive_move *move,
		      char **lines)
{
	engine_reply_free(r);
	r->res.status = st;
	/* Messages quote the engine: keep them one printable line for any protocol
	 * (its line breaks read " / ", not '?'). */
	size_t mlen = msg ? 3 * strlen(msg) + 1 : 0;
	r->message = msg ? malloc(mlen) : NULL;
	if (r->message)
		util_one_line(r->message, mlen, msg);
	for (char *c = r->message; c && *c; c++)
		if ((unsigned char)*c >= 0x7f)
			*c = '?';
	r->res.message = r->message;
	if (move)
		r->res.move = *move;
	r->lines = lines;
	r->res.lines = (const char **)lines;
	r->done = done;
	r->arg = arg;
	r->ready = 1;
}

int engine_reply_deliver(struct engine_reply *r)
{
	if (!r->ready)
		return 0;
	r->ready = 0;
	engine_done_cb *done = r->done;
	r->done = NULL;
	/* Last thing: the callback may free the engine (and r) or start a command. */
	if (done)
		done(r->arg, &r->res);
	return 1;
}

void engine_reply_free(struct engine_reply *r)
{
	free(r->message);
	lines_free(r->lines);
	memset(r, 0, sizeof *r);
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
