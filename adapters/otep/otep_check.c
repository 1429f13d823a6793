/*
 * otep_check.c: the OTEP suite of `hivebridge check` (docs/otep-hive.md). First the
 * checks every protocol shares, through the OTEP back end (bridge/check/
 * engine_checks.c); then OTEP's own, talked line by line to a child of our own
 * (bridge/check/child.c, one line per read since OTEP has no terminator line):
 *
 *   otep.hello            "hello" within OTEP's 5 s, the host silent until then
 *   otep.hello-first      (optional) nothing printed before it
 *   otep.play             rules, position, side, opponent-move -, play, clock: a legal move
 *   otep.side-to-move     a move for Black when Black is to play
 *   otep.forced-pass      "move pass" where it is the only move
 *   otep.after-error      after the host's "error 2" and the repeated
 *                         opponent-move, play and clock, a legal move again
 *   otep.unknown-command  nothing or "error 0", then it still plays
 *   otep.long-line        the same after a line over OTEP's 65536 bytes
 *   otep.analysis         (a fresh engine, as OTEP keeps play and analysis apart)
 *                         "analysis n" with n pairs, 1 <= n <= asked, first moves legal
 *   otep.goodbye          the engine exits within the grace period
 *
 * Every wait has a deadline. An engine that fails a check is killed, and started
 * afresh (hello again) for the next one; one that stalls costs a time-out per
 * check, so it ends the group (play, or analysis and goodbye).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapters/otep/otep_back.h"
#include "adapters/otep/otep_check.h"
#include "adapters/otep/otep_codec.h"
#include "adapters/otep/otep_hive.h"
#include "adapters/otep/otep_ini.h"
#include "bridge/check/check.h"

#define OC_HELLO_MS         5000           /* OTEP's start-up rule */
#define OC_CLOCK_MS         1000           /* each play's clock: one overtime period */
#define OC_LONG_LINE        (100u * 1024)  /* over OTEP's 65536-byte line */
#define OC_ANALYZE_LINES    3
#define OC_ANALYZE_S        1
#define OC_SHOW_LINE        240            /* bytes of one engine line in a report */
#define OC_MAX_RESTARTS     2              /* failed restarts before giving up */

/* The suite's own engine: what runs it, and the game a check is playing. */
struct oc {
	struct checker         *ck;
	char *const            *argv;
	const char             *workdir;
	struct otep_ini         ini;          /* filled when the engine is its .ini */
	char                   *ini_error;    /* why the .ini does not read, or NULL */
	const struct hive_game *cur;          /* for an engine's bare rules or position */
	int                     stalled;      /* the rest of the group is skipped */
};

/* --- the shared checks, in OTEP's words --------------------------------------- */

static void oc_note_start(struct checker *ck, struct result *r)
{
	check_note_sent(r, "<nothing>");
	check_expect(r, "\"hello\" within %u ms of starting (the profile's start_timeout)",
		     ck->prof.start_timeout_ms);
}

/* A line that f makes of g, in a buffer that fits a GameString of g; NULL if it
 * cannot be written. Caller frees. */
static char *oc_game_line(int (*f)(char *, size_t, const struct hive_game *), const struct hive_game *g)
{
	size_t n = 2 * hive_game_format(g, NULL, 0) + 256;
	char *buf = xreallocarray(NULL, n, 1);

	if (f(buf, n, g) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* What the back end sends for a search (otep_back.c; --log has the bytes): a time
 * per move as an overtime period, clocks as they are. */
static void oc_note_go(struct checker *ck, struct result *r, const char *gs, const struct engine_limits *l)
{
	struct hive_game g;
	struct otep_clock c = { 0 };
	char why[256], clock[160], line[96];

	if (check_game_load(&g, gs, why, sizeof why) < 0) {
		check_note_sent(r, gs);
		return;
	}
	int side = hive_side_to_move(&g.board);
	if (l->time_ms[0] || l->time_ms[1]) {
		for (int s = 0; s < 2; s++)
			c.ms[s] = (int64_t)(l->time_ms[s] ? l->time_ms[s] + l->inc_ms[s] : 1);
	} else {
		uint64_t mt = l->movetime_ms ? l->movetime_ms : OTEP_BACK_DEFAULT_MOVETIME_MS;
		c.has_overtime = 1;
		c.overtime_s = (int64_t)((mt + 999) / 1000);
		for (int s = 0; s < 2; s++) {
			c.ms[s] = (int64_t)mt;
			c.in_overtime[s] = c.overtimes[s] = 1;
		}
	}
	if (otep_format_clock(clock, sizeof clock, &c) < 0)
		snprintf(clock, sizeof clock, "clock ?");
	char *first = oc_game_line(l->infinite ? otep_format_game_position : otep_format_game_opponent_move, &g);
	check_note_sent(r, first ? first : gs);
	if (l->infinite)
		otep_format_side(line, sizeof line, (enum otep_side)side);
	else
		otep_format_play(line, sizeof line, (enum otep_side)side);
	check_note_sent(r, line);
	check_note_sent(r, clock);
	if (l->infinite)
		check_note_sent(r, "analyze ...");
	free(first);
	hive_game_free(&g);
}

/* The id is the .ini's name; a command line has no .ini to name the engine. */
static void oc_check_id(struct checker *ck, struct result *r)
{
	struct otep_ini ini;
	char cause[256] = "";

	check_note_got(r, "%s", ck->id);
	if (!ck->argv || !ck->argv[0] || ck->argv[1] || !otep_ini_is_path(ck->argv[0])) {
		check_skip(r, "no .ini: an OTEP engine is named by the \"name\" of its .ini (otep:PATH.ini)");
		return;
	}
	if (otep_back_ini_read(ck->argv[0], &ini, cause, sizeof cause) < 0) {
		check_fail(r, "%s", cause[0] ? cause : "the .ini does not read");
		return;
	}
	check_expect(r, "the \"name\" of %s", ck->argv[0]);
	if (!ini.named)
		check_fail(r, "the .ini has no name: the engine is called by its filename");
	else if (strcmp(ck->id, ini.name))
		check_fail(r, "the id is not the .ini's name \"%s\"", ini.name);
	otep_ini_free(&ini);
}

const struct check_engine_spec otep_check_spec = {
	.started = "hello",
	.pass_name = "\"move pass\"",
	.pass_expect = "move pass",
	.no_stop = "OTEP has no stop: a play ends with its move, within the clock sent",
	.no_caps = "an OTEP engine declares no expansions: it is offered every one (Base+MLP)",
	.default_movetime_ms = OTEP_BACK_DEFAULT_MOVETIME_MS,
	.note_start = oc_note_start,
	.note_go = oc_note_go,
	.check_id = oc_check_id,
};

/* --- talking OTEP ----------------------------------------------------------------- */

/* Adds one engine line to what r got, escaped and bounded. */
static void oc_note_got(struct result *r, const char *line)
{
	if (r->got.len >= CHECK_SHOW_GOT) {
		if (r->got.len < 5 || strcmp(r->got.s + r->got.len - 5, " ...."))
			sbuf_str(&r->got, " | ....");
		return;
	}
	if (r->got.len)
		sbuf_str(&r->got, " | ");
	sbuf_escaped(&r->got, line, strlen(line), OC_SHOW_LINE);
}

/* The engine failed r: it is killed, and the next check starts a fresh one. */
static void oc_lost(struct oc *o, struct result *r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void oc_lost(struct oc *o, struct result *r, const char *fmt, ...)
{
	char why[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	check_fail(r, "%s", why);
	if (!r->got.len)
		sbuf_str(&r->got, "<nothing>");
	check_child_kill(o->ck->child);
}

/* Why a read of what ended without a line. */
static void oc_why_end(struct oc *o, const struct reply *rep, const char *what, int timeout_ms,
		       char *why, size_t len)
{
	char how[160];

	switch (rep->end) {
	case RD_TIMEOUT:
		snprintf(why, len, "no %s within %d ms", what, timeout_ms);
		break;
	case RD_EOF:
		check_child_describe_end(o->ck->child, how, sizeof how);
		snprintf(why, len, "engine %s", how);
		break;
	case RD_WRITE:
		snprintf(why, len, "engine does not read its input (write timed out)");
		break;
	case RD_TOOLONG:
	default:
		snprintf(why, len, "engine floods: a line over OTEP's %d bytes", OTEP_LINE_MAX);
		break;
	}
}

/* Sends a line (shown as shown, when given), noted in r. -1 (r failed, the engine
 * killed) if it cannot be written. */
static int oc_send(struct oc *o, struct result *r, const char *line, const char *shown)
{
	char how[160];

	check_note_sent(r, shown ? shown : line);
	if (check_child_send(o->ck->child, line) == 0)
		return 0;
	check_child_describe_end(o->ck->child, how, sizeof how);
	oc_lost(o, r, "cannot send: the engine %s", how);
	return -1;
}

static int oc_send_game(struct oc *o, struct result *r, int (*f)(char *, size_t, const struct hive_game *),
			const struct hive_game *g)
{
	char *line = oc_game_line(f, g);
	int rc;

	if (!line) {
		check_fail(r, "cannot write the game as an OTEP line");
		return -1;
	}
	rc = oc_send(o, r, line, NULL);
	free(line);
	return rc;
}

/* Whether line is OTEP's hello. */
static int oc_is_hello(const char *line)
{
	struct otep_msg m;
	char err[64];
	int hello = otep_msg_parse(line, strlen(line), OTEP_FROM_ENGINE, &m, err, sizeof err) == 0 &&
		    m.cmd == OTEP_HELLO;

	otep_msg_free(&m);
	return hello;
}

/* Starts the engine and waits for its hello, the lines that come noted in r (if
 * any). 0 with the lines before it in *before and the time in *ms; else -1 with why. */
static int oc_spawn(struct oc *o, struct result *r, size_t *before, int64_t *ms, char *why, size_t len)
{
	struct checker *ck = o->ck;

	*before = 0;
	if (o->ini_error) {
		snprintf(why, len, "%s", o->ini_error);
		return -1;
	}
	if (o->ini.filename && access(o->ini.filename, X_OK) < 0) {
		snprintf(why, len, "%s (the .ini's filename) is not executable", o->ini.filename);
		return -1;
	}
	if (check_child_spawn(ck->child, o->argv, o->workdir, why, len) < 0)
		return -1;
	int64_t t0 = now_ms();
	for (;;) {
		struct reply rep;
		check_child_reply(ck->child, NULL, t0, OC_HELLO_MS, &rep);
		for (size_t i = 0; r && i < rep.lines.n; i++)
			oc_note_got(r, rep.lines.v[i]);
		if (rep.end != RD_LINE) {
			oc_why_end(o, &rep, "\"hello\"", OC_HELLO_MS, why, len);
			reply_free(&rep);
			check_child_kill(ck->child);
			return -1;
		}
		int hello = oc_is_hello(rep.lines.v[0]);
		reply_free(&rep);
		if (hello) {
			*ms = now_ms() - t0;
			return 0;
		}
		(*before)++;
	}
}

/* Before a check: an engine that was lost is started again; when that fails, the
 * check is skipped (ck->lost), and after too many failures everything is. */
static void oc_up(struct oc *o)
{
	struct checker *ck = o->ck;
	char why[300];
	size_t before;
	int64_t ms;

	if (ck->gave_up || o->stalled || check_child_running(ck->child))
		return;
	free(ck->lost);
	ck->lost = NULL;
	if (oc_spawn(o, NULL, &before, &ms, why, sizeof why) == 0)
		return;
	ck->lost = xasprintf("engine did not restart: %s", why);
	if (++ck->restart_failures >= OC_MAX_RESTARTS)
		ck->gave_up = 1;
}

/* Reads the engine's lines until one of command want, from start for timeout_ms:
 * 0 with it in *m (the caller frees it). Status lines and "error 0" pass by, and
 * an engine's bare rules or position is answered, as a host does. Anything else
 * (a critical error, an unreadable line, another answer, silence, an exit) fails r
 * and kills the engine: -1. */
static int oc_await(struct oc *o, struct result *r, enum otep_cmd want, int64_t start, int timeout_ms,
		    struct otep_msg *m)
{
	struct checker *ck = o->ck;
	char err[256], what[40];

	snprintf(what, sizeof what, "\"%s\"", otep_cmd_name(want));
	memset(m, 0, sizeof *m);
	for (;;) {
		struct reply rep;
		check_child_reply(ck->child, NULL, start, timeout_ms, &rep);
		for (size_t i = 0; i < rep.lines.n; i++)
			oc_note_got(r, rep.lines.v[i]);
		if (rep.end != RD_LINE) {
			oc_why_end(o, &rep, what, timeout_ms, err, sizeof err);
			if (rep.end == RD_TIMEOUT && !o->stalled) {
				o->stalled = 1;
				free(ck->lost);
				ck->lost = xasprintf("engine lost at %s (it stalled)", r->name);
			}
			reply_free(&rep);
			oc_lost(o, r, "%s", err);
			return -1;
		}
		int rc = otep_msg_parse(rep.lines.v[0], strlen(rep.lines.v[0]), OTEP_FROM_ENGINE, m,
					err, sizeof err);
		reply_free(&rep);
		if (rc < 0) {
			otep_msg_free(m);
			oc_lost(o, r, "unreadable line: %s", err);
			return -1;
		}
		if (m->cmd == want)
			return 0;
		switch (m->cmd) {
		case OTEP_ERROR:
			if (m->code == OTEP_ERR_CRITICAL) {
				oc_lost(o, r, "critical error: %s", m->text ? m->text : "(no message)");
				otep_msg_free(m);
				return -1;
			}
			break;          /* error 0: for the user, and the game goes on */
		case OTEP_MOVE:
		case OTEP_ANALYSIS:
			oc_lost(o, r, "\"%s\" when %s was asked", otep_cmd_name(m->cmd), what);
			otep_msg_free(m);
			return -1;
		case OTEP_RULES:
			if (o->cur && oc_send_game(o, r, otep_format_game_rules, o->cur) < 0) {
				otep_msg_free(m);
				return -1;
			}
			break;
		case OTEP_POSITION:
			if (o->cur && oc_send_game(o, r, otep_format_game_position, o->cur) < 0) {
				otep_msg_free(m);
				return -1;
			}
			break;
		default:                /* status, simple-moves, side, clock, hello */
			break;
		}
		otep_msg_free(m);
	}
}

/* The clock of every play: one overtime period of OC_CLOCK_MS for each side. */
static int oc_send_clock(struct oc *o, struct result *r)
{
	struct otep_clock c = { .ms = { OC_CLOCK_MS, OC_CLOCK_MS }, .in_overtime = { 1, 1 },
				.has_overtime = 1, .overtime_s = OC_CLOCK_MS / 1000, .overtimes = { 1, 1 } };
	char line[128];

	if (otep_format_clock(line, sizeof line, &c) < 0) {
		check_fail(r, "cannot write the clock");
		return -1;
	}
	return oc_send(o, r, line, NULL);
}

/* The host's turn on g: opponent-move, play and clock, then the engine's move, read
 * on g's board. 0 with the legal move in *mv. Else -1 and r failed: an illegal or
 * wrong-side move is answered with its error code and the engine killed; a late
 * move only fails r. With want_pass, anything but "pass" is refused. */
static int oc_play(struct oc *o, struct result *r, const struct hive_game *g, int want_pass,
		   struct hive_move *mv)
{
	struct checker *ck = o->ck;
	enum otep_side side = otep_side_to_move(&g->board);
	struct otep_msg m;
	char line[64], err[256];
	int wait = OC_CLOCK_MS + ck->margin_ms + ck->timeout_ms;

	o->cur = g;
	if (oc_send_game(o, r, otep_format_game_opponent_move, g) < 0 ||
	    otep_format_play(line, sizeof line, side) < 0 || oc_send(o, r, line, NULL) < 0 ||
	    oc_send_clock(o, r) < 0)
		return -1;
	int64_t t0 = now_ms();
	if (oc_await(o, r, OTEP_MOVE, t0, wait, &m) < 0)
		return -1;
	int64_t ms = now_ms() - t0;
	int code = otep_move_read(&g->board, m.text, mv, err, sizeof err);
	if (code == 0 && want_pass && mv->piece != HIVE_PASS_PIECE) {
		code = OTEP_ERR_ILLEGAL;
		snprintf(err, sizeof err, "not \"pass\", the only legal move");
	}
	if (code != 0) {
		char text[2 * HIVE_MOVESTR_MAX];
		snprintf(text, sizeof text, "%s", m.text ? m.text : "");
		otep_msg_free(&m);
		/* As a host does; the engine is given up anyway. */
		if (otep_format_error(line, sizeof line, OTEP_FROM_HOST, code, NULL) >= 0) {
			check_note_sent(r, line);
			check_child_send(ck->child, line);
		}
		oc_lost(o, r, "%s move \"%s\": %s", code == OTEP_ERR_WRONG_SIDE ? "wrong-side" : "illegal",
			text, err);
		return -1;
	}
	otep_msg_free(&m);
	sbuf_printf(&r->got, " (after %" PRId64 " ms)", ms);
	if (ms > OC_CLOCK_MS + ck->margin_ms) {
		check_fail(r, "answered after %" PRId64 " ms on a clock of %d ms", ms, OC_CLOCK_MS);
		return -1;
	}
	return 0;
}

/* The host accepts mv on g: "move <GameString>", and finish when the game ended. */
static int oc_accept(struct oc *o, struct result *r, const struct hive_game *g, struct hive_move mv)
{
	struct hive_game after;
	char line[32];
	int rc;

	if (hive_game_copy(&after, g) != HIVE_OK || hive_game_play(&after, mv) != HIVE_OK) {
		hive_game_free(&after);
		check_fail(r, "out of memory");
		return -1;
	}
	rc = oc_send_game(o, r, otep_format_game_move_result, &after);
	if (rc == 0 && hive_game_over(&after.board) &&
	    otep_format_finish(line, sizeof line, otep_finish_of(&after.board)) >= 0)
		rc = oc_send(o, r, line, NULL);
	hive_game_free(&after);
	return rc;
}

static void oc_expect_move(struct checker *ck, struct result *r, const char *what)
{
	check_expect(r, "%s\"move <MoveString>\", legal, within the %d ms clock + %d ms margin",
		     what, OC_CLOCK_MS, ck->margin_ms);
}

/* A random position of the engine's type with side to move (not over). */
static void oc_position(struct checker *ck, struct hive_game *g, int plies, enum otep_side side)
{
	for (int tries = 0; tries < 50; tries++) {
		check_random_game(ck, g, ck->caps_type & 7, plies + tries % 2);
		if (otep_side_to_move(&g->board) == side)
			return;
		hive_game_free(g);
	}
	check_random_game(ck, g, ck->caps_type & 7, plies);
}

/* --- the checks ------------------------------------------------------------------- */

static void oc_hello(struct oc *o)
{
	struct checker *ck = o->ck;
	struct result *r = check_begin(ck, 1, "otep.hello"), *hello = r;
	char why[300];
	size_t before = 0;
	int64_t ms = 0;

	sbuf_str(&r->sent, "<nothing>");
	check_expect(r, "\"hello\" within %d ms of starting (OTEP's start-up rule)", OC_HELLO_MS);
	if (oc_spawn(o, r, &before, &ms, why, sizeof why) < 0) {
		check_fail(r, "%s", why);
		if (!r->got.len)
			sbuf_str(&r->got, "<nothing>");
		ck->gave_up = 1;
		ck->lost = xstrdup("the engine does not start");
	} else {
		sbuf_printf(&r->got, " (after %" PRId64 " ms)", ms);
	}
	check_end(r);

	/* Optional: OTEP lets a host ignore what comes first (a JVM's banner, say). */
	r = check_begin(ck, 0, "otep.hello-first");
	if (!r)
		return;
	sbuf_str(&r->sent, "<nothing>");
	check_expect(r, "\"hello\" as the engine's first line");
	if (hello->got.len)
		sbuf_str(&r->got, hello->got.s);
	if (before)
		check_fail(r, "%zu line%s before \"hello\"", before, before > 1 ? "s" : "");
	check_end(r);
}

/* A move from the empty board after every set-up line a host may send. */
static void oc_check_play(struct oc *o)
{
	struct checker *ck = o->ck;
	struct hive_game g;
	struct hive_move mv;
	char line[64];

	oc_up(o);
	struct result *r = check_begin(ck, 1, "otep.play");
	if (!r)
		return;
	oc_expect_move(ck, r, "");
	hive_game_init(&g, ck->caps_type & 7);
	o->cur = &g;
	if (oc_send_game(o, r, otep_format_game_rules, &g) == 0 &&
	    oc_send_game(o, r, otep_format_game_position, &g) == 0 &&
	    otep_format_side(line, sizeof line, OTEP_WHITE) >= 0 && oc_send(o, r, line, NULL) == 0 &&
	    oc_play(o, r, &g, 0, &mv) == 0)
		oc_accept(o, r, &g, mv);
	o->cur = NULL;
	hive_game_free(&g);
	check_end(r);
}

/* One move on a position of its own: rules, [a line first,] then the host's turn.
 * With retry, the host refuses the first move (error 2) and asks again. */
static void oc_check_turn(struct oc *o, const char *name, struct hive_game *g, int want_pass, int retry,
			  const char *first, const char *first_shown, const char *expect)
{
	struct checker *ck = o->ck;
	struct hive_move mv;
	char line[32];

	oc_up(o);
	struct result *r = check_begin(ck, 1, "%s", name);
	if (!r)
		return;
	check_expect(r, "%s", expect);
	o->cur = g;
	if (oc_send_game(o, r, otep_format_game_rules, g) < 0 ||
	    (first && oc_send(o, r, first, first_shown) < 0) ||
	    oc_play(o, r, g, want_pass, &mv) < 0)
		goto out;
	if (retry) {
		otep_format_error(line, sizeof line, OTEP_FROM_HOST, OTEP_ERR_ILLEGAL, NULL);
		sbuf_str(&r->got, " | <refused>");
		if (oc_send(o, r, line, NULL) < 0 || oc_play(o, r, g, want_pass, &mv) < 0)
			goto out;
	}
	oc_accept(o, r, g, mv);
out:
	o->cur = NULL;
	check_end(r);
}

static void oc_check_turns(struct oc *o)
{
	struct checker *ck = o->ck;
	struct hive_game g;
	char why[300], expect[300];

	oc_position(ck, &g, 9, OTEP_BLACK);
	snprintf(expect, sizeof expect, "\"move <MoveString>\" for %s, the side to move, legal, within the "
		 "%d ms clock + %d ms margin", otep_side_name(otep_side_to_move(&g.board)), OC_CLOCK_MS,
		 ck->margin_ms);
	oc_check_turn(o, "otep.side-to-move", &g, 0, 0, NULL, NULL, expect);
	hive_game_free(&g);

	if (check_game_load(&g, POS_FORCED_PASS, why, sizeof why) < 0) {
		check_skip(check_push(ck, 1, xstrdup("otep.forced-pass")), "the core cannot load it: %s", why);
	} else {
		oc_check_turn(o, "otep.forced-pass", &g, 1, 0, NULL, NULL,
			      "\"move pass\", the only legal move");
		hive_game_free(&g);
	}

	oc_position(ck, &g, 6, OTEP_WHITE);
	snprintf(expect, sizeof expect, "after \"error 2\" and the repeated opponent-move, play and clock: "
		 "a legal \"move <MoveString>\" again, within the %d ms clock + %d ms margin",
		 OC_CLOCK_MS, ck->margin_ms);
	oc_check_turn(o, "otep.after-error", &g, 0, 1, NULL, NULL, expect);
	hive_game_free(&g);

	oc_position(ck, &g, 4, OTEP_WHITE);
	oc_check_turn(o, "otep.unknown-command", &g, 0, 0, "frobnicate the hive", NULL,
		      "nothing or \"error 0 <reason>\"; then a legal move for the play that follows");
	hive_game_free(&g);

	char *longline = xreallocarray(NULL, OC_LONG_LINE + 1, 1);
	memset(longline, 'x', OC_LONG_LINE);
	longline[OC_LONG_LINE] = 0;
	snprintf(why, sizeof why, "<a line of %u bytes: xxx...>", OC_LONG_LINE);
	oc_position(ck, &g, 5, OTEP_BLACK);
	oc_check_turn(o, "otep.long-line", &g, 0, 0, longline, why,
		      "nothing or \"error 0 <reason>\" for a line over OTEP's 65536 bytes; then a legal "
		      "move for the play that follows");
	hive_game_free(&g);
	free(longline);
}

static void oc_check_goodbye(struct oc *o)
{
	struct checker *ck = o->ck;
	unsigned grace = ck->prof.stop_timeout_ms;
	int status = 0;

	oc_up(o);
	struct result *r = check_begin(ck, 1, "otep.goodbye");
	if (!r)
		return;
	check_expect(r, "the engine exits within %u ms (the grace period a host gives)", grace);
	if (oc_send(o, r, "goodbye", NULL) == 0) {
		int rc = check_child_wait_exit(ck->child, grace, &status);
		if (rc < 0) {
			check_note_got(r, "<no engine>");
			check_fail(r, "engine is not running");
		} else if (rc == 0) {
			check_note_got(r, "<still running>");
			check_fail(r, "still running after %u ms", grace);
		} else if (WIFSIGNALED(status)) {
			check_note_got(r, "<killed by signal %d>", WTERMSIG(status));
			check_fail(r, "killed by signal %d", WTERMSIG(status));
		} else {
			check_note_got(r, "<exit with status %d>", WEXITSTATUS(status));
		}
		check_child_kill(ck->child);
	}
	check_end(r);
}

/* An analysis from a fresh engine (OTEP never uses a playing engine for it). */
static void oc_check_analysis(struct oc *o)
{
	struct checker *ck = o->ck;
	struct hive_game g;
	struct otep_msg m;
	char line[64], err[256];
	int wait = OC_ANALYZE_S * 1000 + ck->margin_ms + ck->timeout_ms;

	oc_up(o);
	struct result *r = check_begin(ck, 1, "otep.analysis");
	if (!r)
		return;
	check_expect(r, "\"analysis <n>\" and n move lists with evaluations, 1 <= n <= %d, each first move "
		     "legal, within %d s + %d ms margin", OC_ANALYZE_LINES, OC_ANALYZE_S, ck->margin_ms);
	oc_position(ck, &g, 8, OTEP_WHITE);
	o->cur = &g;
	enum otep_side side = otep_side_to_move(&g.board);
	if (oc_send_game(o, r, otep_format_game_rules, &g) < 0 ||
	    oc_send_game(o, r, otep_format_game_position, &g) < 0 ||
	    otep_format_side(line, sizeof line, side) < 0 || oc_send(o, r, line, NULL) < 0 ||
	    oc_send_clock(o, r) < 0 ||
	    otep_format_analyze(line, sizeof line, OC_ANALYZE_LINES, OC_ANALYZE_S) < 0 ||
	    oc_send(o, r, line, NULL) < 0)
		goto out;
	int64_t t0 = now_ms();
	if (oc_await(o, r, OTEP_ANALYSIS, t0, wait, &m) < 0)
		goto out;
	int64_t ms = now_ms() - t0;
	sbuf_printf(&r->got, " (after %" PRId64 " ms)", ms);
	if (m.nlines < 1 || m.nlines > OC_ANALYZE_LINES) {
		check_fail(r, "%zu move lists, asked for at most %d", m.nlines, OC_ANALYZE_LINES);
	} else {
		for (size_t i = 0; i < m.nlines; i++) {
			struct hive_move mv;
			if (otep_move_read(&g.board, m.lines[i].moves[0], &mv, err, sizeof err) != 0) {
				check_fail(r, "move list %zu starts with \"%s\": %s", i + 1, m.lines[i].moves[0], err);
				break;
			}
		}
		if (ms > OC_ANALYZE_S * 1000 + ck->margin_ms)
			check_fail(r, "answered after %" PRId64 " ms", ms);
	}
	otep_msg_free(&m);
out:
	o->cur = NULL;
	hive_game_free(&g);
	check_end(r);
}

/* A group ends: its engine goes, and the next group starts with a fresh one
 * (unless it never started). */
static void oc_group_end(struct oc *o)
{
	struct checker *ck = o->ck;

	check_child_kill(ck->child);
	o->stalled = 0;
	if (!ck->gave_up) {
		free(ck->lost);
		ck->lost = NULL;
	}
}

/* What runs the engine: its .ini's command in its directory, or the command line. */
static void oc_setup(struct oc *o)
{
	struct checker *ck = o->ck;
	char cause[256] = "";

	o->argv = ck->argv;
	o->workdir = ck->workdir;
	if (!ck->argv[1] && otep_ini_is_path(ck->argv[0])) {
		if (otep_back_ini_read(ck->argv[0], &o->ini, cause, sizeof cause) < 0) {
			o->ini_error = xstrdup(cause[0] ? cause : "the .ini does not read");
			return;
		}
		o->argv = o->ini.argv;
		o->workdir = o->ini.directory;
	}
}

void otep_check_suite(struct checker *ck)
{
	struct oc o = { .ck = ck };

	oc_setup(&o);

	ck->child = check_child_new(ck->base, OTEP_LINE_MAX);
	if (!ck->child) {
		check_fail(check_push(ck, 1, xstrdup("otep.hello")), "out of memory");
	} else {
		/* The shared checks' verdict on start-up is theirs: ours starts anew. */
		free(ck->lost);
		ck->lost = NULL;
		ck->gave_up = 0;
		ck->restart_failures = 0;
		oc_hello(&o);
		oc_check_play(&o);
		oc_check_turns(&o);
		oc_group_end(&o);
		oc_check_analysis(&o);
		oc_check_goodbye(&o);
		check_child_free(ck->child);
		ck->child = NULL;
	}
	otep_ini_free(&o.ini);
	free(o.ini_error);
}
