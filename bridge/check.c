/*
 * check.c: `hivebridge check`, a conformance suite (see check.h).
 *
 * A UHP engine gets a synchronous driver: the engine is a child process on two
 * pipes, every write and every read has a deadline (poll), and an engine that
 * stalls, dies or floods is killed. Checks come in groups; when the engine is lost,
 * the rest of its group is skipped and the engine is restarted for the next group.
 *
 * A Hub engine or a Trylobot module is driven through the engine interface instead
 * (bridge/engine.h) on a private event loop: its back end speaks the protocol,
 * enforces the protocol's time-outs and checks every move with the core, and the
 * checker wraps every wait in a deadline of its own. Only what those protocols have
 * is checked (start-up, moves on reference positions, a game, stop, restart); the
 * UHP-only checks are listed as skipped, with the reason.
 *
 * Everything the engine says is compared with the core: move lists as sets of
 * moves (piece and destination; the destination's height follows from the board),
 * GameStrings by parsing them with the core and comparing the moves, not the text,
 * since engines choose their reference pieces differently.
 */
#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "bridge/check.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/log.h"
#include "bridge/proc.h"
#include "core/game.h"

#define CHECK_TIMEOUT_MS    5000        /* default deadline of a command's "ok" */
#define CHECK_MARGIN_MS     500         /* default grace over a bestmove time limit */
#define CHECK_POSITIONS     20          /* default number of random positions */
#define CHECK_MAX_LINE      (1u << 20)  /* a longer engine line is a flood */
#define CHECK_MAX_REPLY     (8u << 20)  /* so is a longer reply */
#define CHECK_SHOW_SENT     160         /* bytes of each command shown in a report */
#define CHECK_SHOW_GOT      480         /* bytes of a reply shown in a report */
#define CHECK_SHOW_MOVES    40          /* moves listed per side of a diff */
#define CHECK_LONG_LINE     (100u * 1024)
#define CHECK_MAX_RESTARTS  2           /* failed restarts before giving up */
#define CHECK_SLACK_MS      2000        /* our deadline over a back end's own time-out */
#define CHECK_GROUP_FAILURES 3          /* quick engine failures before a group is dropped */
#define CHECK_STOP_AFTER_MS 300         /* an infinite search runs this long before stop */
#define CHECK_SELFPLAY      20          /* plies of the game an engine plays against itself */
#define CHECK_DRAIN_MS      3000        /* at exit: how long engines get to quit */
#define CHECK_LOG_ID        1           /* the UHP engine's session number in --log */
/* Where `make install` puts the reference data (DATADIR/data). */
#ifndef HIVEBRIDGE_DATADIR
#define HIVEBRIDGE_DATADIR  "/usr/local/share/hivebridge"
#endif
#define CHECK_DATA_MARK     "nokamute/uhp_tests.txt"   /* a file every data set has */

/* ------------------------------------------------------------------------ */
/* Small utilities                                                           */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fputs("hivebridge check: out of memory\n", stderr);
		abort();
	}
	return q;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A growable string; s is always NUL-terminated once anything was added. */
struct sbuf {
	char  *s;
	size_t len;
	size_t cap;
};

static void sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void sbuf_str(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

static void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sbuf_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void sbuf_free(struct sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

/* Takes the string out of b (an empty string if nothing was added); caller frees. */
static char *sbuf_take(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	memset(b, 0, sizeof *b);
	return s;
}

/* Appends s escaped (engine bytes are untrusted: control and non-ASCII bytes become
 * \n, \r, \t or \xNN) and cut after about max bytes, saying how much was left out. */
static void sbuf_escaped(struct sbuf *b, const char *s, size_t n, size_t max)
{
	size_t shown = 0, i;
	for (i = 0; i < n && shown < max; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[8];
		if (c == '\n')
			strcpy(tmp, "\\n");
		else if (c == '\r')
			strcpy(tmp, "\\r");
		else if (c == '\t')
			strcpy(tmp, "\\t");
		else if (c < 0x20 || c >= 0x7f)
			snprintf(tmp, sizeof tmp, "\\x%02x", c);
		else {
			tmp[0] = (char)c;
			tmp[1] = 0;
		}
		sbuf_str(b, tmp);
		shown += strlen(tmp);
	}
	if (i < n)
		sbuf_printf(b, "...(%zu more bytes)", n - i);
}

/* A list of owned strings. */
struct strlist {
	char  **v;
	size_t  n;
	size_t  cap;
};

static void strlist_add(struct strlist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = xstrdup(s);
}

static void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* splitmix64: a seeded generator, so a --seed replays the same positions. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* ------------------------------------------------------------------------ */
/* The engine process                                                        */

enum rd { RD_LINE, RD_TIMEOUT, RD_EOF, RD_TOOLONG, RD_WRITE };

struct eng {
	pid_t  pid;           /* 0 when not running */
	int    to;            /* its stdin, -1 when closed */
	int    from;          /* its stdout */
	char  *buf;           /* bytes read and not yet split into lines */
	size_t len, cap;
	size_t scanned;       /* bytes of buf known to hold no newline */
	int    eof;
	int    status;        /* wait status once reaped */
	int    reaped;
};

/* One reply: the lines before "ok", and how it ended. */
struct reply {
	struct strlist lines;
	enum rd        end;           /* RD_LINE: it ended with "ok" */
	int64_t        ms;            /* from the command to the end */
	size_t         bytes;
};

static void reply_free(struct reply *r)
{
	strlist_free(&r->lines);
	memset(r, 0, sizeof *r);
}

static void eng_close_fds(struct eng *e)
{
	if (e->to >= 0)
		close(e->to);
	if (e->from >= 0)
		close(e->from);
	e->to = e->from = -1;
	free(e->buf);
	e->buf = NULL;
	e->len = e->cap = e->scanned = 0;
	e->eof = 0;
}

/* Kills the engine's process group and reaps it; safe when nothing runs. */
static void eng_kill(struct eng *e)
{
	eng_close_fds(e);
	if (e->pid > 0 && !e->reaped) {
		kill(-e->pid, SIGKILL);
		kill(e->pid, SIGKILL);
		while (waitpid(e->pid, &e->status, 0) < 0 && errno == EINTR)
			;
		e->reaped = 1;
	}
	e->pid = 0;
}

/* Reaps the engine if it has exited (waiting up to ms); 1 if it has. */
static int eng_wait(struct eng *e, int64_t ms)
{
	int64_t deadline = now_ms() + ms;
	if (e->pid <= 0)
		return 1;
	for (;;) {
		if (e->reaped)
			return 1;
		pid_t r = waitpid(e->pid, &e->status, WNOHANG);
		if (r == e->pid) {
			e->reaped = 1;
			return 1;
		}
		if (r < 0 && errno != EINTR)
			return 1;
		if (now_ms() >= deadline)
			return 0;
		struct timespec slice = { 0, 5 * 1000 * 1000 };
		nanosleep(&slice, NULL);
	}
}

/* How the engine ended, for a report ("exit status 3", "killed by signal 6"). */
static void eng_describe_exit(struct eng *e, char *buf, size_t len)
{
	if (!eng_wait(e, 200))
		snprintf(buf, len, "closed its output but is still running");
	else if (WIFEXITED(e->status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(e->status));
	else if (WIFSIGNALED(e->status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(e->status),
			 strsignal(WTERMSIG(e->status)));
	else
		snprintf(buf, len, "ended (wait status %d)", e->status);
}

/* Spawns argv (in workdir unless NULL) with its stdin and stdout on pipes and
 * stderr on /dev/null, in its own process group (so a kill reaches its children
 * too). -1 with why on failure, chdir and exec failures included. */
static int eng_spawn(struct eng *e, char *const argv[], const char *workdir, char *why, size_t whylen)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, ex[2] = { -1, -1 };
	int err = 0;

	memset(e, 0, sizeof *e);
	e->to = e->from = -1;
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		goto fail;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0 ||
		    (null >= 0 && dup2(null, STDERR_FILENO) < 0) || (workdir && chdir(workdir) < 0))
			err = errno;
		else {
			execvp(argv[0], argv);
			err = errno;
		}
		if (write(ex[1], &err, sizeof err) < 0)
			_exit(126);
		_exit(127);
	}
	setpgid(pid, pid);     /* also from here, so a kill right away reaches the group */
	close(in[0]);
	close(out[1]);
	close(ex[1]);
	in[0] = out[1] = ex[1] = -1;
	e->pid = pid;
	e->to = in[1];
	e->from = out[0];
	/* The exec pipe closes on a successful exec, or carries errno. */
	ssize_t n;
	while ((n = read(ex[0], &err, sizeof err)) < 0 && errno == EINTR)
		;
	close(ex[0]);
	if (n == (ssize_t)sizeof err) {
		snprintf(why, whylen, "cannot run %s%s%s: %s", argv[0], workdir ? " in " : "",
			 workdir ? workdir : "", strerror(err));
		eng_kill(e);
		return -1;
	}
	fcntl(e->to, F_SETFL, fcntl(e->to, F_GETFL) | O_NONBLOCK);
	fcntl(e->from, F_SETFL, fcntl(e->from, F_GETFL) | O_NONBLOCK);
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (ex[i] >= 0)
			close(ex[i]);
	}
	return -1;
}

/* Writes all of s before the deadline; -1 if the engine does not take it. */
static int eng_write(struct eng *e, const char *s, size_t n, int64_t deadline)
{
	/* The trace log (--log) gets every line, like the other back ends give it. */
	for (size_t i = 0, j; i < n; i = j + 1) {
		const char *nl = memchr(s + i, '\n', n - i);
		j = nl ? (size_t)(nl - s) : n;
		log_proto(CHECK_LOG_ID, LOG_ENGINE_OUT, s + i, j - i);
	}
	while (n > 0) {
		if (e->to < 0)
			return -1;
		ssize_t k = write(e->to, s, n);
		if (k > 0) {
			s += k;
			n -= (size_t)k;
			continue;
		}
		if (k < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return -1;
		struct pollfd p = { .fd = e->to, .events = POLLOUT };
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return -1;
	}
	return 0;
}

/* Reads one line (without "\n" or a final "\r") before the deadline; *line is
 * the caller's to free. */
static enum rd eng_read_line(struct eng *e, int64_t deadline, char **line)
{
	for (;;) {
		char *nl = e->len > e->scanned ? memchr(e->buf + e->scanned, '\n', e->len - e->scanned) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - e->buf), keep = n;
			if (keep > 0 && e->buf[keep - 1] == '\r')
				keep--;
			*line = xrealloc(NULL, keep + 1);
			memcpy(*line, e->buf, keep);
			(*line)[keep] = 0;
			memmove(e->buf, nl + 1, e->len - n - 1);
			e->len -= n + 1;
			e->scanned = 0;
			log_proto(CHECK_LOG_ID, LOG_ENGINE_IN, *line, keep);
			return RD_LINE;
		}
		e->scanned = e->len;
		if (e->len > CHECK_MAX_LINE)
			return RD_TOOLONG;
		if (e->eof || e->from < 0)
			return RD_EOF;
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return RD_TIMEOUT;
		struct pollfd p = { .fd = e->from, .events = POLLIN };
		int r = poll(&p, 1, (int)left);
		if (r < 0 && errno != EINTR)
			return RD_EOF;
		if (r <= 0)
			continue;
		if (e->cap - e->len < 65536) {
			e->cap = e->len + 65536 * 2;
			e->buf = xrealloc(e->buf, e->cap);
		}
		ssize_t k = read(e->from, e->buf + e->len, e->cap - e->len);
		if (k > 0)
			e->len += (size_t)k;
		else if (k == 0 || (errno != EAGAIN && errno != EINTR))
			e->eof = 1;
	}
}

/* Reads lines up to a line "ok" before the deadline. */
static void eng_reply(struct eng *e, int64_t start, int64_t deadline, struct reply *r)
{
	memset(r, 0, sizeof *r);
	for (;;) {
		char *line = NULL;
		r->end = eng_read_line(e, deadline, &line);
		if (r->end != RD_LINE)
			break;
		if (!strcmp(line, "ok")) {
			free(line);
			break;
		}
		r->bytes += strlen(line) + 1;
		if (r->bytes > CHECK_MAX_REPLY) {
			free(line);
			r->end = RD_TOOLONG;
			break;
		}
		strlist_add(&r->lines, line);
		free(line);
	}
	if (r->end != RD_LINE && e->len > 0) {
		/* Show what came without a newline too (cut: it is only for the report). */
		size_t n = e->len < 4096 ? e->len : 4096;
		char *part = xrealloc(NULL, n + 1);
		memcpy(part, e->buf, n);
		part[n] = 0;
		strlist_add(&r->lines, part);
		free(part);
	}
	r->ms = now_ms() - start;
}

/* ------------------------------------------------------------------------ */
/* Checks and their results                                                  */

enum status { ST_RUN, ST_PASS, ST_FAIL, ST_SKIP };

static const char *const status_names[] = { "run", "pass", "fail", "skip" };

struct result {
	char          *name;
	int            required;
	enum status    st;
	char          *reason;       /* why it failed or was skipped, or NULL */
	struct sbuf    sent;         /* the commands sent, escaped, " | " between them */
	struct sbuf    got;          /* the reply to the last one, escaped */
	char          *expected;
	struct strlist only_engine;  /* move-set diff, engine's strings */
	struct strlist only_core;    /* move-set diff, the core's canonical strings */
};

struct checker {
	/* options */
	int          json;
	int          verbose;
	int          timeout_ms;
	int          margin_ms;
	int          positions;
	uint64_t     seed;
	uint64_t     rng;
	const char  *data;
	const char  *config_path;       /* --config, or NULL */
	const char  *profile_name;      /* --profile, or NULL */
	const char  *log_path;          /* --log, or NULL */
	int          timeout_set;       /* --timeout-ms was given */
	char *const *argv;              /* the command (UHP, Hub), or the address (Trylobot) */
	const char  *workdir;           /* of the command, or NULL */
	const char  *protocol;          /* "uhp", "hub" or "trylobot" */
	/* a UHP engine */
	struct eng   eng;
	/* a Hub engine or Trylobot module, through the engine interface */
	struct engine_profile prof;     /* a copy of the profile, with our time-outs */
	struct event_base *base;
	struct event *deadline;         /* our own deadline on every wait */
	int          expired;
	struct engine *engine;          /* NULL until first use, or after we gave one up */
	int          group_failures;    /* quick failures in this group */
	int          faults;            /* failures so far (robustness.restart needs one) */
	/* what it said */
	char         id[256];
	char         caps[256];
	unsigned     caps_type;         /* expansion bits the engine declares */
	char        *info_block;        /* the unprompted info block, lines joined by '\n' */
	int          gave_up;           /* it does not start: skip everything */
	int          restart_failures;
	char        *lost;              /* why the rest of this group is skipped, or NULL */
	/* the report */
	struct result **res;
	size_t       nres;
	size_t       capres;
};

static void result_free(struct result *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->reason);
	sbuf_free(&r->sent);
	sbuf_free(&r->got);
	free(r->expected);
	strlist_free(&r->only_engine);
	strlist_free(&r->only_core);
	free(r);
}

static char *vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *s = xrealloc(NULL, n > 0 ? (size_t)n + 1 : 1);
	vsnprintf(s, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	if (n <= 0)
		s[0] = 0;
	return s;
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	return s;
}

static struct result *result_push(struct checker *ck, int required, char *name)
{
	struct result *r = xrealloc(NULL, sizeof *r);
	memset(r, 0, sizeof *r);
	r->name = name;
	r->required = required;
	r->st = ST_RUN;
	if (ck->nres == ck->capres) {
		ck->capres = ck->capres ? ck->capres * 2 : 64;
		ck->res = xrealloc(ck->res, ck->capres * sizeof *ck->res);
	}
	ck->res[ck->nres++] = r;
	return r;
}

/* A reason, escaped: it may quote the engine's bytes (the core's parse errors do). */
static char *reason_format(const char *fmt, va_list ap)
{
	struct sbuf b = { 0 };
	char *raw = vformat(fmt, ap);
	sbuf_escaped(&b, raw, strlen(raw), CHECK_SHOW_GOT);
	free(raw);
	return sbuf_take(&b);
}

/* Ends a running check with a reason; the first one given is the one reported. */
static void check_close(struct result *r, enum status st, const char *fmt, va_list ap)
{
	if (r->st != ST_RUN)
		return;
	r->reason = reason_format(fmt, ap);
	r->st = st;
}

static void check_fail(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check_fail(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	check_close(r, ST_FAIL, fmt, ap);
	va_end(ap);
}

static void check_skip(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check_skip(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	check_close(r, ST_SKIP, fmt, ap);
	va_end(ap);
}

static void check_expect(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check_expect(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(r->expected);
	r->expected = vformat(fmt, ap);
	va_end(ap);
}

/* Starts a check; NULL (and a SKIP recorded) when the engine is not there. The
 * result stays owned by ck. */
static struct result *check_begin(struct checker *ck, int required, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static struct result *check_begin(struct checker *ck, int required, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct result *r = result_push(ck, required, vformat(fmt, ap));
	va_end(ap);
	if (ck->lost) {
		check_skip(r, "not run: %s", ck->lost);
		return NULL;
	}
	return r;
}

static void check_end(struct result *r)
{
	if (r && r->st == ST_RUN)
		r->st = ST_PASS;
}

/* Skips the check (and returns -1) when the engine lacks an expansion it needs. */
static int check_needs(struct checker *ck, struct result *r, unsigned type)
{
	static const char *const names[] = { "Mosquito", "Ladybug", "Pillbug" };
	unsigned missing = type & ~ck->caps_type;
	if (!missing)
		return 0;
	struct sbuf b = { 0 };
	for (int i = 0; i < 3; i++)
		if (missing & (1u << i))
			sbuf_printf(&b, "%s%s", b.len ? ", " : "", names[i]);
	check_skip(r, "engine lacks %s capability", b.s);
	sbuf_free(&b);
	return -1;
}

/* ------------------------------------------------------------------------ */
/* Talking to the engine                                                     */

/* The engine is gone or unusable: kill it, and skip the rest of the group. */
static void engine_lost(struct checker *ck, const struct result *r, const char *why)
{
	eng_kill(&ck->eng);
	if (!ck->lost)
		ck->lost = format("engine lost at %s (%s)", r->name, why);
}

/* The reply as the report shows it: lines, "ok", or how it ended. */
static void render_reply(struct result *r, const struct reply *rep)
{
	/* Lines are separated by " | ", which UHP output does not use. */
	sbuf_free(&r->got);
	for (size_t i = 0; i < rep->lines.n; i++) {
		if (r->got.len >= CHECK_SHOW_GOT) {
			sbuf_printf(&r->got, " | ...(%zu more lines)", rep->lines.n - i);
			break;
		}
		if (i)
			sbuf_str(&r->got, " | ");
		sbuf_escaped(&r->got, rep->lines.v[i], strlen(rep->lines.v[i]), CHECK_SHOW_GOT - r->got.len);
	}
	if (rep->end == RD_LINE)
		sbuf_str(&r->got, rep->lines.n ? " | ok" : "ok");
	else if (rep->lines.n)
		sbuf_str(&r->got, " | ");
	switch (rep->end) {
	case RD_LINE:
		break;
	case RD_TIMEOUT:
		sbuf_printf(&r->got, "<no ok after %" PRId64 " ms>", rep->ms);
		break;
	case RD_EOF:
		sbuf_str(&r->got, "<end of output>");
		break;
	case RD_TOOLONG:
		sbuf_str(&r->got, "<flood>");
		break;
	case RD_WRITE:
		sbuf_str(&r->got, "<engine does not read its input>");
		break;
	}
}

/* Writes bytes to the engine, noting them in the check's transcript. */
static int cmd_write(struct checker *ck, struct result *r, const char *text, size_t n, int timeout_ms)
{
	size_t shown = n > 0 && text[n - 1] == '\n' ? n - 1 : n;
	if (r->sent.len)
		sbuf_str(&r->sent, " | ");
	if (shown)
		sbuf_escaped(&r->sent, text, shown, CHECK_SHOW_SENT);
	else
		sbuf_str(&r->sent, "<blank line>");
	if (ck->eng.pid <= 0) {
		check_fail(r, "engine is not running");
		return -1;
	}
	if (eng_write(&ck->eng, text, n, now_ms() + timeout_ms) < 0) {
		char why[160];
		snprintf(why, sizeof why, "engine does not read its input (%s)",
			 errno == EPIPE ? "its stdin is closed" : "write timed out");
		sbuf_free(&r->got);
		sbuf_str(&r->got, "<engine does not read its input>");
		check_fail(r, "%s", why);
		engine_lost(ck, r, why);
		return -1;
	}
	return 0;
}

/* Reads one reply; on a time-out, an exit or a flood the check fails, the engine
 * is killed and -1 returned. rep is the caller's to free either way. */
static int cmd_read(struct checker *ck, struct result *r, int64_t start, int timeout_ms, struct reply *rep)
{
	char why[200], how[120];

	eng_reply(&ck->eng, start, start + timeout_ms, rep);
	render_reply(r, rep);
	switch (rep->end) {
	case RD_LINE:
		return 0;
	case RD_TIMEOUT:
		snprintf(why, sizeof why, "no \"ok\" within %d ms", timeout_ms);
		break;
	case RD_EOF:
		eng_describe_exit(&ck->eng, how, sizeof how);
		snprintf(why, sizeof why, "engine %s", how);
		break;
	case RD_TOOLONG:
	default:
		snprintf(why, sizeof why, "engine floods: a line or reply over %u bytes", CHECK_MAX_LINE);
		break;
	}
	check_fail(r, "%s", why);
	engine_lost(ck, r, why);
	return -1;
}

/* Sends one command line and reads its reply. */
static int cmd(struct checker *ck, struct result *r, const char *line, int timeout_ms, struct reply *rep)
{
	memset(rep, 0, sizeof *rep);
	int64_t start = now_ms();
	size_t n = strlen(line);
	char *text = xrealloc(NULL, n + 2);
	memcpy(text, line, n);
	text[n] = '\n';
	text[n + 1] = 0;
	int rc = cmd_write(ck, r, text, n + 1, timeout_ms);
	free(text);
	if (rc < 0) {
		rep->end = RD_WRITE;
		return -1;
	}
	return cmd_read(ck, r, start, timeout_ms, rep);
}

/* First line of a reply, or "" if it has none. */
static const char *reply_first(const struct reply *rep)
{
	return rep->lines.n ? rep->lines.v[0] : "";
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Whether a reply is a refusal: an "err" or "invalidmove" line (as the viewer reads it). */
static int reply_refused(const struct reply *rep)
{
	for (size_t i = 0; i < rep->lines.n; i++)
		if (starts_with(rep->lines.v[i], "err") || starts_with(rep->lines.v[i], "invalidmove"))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Games and moves, judged by the core                                       */

/* Loads "GameType[;State;Turn[;Move]*]" by playing its moves (fields 1 and 2 are
 * ignored, like Mzinga does, since some reference data gets them wrong). g is
 * inited here; on failure it is freed and why says which field failed. */
static int game_load(struct hive_game *g, const char *gs, char *why, size_t whylen)
{
	char *copy = xstrdup(gs), *save = NULL, *f;
	unsigned type;
	int field = 0, rc = -1;

	f = strtok_r(copy, ";", &save);
	if (!f || hive_gametype_parse(f, &type) != 0) {
		snprintf(why, whylen, "bad GameType \"%s\"", f ? f : "");
		free(copy);
		return -1;
	}
	hive_game_init(g, type);
	while ((f = strtok_r(NULL, ";", &save)) != NULL) {
		struct hive_move m;
		char err[256];
		if (++field < 3)
			continue;
		if (hive_move_parse(&g->board, f, &m, err, sizeof err) != HIVE_OK ||
		    hive_game_play(g, m) != HIVE_OK) {
			snprintf(why, whylen, "move %d \"%s\": %s", field - 2, f, err);
			hive_game_free(g);
			goto out;
		}
	}
	rc = 0;
out:
	free(copy);
	return rc;
}

/* The canonical GameString; caller frees. */
static char *game_text(const struct hive_game *g)
{
	size_t n = hive_game_format(g, NULL, 0);
	char *s = xrealloc(NULL, n + 1);
	hive_game_format(g, s, n + 1);
	return s;
}

/* Field i of a ';'-separated string, copied into buf. */
static void field_copy(const char *s, int i, char *buf, size_t len)
{
	while (i > 0 && s) {
		s = strchr(s, ';');
		if (s)
			s++;
		i--;
	}
	size_t n = 0;
	if (s) {
		n = strcspn(s, ";");
		if (n >= len)
			n = len - 1;
		memcpy(buf, s, n);
	}
	buf[n] = 0;
}

/* Compares a GameString the engine printed with the game the core expects: the
 * header fields as text, the moves semantically. 0 if they match, else why. */
static int game_compare(const struct hive_game *want, const char *line, char *why, size_t whylen)
{
	static const char *const names[] = { "GameType", "BoardState", "TurnString" };
	char *exp = game_text(want);
	char a[128], b[128], err[256];
	struct hive_game got;
	int rc = -1;

	for (int i = 0; i < 3; i++) {
		field_copy(exp, i, a, sizeof a);
		field_copy(line, i, b, sizeof b);
		if (strcmp(a, b)) {
			snprintf(why, whylen, "%s is \"%.60s\", expected \"%s\"", names[i], b, a);
			free(exp);
			return -1;
		}
	}
	hive_game_init(&got, 0);
	if (hive_game_parse(&got, line, err, sizeof err) != HIVE_OK) {
		snprintf(why, whylen, "the core cannot load the engine's GameString: %s", err);
		goto out;
	}
	if (got.type != want->type || got.len != want->len) {
		snprintf(why, whylen, "%zu moves, expected %zu", got.len, want->len);
		goto out;
	}
	for (size_t i = 0; i < got.len; i++) {
		struct hive_move x = got.hist[i].move, y = want->hist[i].move;
		if (x.piece != y.piece || (x.piece != HIVE_PASS_PIECE && x.to != y.to)) {
			field_copy(line, (int)i + 3, a, sizeof a);
			field_copy(exp, (int)i + 3, b, sizeof b);
			snprintf(why, whylen, "move %zu is \"%s\", expected \"%s\" (or the same move in other words)",
				 i + 1, a, b);
			goto out;
		}
	}
	if (got.board.state != want->board.state) {
		snprintf(why, whylen, "state %s, expected %s", hive_state_name(got.board.state),
			 hive_state_name(want->board.state));
		goto out;
	}
	rc = 0;
out:
	hive_game_free(&got);
	free(exp);
	return rc;
}

/* Checks that a reply carries the expected GameString on its first line. */
static int expect_game(struct result *r, const struct reply *rep, const struct hive_game *want, const char *what)
{
	char why[400];
	char *exp = game_text(want);
	check_expect(r, "%s", exp);
	free(exp);
	if (reply_refused(rep)) {
		check_fail(r, "%s refused", what);
		return -1;
	}
	if (game_compare(want, reply_first(rep), why, sizeof why) < 0) {
		check_fail(r, "%s: %s", what, why);
		return -1;
	}
	return 0;
}

static uint32_t move_key(struct hive_move m)
{
	return m.piece == HIVE_PASS_PIECE ? (uint32_t)HIVE_PASS_PIECE << 16 : (uint32_t)m.piece << 16 | m.to;
}

static int key_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void trim(char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* Compares a validmoves line with the core's moves on board b, as sets of moves;
 * the differences go into r's diff lists. 0 if they match. */
static int moves_compare(struct result *r, const struct hive_board *b, const char *line)
{
	struct hive_move core[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(b, core);
	uint32_t *want = xrealloc(NULL, (n + 1) * sizeof *want);
	uint32_t *have = NULL;
	size_t nhave = 0, caphave = 0, bad = 0, dup = 0, only_engine = 0, only_core = 0;
	char *copy = xstrdup(line), err[256], buf[HIVE_MOVESTR_MAX];
	struct sbuf dups = { 0 };

	for (size_t i = 0; i < n; i++)
		want[i] = move_key(core[i]);
	qsort(want, n, sizeof *want, key_cmp);

	/* The engine's strings, parsed on the same board. */
	for (char *tok = copy, *next; tok; tok = next) {
		struct hive_move m;
		next = strchr(tok, ';');
		if (next)
			*next++ = 0;
		size_t len = strlen(tok);
		trim(&tok, &len);
		tok[len] = 0;
		if (len == 0)
			continue;
		if (hive_move_parse(b, tok, &m, err, sizeof err) != HIVE_OK) {
			char *s = format("%s (%s)", tok, err);
			struct sbuf esc = { 0 };
			sbuf_escaped(&esc, s, strlen(s), CHECK_SHOW_SENT);
			if (r->only_engine.n < CHECK_SHOW_MOVES)
				strlist_add(&r->only_engine, esc.s);
			sbuf_free(&esc);
			free(s);
			bad++;
			continue;
		}
		uint32_t k = move_key(m);
		size_t j;
		for (j = 0; j < nhave && have[j] != k; j++)
			;
		if (j < nhave) {
			if (dup++ < 8)
				sbuf_printf(&dups, "%s%s", dups.len ? ", " : "", tok);
			continue;
		}
		if (nhave == caphave) {
			caphave = caphave ? caphave * 2 : 64;
			have = xrealloc(have, caphave * sizeof *have);
		}
		have[nhave++] = k;
	}
	if (have)
		qsort(have, nhave, sizeof *have, key_cmp);

	/* Merge the two sorted sets. */
	size_t i = 0, j = 0;
	while (i < n || j < nhave) {
		if (j >= nhave || (i < n && want[i] < have[j])) {
			for (size_t k = 0; k < n; k++)
				if (move_key(core[k]) == want[i]) {
					hive_move_format(b, core[k], buf, sizeof buf);
					break;
				}
			if (r->only_core.n < CHECK_SHOW_MOVES)
				strlist_add(&r->only_core, buf);
			i++;
			only_core++;
		} else if (i >= n || have[j] < want[i]) {
			/* hive_move_parse checks the rules, so the core always generates what
			 * it parses; kept so that a disagreement is still reported. */
			snprintf(buf, sizeof buf, "%s@%u", hive_piece_name((int)(have[j] >> 16)),
				 (unsigned)(have[j] & 0xFFFF));
			if (r->only_engine.n < CHECK_SHOW_MOVES)
				strlist_add(&r->only_engine, buf);
			j++;
			only_engine++;
		} else {
			i++;
			j++;
		}
	}
	int rc = 0;
	if (only_engine || only_core || bad || dup) {
		check_fail(r, "validmoves differs from the core: %zu only in the engine's list "
			   "(%zu of them illegal or unparsable), %zu only in the core's%s%s",
			   only_engine + bad, bad, only_core, dup ? "; listed twice: " : "", dup ? dups.s : "");
		rc = -1;
	}
	sbuf_free(&dups);
	free(copy);
	free(have);
	free(want);
	return rc;
}

/* Sends validmoves and compares it with the core's moves on b. */
static int expect_moves(struct checker *ck, struct result *r, const struct hive_board *b)
{
	struct reply rep = { 0 };
	char core_n[64];
	struct hive_move moves[HIVE_MAX_MOVES];

	snprintf(core_n, sizeof core_n, "%zu moves, the same set as the core's", hive_board_moves(b, moves));
	check_expect(r, "%s", core_n);
	if (cmd(ck, r, "validmoves", ck->timeout_ms, &rep) < 0) {
		reply_free(&rep);
		return -1;
	}
	int rc = 0;
	if (reply_refused(&rep) || rep.lines.n != 1) {
		check_fail(r, "validmoves: expected one line of moves, got %zu line(s)%s", rep.lines.n,
			   reply_refused(&rep) ? ", refused" : "");
		rc = -1;
	} else {
		rc = moves_compare(r, b, reply_first(&rep));
	}
	reply_free(&rep);
	return rc;
}

/* newgame with the game's canonical GameString; checks the GameString it prints. */
static int load_game(struct checker *ck, struct result *r, const struct hive_game *g)
{
	struct reply rep = { 0 };
	char *gs = game_text(g);
	char *line = format("newgame %s", gs);
	int rc = cmd(ck, r, line, ck->timeout_ms, &rep);
	free(line);
	free(gs);
	if (rc == 0)
		rc = expect_game(r, &rep, g, "newgame");
	reply_free(&rep);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Positions                                                                 */

/* Facts from the shared reference notes (nokamute's and Mzinga's test data). */
#define POS_FORCED_PASS "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;" \
	"wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1"
#define POS_BEETLE_GATE "Base;InProgress;White[12];wB1;bS1 wB1-;wQ \\wB1;bQ bS1/;wB2 -wQ;bB1 bQ\\;" \
	"wS1 /wB2;bB1 bS1;wG1 /wS1;bQ \\bB1;wG2 wG1\\;bB2 bQ/;wG3 wG2\\;bB2 \\bQ;wA1 wG3-;bB2 wQ;" \
	"wA2 wA1-;bA1 bQ/;wS2 wA2-;bA1 bB1/;wA3 wS2/;bA1 wA3/"
/* Found by a random search with the core: Black has exactly one move. */
#define POS_SINGLE_MOVE "Base;InProgress;Black[15];wB1;bA1 wB1/;wG1 /wB1;bG1 bA1-;wA1 /wG1;bQ bG1-;" \
	"wQ wB1\\;bS1 bQ-;wA1 \\bG1;bA2 bS1-;wS1 -wG1;bA3 bQ\\;wA2 /wS1;bA3 bA2\\;wG2 -wS1;bB1 bA3\\;" \
	"wA2 wG1\\;bB1 bA3-;wA1 \\bA2;bG2 \\bB1;wA2 -bA1;bG3 /bA3;wA1 wG2\\;bB2 /bG3;wA2 bB1/;bS2 \\bQ;" \
	"wB2 \\wG2;bG2 /bB2;wA1 \\bS2"
/* A short game for the malformed-move checks. */
#define POS_SHORT "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/"

static const struct end_position {
	const char *name;
	int         state;
	const char *gs;
} end_positions[] = {
	{ "white-wins", HIVE_WHITE_WINS,
	  "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;"
	  "wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1" },
	{ "black-wins", HIVE_BLACK_WINS,
	  "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;"
	  "wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\" },
	{ "draw", HIVE_DRAW,
	  "Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;"
	  "bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2" },
	{ "black-suicide", HIVE_WHITE_WINS,
	  "Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;"
	  "wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1" },
};

/* Plays up to plies random legal moves, stopping before the game would end. */
static void random_game(struct checker *ck, struct hive_game *g, unsigned type, int plies)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	hive_game_init(g, type);
	for (int i = 0; i < plies; i++) {
		size_t n = hive_board_moves(&g->board, moves);
		if (n == 0 || hive_game_play(g, moves[rng_next(&ck->rng) % n]) != HIVE_OK)
			break;
		if (hive_game_over(&g->board)) {
			hive_game_undo(g, 1);
			break;
		}
	}
}

/* A game type the engine declares, at random. */
static unsigned random_type(struct checker *ck)
{
	unsigned types[8], n = 0;
	for (unsigned t = 0; t < 8; t++)
		if (!(t & ~ck->caps_type))
			types[n++] = t;
	return types[rng_next(&ck->rng) % n];
}

/* The reference data file's lines, without BOM, CR or LF. */
static int data_read(const struct checker *ck, const char *rel, struct strlist *lines, char *why, size_t len)
{
	char *path = format("%s/%s", ck->data, rel);
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f) {
		snprintf(why, len, "cannot read %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		char *s = line;
		while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
			s[--n] = 0;
		if (lines->n == 0 && !strncmp(s, "\xef\xbb\xbf", 3))
			s += 3;
		strlist_add(lines, s);
	}
	free(line);
	fclose(f);
	free(path);
	return 0;
}

/* newgame with g, then validmoves compared with the core. */
static void position_check(struct checker *ck, struct result *r, const struct hive_game *g)
{
	if (r->st != ST_RUN)
		return;
	if (check_needs(ck, r, g->type) == 0 && load_game(ck, r, g) == 0)
		expect_moves(ck, r, &g->board);
	check_end(r);
}

/* ------------------------------------------------------------------------ */
/* The groups                                                                */

/* Restarts the engine for a group if it was lost; sets ck->lost if it cannot. */
static void group_begin(struct checker *ck)
{
	char why[200];
	struct reply rep = { 0 };

	free(ck->lost);
	ck->lost = NULL;
	if (ck->gave_up) {
		ck->lost = xstrdup("the engine does not start");
		return;
	}
	if (ck->eng.pid > 0)
		return;
	if (eng_spawn(&ck->eng, ck->argv, ck->workdir, why, sizeof why) == 0) {
		int64_t t = now_ms();
		eng_reply(&ck->eng, t, t + ck->timeout_ms, &rep);
		enum rd end = rep.end;
		reply_free(&rep);
		if (end == RD_LINE)
			return;
		snprintf(why, sizeof why, "no info block ending with \"ok\" within %d ms", ck->timeout_ms);
		eng_kill(&ck->eng);
	}
	ck->lost = format("engine did not restart: %s", why);
	if (++ck->restart_failures >= CHECK_MAX_RESTARTS)
		ck->gave_up = 1;
}

/* The capability line: the expansions it names; unknown flags are listed. */
static void caps_parse(struct checker *ck, const char *line, struct sbuf *unknown)
{
	static const char *const names[] = { "Mosquito", "Ladybug", "Pillbug" };
	char *copy = xstrdup(line), *save = NULL;
	for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		size_t len = strlen(t);
		trim(&t, &len);
		t[len] = 0;
		int k;
		for (k = 0; k < 3 && strcasecmp(t, names[k]); k++)
			;
		if (k < 3)
			ck->caps_type |= 1u << k;
		else
			sbuf_printf(unknown, "%s\"%s\"", unknown->len ? ", " : "", t);
	}
	free(copy);
}

/* The start-up checks that cannot run once the engine failed to start. */
static void startup_skip_rest(struct checker *ck)
{
	check_begin(ck, 1, "startup.id-line");
	check_begin(ck, 0, "startup.capabilities");
	check_begin(ck, 1, "startup.info-command");
}

static void group_startup(struct checker *ck)
{
	struct result *r = check_begin(ck, 1, "startup.info-unprompted");
	struct reply boot = { 0 }, rep = { 0 };
	char why[256];

	sbuf_str(&r->sent, "<nothing>");
	check_expect(r, "\"id <name>\", an optional capability line, then \"ok\", before any command");
	if (eng_spawn(&ck->eng, ck->argv, ck->workdir, why, sizeof why) < 0) {
		check_fail(r, "%s", why);
		ck->lost = format("the engine does not start (%s)", why);
		ck->gave_up = 1;
		startup_skip_rest(ck);
		return;
	}
	if (cmd_read(ck, r, now_ms(), ck->timeout_ms, &boot) < 0) {
		reply_free(&boot);
		ck->gave_up = 1;
		startup_skip_rest(ck);
		return;
	}
	if (boot.lines.n == 0)
		check_fail(r, "empty info block");
	check_end(r);
	struct sbuf block = { 0 };
	for (size_t i = 0; i < boot.lines.n; i++) {
		if (i)
			sbuf_str(&block, "\n");
		sbuf_str(&block, boot.lines.v[i]);
	}
	ck->info_block = sbuf_take(&block);

	r = check_begin(ck, 1, "startup.id-line");
	const char *first = reply_first(&boot);
	sbuf_str(&r->sent, "<nothing>");
	render_reply(r, &boot);
	check_expect(r, "a first line \"id <name>\"");
	if (!starts_with(first, "id ") || !first[3])
		check_fail(r, "the first line is not \"id <name>\"");
	else
		snprintf(ck->id, sizeof ck->id, "%s", first + 3);
	check_end(r);

	/* Optional: the capability line may be missing, which means Base only. */
	r = check_begin(ck, 0, "startup.capabilities");
	sbuf_str(&r->sent, "<nothing>");
	render_reply(r, &boot);
	check_expect(r, "at most one line after the id line, a ';'-separated list of Mosquito, Ladybug, Pillbug");
	if (boot.lines.n >= 2) {
		struct sbuf unknown = { 0 };
		const char *line = boot.lines.v[boot.lines.n - 1];
		snprintf(ck->caps, sizeof ck->caps, "%s", line);
		caps_parse(ck, line, &unknown);
		if (boot.lines.n > 2)
			check_fail(r, "%zu lines between the id line and the capabilities", boot.lines.n - 2);
		else if (unknown.len)
			check_fail(r, "unknown capability flags: %s", unknown.s);
		sbuf_free(&unknown);
	} else {
		r->reason = xstrdup("no capability line: Base only");
	}
	check_end(r);
	reply_free(&boot);

	r = check_begin(ck, 1, "startup.info-command");
	if (!r)
		return;
	check_expect(r, "the same block as at start-up, then \"ok\"");
	if (cmd(ck, r, "info", ck->timeout_ms, &rep) == 0) {
		struct sbuf got = { 0 };
		for (size_t i = 0; i < rep.lines.n; i++) {
			if (i)
				sbuf_str(&got, "\n");
			sbuf_str(&got, rep.lines.v[i]);
		}
		if (strcmp(got.s ? got.s : "", ck->info_block))
			check_fail(r, "info differs from the start-up block");
		sbuf_free(&got);
	}
	reply_free(&rep);
	check_end(r);
}

static void group_movegen_start(struct checker *ck)
{
	for (unsigned t = 0; t < 8; t++) {
		struct result *r = check_begin(ck, 1, "movegen.start[%s]", hive_gametype_name(t));
		struct hive_game g;
		struct reply rep = { 0 };
		if (!r)
			continue;
		if (check_needs(ck, r, t) == 0) {
			char *line = format("newgame %s", hive_gametype_name(t));
			hive_game_init(&g, t);
			if (cmd(ck, r, line, ck->timeout_ms, &rep) == 0 && expect_game(r, &rep, &g, "newgame") == 0)
				expect_moves(ck, r, &g.board);
			reply_free(&rep);
			hive_game_free(&g);
			free(line);
		}
		check_end(r);
	}
}

/* Mzinga's positions from real games: "GameString<TAB>moves". */
static void group_movegen_realgames(struct checker *ck)
{
	struct strlist lines = { 0 };
	char why[300];
	size_t idx = 0;

	if (data_read(ck, "mzinga/Board_ValidMovesFromRealGamesTest.csv", &lines, why, sizeof why) < 0) {
		struct result *r = result_push(ck, 1, xstrdup("movegen.realgames"));
		check_fail(r, "%s", why);
		return;
	}
	for (size_t i = 0; i < lines.n; i++) {
		char *s = lines.v[i];
		struct hive_game g;
		if (!*s || *s == '#')
			continue;
		s[strcspn(s, "\t")] = 0;
		struct result *r = check_begin(ck, 1, "movegen.realgames[%zu]", idx++);
		if (!r)
			continue;
		if (game_load(&g, s, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
			continue;
		}
		if (hive_game_over(&g.board))
			check_skip(r, "the game is over");
		position_check(ck, r, &g);
		hive_game_free(&g);
	}
	strlist_free(&lines);
}

/* A slug of a title: "Pillbug can't throw." -> "pillbug-can-t-throw". */
static char *slug(const char *title)
{
	struct sbuf b = { 0 };
	int dash = 0;
	for (; *title; title++) {
		if (isalnum((unsigned char)*title)) {
			if (dash && b.len)
				sbuf_str(&b, "-");
			char c = (char)tolower((unsigned char)*title);
			sbuf_add(&b, &c, 1);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	return sbuf_take(&b);
}

/* nokamute's uhp_tests: "# title", a GameString, then its moves (if in progress). */
static void group_movegen_nokamute(struct checker *ck)
{
	struct strlist lines = { 0 };
	char why[300];
	const char *title = "case";

	if (data_read(ck, "nokamute/uhp_tests.txt", &lines, why, sizeof why) < 0) {
		struct result *r = result_push(ck, 1, xstrdup("movegen.nokamute"));
		check_fail(r, "%s", why);
		return;
	}
	for (size_t i = 0; i < lines.n; i++) {
		const char *s = lines.v[i];
		char type[32];
		unsigned t;
		struct hive_game g;
		if (*s == '#') {
			title = s + 1;
			continue;
		}
		field_copy(s, 0, type, sizeof type);
		if (!*s || hive_gametype_parse(type, &t) != 0)
			continue;     /* a move list: the core computes its own */
		char *name = slug(title);
		struct result *r = check_begin(ck, 1, "movegen.nokamute[%s]", name);
		free(name);
		if (!r)
			continue;
		if (game_load(&g, s, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
			continue;
		}
		field_copy(s, 1, type, sizeof type);
		if (hive_game_over(&g.board))
			check_skip(r, "the game is over (end states are checked in gameflow)");
		else if (strcmp(type, "NotStarted") && strcmp(type, "InProgress"))
			check_skip(r, "nokamute says %s where the core says %s (a nokamute-only rule)", type,
				   hive_state_name(g.board.state));
		position_check(ck, r, &g);
		hive_game_free(&g);
	}
	strlist_free(&lines);
}

static void group_movegen_random(struct checker *ck)
{
	for (int i = 0; i < ck->positions; i++) {
		struct hive_game g;
		unsigned t = random_type(ck);
		int plies = (int)(rng_next(&ck->rng) % 41);
		random_game(ck, &g, t, plies);
		struct result *r = check_begin(ck, 1, "movegen.random[%d]", i);
		if (r)
			position_check(ck, r, &g);
		hive_game_free(&g);
	}
}

/* "play <move>" (or "pass") for a move of the core, in canonical notation. */
static char *play_line(const struct hive_board *b, struct hive_move m)
{
	char buf[HIVE_MOVESTR_MAX];
	if (m.piece == HIVE_PASS_PIECE)
		return xstrdup("pass");
	hive_move_format(b, m, buf, sizeof buf);
	return format("play %s", buf);
}

/* Sends a command that must print the GameString of want. */
static int expect_cmd_game(struct checker *ck, struct result *r, const char *line, const struct hive_game *want)
{
	struct reply rep = { 0 };
	int rc = cmd(ck, r, line, ck->timeout_ms, &rep);
	if (rc == 0)
		rc = expect_game(r, &rep, want, line);
	reply_free(&rep);
	return rc;
}

/* Sends a command that must be refused: err or invalidmove (just err if err_only),
 * then ok. */
static int expect_refusal(struct checker *ck, struct result *r, const char *line, const char *what,
			  int err_only)
{
	struct reply rep = { 0 };
	check_expect(r, "%s", what);
	int rc = cmd(ck, r, line, ck->timeout_ms, &rep);
	if (rc == 0 && !reply_refused(&rep)) {
		check_fail(r, "accepted: no \"err\" or \"invalidmove\" line");
		rc = -1;
	} else if (rc == 0 && err_only && !starts_with(reply_first(&rep), "err")) {
		check_fail(r, "refused, but not with \"err\"");
		rc = -1;
	}
	reply_free(&rep);
	return rc;
}

static void check_play_sequence(struct checker *ck, unsigned best)
{
	struct result *r = check_begin(ck, 1, "gameflow.play");
	struct hive_game g, cur;
	if (!r)
		return;
	random_game(ck, &g, best, 16);
	hive_game_init(&cur, best);
	char *line = format("newgame %s", hive_gametype_name(best));
	if (expect_cmd_game(ck, r, line, &cur) == 0) {
		for (size_t i = 0; i < g.len; i++) {
			char *play = play_line(&cur.board, g.hist[i].move);
			hive_game_play(&cur, g.hist[i].move);
			int rc = expect_cmd_game(ck, r, play, &cur);
			free(play);
			if (rc < 0)
				break;
		}
	}
	free(line);
	hive_game_free(&cur);
	hive_game_free(&g);
	check_end(r);
}

static void check_undo(struct checker *ck, unsigned best)
{
	struct result *r = check_begin(ck, 1, "gameflow.undo");
	struct hive_game g, cur;
	struct reply rep = { 0 };
	if (!r)
		return;
	random_game(ck, &g, best, 10);
	if (g.len < 6) {
		check_skip(r, "the random game is too short");
		hive_game_free(&g);
		check_end(r);
		return;
	}
	if (hive_game_copy(&cur, &g) != HIVE_OK) {
		check_fail(r, "out of memory");
		hive_game_free(&g);
		check_end(r);
		return;
	}
	if (load_game(ck, r, &g) < 0)
		goto out;
	hive_game_undo(&cur, 1);
	if (expect_cmd_game(ck, r, "undo", &cur) < 0)
		goto out;
	hive_game_undo(&cur, 3);
	if (cmd(ck, r, "undo 3", ck->timeout_ms, &rep) < 0 || expect_game(r, &rep, &cur, "undo 3") < 0) {
		reply_free(&rep);
		goto out;
	}
	/* A round trip play + undo gives back the same GameString, text included. */
	char *before = xstrdup(reply_first(&rep));
	reply_free(&rep);
	struct hive_move m = g.hist[cur.len].move;
	char *play = play_line(&cur.board, m);
	hive_game_play(&cur, m);
	int rc = expect_cmd_game(ck, r, play, &cur);
	free(play);
	hive_game_undo(&cur, 1);
	if (rc == 0 && cmd(ck, r, "undo", ck->timeout_ms, &rep) == 0) {
		if (expect_game(r, &rep, &cur, "undo") == 0 && strcmp(before, reply_first(&rep)))
			check_fail(r, "play + undo changed the GameString's text");
	}
	reply_free(&rep);
	free(before);
out:
	hive_game_free(&cur);
	hive_game_free(&g);
	check_end(r);
}

static void check_undo_too_many(struct checker *ck, unsigned best)
{
	struct result *r = check_begin(ck, 1, "gameflow.undo-too-many");
	struct hive_game g;
	if (!r)
		return;
	random_game(ck, &g, best, 4);
	char *line = format("undo %zu", g.len + 1);
	if (load_game(ck, r, &g) == 0 && expect_refusal(ck, r, line, "err (+ok), the game unchanged", 1) == 0)
		expect_moves(ck, r, &g.board);
	free(line);
	hive_game_free(&g);
	check_end(r);
}

/* Loads one of end_positions (or fails/skips r); 0 when g holds it. */
static int end_load(struct result *r, const struct end_position *e, struct hive_game *g)
{
	char why[300];
	if (game_load(g, e->gs, why, sizeof why) < 0) {
		check_skip(r, "the core cannot load it: %s", why);
		return -1;
	}
	if (g->board.state != e->state) {
		check_skip(r, "the core says %s", hive_state_name(g->board.state));
		hive_game_free(g);
		return -1;
	}
	return 0;
}

static void check_game_ends(struct checker *ck)
{
	for (size_t i = 0; i < sizeof end_positions / sizeof end_positions[0]; i++) {
		const struct end_position *e = &end_positions[i];
		struct result *r = check_begin(ck, 1, "gameflow.end[%s]", e->name);
		struct hive_game g, before;
		if (!r || end_load(r, e, &g) < 0) {
			check_end(r);
			continue;
		}
		if (hive_game_copy(&before, &g) == HIVE_OK) {
			hive_game_undo(&before, 1);
			char *play = play_line(&before.board, g.hist[g.len - 1].move);
			if (load_game(ck, r, &before) == 0)
				expect_cmd_game(ck, r, play, &g);
			free(play);
			hive_game_free(&before);
		}
		hive_game_free(&g);
		check_end(r);
	}
}

/* After the end: play is refused, validmoves lists nothing. */
static void check_after_end(struct checker *ck)
{
	const struct end_position *e = &end_positions[0];
	struct hive_game g;
	struct reply rep = { 0 };

	struct result *r = check_begin(ck, 1, "gameflow.play-after-end");
	if (r && end_load(r, e, &g) == 0) {
		/* A well-formed placement: a piece in hand next to the last piece moved. */
		int side = hive_side_to_move(&g.board), piece = -1;
		for (int slot = 1; slot < 14 && piece < 0; slot++)
			if (g.board.pos[HIVE_PIECE(side, slot)] == HIVE_NOWHERE &&
			    hive_piece_enabled(g.type, HIVE_PIECE(side, slot)))
				piece = HIVE_PIECE(side, slot);
		char *line = format("play %s -%s", hive_piece_name(piece < 0 ? HIVE_PIECE(side, 0) : piece),
				    hive_piece_name(g.hist[g.len - 1].move.piece));
		if (load_game(ck, r, &g) == 0)
			expect_refusal(ck, r, line, "err or invalidmove (+ok): the game is over", 0);
		free(line);
		hive_game_free(&g);
	}
	check_end(r);

	/* Optional: Mzinga says err, nokamute an empty line; both list no move. */
	r = check_begin(ck, 0, "gameflow.validmoves-after-end");
	if (r && end_load(r, e, &g) == 0) {
		check_expect(r, "err (+ok), or an empty line");
		if (load_game(ck, r, &g) == 0 && cmd(ck, r, "validmoves", ck->timeout_ms, &rep) == 0 &&
		    !reply_refused(&rep) && (rep.lines.n > 1 || strlen(reply_first(&rep)) > 0))
			check_fail(r, "moves listed after the game ended");
		reply_free(&rep);
		hive_game_free(&g);
	}
	check_end(r);
}

static void group_gameflow(struct checker *ck)
{
	unsigned best = ck->caps_type & 7;
	struct hive_game g;
	char why[300];
	struct result *r;

	r = check_begin(ck, 1, "gameflow.newgame");
	if (r) {
		hive_game_init(&g, 0);
		expect_cmd_game(ck, r, "newgame", &g);
		hive_game_free(&g);
		check_end(r);
	}

	r = check_begin(ck, 1, "gameflow.newgame-type");
	if (r) {
		char *line = format("newgame %s", hive_gametype_name(best));
		hive_game_init(&g, best);
		expect_cmd_game(ck, r, line, &g);
		hive_game_free(&g);
		free(line);
		check_end(r);
	}

	r = check_begin(ck, 1, "gameflow.newgame-gamestring");
	if (r) {
		if (game_load(&g, POS_BEETLE_GATE, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
		} else {
			load_game(ck, r, &g);
			hive_game_free(&g);
		}
		check_end(r);
	}

	/* Optional: what a bad GameType gives differs between engines, but it is refused. */
	r = check_begin(ck, 0, "gameflow.newgame-bad-type");
	if (r) {
		expect_refusal(ck, r, "newgame Base+Q", "err (+ok)", 0);
		check_end(r);
	}

	check_play_sequence(ck, best);
	check_undo(ck, best);
	check_undo_too_many(ck, best);

	r = check_begin(ck, 1, "gameflow.pass-forced");
	if (r) {
		if (game_load(&g, POS_FORCED_PASS, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
		} else {
			struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE }, legal;
			if (hive_board_find_move(&g.board, pass, &legal) == 0)
				check_skip(r, "the core does not see a forced pass");
			else if (load_game(ck, r, &g) == 0 && hive_game_play(&g, legal) == HIVE_OK)
				expect_cmd_game(ck, r, "pass", &g);
			hive_game_free(&g);
		}
		check_end(r);
	}

	check_game_ends(ck);
	check_after_end(ck);
}

/* After a refusal, the game must be as it was: validmoves while it is in progress;
 * once it is over (no moves to compare), undo 1 must give the game minus its last ply. */
static void expect_unchanged(struct checker *ck, struct result *r, const struct hive_game *g)
{
	struct hive_game prev;
	if (!hive_game_over(&g->board) || g->len == 0) {
		expect_moves(ck, r, &g->board);
		return;
	}
	if (hive_game_copy(&prev, g) != HIVE_OK) {
		check_fail(r, "out of memory");
		return;
	}
	hive_game_undo(&prev, 1);
	expect_cmd_game(ck, r, "undo", &prev);
	hive_game_free(&prev);
}

/* Mzinga's moves that break a rule: "# rule" comments, "GameString<TAB>move" rows. */
static void group_rejections_byrule(struct checker *ck)
{
	struct strlist lines = { 0 };
	char why[300], err[256];
	const char *rule = "a rule";
	size_t idx = 0;

	if (data_read(ck, "mzinga/Board_InvalidMovesByRuleTest.csv", &lines, why, sizeof why) < 0) {
		struct result *r = result_push(ck, 1, xstrdup("rejections.byrule"));
		check_fail(r, "%s", why);
		return;
	}
	for (size_t i = 0; i < lines.n; i++) {
		char *s = lines.v[i], *tab;
		struct hive_game g;
		struct hive_move m;
		if (*s == '#') {
			rule = s + 1 + strspn(s + 1, " ");
			continue;
		}
		if (!*s || !(tab = strchr(s, '\t')))
			continue;
		*tab = 0;
		const char *move = tab + 1;
		struct result *r = check_begin(ck, 1, "rejections.byrule[%zu]", idx++);
		if (!r)
			continue;
		if (game_load(&g, s, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
			continue;
		}
		if (check_needs(ck, r, g.type) == 0) {
			if (hive_move_parse(&g.board, move, &m, err, sizeof err) == HIVE_OK) {
				check_skip(r, "the core accepts %s", move);
			} else {
				char *line = strcasecmp(move, "pass") ? format("play %s", move) : xstrdup("pass");
				char *what = format("err or invalidmove (Mzinga: %s), the game unchanged", rule);
				if (load_game(ck, r, &g) == 0 && expect_refusal(ck, r, line, what, 0) == 0)
					expect_unchanged(ck, r, &g);
				free(what);
				free(line);
			}
		}
		hive_game_free(&g);
		check_end(r);
	}
	strlist_free(&lines);
}

static void group_rejections_malformed(struct checker *ck)
{
	static const struct {
		const char *name;
		const char *line;
	} cases[] = {
		{ "play-without-move", "play" },
		{ "gibberish", "play xyzzy" },
		{ "unknown-bug", "play wX1 -wS1" },
		{ "unknown-colour", "play gA1 -wS1" },
		{ "bad-direction", "play wA1 *wS1" },
		{ "number-on-queen", "play wQ1 -wS1" },
		{ "no-such-ant", "play wA4 -wS1" },
		{ "reference-missing", "play wA1 -" },
		{ "reference-unknown", "play wA1 -bZ9" },
		{ "reference-in-hand", "play wA1 -bB1" },
	};
	char why[300], err[256];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct result *r = check_begin(ck, 1, "rejections.malformed[%s]", cases[i].name);
		struct hive_game g;
		struct hive_move m;
		if (!r)
			continue;
		const char *arg = cases[i].line + 4 + strspn(cases[i].line + 4, " ");
		if (game_load(&g, POS_SHORT, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
		} else {
			if (*arg && hive_move_parse(&g.board, arg, &m, err, sizeof err) == HIVE_OK)
				check_skip(r, "the core accepts %s", arg);
			else if (load_game(ck, r, &g) == 0 &&
				 expect_refusal(ck, r, cases[i].line, "err or invalidmove (+ok), the game unchanged", 0) == 0)
				expect_moves(ck, r, &g.board);
			hive_game_free(&g);
		}
		check_end(r);
	}
}

/* Sends "bestmove <how>" and checks the answer: the last line, text before the first
 * ';', a legal move; within limit_ms + the margin when limit_ms > 0. */
static int expect_bestmove(struct checker *ck, struct result *r, const struct hive_board *b,
			   const char *how, int limit_ms, struct hive_move *out)
{
	struct reply rep = { 0 };
	char err[256];
	char *line = format("bestmove %s", how);
	int wait = limit_ms > 0 ? limit_ms + ck->margin_ms + ck->timeout_ms : ck->timeout_ms;
	int rc = -1;

	if (limit_ms > 0)
		check_expect(r, "a legal move within %d ms + %d ms margin", limit_ms, ck->margin_ms);
	else
		check_expect(r, "a legal move");
	if (cmd(ck, r, line, wait, &rep) < 0)
		goto out;
	if (reply_refused(&rep) || rep.lines.n == 0) {
		check_fail(r, "no move: %s", rep.lines.n ? "refused" : "empty reply");
		goto out;
	}
	char *text = xstrdup(rep.lines.v[rep.lines.n - 1]);
	text[strcspn(text, ";")] = 0;
	if (hive_move_parse(b, text, out, err, sizeof err) != HIVE_OK)
		check_fail(r, "not a legal move: %s", err);
	else if (limit_ms > 0 && rep.ms > limit_ms + ck->margin_ms)
		check_fail(r, "answered after %" PRId64 " ms", rep.ms);
	else
		rc = 0;
	free(text);
out:
	reply_free(&rep);
	free(line);
	return rc;
}

static void group_bestmove(struct checker *ck)
{
	struct hive_game g;
	struct hive_move m, moves[HIVE_MAX_MOVES];
	struct reply rep = { 0 };
	char why[300];
	struct result *r;

	random_game(ck, &g, ck->caps_type & 7, 12);
	r = check_begin(ck, 1, "bestmove.depth-1");
	if (r && load_game(ck, r, &g) == 0)
		expect_bestmove(ck, r, &g.board, "depth 1", 0, &m);
	check_end(r);
	r = check_begin(ck, 1, "bestmove.time-1s");
	if (r && load_game(ck, r, &g) == 0)
		expect_bestmove(ck, r, &g.board, "time 00:00:01", 1000, &m);
	check_end(r);
	hive_game_free(&g);

	r = check_begin(ck, 1, "bestmove.single-move");
	if (r) {
		if (game_load(&g, POS_SINGLE_MOVE, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
		} else {
			if (hive_board_moves(&g.board, moves) != 1)
				check_skip(r, "the core sees more than one move");
			else if (load_game(ck, r, &g) == 0 &&
				 expect_bestmove(ck, r, &g.board, "depth 1", 0, &m) == 0 &&
				 (m.piece != moves[0].piece || m.to != moves[0].to))
				check_fail(r, "not the only legal move");
			hive_game_free(&g);
		}
		check_end(r);
	}

	r = check_begin(ck, 1, "bestmove.forced-pass");
	if (r) {
		if (game_load(&g, POS_FORCED_PASS, why, sizeof why) < 0) {
			check_skip(r, "the core cannot load it: %s", why);
		} else {
			if (load_game(ck, r, &g) == 0 &&
			    expect_bestmove(ck, r, &g.board, "depth 1", 0, &m) == 0 && m.piece != HIVE_PASS_PIECE)
				check_fail(r, "not \"pass\"");
			hive_game_free(&g);
		}
		check_end(r);
	}

	/* Last in the group: nokamute dies here. */
	r = check_begin(ck, 1, "bestmove.game-over");
	if (r && end_load(r, &end_positions[0], &g) == 0) {
		if (load_game(ck, r, &g) == 0 &&
		    expect_refusal(ck, r, "bestmove depth 1", "err (+ok), then the engine still answers", 1) == 0 &&
		    cmd(ck, r, "info", ck->timeout_ms, &rep) == 0 && !starts_with(reply_first(&rep), "id "))
			check_fail(r, "info after the refusal does not answer \"id ...\"");
		reply_free(&rep);
		hive_game_free(&g);
	}
	check_end(r);
}

/* The engine still answers info properly. */
static void expect_alive(struct checker *ck, struct result *r)
{
	struct reply rep = { 0 };
	if (cmd(ck, r, "info", ck->timeout_ms, &rep) == 0 && !starts_with(reply_first(&rep), "id "))
		check_fail(r, "info afterwards does not answer \"id ...\"");
	reply_free(&rep);
}

static void group_robustness(struct checker *ck)
{
	struct reply rep = { 0 };
	struct result *r;

	r = check_begin(ck, 1, "robustness.unknown-command");
	if (r) {
		check_expect(r, "err (+ok)");
		if (cmd(ck, r, "frobnicate the hive", ck->timeout_ms, &rep) == 0 && !starts_with(reply_first(&rep), "err"))
			check_fail(r, "no \"err\" line");
		reply_free(&rep);
		check_end(r);
	}

	/* Ignored (Mzinga) or refused (MzingaCpp, nokamute): either way the next
	 * command is answered. */
	r = check_begin(ck, 1, "robustness.blank-line");
	if (r) {
		check_expect(r, "nothing, or err (+ok); then the info block for info");
		if (cmd_write(ck, r, "\n", 1, ck->timeout_ms) == 0 &&
		    cmd(ck, r, "info", ck->timeout_ms, &rep) == 0) {
			if (reply_refused(&rep)) {
				reply_free(&rep);
				cmd_read(ck, r, now_ms(), ck->timeout_ms, &rep);
			}
			if (rep.end == RD_LINE && !starts_with(reply_first(&rep), "id "))
				check_fail(r, "info after a blank line does not answer \"id ...\"");
		}
		reply_free(&rep);
		check_end(r);
	}

	r = check_begin(ck, 1, "robustness.long-line");
	if (r) {
		char *line = xrealloc(NULL, CHECK_LONG_LINE + 1);
		memset(line, 'x', CHECK_LONG_LINE);
		line[CHECK_LONG_LINE] = 0;
		if (expect_refusal(ck, r, line, "err (+ok) for a 100 KiB line, then the engine still answers", 0) == 0)
			expect_alive(ck, r);
		free(line);
		check_end(r);
	}

	/* Optional: UHP does not say what end of input means, but an engine left
	 * running by a crashed viewer is a nuisance. */
	r = check_begin(ck, 0, "robustness.stdin-closed");
	if (r) {
		sbuf_str(&r->sent, "<end of input>");
		check_expect(r, "the engine exits within %d ms", ck->timeout_ms);
		close(ck->eng.to);
		ck->eng.to = -1;
		if (!eng_wait(&ck->eng, ck->timeout_ms))
			check_fail(r, "still running after %d ms", ck->timeout_ms);
		else if (!WIFEXITED(ck->eng.status))
			check_fail(r, "killed by signal %d", WTERMSIG(ck->eng.status));
		eng_kill(&ck->eng);
		check_end(r);
	}
}

/* ------------------------------------------------------------------------ */
/* Hub engines and Trylobot modules, through the engine interface            */

/* The protocol's name as the report writes it. */
static const char *proto_title(const struct checker *ck)
{
	return !strcmp(ck->protocol, "hub") ? "Hub" : "Trylobot";
}

static int is_hub(const struct checker *ck)
{
	return !strcmp(ck->protocol, "hub");
}

/* One command's result, copied out of the callback. */
struct ewait {
	struct event_base *base;
	int                finished;
	enum engine_status status;
	char              *message;
	struct hive_move   move;
	struct strlist     lines;     /* options: the lines */
};

static void ewait_free(struct ewait *w)
{
	free(w->message);
	strlist_free(&w->lines);
	w->message = NULL;
}

static void ewait_done(void *arg, const struct engine_result *r)
{
	struct ewait *w = arg;

	w->finished = 1;
	w->status = r->status;
	w->message = r->message ? xstrdup(r->message) : NULL;
	w->move = r->move;
	for (size_t i = 0; r->lines && r->lines[i]; i++)
		strlist_add(&w->lines, r->lines[i]);
	event_base_loopbreak(w->base);
}

static void deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct checker *ck = arg;
	ck->expired = 1;
	event_base_loopbreak(ck->base);
}

/* Runs the loop until w has its result or ms pass; 0 if the result came. */
static int ewait_run(struct checker *ck, struct ewait *w, int64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };

	ck->expired = 0;
	evtimer_add(ck->deadline, &tv);
	while (!w->finished && !ck->expired)
		if (event_base_loop(ck->base, EVLOOP_ONCE) < 0)
			break;
	evtimer_del(ck->deadline);
	return w->finished ? 0 : -1;
}

/* The back end, created on first use (and again after we gave one up). */
static struct engine *ck_engine(struct checker *ck, struct result *r)
{
	char *cause = NULL;

	if (ck->engine)
		return ck->engine;
	ck->engine = engine_new(ck->base, &ck->prof, &cause);
	if (!ck->engine) {
		check_fail(r, "cannot create the %s back end: %s", proto_title(ck), cause ? cause : "?");
		free(cause);
	}
	return ck->engine;
}

/* Our deadline passed before the back end's own: a back end that hangs is given
 * up (freeing it kills its engine), and the rest of the group is skipped. */
static void engine_abandon(struct checker *ck, struct result *r, int64_t ms)
{
	sbuf_free(&r->got);
	sbuf_str(&r->got, "<nothing>");
	check_fail(r, "no result within %" PRId64 " ms, though the back end should have timed out", ms);
	engine_free(ck->engine);
	ck->engine = NULL;
	ck->faults++;
	if (!ck->lost)
		ck->lost = format("engine lost at %s (no result)", r->name);
}

/* The engine failed (the back end has dropped it; it restarts on next use). A
 * stall costs a time-out per check, so it ends the group; quick failures (an
 * illegal move, garbage, a crash) are reported until there are too many. */
static void engine_failed(struct checker *ck, const struct result *r, int64_t ms)
{
	ck->faults++;
	if (ck->lost)
		return;
	if (ms >= (int64_t)ck->prof.command_timeout_ms)
		ck->lost = format("engine lost at %s (it stalled)", r->name);
	else if (++ck->group_failures >= CHECK_GROUP_FAILURES)
		ck->lost = format("engine lost at %s (%d failures in this group)", r->name,
				  CHECK_GROUP_FAILURES);
}

static void note_got(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_got(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	sbuf_free(&r->got);
	sbuf_escaped(&r->got, s, strlen(s), CHECK_SHOW_GOT);
	free(s);
}

static void note_sent(struct result *r, const char *s)
{
	if (r->sent.len)
		sbuf_str(&r->sent, " | ");
	sbuf_escaped(&r->sent, s, strlen(s), 2 * CHECK_SHOW_SENT);
}

/* engine_start under our deadline: the first start, or a restart after a failure
 * (nothing to do when the engine is up). 0 when it is up; else r has failed. */
static int e_start(struct checker *ck, struct result *r, int64_t *ms)
{
	struct ewait w = { .base = ck->base };
	struct engine *e = ck_engine(ck, r);
	int64_t limit = (int64_t)ck->prof.start_timeout_ms + CHECK_SLACK_MS, t0 = now_ms();
	int rc = -1;

	if (!e)
		return -1;
	if (engine_start(e, ewait_done, &w) < 0) {
		check_fail(r, "the back end is busy and does not start");
		return -1;
	}
	if (ewait_run(ck, &w, limit) < 0) {
		engine_abandon(ck, r, limit);
		return -1;
	}
	if (ms)
		*ms = now_ms() - t0;
	if (w.status == ENGINE_OK) {
		rc = 0;
	} else {
		note_got(r, "%s", w.message ? w.message : "failed");
		check_fail(r, "the engine does not start: %s", w.message ? w.message : "failed");
		ck->faults++;
	}
	ewait_free(&w);
	return rc;
}

/* What a go sends, in the protocol's words (the trace log, --log, has the bytes). */
static void note_go(struct checker *ck, struct result *r, const struct hive_game *g,
		    const struct engine_limits *l)
{
	char *gs = game_text(g), *s;

	if (is_hub(ck)) {
		char lim[64];
		if (l->infinite)
			snprintf(lim, sizeof lim, "infinite");
		else if (l->movetime_ms)
			snprintf(lim, sizeof lim, "move-time=%.3f", (double)l->movetime_ms / 1000);
		else
			snprintf(lim, sizeof lim, "depth=%d", l->depth);
		s = format("pos pos=\"%s\" | level %s | go %s", gs, lim, l->infinite ? "analyze" : "think");
	} else if (l->movetime_ms) {
		s = format("Choose Turn for %s, response_deadline in %" PRIu64 " ms", gs, l->movetime_ms);
	} else {
		s = format("Choose Turn for %s", gs);
	}
	note_sent(r, s);
	free(s);
	free(gs);
}

/* Starts a go on g; the caller waits. -1 (r failed) if it cannot. */
static int e_go_begin(struct checker *ck, struct result *r, const struct hive_game *g,
		      const struct engine_limits *l, struct ewait *w)
{
	memset(w, 0, sizeof *w);
	w->base = ck->base;
	/* Up first (a restart after a fault), so that the time measured is the search's. */
	if (e_start(ck, r, NULL) < 0)
		return -1;
	note_go(ck, r, g, l);
	if (engine_go(ck->engine, g, l, NULL, ewait_done, w) < 0) {
		check_fail(r, "the back end is busy and does not search");
		return -1;
	}
	return 0;
}

/* Judges a finished go: a legal move (the back end checked it; so does the core
 * here), within limit_ms + the margin when limit_ms > 0. 0 with *out on success. */
static int e_go_judge(struct checker *ck, struct result *r, const struct hive_game *g, struct ewait *w,
		      int64_t ms, int limit_ms, struct hive_move *out)
{
	char buf[HIVE_MOVESTR_MAX];
	struct hive_move legal;

	switch (w->status) {
	case ENGINE_OK:
		if (!hive_board_find_move(&g->board, w->move, &legal)) {
			note_got(r, "piece %d to cell %u", w->move.piece, (unsigned)w->move.to);
			check_fail(r, "the back end passed on a move the core does not allow");
			return -1;
		}
		hive_move_format(&g->board, legal, buf, sizeof buf);
		note_got(r, "%s (as the core writes it) after %" PRId64 " ms", buf, ms);
		if (limit_ms > 0 && ms > limit_ms + ck->margin_ms) {
			check_fail(r, "answered after %" PRId64 " ms", ms);
			return -1;
		}
		*out = legal;
		return 0;
	case ENGINE_INVALID:
	case ENGINE_ERROR:
		note_got(r, "%s", w->message ? w->message : "refused");
		check_fail(r, "the engine refused to search: %s", w->message ? w->message : "?");
		return -1;
	case ENGINE_FAILED:
	default:
		note_got(r, "%s", w->message ? w->message : "failed");
		check_fail(r, "engine failed: %s", w->message ? w->message : "?");
		engine_failed(ck, r, ms);
		return -1;
	}
}

/* A search of g with limits l: a legal move, within limit_ms + margin if > 0. */
static int expect_emove(struct checker *ck, struct result *r, const struct hive_game *g,
			const struct engine_limits *l, int limit_ms, struct hive_move *out)
{
	struct ewait w;
	int64_t wait = (int64_t)l->movetime_ms + ck->prof.command_timeout_ms + CHECK_SLACK_MS;
	int rc = -1;

	if (limit_ms > 0)
		check_expect(r, "a legal move within %d ms + %d ms margin", limit_ms, ck->margin_ms);
	else
		check_expect(r, "a legal move");
	if (e_go_begin(ck, r, g, l, &w) < 0)
		return -1;
	int64_t t0 = now_ms();
	if (ewait_run(ck, &w, wait) < 0)
		engine_abandon(ck, r, wait);
	else
		rc = e_go_judge(ck, r, g, &w, now_ms() - t0, limit_ms, out);
	ewait_free(&w);
	return rc;
}

/* The depth-1 search most checks use (a Trylobot module gets no depth: it has none). */
static const struct engine_limits depth1 = { .depth = 1 };

/* A group of engine checks: clean slate, unless the engine never started. */
static void egroup_begin(struct checker *ck)
{
	free(ck->lost);
	ck->lost = ck->gave_up ? xstrdup("the engine does not start") : NULL;
	ck->group_failures = 0;
}

/* The UHP checks that have no counterpart in the other protocols. */
static const struct uhp_only {
	const char *name;
	int         required;
	const char *what;
} uhp_only_checks[] = {
	{ "startup.info-unprompted", 1, "unprompted info block" },
	{ "startup.info-command", 1, "info command" },
	{ "movegen.validmoves", 1, "validmoves (the bridge lists the moves itself)" },
	{ "gameflow.newgame", 1, "newgame" },
	{ "gameflow.play-undo", 1, "play, pass and undo (each search gets the whole game)" },
	{ "gameflow.end", 1, "game-end states (the bridge keeps the game)" },
	{ "rejections.invalidmove", 1, "invalidmove and err for bad moves" },
	{ "robustness.unknown-command", 1, "err for an unknown command" },
	{ "robustness.blank-line", 1, "blank lines" },
	{ "robustness.long-line", 1, "err for an overlong line" },
};

/* Records the UHP-only checks of group (the name's prefix) as skipped. */
static void skip_uhp_only(struct checker *ck, const char *group)
{
	size_t n = strlen(group);
	for (size_t i = 0; i < sizeof uhp_only_checks / sizeof uhp_only_checks[0]; i++) {
		if (strncmp(uhp_only_checks[i].name, group, n) || uhp_only_checks[i].name[n] != '.')
			continue;
		struct result *r = result_push(ck, uhp_only_checks[i].required, xstrdup(uhp_only_checks[i].name));
		check_skip(r, "not part of the %s protocol: UHP's %s", proto_title(ck), uhp_only_checks[i].what);
	}
}

static void egroup_startup(struct checker *ck)
{
	struct result *r = check_begin(ck, 1, "startup.start");
	struct sbuf unknown = { 0 };
	int64_t ms = 0;

	if (is_hub(ck)) {
		note_sent(r, "hub");
		for (size_t i = 0; i < ck->prof.noptions; i++) {
			char *s = format("set-param name=%s value=%s", ck->prof.options[i][0], ck->prof.options[i][1]);
			note_sent(r, s);
			free(s);
		}
		note_sent(r, "init");
		check_expect(r, "id and param lines, then \"wait\" after \"hub\"; \"ready\" after \"init\"; "
			     "each within %u ms", ck->prof.start_timeout_ms);
	} else {
		char *s = format("connect to %s port %u | Greetings", ck->prof.host, ck->prof.port);
		note_sent(r, s);
		free(s);
		check_expect(r, "a Greetings answer with \"active\": true within %u ms", ck->prof.start_timeout_ms);
	}
	if (e_start(ck, r, &ms) < 0) {
		check_end(r);
		ck->gave_up = 1;
		egroup_begin(ck);
		check_begin(ck, is_hub(ck), "startup.id");
		check_begin(ck, 0, "startup.capabilities");
		if (is_hub(ck))
			check_begin(ck, 0, "startup.params");
		skip_uhp_only(ck, "startup");
		return;
	}
	note_got(r, "%s after %" PRId64 " ms", is_hub(ck) ? "ready" : "the answer", ms);
	check_end(r);
	snprintf(ck->id, sizeof ck->id, "%s", ck->engine->id);
	snprintf(ck->caps, sizeof ck->caps, "%s", ck->engine->caps);
	caps_parse(ck, ck->caps, &unknown);
	sbuf_free(&unknown);

	/* The back ends name a silent engine after its command or address. */
	r = check_begin(ck, is_hub(ck), "startup.id");
	note_got(r, "%s", ck->id);
	if (is_hub(ck)) {
		check_expect(r, "an \"id name=...\" line before \"wait\"");
		if (!strcmp(ck->id, ck->prof.argv[0]))
			check_fail(r, "no id line");
	} else {
		check_expect(r, "\"name\" or \"long_name\" in the Greetings answer");
		if (!strncmp(ck->id, "Trylobot module", 15))
			check_fail(r, "the Greetings answer names no module");
	}
	check_end(r);

	r = check_begin(ck, 0, "startup.capabilities");
	if (is_hub(ck)) {
		note_got(r, "%s", ck->caps);
		r->reason = format("from the variant parameter (every expansion without one): %s",
				   ck->caps[0] ? ck->caps : "Base only");
	} else {
		check_skip(r, "a Trylobot module plays Base+MLP, every expansion");
	}
	check_end(r);

	/* Optional: docs/hub-hive.md asks for variant and hash at least. */
	if (is_hub(ck)) {
		struct ewait w = { .base = ck->base };
		r = check_begin(ck, 0, "startup.params");
		check_expect(r, "param lines for variant and hash (the ones the engine interface can show)");
		note_sent(r, "hub");
		if (engine_options(ck->engine, 0, NULL, ewait_done, &w) < 0) {
			check_fail(r, "the back end is busy");
		} else if (ewait_run(ck, &w, CHECK_SLACK_MS) < 0) {
			engine_abandon(ck, r, CHECK_SLACK_MS);
		} else if (w.status != ENGINE_OK) {
			check_fail(r, "cannot list them: %s", w.message ? w.message : "?");
		} else {
			struct sbuf got = { 0 };
			int variant = 0, hash = 0;
			for (size_t i = 0; i < w.lines.n; i++) {
				sbuf_printf(&got, "%s%s", i ? " | " : "", w.lines.v[i]);
				variant |= starts_with(w.lines.v[i], "variant;");
				hash |= starts_with(w.lines.v[i], "hash;");
			}
			note_got(r, "%s", got.s ? got.s : "<no parameters>");
			sbuf_free(&got);
			if (!variant || !hash)
				check_fail(r, "no %s parameter", variant ? "hash" : "variant");
		}
		ewait_free(&w);
		check_end(r);
	}
	skip_uhp_only(ck, "startup");
}

/* A random position of type where the side to move can throw an enemy piece with
 * its Pillbug (or a Mosquito next to one). 0 when g holds one; else g is freed. */
static int pillbug_position(struct checker *ck, struct hive_game *g, unsigned type)
{
	struct hive_move moves[HIVE_MAX_MOVES];

	for (int tries = 0; tries < 400; tries++) {
		random_game(ck, g, type, 8 + (int)(rng_next(&ck->rng) % 40));
		int side = hive_side_to_move(&g->board);
		size_t n = hive_board_moves(&g->board, moves);
		for (size_t i = 0; i < n; i++)
			if (moves[i].piece != HIVE_PASS_PIECE && HIVE_PIECE_COLOR(moves[i].piece) != side)
				return 0;
		hive_game_free(g);
	}
	return -1;
}

/* Loads one of the reference positions of the bestmove group into g. */
static int fixed_load(struct result *r, const char *gs, struct hive_game *g)
{
	char why[300];
	if (game_load(g, gs, why, sizeof why) < 0) {
		check_skip(r, "the core cannot load it: %s", why);
		return -1;
	}
	return 0;
}

static void egroup_bestmove(struct checker *ck)
{
	struct hive_move m, moves[HIVE_MAX_MOVES];
	struct hive_game g;
	struct result *r;
	unsigned best = ck->caps_type & 7;

	/* The start position of every game type the engine plays. */
	for (unsigned t = 0; t < 8; t++) {
		if (t & ~ck->caps_type)
			continue;
		r = check_begin(ck, 1, "bestmove.start[%s]", hive_gametype_name(t));
		if (!r)
			continue;
		hive_game_init(&g, t);
		expect_emove(ck, r, &g, &depth1, 0, &m);
		hive_game_free(&g);
		check_end(r);
	}

	random_game(ck, &g, best, 12);
	r = check_begin(ck, 1, "bestmove.depth-1");
	if (r)
		expect_emove(ck, r, &g, &depth1, 0, &m);
	check_end(r);
	r = check_begin(ck, 1, "bestmove.time-1s");
	if (r) {
		struct engine_limits l = { .movetime_ms = 1000 };
		expect_emove(ck, r, &g, &l, 1000, &m);
	}
	check_end(r);
	hive_game_free(&g);

	r = check_begin(ck, 1, "bestmove.single-move");
	if (r && fixed_load(r, POS_SINGLE_MOVE, &g) == 0) {
		check_needs(ck, r, g.type);
		if (hive_board_moves(&g.board, moves) != 1)
			check_skip(r, "the core sees more than one move");
		if (r->st == ST_RUN && expect_emove(ck, r, &g, &depth1, 0, &m) == 0 &&
		    (m.piece != moves[0].piece || m.to != moves[0].to))
			check_fail(r, "not the only legal move");
		hive_game_free(&g);
	}
	check_end(r);

	/* Hub never asks for a finished game, but a forced pass is a legal position;
	 * Trylobot offers only Forfeit there, and Forfeit is the only answer. */
	r = check_begin(ck, 1, "bestmove.forced-pass");
	if (r && fixed_load(r, POS_FORCED_PASS, &g) == 0) {
		struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE }, legal;
		if (!hive_board_find_move(&g.board, pass, &legal))
			check_skip(r, "the core does not see a forced pass");
		if (r->st == ST_RUN && expect_emove(ck, r, &g, &depth1, 0, &m) == 0 && m.piece != HIVE_PASS_PIECE)
			check_fail(r, "not %s", is_hub(ck) ? "\"pass\"" : "Forfeit");
		check_expect(r, "%s, the only legal move", is_hub(ck) ? "done move=pass" : "a Forfeit turn");
		hive_game_free(&g);
	}
	check_end(r);

	r = check_begin(ck, 1, "bestmove.stacks");
	if (r && fixed_load(r, POS_BEETLE_GATE, &g) == 0) {
		int stacked = 0;
		for (int p = 0; p < HIVE_PIECES; p++)
			stacked |= g.board.pos[p] != HIVE_NOWHERE && g.board.level[p] > 0;
		if (!stacked)
			check_skip(r, "the core sees no stack");
		else if (check_needs(ck, r, g.type) == 0)
			expect_emove(ck, r, &g, &depth1, 0, &m);
		hive_game_free(&g);
	}
	check_end(r);

	r = check_begin(ck, 1, "bestmove.pillbug");
	if (r && check_needs(ck, r, HIVE_EXP_P) == 0) {
		if (pillbug_position(ck, &g, best) < 0) {
			check_skip(r, "no random position with a Pillbug throw found");
		} else {
			expect_emove(ck, r, &g, &depth1, 0, &m);
			hive_game_free(&g);
		}
	}
	check_end(r);

	for (int i = 0; i < ck->positions; i++) {
		unsigned t = random_type(ck);
		random_game(ck, &g, t, (int)(rng_next(&ck->rng) % 41));
		r = check_begin(ck, 1, "bestmove.random[%d]", i);
		if (r)
			expect_emove(ck, r, &g, &depth1, 0, &m);
		check_end(r);
		hive_game_free(&g);
	}

	r = result_push(ck, 1, xstrdup("bestmove.game-over"));
	check_skip(r, "the %s protocol never asks for a move in a finished game", proto_title(ck));
}

/* The engine plays a game against itself, every move legal; the back end sends
 * each position as the continuation of the previous one. */
static void egroup_gameflow(struct checker *ck)
{
	struct result *r = check_begin(ck, 1, "gameflow.selfplay");
	struct hive_game g;
	struct hive_move m;
	int ply;

	skip_uhp_only(ck, "gameflow");
	if (!r)
		return;
	hive_game_init(&g, ck->caps_type & 7);
	for (ply = 0; ply < CHECK_SELFPLAY && !hive_game_over(&g.board); ply++) {
		sbuf_free(&r->sent);      /* the report shows the ply that failed */
		if (expect_emove(ck, r, &g, &depth1, 0, &m) < 0 || hive_game_play(&g, m) != HIVE_OK)
			break;
	}
	if (r->st == ST_RUN)
		r->reason = format("%d plies%s", ply, hive_game_over(&g.board) ? " to the end" : "");
	hive_game_free(&g);
	check_end(r);
}

/* Hub: "stop" during an infinite search gets "done" with a legal move. */
static void check_stop(struct checker *ck)
{
	struct result *r = check_begin(ck, 1, "robustness.stop");
	struct hive_game g;
	struct hive_move m;
	struct ewait w;
	struct engine_limits inf = { .infinite = 1 };

	if (!r)
		return;
	if (!is_hub(ck)) {
		check_skip(r, "a Trylobot module cannot be interrupted");
		check_end(r);
		return;
	}
	check_expect(r, "done with a legal move within %u ms of stop", ck->prof.stop_timeout_ms);
	random_game(ck, &g, ck->caps_type & 7, 10);
	if (e_go_begin(ck, r, &g, &inf, &w) == 0) {
		int64_t t0 = now_ms(), wait = (int64_t)ck->prof.stop_timeout_ms + CHECK_SLACK_MS;
		/* It may finish on its own before (Hub allows that); else it is stopped. */
		if (ewait_run(ck, &w, CHECK_STOP_AFTER_MS) < 0) {
			note_sent(r, "stop");
			engine_stop(ck->engine);
			t0 = now_ms();
		}
		if (!w.finished && ewait_run(ck, &w, wait) < 0)
			engine_abandon(ck, r, wait);
		else
			e_go_judge(ck, r, &g, &w, now_ms() - t0, 0, &m);
		ewait_free(&w);
	}
	hive_game_free(&g);
	check_end(r);
}

static void egroup_robustness(struct checker *ck)
{
	/* After a failure the back end restarts the engine on next use. */
	struct result *r = check_begin(ck, 1, "robustness.restart");
	if (r) {
		check_expect(r, "the engine starts again after a failure");
		if (!ck->faults)
			check_skip(r, "no failure to recover from");
		else
			e_start(ck, r, NULL);
		check_end(r);
	}
	check_stop(ck);
	skip_uhp_only(ck, "robustness");
	r = result_push(ck, 0, xstrdup("robustness.stdin-closed"));
	check_skip(r, "not checked through the %s back end, which ends the engine itself", proto_title(ck));
}

/* The whole suite through the engine interface. */
static void run_engine_checks(struct checker *ck)
{
	egroup_begin(ck);
	egroup_startup(ck);
	egroup_begin(ck);
	skip_uhp_only(ck, "movegen");
	egroup_begin(ck);
	egroup_gameflow(ck);
	skip_uhp_only(ck, "rejections");
	egroup_begin(ck);
	egroup_bestmove(ck);
	egroup_begin(ck);
	egroup_robustness(ck);
	engine_free(ck->engine);
	ck->engine = NULL;
}

/* ------------------------------------------------------------------------ */
/* The report                                                                */

struct tally {
	size_t passed, failed, skipped, required_failures;
};

static struct tally tally(const struct checker *ck)
{
	struct tally t = { 0, 0, 0, 0 };
	for (size_t i = 0; i < ck->nres; i++) {
		const struct result *r = ck->res[i];
		if (r->st == ST_PASS)
			t.passed++;
		else if (r->st == ST_SKIP)
			t.skipped++;
		else {
			t.failed++;
			t.required_failures += r->required != 0;
		}
	}
	return t;
}

static void print_list(FILE *f, const char *label, const struct strlist *l)
{
	if (!l->n)
		return;
	fprintf(f, "  %s: ", label);
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s%s", i ? "; " : "", l->v[i]);
	if (l->n >= CHECK_SHOW_MOVES)
		fputs("; ...", f);
}

/* The part of a name between its brackets ("movegen.random[3]" -> "3"), or NULL. */
static const char *name_index(const char *name, size_t *baselen)
{
	const char *b = strchr(name, '[');
	*baselen = b ? (size_t)(b - name) : strlen(name);
	return b ? b + 1 : NULL;
}

/* Whether b continues a run of a (same indexed name, status and reason): such runs
 * are folded into one line unless --verbose. Failures are never folded. */
static int same_run(const struct result *a, const struct result *b, size_t base)
{
	if (a->st == ST_FAIL || b->st != a->st || b->required != a->required)
		return 0;
	if ((a->reason == NULL) != (b->reason == NULL) || (a->reason && strcmp(a->reason, b->reason)))
		return 0;
	return !strncmp(a->name, b->name, base + 1);
}

static void report_text(const struct checker *ck, FILE *f)
{
	static const char *const labels[] = { "????", "PASS", "FAIL", "SKIP" };
	struct tally t = tally(ck);

	fprintf(f, "engine: %s", ck->argv[0]);
	for (size_t i = 1; ck->argv[i]; i++)
		fprintf(f, " %s", ck->argv[i]);
	fprintf(f, "\nprotocol: %s", ck->protocol);
	if (ck->profile_name)
		fprintf(f, " (profile %s)", ck->profile_name);
	fprintf(f, "\nid: %s\ncapabilities: %s\n", ck->id[0] ? ck->id : "?", ck->caps[0] ? ck->caps : "(none)");
	for (size_t i = 0; i < ck->nres; i++) {
		const struct result *r = ck->res[i];
		size_t base, j = i;
		const char *idx = name_index(r->name, &base);

		while (!ck->verbose && idx && j + 1 < ck->nres && same_run(r, ck->res[j + 1], base))
			j++;
		fprintf(f, "%s ", labels[r->st]);
		if (j > i) {
			size_t dummy;
			const char *last = name_index(ck->res[j]->name, &dummy);
			fprintf(f, "%.*s[%.*s..%s", (int)base, r->name, (int)strcspn(idx, "]"), idx, last);
		} else {
			fputs(r->name, f);
		}
		if (!r->required && r->st != ST_PASS)
			fputs(" (optional)", f);
		if (j > i)
			fprintf(f, "  (%zu checks)", j - i + 1);
		if (r->reason)
			fprintf(f, "%s%s", r->st == ST_SKIP ? "    " : "  ", r->reason);
		if (r->st == ST_FAIL) {
			if (r->sent.len)
				fprintf(f, "  sent: %s", r->sent.s);
			if (r->got.len)
				fprintf(f, "  got: %s", r->got.s);
			if (r->expected)
				fprintf(f, "  expected: %s", r->expected);
			print_list(f, "only-engine", &r->only_engine);
			print_list(f, "only-core", &r->only_core);
		}
		fputc('\n', f);
		i = j;
	}
	fprintf(f, "summary: %zu passed, %zu failed, %zu skipped (required failures: %zu)\n",
		t.passed, t.failed, t.skipped, t.required_failures);
}

static void json_list(cJSON *o, const char *key, const struct strlist *l)
{
	if (!l->n)
		return;
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (size_t i = 0; a && i < l->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(l->v[i]));
}

/* The report as JSON; -1 if it cannot be built. */
static int report_json(const struct checker *ck, FILE *f)
{
	struct tally t = tally(ck);
	cJSON *root = cJSON_CreateObject();
	if (!root)
		return -1;
	cJSON *argv = cJSON_AddArrayToObject(root, "command");
	for (size_t i = 0; argv && ck->argv[i]; i++)
		cJSON_AddItemToArray(argv, cJSON_CreateString(ck->argv[i]));
	cJSON_AddStringToObject(root, "protocol", ck->protocol);
	if (ck->profile_name)
		cJSON_AddStringToObject(root, "profile", ck->profile_name);
	cJSON *eng = cJSON_AddObjectToObject(root, "engine");
	if (eng) {
		cJSON_AddStringToObject(eng, "id", ck->id);
		cJSON_AddStringToObject(eng, "capabilities", ck->caps);
	}
	cJSON *opt = cJSON_AddObjectToObject(root, "options");
	if (opt) {
		char seed[32];
		snprintf(seed, sizeof seed, "%" PRIu64, ck->seed);
		cJSON_AddNumberToObject(opt, "timeout_ms", ck->timeout_ms);
		cJSON_AddNumberToObject(opt, "time_margin_ms", ck->margin_ms);
		cJSON_AddNumberToObject(opt, "positions", ck->positions);
		cJSON_AddStringToObject(opt, "seed", seed);
	}
	cJSON *checks = cJSON_AddArrayToObject(root, "checks");
	for (size_t i = 0; checks && i < ck->nres; i++) {
		const struct result *r = ck->res[i];
		cJSON *c = cJSON_CreateObject();
		if (!c)
			break;
		cJSON_AddStringToObject(c, "name", r->name);
		cJSON_AddStringToObject(c, "status", status_names[r->st]);
		cJSON_AddBoolToObject(c, "required", r->required);
		if (r->reason)
			cJSON_AddStringToObject(c, "reason", r->reason);
		if (r->st == ST_FAIL) {
			if (r->sent.len)
				cJSON_AddStringToObject(c, "sent", r->sent.s);
			if (r->got.len)
				cJSON_AddStringToObject(c, "got", r->got.s);
			if (r->expected)
				cJSON_AddStringToObject(c, "expected", r->expected);
			json_list(c, "only_engine", &r->only_engine);
			json_list(c, "only_core", &r->only_core);
		}
		cJSON_AddItemToArray(checks, c);
	}
	cJSON *sum = cJSON_AddObjectToObject(root, "summary");
	if (sum) {
		cJSON_AddNumberToObject(sum, "passed", (double)t.passed);
		cJSON_AddNumberToObject(sum, "failed", (double)t.failed);
		cJSON_AddNumberToObject(sum, "skipped", (double)t.skipped);
		cJSON_AddNumberToObject(sum, "required_failures", (double)t.required_failures);
	}
	cJSON_AddBoolToObject(root, "conformant", t.required_failures == 0);
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	if (!s)
		return -1;
	fprintf(f, "%s\n", s);
	cJSON_free(s);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The command line                                                          */

static const char check_usage[] =
	"usage: hivebridge check [OPTIONS] ENGINE\n"
	"       hivebridge check [OPTIONS] [--config FILE] --profile NAME\n"
	"  runs a conformance suite against the engine and prints a report;\n"
	"  the exit status is 0 only when every required check passes\n"
	"  ENGINE is one of\n"
	"    -- CMD [ARGS...]     a UHP engine\n"
	"    \"CMD ARGS\"           a UHP engine, the command split like in a config file\n"
	"    uhp:CMD [ARGS...]    the same\n"
	"    hub:CMD [ARGS...]    a Hub engine (docs/hub-hive.md)\n"
	"    trylobot:HOST:PORT   a Trylobot AI module\n"
	"    builtin              this program's own engine, through its UHP front end\n"
	"    builtin:depth=N      the same, at a fixed depth where no limit is given\n"
	"    NAME                 an [engine NAME] profile of --config\n"
	"  Hub engines and Trylobot modules get the checks their protocol allows;\n"
	"  the UHP-only ones are skipped with the reason\n"
	"  --json               print the report as JSON\n"
	"  --timeout-ms N       deadline of each reply, and the Hub and Trylobot\n"
	"                       start and command time-outs (default 5000; a --profile\n"
	"                       keeps its own unless this is given)\n"
	"  --time-margin-ms N   grace over a bestmove time limit (default 500)\n"
	"  --positions N        random positions for move generation or bestmove (default 20)\n"
	"  --seed S             seed of the random positions (default 1)\n"
	"  --data DIR           reference data; without it: $HIVEBRIDGE_DATA (or\n"
	"                       $HIVE_DATA), then " HIVEBRIDGE_DATADIR "/data, then\n"
	"                       ../../shared/data from this program's folder (a build tree);\n"
	"                       no data is an error\n"
	"  --config FILE        configuration file with the --profile\n"
	"  --profile NAME       the engine of that profile (\"builtin\" without --config)\n"
	"  --log FILE           trace of every UHP and Hub line and Trylobot frame\n"
	"                       (\"-\" = stderr)\n"
	"  --verbose            list every passing check on its own line\n"
	"  -h, --help           this text\n"
	"  exit status: 0 every required check passed, 1 one failed or the check could\n"
	"  not run (no data, a configuration or log error), 2 a usage error\n";

static int parse_num(const char *flag, const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = s ? strtoull(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || *s == '-' || v > max) {
		fprintf(stderr, "hivebridge check: %s needs a number up to %" PRIu64 "\n", flag, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* Parses the options into ck; returns the index of the engine (argc if there is
 * none), -1 on a usage error, -2 for --help. */
static int parse_args(struct checker *ck, int argc, char **argv)
{
	static const struct {
		const char *flag;
		uint64_t    max;
	} numeric[] = {
		{ "--timeout-ms", 3600 * 1000 }, { "--time-margin-ms", 3600 * 1000 },
		{ "--positions", 100000 }, { "--seed", UINT64_MAX },
	};
	static const char *const strings[] = { "--data", "--config", "--profile", "--log" };
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "--json")) {
			ck->json = 1;
			continue;
		}
		if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			ck->verbose = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return -2;
		const char *eq = strchr(a, '=');
		size_t flen = eq ? (size_t)(eq - a) : strlen(a);
		const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
		size_t k;
		for (k = 0; k < sizeof strings / sizeof strings[0]; k++)
			if (strlen(strings[k]) == flen && !strncmp(a, strings[k], flen))
				break;
		if (k < sizeof strings / sizeof strings[0]) {
			if (!val || !*val) {
				fprintf(stderr, "hivebridge check: %s needs a value\n", strings[k]);
				return -1;
			}
			const char **dst[] = { &ck->data, &ck->config_path, &ck->profile_name, &ck->log_path };
			*dst[k] = val;
			i += !eq;
			continue;
		}
		for (k = 0; k < sizeof numeric / sizeof numeric[0]; k++)
			if (strlen(numeric[k].flag) == flen && !strncmp(a, numeric[k].flag, flen))
				break;
		if (k == sizeof numeric / sizeof numeric[0]) {
			fprintf(stderr, "hivebridge check: unknown option %s\n", a);
			return -1;
		}
		uint64_t v;
		if (parse_num(numeric[k].flag, val, numeric[k].max, &v) < 0)
			return -1;
		i += !eq;
		switch (k) {
		case 0: ck->timeout_ms = (int)v; ck->timeout_set = 1; break;
		case 1: ck->margin_ms = (int)v; break;
		case 2: ck->positions = (int)v; break;
		default: ck->seed = v; break;
		}
	}
	return i;
}

/* What check_main allocates for the engine's command line. */
struct cmdline {
	char  *self;          /* this program's path */
	char **argv;          /* a command built here (NULL-terminated), or NULL */
	char  *addr;          /* a Trylobot module's HOST:PORT */
	char  *addr_argv[2];
	const char *spec;     /* a builtin ENGINE word, for the child's --engine */
};

static void cmdline_free(struct cmdline *c)
{
	free(c->self);
	free(c->argv);        /* its strings belong to argv[] or c->self */
	free(c->addr);
}

/* The engine named on the command line, as a profile owned by cfg, or NULL for
 * "builtin" (*builtin set) and for a raw UHP command (ck->argv set). The words
 * after a "hub:" or "uhp:" word are its arguments and go into c->argv. -1 on error. */
static int engine_from_args(struct checker *ck, struct config *cfg, int n, char **words,
			    const struct engine_profile **out, int *builtin, struct cmdline *c)
{
	char *cause = NULL;

	*out = NULL;
	*builtin = 0;
	if (n == 1 && !strcmp(words[0], "builtin")) {
		*builtin = 1;
		return 0;
	}
	if (n == 1) {
		int depth;
		*out = config_engine_parse(cfg, words[0], &depth, &cause);
		if (!*out || ((!strcmp((*out)->kind, "uhp") || !strcmp((*out)->kind, "hub")) &&
			      (!(*out)->argv || !(*out)->argv[0]))) {
			fprintf(stderr, "hivebridge check: engine \"%s\": %s\n", words[0],
				cause ? cause : "empty engine command");
			free(cause);
			return -1;
		}
		*builtin = !strcmp((*out)->kind, "builtin");
		if (*builtin)
			c->spec = words[0];     /* the child parses it the same way */
		return 0;
	}
	const char *kind = NULL;
	if (!strncmp(words[0], "hub:", 4))
		kind = "hub";
	else if (!strncmp(words[0], "uhp:", 4))
		kind = "uhp";
	else if (!strncmp(words[0], "trylobot:", 9)) {
		fprintf(stderr, "hivebridge check: trylobot:HOST:PORT takes no arguments\n");
		return -1;
	}
	if (!kind) {
		ck->argv = words;      /* a UHP command, as it is */
		return 0;
	}
	if (!words[0][4]) {
		fprintf(stderr, "hivebridge check: %s: no command\n", words[0]);
		return -1;
	}
	c->argv = xrealloc(NULL, ((size_t)n + 1) * sizeof *c->argv);
	c->argv[0] = words[0] + 4;
	for (int i = 1; i < n; i++)
		c->argv[i] = words[i];
	c->argv[n] = NULL;
	/* A profile with the defaults of its kind; its command is replaced by c->argv. */
	*out = config_add_command(cfg, kind, "-", &cause);
	if (!*out) {
		fprintf(stderr, "hivebridge check: %s\n", cause ? cause : "bad engine");
		free(cause);
		return -1;
	}
	return 0;
}

/* Sets ck up for the engine: its protocol, its command or address. -1 on error. */
static int engine_setup(struct checker *ck, const struct engine_profile *p, int builtin, struct cmdline *c)
{
	if (builtin) {
		/* This binary's own UHP front end (with the profile's settings, if named). */
		char path[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
		if (n <= 0) {
			fprintf(stderr, "hivebridge check: cannot find this program: %s\n", strerror(errno));
			return -1;
		}
		path[n] = 0;
		c->self = xstrdup(path);
		c->argv = xrealloc(NULL, 7 * sizeof *c->argv);
		size_t k = 0;
		c->argv[k++] = c->self;
		c->argv[k++] = "uhp";
		if (ck->config_path) {
			c->argv[k++] = "--config";
			c->argv[k++] = (char *)ck->config_path;
		}
		if (ck->profile_name) {
			c->argv[k++] = "--profile";
			c->argv[k++] = (char *)ck->profile_name;
		} else if (c->spec) {
			c->argv[k++] = "--engine";
			c->argv[k++] = (char *)c->spec;
		}
		c->argv[k] = NULL;
		ck->argv = c->argv;
		ck->protocol = "uhp";
		return 0;
	}
	if (!p) {
		ck->protocol = "uhp";      /* ck->argv is set */
		return 0;
	}
	if (!strcmp(p->kind, "uhp")) {
		ck->argv = c->argv ? c->argv : p->argv;
		ck->workdir = p->workdir;
		ck->protocol = "uhp";
		return 0;
	}
	if (strcmp(p->kind, "hub") && strcmp(p->kind, "trylobot")) {
		fprintf(stderr, "hivebridge check: cannot check an engine of kind \"%s\"\n", p->kind);
		return -1;
	}
	ck->prof = *p;        /* shallow: the strings stay the config's */
	ck->protocol = p->kind;
	if (c->argv)
		ck->prof.argv = c->argv;
	if (!ck->profile_name || ck->timeout_set) {
		ck->prof.start_timeout_ms = (unsigned)ck->timeout_ms;
		ck->prof.command_timeout_ms = (unsigned)ck->timeout_ms;
		if (ck->prof.stop_timeout_ms > (unsigned)ck->timeout_ms)
			ck->prof.stop_timeout_ms = (unsigned)ck->timeout_ms;
	}
	if (!strcmp(p->kind, "hub")) {
		if (!ck->prof.argv || !ck->prof.argv[0]) {
			fprintf(stderr, "hivebridge check: profile %s has no command\n", p->name);
			return -1;
		}
		ck->argv = ck->prof.argv;
	} else {
		c->addr = format("%s:%u", p->host ? p->host : "?", (unsigned)p->port);
		c->addr_argv[0] = c->addr;
		ck->argv = c->addr_argv;
	}
	return 0;
}

/* Finds the reference data: --data, $HIVEBRIDGE_DATA or $HIVE_DATA (an explicit
 * choice must hold it), else the installed copy, else the copy beside a source
 * checkout this program was built in. ck->data is set, or -1 after saying where
 * it looked. *own holds a path built here. */
static int data_locate(struct checker *ck, char **own)
{
	const char *env = getenv("HIVEBRIDGE_DATA");
	const char *how = ck->data ? "--data" : NULL;
	char exe[PATH_MAX], *looked[2] = { NULL, NULL };
	size_t nlooked = 0;

	if (!how && env && *env) {
		ck->data = env;
		how = "HIVEBRIDGE_DATA";
	} else if (!how && (env = getenv("HIVE_DATA")) != NULL && *env) {
		ck->data = env;
		how = "HIVE_DATA";
	}
	if (how) {
		char *mark = format("%s/%s", ck->data, CHECK_DATA_MARK);
		int ok = access(mark, R_OK) == 0;
		free(mark);
		if (!ok)
			fprintf(stderr, "hivebridge check: no reference data in %s (from %s): %s is missing\n",
				ck->data, how, CHECK_DATA_MARK);
		return ok ? 0 : -1;
	}
	looked[nlooked++] = xstrdup(HIVEBRIDGE_DATADIR "/data");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			looked[nlooked++] = format("%s/../../shared/data", exe);
		}
	}
	for (size_t i = 0; i < nlooked; i++) {
		char *mark = format("%s/%s", looked[i], CHECK_DATA_MARK);
		int ok = access(mark, R_OK) == 0;
		free(mark);
		if (ok) {
			*own = looked[i];
			ck->data = *own;
			for (size_t j = 0; j < nlooked; j++)
				if (j != i)
					free(looked[j]);
			return 0;
		}
	}
	fprintf(stderr, "hivebridge check: no reference data; looked in --data, $HIVEBRIDGE_DATA, "
		"$HIVE_DATA");
	for (size_t i = 0; i < nlooked; i++) {
		fprintf(stderr, ", %s", looked[i]);
		free(looked[i]);
	}
	fprintf(stderr, "\n");
	return -1;
}

/* Runs every check against ck's engine. -1 if the event loop cannot be had. */
static int run_checks(struct checker *ck)
{
	if (!strcmp(ck->protocol, "uhp")) {
		static void (*const groups[])(struct checker *) = {
			group_movegen_start, group_movegen_nokamute, group_movegen_realgames,
			group_movegen_random, group_gameflow, group_rejections_byrule,
			group_rejections_malformed, group_bestmove, group_robustness,
		};
		group_startup(ck);
		for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
			group_begin(ck);
			groups[g](ck);
		}
		eng_kill(&ck->eng);
		return 0;
	}
	ck->base = event_base_new();
	ck->deadline = ck->base ? evtimer_new(ck->base, deadline_cb, ck) : NULL;
	if (!ck->deadline) {
		fprintf(stderr, "hivebridge check: cannot set up the event loop\n");
		if (ck->base)
			event_base_free(ck->base);
		ck->base = NULL;
		return -1;
	}
	run_engine_checks(ck);
	/* Engines quit politely, within the drain time; none is left behind. */
	proc_drain(ck->base, CHECK_DRAIN_MS);
	event_free(ck->deadline);
	event_base_free(ck->base);
	ck->deadline = NULL;
	ck->base = NULL;
	return 0;
}

int check_main(int argc, char **argv)
{
	struct checker ck;
	struct config cfg;
	struct cmdline cl;
	const struct engine_profile *p = NULL;
	char *cause = NULL, *data_own = NULL;
	int status = 2, builtin = 0, logging = 0;

	memset(&ck, 0, sizeof ck);
	memset(&cl, 0, sizeof cl);
	ck.timeout_ms = CHECK_TIMEOUT_MS;
	ck.margin_ms = CHECK_MARGIN_MS;
	ck.positions = CHECK_POSITIONS;
	ck.seed = 1;
	ck.eng.to = ck.eng.from = -1;
	config_defaults(&cfg);

	int first = parse_args(&ck, argc, argv);
	if (first == -2) {
		fputs(check_usage, stdout);
		status = 0;
		goto out;
	}
	if (first < 0) {
		fputs("Try 'hivebridge check --help'.\n", stderr);
		goto out;
	}
	if (ck.config_path && config_load(&cfg, ck.config_path, &cause) < 0) {
		fprintf(stderr, "hivebridge check: %s\n", cause ? cause : ck.config_path);
		free(cause);
		status = 1;
		goto out;
	}
	if (ck.profile_name) {
		if (first < argc) {
			fprintf(stderr, "hivebridge check: give an engine or --profile, not both\n");
			goto out;
		}
		if (!(p = config_profile(&cfg, ck.profile_name))) {
			fprintf(stderr, "hivebridge check: no engine profile \"%s\"\n", ck.profile_name);
			goto out;
		}
		builtin = !p->kind || !strcmp(p->kind, "builtin");
	} else if (first >= argc) {
		fprintf(stderr, "hivebridge check: ENGINE is missing\nTry 'hivebridge check --help'.\n");
		goto out;
	} else if (engine_from_args(&ck, &cfg, argc - first, argv + first, &p, &builtin, &cl) < 0) {
		goto out;
	}
	/* A Trylobot module's host is resolved now, not inside the loop. */
	if (p && !strcmp(p->kind, "trylobot") && config_engine_check(&cfg, p, &cause) < 0) {
		fprintf(stderr, "hivebridge check: engine \"%s\": %s\n",
			ck.profile_name ? ck.profile_name : argv[first], cause ? cause : "cannot work");
		free(cause);
		status = 1;
		goto out;
	}
	if (engine_setup(&ck, p, builtin, &cl) < 0)
		goto out;
	status = 1;
	if (data_locate(&ck, &data_own) < 0)
		goto out;
	if (ck.log_path) {
		if (log_open(ck.log_path) < 0) {
			fprintf(stderr, "hivebridge check: log %s: cannot open: %s\n", ck.log_path, strerror(errno));
			goto out;
		}
		logging = 1;
	}
	ck.rng = ck.seed;

	/* A dead engine must not kill the checker when it writes. */
	signal(SIGPIPE, SIG_IGN);

	if (run_checks(&ck) < 0)
		goto out;
	if (ck.json) {
		if (report_json(&ck, stdout) < 0) {
			fprintf(stderr, "hivebridge check: cannot build the JSON report\n");
			status = 1;
			goto out;
		}
	} else {
		report_text(&ck, stdout);
	}
	fflush(stdout);
	status = tally(&ck).required_failures ? 1 : 0;
out:
	eng_kill(&ck.eng);
	for (size_t i = 0; i < ck.nres; i++)
		result_free(ck.res[i]);
	free(ck.res);
	free(ck.lost);
	free(ck.info_block);
	cmdline_free(&cl);
	config_free(&cfg);
	free(data_own);
	if (logging)
		log_close();
	return status;
}
