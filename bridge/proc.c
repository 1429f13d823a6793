/*
 * proc.c: child processes. fork + exec with a close-on-exec status pipe so that the
 * parent learns whether chdir/exec failed; a SIGCHLD event reaps with
 * waitpid(WNOHANG); dying children stay in the registry until reaped.
 *
 * Each child leads a process group of its own, and what it started stays in that
 * group: once the leader is reaped, the rest of the group (its orphans) is sent
 * SIGTERM, then SIGKILL after a grace, and polled with kill(-pgid, 0) until empty.
 * The group's number cannot be handed out again while a member lives (Linux keeps
 * a pid in use while it names a group), only once the group is empty; a child we
 * spawn with that number proves it so, and the 25 ms between polls leave no room
 * for the pid counter to wrap round to it otherwise. A process that calls setsid()
 * or setpgid() leaves the group and is out of reach (a cgroup would be needed).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "bridge/log.h"
#include "bridge/proc.h"
#include "bridge/util.h"
#include "core/errbuf.h"

/* The orphans of an engine that died on its own get this long after SIGTERM. */
#define PROC_ORPHAN_GRACE_MS 1000
/* How often a group whose leader is gone is looked at. */
#define PROC_GROUP_POLL_MS   25
/* After SIGKILL, a group still not empty this long later is given up (a member
 * stuck in the kernel, or one we may not signal), with a warning. */
#define PROC_GROUP_GIVEUP_MS 5000

enum proc_stage {
	PROC_OWNED,       /* the caller holds it */
	PROC_FAREWELL,    /* closed: farewell sent, SIGTERM due */
	PROC_TERM,        /* closed: SIGTERM sent, SIGKILL due */
	PROC_KILL         /* closed: SIGKILL sent, waiting for the reap */
};

struct proc {
	pid_t               pid;          /* 0 until forked */
	int                 reaped;
	int                 status;
	enum proc_stage     stage;
	unsigned            grace_ms;
	struct bufferevent *io;           /* child's stdin+stdout */
	struct bufferevent *err;          /* child's stderr */
	struct event       *timer;        /* shutdown escalation */
	proc_exit_cb       *exit_cb;
	void               *exit_arg;
	int                 registered;   /* in registry.procs */
	LIST_ENTRY(proc)    link;
};

/* The rest of a process group whose leader has been reaped. */
struct proc_group {
	pid_t               pgid;
	int                 killed;       /* SIGKILL sent */
	uint64_t            kill_at;      /* ms (monotonic): SIGKILL due */
	uint64_t            giveup_at;    /* ms: stop looking */
	struct event       *timer;
	LIST_ENTRY(proc_group) link;      /* registry.groups */
};

/* One per process: signals belong to the process, and libevent lets one base
 * handle a given signal at a time. count covers both lists. */
static struct {
	struct event_base *base;
	struct event      *sigchld;
	LIST_HEAD(, proc)  procs;         /* empty when zeroed, like each field */
	LIST_HEAD(, proc_group) groups;
	size_t             count;
} registry;

static void proc_destroy(struct proc *p);
static void group_sweep(pid_t pgid, unsigned grace_ms);
static unsigned proc_orphan_grace(const struct proc *p);

/* 1 if the child was reaped (a callback may then have changed the registry). */
static int proc_reap_one(struct proc *p)
{
	int status;
	pid_t r;

	do
		r = waitpid(p->pid, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	p->reaped = 1;
	p->status = r > 0 ? status : 0;   /* ECHILD: someone else reaped it */
	group_sweep(p->pid, proc_orphan_grace(p));
	if (p->stage == PROC_OWNED) {
		if (p->exit_cb)
			p->exit_cb(p->exit_arg, p->status);
	} else {
		proc_destroy(p);
	}
	return 1;
}

static void proc_sigchld(evutil_socket_t sig, short what, void *arg)
{
	struct proc *p;
	/* An exit callback may free any proc: start over after each reap. Reaped
	 * children are skipped, so this ends. */
again:
	LIST_FOREACH(p, &registry.procs, link)
		if (!p->reaped && p->pid > 0 && proc_reap_one(p))
			goto again;
}

static int registry_join(struct event_base *base, struct proc *p, char *err, size_t errlen)
{
	if (registry.base && registry.base != base) {
		errbuf_set(err, errlen, "child processes already run on another event loop");
		return -1;
	}
	if (!registry.sigchld) {
		registry.sigchld = evsignal_new(base, SIGCHLD, proc_sigchld, NULL);
		if (!registry.sigchld || evsignal_add(registry.sigchld, NULL) < 0) {
			util_event_free(&registry.sigchld);
			errbuf_set(err, errlen, "cannot watch SIGCHLD");
			return -1;
		}
		registry.base = base;
		/* A write to a dead engine must be an error, not the end of the daemon. */
		signal(SIGPIPE, SIG_IGN);
	}
	LIST_INSERT_HEAD(&registry.procs, p, link);
	registry.count++;
	p->registered = 1;
	return 0;
}

static void registry_release(void)
{
	if (--registry.count == 0) {
		/* Last child gone: let the base go idle and be freed. */
		event_free(registry.sigchld);
		registry.sigchld = NULL;
		registry.base = NULL;
	}
}

static void registry_leave(struct proc *p)
{
	if (!p->registered)
		return;
	LIST_REMOVE(p, link);
	p->registered = 0;
	registry_release();
}

/* 1 while a process of group pgid exists (EPERM: one we may not signal). */
static int group_alive(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

static void group_free(struct proc_group *g)
{
	LIST_REMOVE(g, link);
	event_free(g->timer);
	free(g);
	registry_release();
}

static void group_tick(evutil_socket_t fd, short what, void *arg)
{
	struct proc_group *g = arg;
	struct timeval tv = { 0, PROC_GROUP_POLL_MS * 1000 };
	uint64_t now = (uint64_t)now_ms();

	if (!group_alive(g->pgid)) {
		group_free(g);
		return;
	}
	if (!g->killed && now >= g->kill_at) {
		kill(-g->pgid, SIGKILL);
		g->killed = 1;
		g->giveup_at = now + PROC_GROUP_GIVEUP_MS;
	} else if (g->killed && now >= g->giveup_at) {
		log_warn(0, "process group %ld still has members %u ms after SIGKILL: given up",
			 (long)g->pgid, PROC_GROUP_GIVEUP_MS);
		group_free(g);
		return;
	}
	evtimer_add(g->timer, &tv);
}

/* The leader of group pgid has been reaped: ends the rest of the group, SIGTERM
 * then SIGKILL grace_ms later (at once for 0), on the registry's timers. */
static void group_sweep(pid_t pgid, unsigned grace_ms)
{
	struct timeval tv = { 0, PROC_GROUP_POLL_MS * 1000 };
	struct proc_group *g;
	uint64_t now = (uint64_t)now_ms();

	if (pgid <= 0 || !group_alive(pgid))
		return;
	g = calloc(1, sizeof *g);
	if (g)
		g->timer = evtimer_new(registry.base, group_tick, g);
	if (!g || !g->timer) {
		kill(-pgid, SIGKILL);     /* nothing to watch it with: the last word now */
		free(g);
		return;
	}
	g->pgid = pgid;
	LIST_INSERT_HEAD(&registry.groups, g, link);
	registry.count++;
	if (grace_ms == 0) {
		kill(-pgid, SIGKILL);
		g->killed = 1;
		g->giveup_at = now + PROC_GROUP_GIVEUP_MS;
	} else {
		kill(-pgid, SIGTERM);
		g->kill_at = now + grace_ms;
	}
	evtimer_add(g->timer, &tv);
}

/* The grace the rest of p's group gets once p is reaped. */
static unsigned proc_orphan_grace(const struct proc *p)
{
	switch (p->stage) {
	case PROC_OWNED:
		return PROC_ORPHAN_GRACE_MS;
	case PROC_FAREWELL:
	case PROC_TERM:
		return p->grace_ms;
	default:
		return 0;
	}
}

/* Releases everything; safe at any point of proc_spawn. */
static void proc_destroy(struct proc *p)
{
	util_bev_free(&p->io);
	util_bev_free(&p->err);
	util_event_free(&p->timer);
	registry_leave(p);
	free(p);
}

/* In the child: never returns. Reports a failing step to the status pipe as
 * "step errno". */
static void proc_child(int io, int errw, int st, char *const argv[], const char *workdir,
		       pid_t parent) __attribute__((noreturn));
static void proc_child(int io, int errw, int st, char *const argv[], const char *workdir,
		       pid_t parent)
{
	struct { int step, err; } report;
	sigset_t all;

	/* Die with the daemon, also when it is SIGKILLed or OOM-killed; a parent that
	 * died before prctl took effect is seen as a new parent pid. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	setpgid(0, 0);
	/* The engine starts with a clean signal state, whatever libevent set up. */
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);

	/* Lift the three descriptors out of 0..3 before placing them there. */
	io = fcntl(io, F_DUPFD_CLOEXEC, 4);
	errw = fcntl(errw, F_DUPFD_CLOEXEC, 4);
	st = fcntl(st, F_DUPFD_CLOEXEC, 4);
	report.step = 0;
	if (io < 0 || errw < 0 || st < 0 || dup2(io, 0) < 0 || dup2(io, 1) < 0 ||
	    dup2(errw, 2) < 0 || dup3(st, 3, O_CLOEXEC) < 0)
		goto fail;
	if (close_range(4, ~0U, 0) < 0) {
		long max = sysconf(_SC_OPEN_MAX);
		for (long fd = 4; fd < (max > 0 ? max : 1024); fd++)
			close((int)fd);
	}
	st = 3;
	report.step = 1;
	if (workdir && chdir(workdir) < 0)
		goto fail;
	report.step = 2;
	execvp(argv[0], argv);
fail:
	report.err = errno;
	if (st >= 0) {
		ssize_t w = write(st, &report, sizeof report);
		(void)w;
	}
	_exit(127);
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void close_fds(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

struct proc *proc_spawn(struct event_base *base, char *const argv[], const char *workdir,
			char *err, size_t errlen)
{
	/* sv[0], errp[0], stp[0]: parent ends; sv[1], errp[1], stp[1]: child ends */
	int sv[2] = { -1, -1 }, errp[2] = { -1, -1 }, stp[2] = { -1, -1 };
	struct proc *p;

	if (!argv || !argv[0]) {
		errbuf_set(err, errlen, "no command to run");
		return NULL;
	}
	p = calloc(1, sizeof *p);
	if (!p) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    pipe2(errp, O_CLOEXEC) < 0 || pipe2(stp, O_CLOEXEC) < 0) {
		errbuf_set(err, errlen, "%s: %s", argv[0], strerror(errno));
		goto fail;
	}
	if (registry_join(base, p, err, errlen) < 0)
		goto fail;

	pid_t parent = getpid();
	p->pid = fork();
	if (p->pid < 0) {
		p->pid = 0;
		errbuf_set(err, errlen, "%s: fork: %s", argv[0], strerror(errno));
		goto fail;
	}
	if (p->pid == 0)
		proc_child(sv[1], errp[1], stp[1], argv, workdir, parent);
	setpgid(p->pid, p->pid);   /* both sides set it: no race with our signals */
	/* Its pid was free, so a group of that number we still watch is empty. */
	struct proc_group *g;
	LIST_FOREACH(g, &registry.groups, link)
		if (g->pgid == p->pid) {
			group_free(g);
			break;
		}
	close(sv[1]);
	close(errp[1]);
	close(stp[1]);
	sv[1] = errp[1] = stp[1] = -1;

	/* EOF on the status pipe means exec succeeded (it closed on exec). */
	struct { int step, err; } report;
	ssize_t n;
	do
		n = read(stp[0], &report, sizeof report);
	while (n < 0 && errno == EINTR);
	close(stp[0]);
	stp[0] = -1;
	if (n == (ssize_t)sizeof report) {
		static const char *const steps[] = { "set up descriptors", "chdir", "exec" };
		const char *step = report.step >= 0 && report.step < 3 ? steps[report.step] : "start";
		if (report.step == 1)
			errbuf_set(err, errlen, "%s: cannot chdir to %s: %s", argv[0], workdir,
					     strerror(report.err));
		else
			errbuf_set(err, errlen, "%s: cannot %s: %s", argv[0], step, strerror(report.err));
		while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
			;
		p->reaped = 1;
		goto fail;
	}

	if (set_nonblock(sv[0]) < 0 || set_nonblock(errp[0]) < 0) {
		errbuf_set(err, errlen, "%s: %s", argv[0], strerror(errno));
		goto fail_kill;
	}
	p->io = bufferevent_socket_new(base, sv[0], BEV_OPT_CLOSE_ON_FREE);
	if (!p->io)
		goto fail_mem;
	sv[0] = -1;
	p->err = bufferevent_socket_new(base, errp[0], BEV_OPT_CLOSE_ON_FREE);
	if (!p->err)
		goto fail_mem;
	errp[0] = -1;
	return p;

fail_mem:
	errbuf_set(err, errlen, "%s: cannot set up its pipes", argv[0]);
fail_kill:
	kill(p->pid, SIGKILL);
	while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
		;
	p->reaped = 1;
fail:
	close_fds(sv, 2);
	close_fds(errp, 2);
	close_fds(stp, 2);
	proc_destroy(p);
	return NULL;
}

struct bufferevent *proc_stdio(struct proc *p) { return p->io; }
struct bufferevent *proc_stderr(struct proc *p) { return p->err; }
pid_t proc_pid(const struct proc *p) { return p->pid; }

int proc_exited(const struct proc *p, int *status)
{
	if (p->reaped && status)
		*status = p->status;
	return p->reaped;
}

void proc_set_exit_cb(struct proc *p, proc_exit_cb *cb, void *arg)
{
	p->exit_cb = cb;
	p->exit_arg = arg;
}

int proc_signal(struct proc *p, int sig)
{
	if (p->reaped || p->pid <= 0)
		return -1;
	if (kill(-p->pid, sig) < 0 && kill(p->pid, sig) < 0)
		return -1;
	return 0;
}

/* A closed proc's output is read and dropped so that the child never blocks on a
 * full pipe while it shuts down; at EOF or error the descriptor is released. */
static void proc_drop_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer *in = bufferevent_get_input(bev);
	evbuffer_drain(in, evbuffer_get_length(in));
}

static void proc_drop_event(struct bufferevent *bev, short what, void *arg)
{
	struct proc *p = arg;
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	if (bev == p->io)
		p->io = NULL;
	else
		p->err = NULL;
	bufferevent_free(bev);
}

static void proc_escalate(evutil_socket_t fd, short what, void *arg)
{
	struct proc *p = arg;
	struct timeval tv = { p->grace_ms / 1000, (p->grace_ms % 1000) * 1000 };

	if (p->reaped)
		return;
	if (p->stage == PROC_FAREWELL) {
		p->stage = PROC_TERM;
		proc_signal(p, SIGTERM);
		evtimer_add(p->timer, &tv);
	} else if (p->stage == PROC_TERM) {
		p->stage = PROC_KILL;
		proc_signal(p, SIGKILL);
	}
}

void proc_close(struct proc *p, const char *farewell, unsigned grace_ms)
{
	if (!p)
		return;
	p->exit_cb = NULL;
	p->exit_arg = NULL;
	if (p->reaped || p->pid <= 0 || !p->registered) {
		proc_destroy(p);
		return;
	}
	if (p->io) {
		bufferevent_setcb(p->io, proc_drop_read, NULL, proc_drop_event, p);
		bufferevent_enable(p->io, EV_READ | EV_WRITE);   /* its owner may have kept it off */
	}
	if (p->err) {
		bufferevent_setcb(p->err, proc_drop_read, NULL, proc_drop_event, p);
		bufferevent_enable(p->err, EV_READ);
	}
	p->grace_ms = grace_ms;
	if (!farewell && !grace_ms) {
		p->stage = PROC_KILL;
		proc_signal(p, SIGKILL);
		return;
	}
	p->timer = evtimer_new(registry.base, proc_escalate, p);
	if (!p->timer) {
		p->stage = PROC_KILL;
		proc_signal(p, SIGKILL);
		return;
	}
	if (farewell && p->io)
		bufferevent_write(p->io, farewell, strlen(farewell));
	p->stage = PROC_FAREWELL;
	if (!farewell) {
		proc_escalate(-1, 0, p);    /* straight to SIGTERM */
		return;
	}
	struct timeval tv = { grace_ms / 1000, (grace_ms % 1000) * 1000 };
	evtimer_add(p->timer, &tv);
}

void proc_free(struct proc *p)
{
	proc_close(p, NULL, 0);
}

size_t proc_count(void)
{
	return registry.count;
}

static void proc_drain_timeout(evutil_socket_t fd, short what, void *arg)
{
	*(int *)arg = 1;
}

void proc_drain(struct event_base *base, unsigned timeout_ms)
{
	int expired = 0;
	struct event *t;
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };

	if (!registry.count)
		return;
	t = evtimer_new(base, proc_drain_timeout, &expired);
	if (t && evtimer_add(t, &tv) == 0) {
		while (registry.count && !expired)
			event_base_loop(base, EVLOOP_ONCE);
	}
	util_event_free(&t);
	struct proc *p = LIST_FIRST(&registry.procs), *next;
	while (p) {
		next = LIST_NEXT(p, link);
		if (!p->reaped && p->pid > 0) {
			proc_signal(p, SIGKILL);
			while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
				;
			p->reaped = 1;
			p->status = SIGKILL;
			group_sweep(p->pid, 0);
		}
		/* A proc still owned (a leak of its owner) stays for its owner to free. */
		if (p->stage != PROC_OWNED)
			proc_destroy(p);
		p = next;
	}
	/* The groups left: SIGKILL, and a short blocking wait for them to empty (their
	 * members are not our children: init reaps them). */
	uint64_t giveup = (uint64_t)now_ms() + PROC_GROUP_GIVEUP_MS;
	int left = 0;
	struct proc_group *g;
	LIST_FOREACH(g, &registry.groups, link)
		kill(-g->pgid, SIGKILL);
	do {
		left = 0;
		LIST_FOREACH(g, &registry.groups, link)
			left += group_alive(g->pgid);
		if (left) {
			struct timespec ts = { 0, 5 * 1000000 };
			nanosleep(&ts, NULL);
		}
	} while (left && (uint64_t)now_ms() < giveup);
	if (left)
		log_warn(0, "%d process group(s) of engines still have members after SIGKILL", left);
	while (!LIST_EMPTY(&registry.groups))
		group_free(LIST_FIRST(&registry.groups));
}
