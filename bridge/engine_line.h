/*
 * engine_line.h: what every back end that drives a line-protocol child (uhp_back,
 * hub_back, otep_back) has around its protocol: the struct engine and its
 * engine_child, one job at a time (start, go, options) and who waits for it, the
 * game and limits of a go, and the deferred event that delivers the job's result
 * (struct engine_reply) or else asks the back end for its next command.
 *
 * The back end embeds a struct engine_line (zeroed) in its state, which stays
 * e.priv; the engine_line owns the child, the event, the job's copies and the
 * reply; engine_line_release() frees them. The protocol (which command comes next,
 * what a line means, what a time-out says) stays with the back end.
 */
#ifndef BRIDGE_ENGINE_LINE_H
#define BRIDGE_ENGINE_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "bridge/engine.h"

struct event;
struct engine_child_ops;

enum engine_line_job { ENGINE_LINE_NONE, ENGINE_LINE_START, ENGINE_LINE_GO, ENGINE_LINE_OPTIONS };

/* The back end's side; each gets the back end's state (e.priv). */
struct engine_line_ops {
	/* The deferred event found no result to deliver: send the job's next command,
	 * or finish it. */
	void (*advance)(void *priv);
	/* Optional: the job ends (engine_line_finish, once the result is stored):
	 * forget the back end's part of it (the wait in progress, what it gathered). */
	void (*ending)(void *priv);
	/* Optional: a result is about to be delivered (say, the search's last info
	 * first); it must not free the engine. */
	void (*delivering)(void *priv);
};

struct engine_line {
	struct engine          e;             /* first: engine_line_start & co. find l from it */
	struct engine_child   *child;
	unsigned               log_id;

	/* The job. */
	enum engine_line_job   job;
	engine_done_cb        *done;
	engine_info_cb        *info;         /* go */
	void                  *arg;
	struct hive_game       want;          /* go: the game to search */
	struct engine_limits   limits;        /* go */
	int64_t                go_ms;         /* go: when it was asked (now_ms), for its deadline */
	int                    stop_requested;
	int                    opt_argc;      /* options: 0 list, 2 get, 3 set */
	char                  *opt_name;      /* options: get and set */
	char                  *opt_value;     /* options: set */

	struct engine_reply    reply;         /* the finished job's, delivered by kick */
	struct event          *kick;
	const struct engine_line_ops *ops;
};

/* A back end's state of size bytes, zeroed, for a profile that must name a command
 * to run: NULL with *cause (the caller frees it) when p names none or memory is out. */
void *engine_line_alloc(const struct engine_profile *p, size_t size, char **cause);
/* Fills l for the back end priv: the engine (ops eops, profile p), a child slot
 * (bridge/engine_child.h: max_line, line_slack, cops called with priv) and the
 * kick event (the back end checks p's command, if it needs one). -1 with *cause (the
 * caller frees it) when memory is out; the caller then calls engine_line_release()
 * and frees priv. */
int  engine_line_init(struct engine_line *l, struct event_base *base, const struct engine_profile *p,
		      const struct engine_ops *eops, void *priv, const struct engine_line_ops *ops,
		      size_t max_line, size_t line_slack, const struct engine_child_ops *cops,
		      char **cause);
/* Gives the child up (engine_child_close with farewell) and frees all l holds, but
 * not l; no callback fires afterwards. Safe on a half-built l. */
void engine_line_release(struct engine_line *l, const char *farewell);

/* 1 while a job is outstanding or its result undelivered. */
int  engine_line_busy(const struct engine_line *l);
/* Takes a job for done(arg) and kicks: -1 while another is outstanding. */
int  engine_line_begin(struct engine_line *l, enum engine_line_job job, engine_done_cb *done,
		       void *arg);
/* engine_ops.go's common part: copies g and lim, then begins a go. */
int  engine_line_go(struct engine_line *l, const struct hive_game *g, const struct engine_limits *lim,
		    engine_info_cb *info, engine_done_cb *done, void *arg);

/* Entries for a back end's engine_ops (e is the engine_line's): start begins a start
 * job; options checks the request's form ({}, {"get", name}, {"set", name, value}),
 * keeps it in opt_* and begins an options job; set_log_id tags the child's lines. */
int  engine_line_start(struct engine *e, engine_done_cb *done, void *arg);
int  engine_line_options(struct engine *e, int argc, const char **argv, engine_done_cb *done,
			 void *arg);
void engine_line_set_log_id(struct engine *e, unsigned id);

/* Ends the job with a result (msg copied, lines taken), which the kick event
 * delivers; forgets the job and stops the child's timer. */
void engine_line_finish(struct engine_line *l, enum engine_status st, const char *msg,
			const struct hive_move *move, char **lines);
/* Finishes an options job whose option the engine does not have. */
void engine_line_finish_unknown_option(struct engine_line *l);
/* Runs the kick event soon (the back end's advance, or the delivery). */
void engine_line_kick(struct engine_line *l);
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
