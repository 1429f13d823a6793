/*
 * engine_child.h: the plumbing an external, line-oriented engine back end needs
 * (uhp_back, hub_back): its child process (bridge/proc.h) with stdout read as
 * bounded lines, stderr logged line by line, one timer for the wait in progress,
 * and the child's end turned into a reason. The protocol stays with the back end,
 * which owns the struct engine_child and hears from it through engine_child_ops.
 *
 * Every callback comes from the event loop (a bufferevent, the timer or the exit
 * event), or from inside an engine_child_* call that failed; none may free the
 * engine_child: back ends defer their results anyway.
 */
#ifndef BRIDGE_ENGINE_CHILD_H
#define BRIDGE_ENGINE_CHILD_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct bufferevent;
struct engine_child;

struct engine_child_ops {
	/* One stdout line without its LF (and CR), already logged as engine->bridge. */
	void (*line)(void *arg, const char *line, size_t len);
	/* The child ended ("exited with status 1", "closed its output", ...); it is
	 * still held: the back end says why it matters and calls engine_child_fail(). */
	void (*ended)(void *arg, const char *what);
	/* The timer of engine_child_arm() ran out; the back end calls engine_child_fail(). */
	void (*timeout)(void *arg);
	/* The child has been killed for why (logged already): the back end forgets it
	 * and fails its job. */
	void (*failed)(void *arg, const char *why);
	/* Optional: the start of a line over the limit (what is buffered of it), just
	 * before the child is failed for it; for a report that shows the bytes. */
	void (*overflow)(void *arg, const char *head, size_t len);
};

/* A back end's child slot, empty until engine_child_spawn(). name (the profile's,
 * for log notes) and ops must outlive it. Lines longer than max_line fail the child;
 * a complete line may run line_slack bytes over (a CR the codec checks itself).
 * The caller owns the result (engine_child_free); NULL when memory is out. */
struct engine_child *engine_child_new(struct event_base *base, const char *name,
				      size_t max_line, size_t line_slack,
				      const struct engine_child_ops *ops, void *arg);
/* Session number its lines and notes are logged under (default 0). */
void engine_child_set_log_id(struct engine_child *c, unsigned id);

/* Spawns argv in workdir (NULL = inherit) and wires it up. -1 if that fails, after
 * ops->failed ("cannot start: ..."). */
int  engine_child_spawn(struct engine_child *c, char *const argv[], const char *workdir);
/* Adopts bev, an engine already connected (remote play's uhp-player), in place of
 * a child: its lines are read and written the same way; its end is "closed the
 * connection" (no exit status, no signals). Takes bev; -1 if a child or connection
 * is held already (bev is freed then). */
int  engine_child_adopt(struct engine_child *c, struct bufferevent *bev);
/* 1 while there is a child (or an adopted connection). */
int  engine_child_running(const struct engine_child *c);
/* 1 once its stdout has ended and its exit status is awaited. */
int  engine_child_eof(const struct engine_child *c);
/* Logs line (no newline) as bridge->engine and writes it at once; -1 after
 * ops->failed if it cannot be written. */
int  engine_child_send(struct engine_child *c, const char *line);
/* Copies up to len bytes of stdout that are not yet a whole line into buf;
 * returns how many (0 without a child). */
size_t engine_child_pending(const struct engine_child *c, char *buf, size_t len);
/* Bytes written to the child that it has not taken yet (0 without a child). */
size_t engine_child_unsent(const struct engine_child *c);
/* Nonzero while the child has not read all that was written to it: the unsent
 * bytes plus what the socket still holds (SIOCOUTQ: on a socketpair, the memory
 * its buffers take, more than the bytes); 0 without a child. */
size_t engine_child_unread(const struct engine_child *c);
/* Ends the child's input (what was sent is still delivered); -1 without a child. */
int  engine_child_close_input(struct engine_child *c);
/* Runs the event loop until the child has exited (1, *status as from waitpid()) or
 * ms pass (0); -1 without a child. Callbacks fire meanwhile, as from the loop. */
int  engine_child_wait_exit(struct engine_child *c, unsigned ms, int *status);
/* Sends sig to the child; -1 if there is none or it is reaped. */
int  engine_child_signal(struct engine_child *c, int sig);

/* (Re)starts the timer for the wait in progress: ms from now, 0 = no limit. */
void engine_child_arm(struct engine_child *c, uint64_t ms);
void engine_child_disarm(struct engine_child *c);

/* The child broke: logs "engine NAME failed: why", kills it (the registry reaps
 * it), stops the timer, then calls ops->failed. Safe without a child. */
void engine_child_fail(struct engine_child *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Gives the child up politely: farewell (a line, logged) then SIGTERM and SIGKILL
 * grace_ms apart; no callback fires for it afterwards. Safe without a child. */
void engine_child_close(struct engine_child *c, const char *farewell, unsigned grace_ms);
/* Frees c, killing any child left; safe on NULL. */
void engine_child_free(struct engine_child *c);

#endif
