/*
 * uhp_back.c: an external UHP engine as a back end of the engine interface.
 *
 * The job (start, go, options) is the engine interface's; here it is a chain of UHP
 * commands, each answered by lines up to "ok" under a timer: start = the info
 * block, then one "options set" per configured option; go = newgame or play until
 * the engine's game is the job's, then bestmove, whose move the interface checks.
 *
 * Any breakage (exit, EOF, time-out, overlong line, illegal move) kills the child
 * and leaves the back end down; the next job spawns a fresh one.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/event.h>

#include "adapters/uhp/uhp_back.h"
#include "adapters/uhp/uhp_codec.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_child.h"
#include "bridge/engine_line.h"
#include "bridge/log.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/game.h"

/* Catch-up by "play" only for a few plies; beyond that one newgame is cheaper. */
#define UE_MAX_PLAY_SYNC 8
/* bestmove without any limit the caller set. */
#define UE_DEFAULT_MOVETIME_MS 5000
/* UHP has no infinite search: the longest time it can say, ended by engine_stop. */
#define UE_INFINITE_MS UHP_MAX_TIME_MS
/* How late a timed answer is thought to come (past the time asked) until measured. */
#define UE_LAG_PRIOR_MS 50
/* A clock's flag is kept this far off, beyond the lag. */
#define UE_CLOCK_RESERVE_MS 500
/* An infinite search of an engine that cannot be interrupted: searches this long,
 * again and again, until stopped (a stop waits for the one running). */
#define UE_SLICE_MS 1000

/* Engines known to die of SIGINT (matched on the start of their id line): their
 * searches are never interrupted with it. An engine that dies of it once joins them. */
static const char *const ue_sigint_kills[] = { "nokamute" };

enum ue_state {
	UE_DOWN,          /* no child */
	UE_STARTING,      /* waiting for the info block */
	UE_CONFIGURING,   /* sending the profile's options */
	UE_IDLE           /* ready */
};

enum ue_step {
	UE_STEP_NONE, UE_STEP_INFO, UE_STEP_SETOPT, UE_STEP_NEWGAME, UE_STEP_PLAY,
	UE_STEP_BESTMOVE, UE_STEP_OPTIONS
};

struct uhp_back {
	struct engine_line      el;           /* the engine, its child and the job */
	enum ue_state           state;
	size_t                  next_option;
	int                     adopted;      /* a connected engine: never respawned */
	uhp_back_closed_cb     *closed;       /* adopted: told when it goes while idle */
	void                   *closed_arg;

	struct hive_game        mirror;       /* the engine's game, when synced */
	int                     synced;

	char                   *options_line; /* options: the command to forward */

	/* The command in flight and its reply so far. */
	enum ue_step            step;
	char                    cmd[160];     /* for messages: the command, cut short */
	struct hive_move        play_move;
	char                  **lines;        /* result lines (options, info) */
	size_t                  nlines, cap;
	size_t                  reply_bytes;
	char                   *last;         /* last result line */
	char                   *errmsg;       /* first err/invalidmove text */
	enum engine_status      errstatus;
	int                     seen_id;

	/* Time: the bestmove in flight, and what the engine has shown of itself. */
	int                     timed;        /* a time (not a depth) was asked */
	uint64_t                asked_ms;     /* that time, whole seconds */
	int64_t                 sent_ms;      /* when it was sent (now_ms) */
	uint64_t                lag_ms;       /* how late timed answers come, decaying max */
	int                     no_sigint;    /* it dies of SIGINT: never sent it */
	int                     sigint_sent;  /* SIGINT went to this child */
	int                     slicing;      /* an infinite search in slices (no_sigint) */
};

static const struct engine_ops ue_ops;

static void ue_reply_reset(struct uhp_back *u)
{
	for (size_t i = 0; i < u->nlines; i++)
		free(u->lines[i]);
	free(u->lines);
	u->lines = NULL;
	u->nlines = u->cap = 0;
	u->reply_bytes = 0;
	free(u->last);
	u->last = NULL;
	free(u->errmsg);
	u->errmsg = NULL;
	u->errstatus = ENGINE_OK;
	u->seen_id = 0;
}

/* The job ends (engine_job_finish): forget its command and reply. */
static void ue_ending(struct engine *e)
{
	struct uhp_back *u = e->priv;

	engine_child_disarm(u->el.child);
	u->step = UE_STEP_NONE;
	u->slicing = 0;
	free(u->options_line);
	u->options_line = NULL;
	ue_reply_reset(u);
}

/* The child has been killed (engine_child_fail): forget its game, fail the job. */
static void ue_failed(void *arg, const char *why)
{
	struct uhp_back *u = arg;

	u->state = UE_DOWN;
	u->synced = 0;
	if (engine_job_kind(&u->el.e) != ENGINE_JOB_NONE)
		engine_job_finish(&u->el.e, ENGINE_FAILED, why, NULL);
	else
		ue_reply_reset(u);
}

/* Sends one command and waits up to ms for its "ok" (0: no time limit). */
static void ue_send(struct uhp_back *u, enum ue_step step, const char *line, uint64_t ms)
{
	ue_reply_reset(u);
	u->step = step;
	/* Kept for messages only: cut short on purpose. */
	size_t n = strnlen(line, sizeof u->cmd - 1);
	memcpy(u->cmd, line, n);
	u->cmd[n] = 0;
	if (engine_child_send(u->el.child, line) < 0)
		return;
	engine_child_arm(u->el.child, ms);
}

/* The wait in progress ran out. */
static void ue_timeout(void *arg)
{
	struct uhp_back *u = arg;
	const struct engine_profile *p = u->el.e.profile;

	switch (u->step) {
	case UE_STEP_INFO:
		engine_child_fail(u->el.child, "no info block ending in ok within %u ms of start",
				  p->start_timeout_ms);
		break;
	case UE_STEP_BESTMOVE:
		if (u->el.e.job.stop_requested && u->sigint_sent) {
			engine_child_fail(u->el.child, "did not stop within %u ms of SIGINT",
					  p->stop_timeout_ms);
			break;
		}
		if (u->timed) {
			engine_child_fail(u->el.child, "no answer to \"%s\" within its %llu s and "
					  "command_timeout (%u ms)", u->cmd,
					  (unsigned long long)(u->asked_ms / 1000), p->command_timeout_ms);
			break;
		}
		/* fall through */
	default:
		engine_child_fail(u->el.child, "no ok in time after \"%s\"", u->cmd);
		break;
	}
}

/* Whole seconds of a time the engine may take, which must be over, answer included,
 * within avail ms: rounded down (a UHP engine counts whole seconds and may use all
 * of the last one), at most want_s; 0 when not even one second fits. */
static uint64_t ue_fit_seconds(uint64_t want_s, int64_t avail)
{
	uint64_t s = avail > 0 ? (uint64_t)avail / 1000 : 0;
	return s < want_s ? s : want_s;
}

/* The bestmove command for the job's limits; *ms gets its time (0: a depth), *timed
 * whether a time-out guards it (not for the longest time, the infinite search).
 * A time the client gave is the engine's, whole (UHP's own are whole seconds); a
 * deadline or a clock first loses the time already spent on the way (syncing the
 * game) and the lag the engine's answers have shown, then is rounded down to whole
 * seconds, and is a depth-1 search when not one second is left. */
static void ue_bestmove_line(struct uhp_back *u, char *buf, size_t len, uint64_t *ms, int *timed)
{
	const struct engine_limits *l = &u->el.e.job.limits;
	struct uhp_bestmove b = { .kind = UHP_BEST_TIME };
	int side = hive_side_to_move(&u->el.e.job.game.board);
	int64_t spent = now_ms() - u->el.e.job.go_ms;
	int64_t lag = (int64_t)u->lag_ms;
	uint64_t sec;

	*timed = 1;
	if (u->el.e.job.stop_requested) {
		b.kind = UHP_BEST_DEPTH;
		b.depth = 1;
	} else if (l->infinite && u->no_sigint) {
		/* It cannot be interrupted: the search goes on in slices until stopped. */
		u->slicing = 1;
		b.time_ms = UE_SLICE_MS;
	} else if (l->infinite) {
		b.time_ms = UE_INFINITE_MS;
		*timed = 0;
	} else if (l->movetime_ms && l->deadline_ms) {
		sec = ue_fit_seconds(l->movetime_ms < 1000 ? 1 : l->movetime_ms / 1000,
				     (int64_t)l->deadline_ms - spent - lag);
		if (sec) {
			b.time_ms = sec * 1000;
		} else {
			b.kind = UHP_BEST_DEPTH;
			b.depth = 1;
		}
	} else if (l->movetime_ms) {
		b.time_ms = l->movetime_ms;
	} else if (l->time_ms[side]) {
		/* The clock's share, whole seconds, with the flag kept off by the reserve. */
		uint64_t share = engine_limits_budget(l, side);
		int64_t avail = (int64_t)l->time_ms[side] - spent - lag - UE_CLOCK_RESERVE_MS;
		sec = ue_fit_seconds(share < 1000 ? 1 : share / 1000, avail);
		if (sec) {
			b.time_ms = sec * 1000;
		} else {
			b.kind = UHP_BEST_DEPTH;
			b.depth = 1;
		}
	} else if (l->depth > 0) {
		b.kind = UHP_BEST_DEPTH;
		b.depth = l->depth > UHP_MAX_DEPTH ? UHP_MAX_DEPTH : l->depth;
	} else {
		b.time_ms = UE_DEFAULT_MOVETIME_MS;
	}
	if (b.kind == UHP_BEST_TIME) {
		if (b.time_ms < 1000)
			b.time_ms = 1000;      /* UHP counts whole seconds */
		if (b.time_ms > UHP_MAX_TIME_MS)
			b.time_ms = UHP_MAX_TIME_MS;
	}
	size_t n = snprintf(buf, len, "bestmove ");
	uhp_bestmove_format(&b, buf + n, len - n);
	*ms = b.kind == UHP_BEST_TIME ? (b.time_ms + 999) / 1000 * 1000 : 0;
}

static void ue_spawn(struct uhp_back *u)
{
	const struct engine_profile *p = u->el.e.profile;

	if (engine_child_spawn(u->el.child, p->argv, p->workdir) < 0)
		return;
	u->state = UE_STARTING;
	u->sigint_sent = 0;
	/* The info block comes unasked. */
	ue_reply_reset(u);
	u->step = UE_STEP_INFO;
	snprintf(u->cmd, sizeof u->cmd, "(start)");
	engine_child_arm(u->el.child, p->start_timeout_ms);
}

/* Sends the next command of the job, or finishes it. */
static void ue_advance(struct engine *e)
{
	struct uhp_back *u = e->priv;
	const struct engine_profile *p = u->el.e.profile;
	char line[UHP_BACK_MAX_LINE];

	if (engine_job_kind(&u->el.e) == ENGINE_JOB_NONE || u->step != UE_STEP_NONE)
		return;
	if (engine_child_eof(u->el.child))
		return;        /* dying: its exit (or the grace timer) fails the job */
	switch (u->state) {
	case UE_DOWN:
		if (u->adopted) {
			/* A connected engine that went away does not come back. */
			engine_job_finish(&u->el.e, ENGINE_FAILED, "disconnected", NULL);
			return;
		}
		ue_spawn(u);
		return;
	case UE_STARTING:
		return;
	case UE_CONFIGURING:
		if (u->next_option < p->noptions) {
			snprintf(line, sizeof line, "options set %s %s", p->options[u->next_option][0],
				 p->options[u->next_option][1]);
			u->next_option++;
			ue_send(u, UE_STEP_SETOPT, line, p->command_timeout_ms);
			return;
		}
		u->state = UE_IDLE;
		break;
	case UE_IDLE:
		break;
	}

	switch (engine_job_kind(&u->el.e)) {
	case ENGINE_JOB_START:
		engine_job_finish(&u->el.e, ENGINE_OK, NULL, NULL);
		return;
	case ENGINE_JOB_OPTIONS:
		ue_send(u, UE_STEP_OPTIONS, u->options_line, p->command_timeout_ms);
		return;
	case ENGINE_JOB_GO:
		break;
	case ENGINE_JOB_NONE:
		return;
	}

	if (u->synced && hive_game_is_prefix(&u->mirror, &u->el.e.job.game) &&
	    u->el.e.job.game.len - u->mirror.len <= UE_MAX_PLAY_SYNC) {
		if (u->mirror.len < u->el.e.job.game.len) {
			char ms[HIVE_MOVESTR_MAX];
			u->play_move = u->el.e.job.game.hist[u->mirror.len].move;
			hive_move_format(&u->mirror.board, u->play_move, ms, sizeof ms);
			snprintf(line, sizeof line, "play %s", ms);
			ue_send(u, UE_STEP_PLAY, line, p->command_timeout_ms);
			return;
		}
		uint64_t ms;
		int timed;
		ue_bestmove_line(u, line, sizeof line, &ms, &timed);
		/* Its time counts from now, when the engine has the command; the profile's
		 * command_timeout is the grace before the engine is failed. */
		ue_send(u, UE_STEP_BESTMOVE, line, timed ? ms + p->command_timeout_ms : 0);
		u->timed = timed && ms;
		u->asked_ms = ms;
		u->sent_ms = now_ms();
		return;
	}
	size_t n = hive_game_format(&u->el.e.job.game, NULL, 0);
	char *gs = malloc(n + 16);
	if (!gs) {
		engine_child_fail(u->el.child, "out of memory");
		return;
	}
	memcpy(gs, "newgame ", 8);
	hive_game_format(&u->el.e.job.game, gs + 8, n + 1);
	u->synced = 0;
	ue_send(u, UE_STEP_NEWGAME, gs, p->command_timeout_ms);
	free(gs);
}

/* A timed answer came: how late past its time, kept as a slowly decaying maximum
 * (deadlines and clocks ask the engine for that much less). */
static void ue_note_lag(struct uhp_back *u)
{
	int64_t late = now_ms() - u->sent_ms - (int64_t)u->asked_ms;
	uint64_t sample = late > 0 ? (uint64_t)late : 0;
	uint64_t decayed = u->lag_ms - u->lag_ms / 8;

	u->lag_ms = sample > decayed ? sample : decayed;
}

/* An infinite search in slices has reached the request's cap (max_ms). */
static int ue_slices_over(const struct uhp_back *u)
{
	const struct engine_limits *l = &u->el.e.job.limits;

	return l->max_ms && now_ms() - u->el.e.job.go_ms + UE_SLICE_MS + (int64_t)u->lag_ms >
		(int64_t)l->max_ms;
}

/* The reply to the command in flight is complete ("ok"). */
static void ue_reply_done(struct uhp_back *u)
{
	enum ue_step step = u->step;
	char err[256];

	engine_child_disarm(u->el.child);
	u->step = UE_STEP_NONE;

	switch (step) {
	case UE_STEP_INFO:
		if (u->errmsg) {
			engine_child_fail(u->el.child, "refused to start: %s", u->errmsg);
			return;
		}
		if (!u->seen_id) {
			/* Not fatal: name it after its command. */
			snprintf(u->el.e.id, sizeof u->el.e.id, "%s", u->el.e.profile->argv ?
				 u->el.e.profile->argv[0] : u->el.e.profile->name);
			log_note(u->el.log_id, "engine %s sent no id line", u->el.e.profile->name);
		}
		u->state = UE_CONFIGURING;
		u->next_option = 0;
		break;
	case UE_STEP_SETOPT:
		if (u->errmsg)
			log_note(u->el.log_id, "engine %s refused \"%s\": %s", u->el.e.profile->name,
				 u->cmd, u->errmsg);
		break;
	case UE_STEP_NEWGAME:
	case UE_STEP_PLAY:
		if (u->errmsg) {
			enum engine_status st = u->errstatus;
			char *msg = xasprintf("engine refused \"%s\": %s", u->cmd, u->errmsg);
			u->synced = 0;
			engine_job_finish(&u->el.e, st, msg, NULL);
			free(msg);
			return;
		}
		if (step == UE_STEP_NEWGAME) {
			hive_game_free(&u->mirror);
			hive_game_init(&u->mirror, u->el.e.job.game.type);
			if (hive_game_copy(&u->mirror, &u->el.e.job.game) != HIVE_OK) {
				engine_child_fail(u->el.child, "out of memory");
				return;
			}
		} else if (hive_game_play(&u->mirror, u->play_move) != HIVE_OK) {
			engine_child_fail(u->el.child, "out of memory");
			return;
		}
		u->synced = 1;
		break;
	case UE_STEP_BESTMOVE:
		if (u->errmsg) {
			char *msg = xasprintf("%s", u->errmsg);
			engine_job_finish(&u->el.e, ENGINE_ERROR, msg, NULL);
			free(msg);
			return;
		}
		if (!u->last) {
			engine_child_fail(u->el.child, "answered \"%s\" with no move", u->cmd);
			return;
		}
		/* The move is the last line; text after ';' would be a further move. The
		 * interface checks it (the mirror is the job's game now). */
		char *semi = strchr(u->last, ';');
		if (semi)
			*semi = 0;
		if (engine_job_move(&u->el.e, NULL, u->last, err, sizeof err) < 0) {
			engine_child_fail(u->el.child, "%s", err);
			return;
		}
		if (u->timed)
			ue_note_lag(u);
		if (u->slicing && !u->el.e.job.stop_requested && !ue_slices_over(u))
			break;     /* the next slice: a stop gets the move of the one running */
		engine_job_finish(&u->el.e, ENGINE_OK, NULL, NULL);
		return;
	case UE_STEP_OPTIONS: {
		char **lines = calloc(u->nlines + 1, sizeof *lines);
		if (!lines) {
			engine_child_fail(u->el.child, "out of memory");
			return;
		}
		if (u->nlines)      /* none before an err: u->lines may be NULL */
			memcpy(lines, u->lines, u->nlines * sizeof *lines);
		u->nlines = 0;      /* moved into the result */
		if (u->errmsg) {
			char *msg = xasprintf("%s", u->errmsg);
			engine_job_finish(&u->el.e, u->errstatus, msg, lines);
			free(msg);
		} else {
			engine_job_finish(&u->el.e, ENGINE_OK, NULL, lines);
		}
		return;
	}
	case UE_STEP_NONE:
		return;
	}
	engine_kick(&u->el.e);
}

static int ue_keep_line(struct uhp_back *u, const char *s, size_t len)
{
	if (u->nlines + 1 >= u->cap) {
		size_t cap = u->cap ? u->cap * 2 : 8;
		char **l = realloc(u->lines, cap * sizeof *l);
		if (!l)
			return -1;
		u->lines = l;
		u->cap = cap;
	}
	u->lines[u->nlines] = strndup(s, len);
	if (!u->lines[u->nlines])
		return -1;
	u->nlines++;
	return 0;
}

/* One line from the engine's stdout (without its newline). */
static void ue_line(void *arg, const char *line, size_t len)
{
	struct uhp_back *u = arg;
	const char *rest;
	size_t rlen;

	if (u->step == UE_STEP_NONE)
		return;        /* unasked output between commands: logged, ignored */
	u->reply_bytes += len + 1;
	if (u->reply_bytes > UHP_BACK_MAX_REPLY) {
		engine_child_fail(u->el.child, "reply to \"%s\" longer than %d bytes", u->cmd,
				  UHP_BACK_MAX_REPLY);
		return;
	}
	enum uhp_reply kind = uhp_reply_parse(line, len, &rest, &rlen);
	switch (kind) {
	case UHP_REPLY_OK:
		ue_reply_done(u);
		return;
	case UHP_REPLY_ERR:
	case UHP_REPLY_INVALIDMOVE:
		if (!u->errmsg) {
			u->errmsg = util_scrub_text(strndup(rest, rlen));
			u->errstatus = kind == UHP_REPLY_ERR ? ENGINE_ERROR : ENGINE_INVALID;
		}
		return;
	case UHP_REPLY_ID:
		if (u->step == UE_STEP_INFO) {
			snprintf(u->el.e.id, sizeof u->el.e.id, "%.*s", (int)(rlen < 127 ? rlen : 127), rest);
			util_scrub_text(u->el.e.id);
			u->seen_id = 1;
			for (size_t i = 0; i < sizeof ue_sigint_kills / sizeof ue_sigint_kills[0]; i++)
				if (!strncmp(u->el.e.id, ue_sigint_kills[i], strlen(ue_sigint_kills[i])))
					u->no_sigint = 1;
			return;
		}
		break;
	case UHP_REPLY_LINE:
		break;
	}
	if (u->step == UE_STEP_INFO) {
		unsigned exp;
		if (u->seen_id && !u->el.e.caps[0] && uhp_caps_parse(line, len, &exp) >= 0)
			snprintf(u->el.e.caps, sizeof u->el.e.caps, "%.*s", (int)(len < 127 ? len : 127), line);
		return;
	}
	if (len && line[len - 1] == '\r')
		len--;
	if (u->step == UE_STEP_OPTIONS) {
		struct uhp_option o;
		char err[128];
		/* Only a note comes of it: not checked when nobody reads the log. */
		if (log_enabled() && uhp_option_parse(line, len, &o, err, sizeof err) < 0)
			log_note(u->el.log_id, "engine %s: odd option line: %s", u->el.e.profile->name, err);
		if (ue_keep_line(u, line, len) < 0)
			engine_child_fail(u->el.child, "out of memory");
		return;
	}
	free(u->last);
	u->last = strndup(line, len);
	if (!u->last)
		engine_child_fail(u->el.child, "out of memory");
}

/* Whether what (engine_child's words for an end) says it was killed by sig. */
static int ue_died_of(const char *what, int sig)
{
	char head[32];
	int n = snprintf(head, sizeof head, "killed by signal %d ", sig);

	return n > 0 && !strncmp(what, head, (size_t)n);
}

/* The child ended: say when, and fail it. */
static void ue_ended(void *arg, const char *what)
{
	struct uhp_back *u = arg;

	int idle = engine_job_kind(&u->el.e) == ENGINE_JOB_NONE;

	if (idle && u->adopted)
		log_note(u->el.log_id, "engine %s %s while idle; a connected engine does not come back",
			 u->el.e.profile->name, what);
	else
		engine_line_note_ended(&u->el, what);
	if (u->sigint_sent && !u->no_sigint && ue_died_of(what, SIGINT)) {
		u->no_sigint = 1;
		log_note(u->el.log_id, "engine %s dies of SIGINT: its searches are not interrupted "
			 "with it again", u->el.e.profile->name);
	}
	u->sigint_sent = 0;
	if (u->step == UE_STEP_INFO || u->state == UE_STARTING)
		engine_child_fail(u->el.child, "%s during start", what);
	else if (u->step != UE_STEP_NONE)
		engine_child_fail(u->el.child, "%s during \"%s\"", what, u->cmd);
	else
		engine_child_fail(u->el.child, "%s", what);
	/* Nobody would hear it before the next command: its owner is told now. */
	if (idle && u->adopted && u->closed)
		u->closed(u->closed_arg, what);
}

void uhp_back_on_close(struct engine *e, uhp_back_closed_cb *cb, void *arg)
{
	struct uhp_back *u = e->priv;
	u->closed = cb;
	u->closed_arg = arg;
}

static const struct engine_child_ops ue_child_ops = {
	.line = ue_line,
	.ended = ue_ended,
	.timeout = ue_timeout,
	.failed = ue_failed,
};

static void ue_stop(struct engine *e)
{
	struct uhp_back *u = e->priv;

	/* Before bestmove is sent, the search will be "depth 1". */
	if (u->step != UE_STEP_BESTMOVE || !engine_child_running(u->el.child))
		return;
	if (u->timed) {
		/* UHP has no stop: a timed search ends by itself (a slice's answer then
		 * ends the sliced one), and its time-out guards it. */
		log_note(u->el.log_id, "engine %s: stop; the timed search is not interrupted "
			 "(UHP has no stop), its answer is due within %llu s", e->profile->name,
			 (unsigned long long)(u->asked_ms / 1000));
		return;
	}
	/* As Mzinga's viewer does: SIGINT ends the search with its best move. (An
	 * engine that dies of it never searches untimed: it gets slices instead.) */
	log_note(u->el.log_id, "engine %s: stop (SIGINT)", e->profile->name);
	u->sigint_sent = 1;
	engine_child_signal(u->el.child, SIGINT);
	engine_child_arm(u->el.child, e->profile->stop_timeout_ms);
}

/* An options job: the command to forward (the interface checked its form). */
static int ue_options(struct engine *e)
{
	struct uhp_back *u = e->priv;
	const struct engine_job *j = &e->job;
	char *line;

	if (j->argc == 0)
		line = strdup("options");
	else if (j->argc == 2)
		line = xasprintf("options get %s", j->name);
	else
		line = xasprintf("options set %s %s", j->name, j->value);
	if (!line || strlen(line) >= UHP_BACK_MAX_LINE || strpbrk(line, "\r\n")) {
		free(line);
		return -1;
	}
	free(u->options_line);
	u->options_line = line;
	return 0;
}

static void ue_release(struct uhp_back *u, const char *farewell)
{
	engine_line_release(&u->el, farewell);
	ue_reply_reset(u);
	free(u->options_line);
	hive_game_free(&u->mirror);
	free(u);
}

static void ue_free(struct engine *e)
{
	ue_release(e->priv, "exit");
}

static struct uhp_back *ue_new(struct event_base *base, const struct engine_profile *p,
			       char *err, size_t errlen)
{
	struct uhp_back *u = calloc(1, sizeof *u);

	if (!u) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	hive_game_init(&u->mirror, 0);
	u->lag_ms = UE_LAG_PRIOR_MS;
	if (engine_line_init(&u->el, base, p, &ue_ops, u, UHP_BACK_MAX_LINE, 0,
			     &ue_child_ops, err, errlen) < 0) {
		ue_release(u, NULL);
		return NULL;
	}
	return u;
}

struct engine *uhp_back_new(struct event_base *base, const struct engine_profile *p,
			    char *err, size_t errlen)
{
	if (!p->argv || !p->argv[0]) {
		errbuf_set(err, errlen, "engine %s: no command", p->name);
		return NULL;
	}
	struct uhp_back *u = ue_new(base, p, err, errlen);
	return u ? &u->el.e : NULL;
}

struct engine *uhp_back_adopt(struct event_base *base, const struct engine_profile *p,
			      struct bufferevent *bev, unsigned log_id, char *err, size_t errlen)
{
	struct uhp_back *u = ue_new(base, p, err, errlen);
	if (!u) {
		bufferevent_free(bev);
		return NULL;
	}
	u->adopted = 1;
	engine_line_set_log_id(&u->el.e, log_id);
	if (engine_child_adopt(u->el.child, bev) < 0) {
		ue_free(&u->el.e);
		errbuf_set(err, errlen, "cannot adopt the connection");
		return NULL;
	}
	/* The info block comes unasked, maybe before engine_start: listen for it now. */
	u->state = UE_STARTING;
	u->step = UE_STEP_INFO;
	snprintf(u->cmd, sizeof u->cmd, "(connect)");
	engine_child_arm(u->el.child, p->start_timeout_ms);
	return &u->el.e;
}

static const struct engine_ops ue_ops = {
	.name = "uhp",
	.keeps_time = 1,
	.options = ue_options,
	.advance = ue_advance,
	.ending = ue_ending,
	.stop = ue_stop,
	.set_log_id = engine_line_set_log_id,
	.free = ue_free,
};
