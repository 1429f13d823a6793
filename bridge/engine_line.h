/*
 * engine_line.h: what every back end that drives a line-protocol child (uhp_back,
 * hub_back, otep_back) has around its protocol: the struct engine and its
 * engine_child, and the step that decides whether the job (bridge/engine.h's, which
 * the interface owns) needs the child spawned, waits, or gets its next command.
 *
 * The back end embeds a struct engine_line (zeroed) in its state, which stays
 * e.priv; the engine_line owns the child; engine_line_release() frees it and the
 * interface's part of the engine. The protocol (which command comes next, what a
 * line means, what a time-out says) stays with the back end.
 */
#ifndef BRIDGE_ENGINE_LINE_H
#define BRIDGE_ENGINE_LINE_H

#include <stddef.h>

#include "bridge/engine.h"

struct engine_child_ops;

struct engine_line {
	struct engine          e;             /* first: engine_line_set_log_id finds l from it */
	struct engine_child   *child;
	unsigned               log_id;
};

/* A back end's state of size bytes, zeroed, for a profile that must name a command
 * to run: NULL with the reason in err when p names none or memory is out. */
void *engine_line_alloc(const struct engine_profile *p, size_t size, char *err, size_t errlen);
/* Fills l for the back end priv: the engine (ops eops, profile p) and a child slot
 * (bridge/engine_child.h: max_line, line_slack, cops called with priv). -1 with the
 * reason in err when memory is out; the caller then calls engine_line_release() and
 * frees priv. */
int  engine_line_init(struct engine_line *l, struct event_base *base, const struct engine_profile *p,
		      const struct engine_ops *eops, void *priv, size_t max_line, size_t line_slack,
		      const struct engine_child_ops *cops, char *err, size_t errlen);
/* Gives the child up (engine_child_close with farewell) and frees all l holds, the
 * interface's part of the engine included, but not l; no callback fires afterwards.
 * Safe on a half-built l. */
void engine_line_release(struct engine_line *l, const char *farewell);

/* engine_ops.set_log_id: tags the child's lines. */
void engine_line_set_log_id(struct engine *e, unsigned id);

/* For engine_child_ops.ended: notes a child that died while no job waited. */
void engine_line_note_ended(const struct engine_line *l, const char *what);
/* engine_child_ops.ended's common body: engine_line_note_ended, then fails the child
 * with what and tail (say " during start", or ""). */
void engine_line_ended(struct engine_line *l, const char *what, const char *tail);
/* What the advance of a back end whose child is down, starting or idle does next. */
enum engine_line_next { ENGINE_LINE_HOLD, ENGINE_LINE_SPAWN, ENGINE_LINE_SEND };
/* That advance's head: HOLD when there is nothing to send now (no job, a wait in
 * progress, a dying child, whose exit or grace timer fails the job, or one still
 * starting), SPAWN when the job needs the child started, SEND when the idle child
 * gets the job's next command. A start job ends here, ENGINE_OK, once idle (HOLD). */
enum engine_line_next engine_line_next(struct engine_line *l, int waiting, int down, int idle);

#endif
