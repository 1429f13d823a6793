/*
 * proc.h: child processes (engines) on the event loop. A child gets a socketpair as
 * stdin+stdout and a pipe as stderr, runs in its own process group, and is reaped by
 * a SIGCHLD event. All children of the process share one registry (pid -> callback)
 * bound to one event base; it releases itself when its last child is gone.
 *
 * Ending a child never blocks: proc_close() hands it to the registry, which sends a
 * farewell line, then SIGTERM, then SIGKILL on timers and frees it once reaped.
 *
 * What a child starts stays in its process group and dies with it: once the child
 * is reaped (closed or not), the rest of its group gets SIGTERM, then SIGKILL after
 * the close's grace (1 s if it died on its own), and is watched until empty. A
 * child dies with the daemon (PR_SET_PDEATHSIG, SIGKILL); its own children do only
 * when the daemon ends normally. A process that leaves the group (setsid) escapes.
 */
#ifndef BRIDGE_PROC_H
#define BRIDGE_PROC_H

#include <stddef.h>
#include <sys/types.h>

struct event_base;
struct bufferevent;
struct proc;

/* The child was reaped; status as from waitpid(). */
typedef void proc_exit_cb(void *arg, int status);

/* Spawns argv[0] (searched in PATH) in workdir (NULL = inherit). Returns NULL with
 * the reason in err if anything fails, exec and chdir included. The caller owns the
 * proc until proc_close() or proc_free(). */
struct proc *proc_spawn(struct event_base *base, char *const argv[], const char *workdir,
			char *err, size_t errlen);

/* The child's stdin+stdout and its stderr, owned by p. Set their callbacks freely;
 * proc_close()/proc_free() replace them. */
struct bufferevent *proc_stdio(struct proc *p);
struct bufferevent *proc_stderr(struct proc *p);
pid_t proc_pid(const struct proc *p);

/* 1 (and *status) once the child has been reaped, else 0. */
int  proc_exited(const struct proc *p, int *status);
/* Called once when the child is reaped (not after proc_close/proc_free). */
void proc_set_exit_cb(struct proc *p, proc_exit_cb *cb, void *arg);
/* Sends sig to the child's process group (as a terminal's ^C would: a shell
 * wrapper's engine hears it too); -1 if the child is already reaped, so that its
 * orphans never hear a SIGINT meant for a search. */
int  proc_signal(struct proc *p, int sig);

/* Gives p up: writes farewell (may be NULL) to its stdin, sends SIGTERM after
 * grace_ms, SIGKILL grace_ms later, and frees it when reaped. No callback of the
 * caller fires afterwards. grace_ms 0 and no farewell: SIGKILL at once. */
void proc_close(struct proc *p, const char *farewell, unsigned grace_ms);
/* proc_close(p, NULL, 0); safe on NULL and on a half-built proc. */
void proc_free(struct proc *p);

/* Children spawned and not yet freed (alive or dying), and groups whose leader is
 * gone but whose other members are still being ended. */
size_t proc_count(void);
/* At shutdown: runs base until every child is reaped and every group empty, or
 * timeout_ms passes, then kills and reaps the rest (blocking; SIGKILLed groups get
 * up to 5 s to empty) and releases the registry. Call before event_base_free(). */
void proc_drain(struct event_base *base, unsigned timeout_ms);

#endif
