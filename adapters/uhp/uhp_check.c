/*
 * uhp_check.c: the UHP suite of `hivebridge check`. The engine is a child process
 * driven line by line (bridge/check/child.c, on bridge/engine_child.c like the UHP
 * back end), so the checker sees the engine's exact bytes, and every reply has a
 * deadline: an engine that stalls, dies or floods is killed. Checks come in groups;
 * when the engine is lost, the rest of its group is skipped and the engine is
 * restarted for the next group. This file: talking to the engine, start-up,
 * bestmove, robustness and the suite; uhp_check_games.c: move generation, game
 * flow and rejections.
 *
 * Everything the engine says is compared with the core: move lists as sets of
 * moves (piece and destination; the destination's height follows from the board),
 * GameStrings by parsing them with the core and comparing the moves, not the text,
 * since engines choose their reference pieces differently.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "adapters/uhp/uhp_check.h"

#define CHECK_MAX_LINE      (1u << 20)  /* a longer engine line is a flood */
#define CHECK_LONG_LINE     (100u * 1024)
#define CHECK_MAX_RESTARTS  2           /* failed restarts before giving up */
#define TIMING_LOW_MS       900         /* "bestmove time 00:00:01" answered sooner: time unused */
#define TIMING_HIGH_MS      1500        /* later: past what its client waits for */
#define SIGINT_SEARCH_S     5           /* the search that timing.sigint interrupts */
#define SIGINT_AFTER_MS     300         /* ... this far into it */
#define SIGINT_STOP_MS      1000        /* an engine that stops answers within this of SIGINT
					 * (on an idle machine: see check_sigint) */

/* The engine is gone or unusable: kill it, and skip the rest of the group. */
void uhp_engine_lost(struct checker *ck, const struct result *r, const char *why)
{
	check_child_kill(ck->child);
	if (!ck->lost)
		ck->lost = xasprintf("engine lost at %s (%s)", r->name, why);
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

/* Sends a line to the engine, noting it in the check's transcript. */
int uhp_cmd_write(struct checker *ck, struct result *r, const char *line)
{
	if (r->sent.len)
		sbuf_str(&r->sent, " | ");
	if (*line)
		sbuf_escaped(&r->sent, line, strlen(line), CHECK_SHOW_SENT);
	else
		sbuf_str(&r->sent, "<blank line>");
	if (!check_child_running(ck->child)) {
		check_fail(r, "engine is not running");
		return -1;
	}
	if (check_child_send(ck->child, line) < 0) {
		const char *why = "engine does not read its input (its stdin is closed)";
		sbuf_free(&r->got);
		sbuf_str(&r->got, "<engine does not read its input>");
		check_fail(r, "%s", why);
		uhp_engine_lost(ck, r, why);
		return -1;
	}
	return 0;
}

/* Reads one reply; on a time-out, an exit or a flood the check fails, the engine
 * is killed and -1 returned. rep is the caller's to free either way. */
int uhp_cmd_read(struct checker *ck, struct result *r, int64_t start, int timeout_ms, struct reply *rep)
{
	char why[200], how[120];

	check_child_reply(ck->child, "ok", start, timeout_ms, rep);
	render_reply(r, rep);
	switch (rep->end) {
	case RD_LINE:
		return 0;
	case RD_TIMEOUT:
		snprintf(why, sizeof why, "no \"ok\" within %d ms", timeout_ms);
		break;
	case RD_EOF:
		check_child_describe_end(ck->child, how, sizeof how);
		snprintf(why, sizeof why, "engine %s", how);
		break;
	case RD_WRITE:
		/* Our command did not get through before the deadline. */
		snprintf(why, sizeof why, "engine does not read its input (write timed out)");
		break;
	case RD_TOOLONG:
	default:
		snprintf(why, sizeof why, "engine floods: a line or reply over %u bytes", CHECK_MAX_LINE);
		break;
	}
	check_fail(r, "%s", why);
	uhp_engine_lost(ck, r, why);
	return -1;
}

/* Sends one command line and reads its reply. */
int uhp_cmd(struct checker *ck, struct result *r, const char *line, int timeout_ms, struct reply *rep)
{
	memset(rep, 0, sizeof *rep);
	int64_t start = now_ms();
	if (uhp_cmd_write(ck, r, line) < 0) {
		rep->end = RD_WRITE;
		return -1;
	}
	return uhp_cmd_read(ck, r, start, timeout_ms, rep);
}

/* First line of a reply, or "" if it has none. */
const char *uhp_reply_first(const struct reply *rep)
{
	return rep->lines.n ? rep->lines.v[0] : "";
}

/* Whether a reply is a refusal: an "err" or "invalidmove" line (as the viewer reads it). */
int uhp_reply_refused(const struct reply *rep)
{
	for (size_t i = 0; i < rep->lines.n; i++)
		if (check_starts_with(rep->lines.v[i], "err") || check_starts_with(rep->lines.v[i], "invalidmove"))
			return 1;
	return 0;
}

/* Compares a GameString the engine printed with the game the core expects: the
 * header fields as text, the moves semantically. 0 if they match, else why. */
static int game_compare(const struct hive_game *want, const char *line, char *why, size_t whylen)
{
	static const char *const names[] = { "GameType", "BoardState", "TurnString" };
	char *exp = check_game_text(want);
	char a[128], b[128], err[256];
	struct hive_game got;
	int rc = -1;

	for (int i = 0; i < 3; i++) {
		check_field_copy(exp, i, a, sizeof a);
		check_field_copy(line, i, b, sizeof b);
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
			check_field_copy(line, (int)i + 3, a, sizeof a);
			check_field_copy(exp, (int)i + 3, b, sizeof b);
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
int uhp_expect_game(struct result *r, const struct reply *rep, const struct hive_game *want, const char *what)
{
	char why[400];
	char *exp = check_game_text(want);
	check_expect(r, "%s", exp);
	free(exp);
	if (uhp_reply_refused(rep)) {
		check_fail(r, "%s refused", what);
		return -1;
	}
	if (game_compare(want, uhp_reply_first(rep), why, sizeof why) < 0) {
		check_fail(r, "%s: %s", what, why);
		return -1;
	}
	return 0;
}

/* newgame with the game's canonical GameString; checks the GameString it prints. */
int uhp_load_game(struct checker *ck, struct result *r, const struct hive_game *g)
{
	struct reply rep = { 0 };
	char *gs = check_game_text(g);
	char *line = xasprintf("newgame %s", gs);
	int rc = uhp_cmd(ck, r, line, ck->timeout_ms, &rep);
	free(line);
	free(gs);
	if (rc == 0)
		rc = uhp_expect_game(r, &rep, g, "newgame");
	reply_free(&rep);
	return rc;
}

/* Sends a command that must print the GameString of want. */
int uhp_expect_cmd_game(struct checker *ck, struct result *r, const char *line, const struct hive_game *want)
{
	struct reply rep = { 0 };
	int rc = uhp_cmd(ck, r, line, ck->timeout_ms, &rep);
	if (rc == 0)
		rc = uhp_expect_game(r, &rep, want, line);
	reply_free(&rep);
	return rc;
}

/* Sends a command that must be refused: err or invalidmove (just err if err_only),
 * then ok. */
int uhp_expect_refusal(struct checker *ck, struct result *r, const char *line, const char *what,
			  int err_only)
{
	struct reply rep = { 0 };
	check_expect(r, "%s", what);
	int rc = uhp_cmd(ck, r, line, ck->timeout_ms, &rep);
	if (rc == 0 && !uhp_reply_refused(&rep)) {
		check_fail(r, "accepted: no \"err\" or \"invalidmove\" line");
		rc = -1;
	} else if (rc == 0 && err_only && !check_starts_with(uhp_reply_first(&rep), "err")) {
		check_fail(r, "refused, but not with \"err\"");
		rc = -1;
	}
	reply_free(&rep);
	return rc;
}

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
	if (check_child_running(ck->child))
		return;
	if (check_child_spawn(ck->child, ck->argv, ck->workdir, why, sizeof why) == 0) {
		check_child_reply(ck->child, "ok", now_ms(), ck->timeout_ms, &rep);
		enum rd end = rep.end;
		reply_free(&rep);
		if (end == RD_LINE)
			return;
		snprintf(why, sizeof why, "no info block ending with \"ok\" within %d ms", ck->timeout_ms);
		check_child_kill(ck->child);
	}
	ck->lost = xasprintf("engine did not restart: %s", why);
	if (++ck->restart_failures >= CHECK_MAX_RESTARTS)
		ck->gave_up = 1;
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
	if (check_child_spawn(ck->child, ck->argv, ck->workdir, why, sizeof why) < 0) {
		check_fail(r, "%s", why);
		ck->lost = xasprintf("the engine does not start (%s)", why);
		ck->gave_up = 1;
		startup_skip_rest(ck);
		return;
	}
	if (uhp_cmd_read(ck, r, now_ms(), ck->timeout_ms, &boot) < 0) {
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
	const char *first = uhp_reply_first(&boot);
	sbuf_str(&r->sent, "<nothing>");
	render_reply(r, &boot);
	check_expect(r, "a first line \"id <name>\"");
	if (!check_starts_with(first, "id ") || !first[3])
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
		check_caps_parse(ck, line, &unknown);
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
	if (uhp_cmd(ck, r, "info", ck->timeout_ms, &rep) == 0) {
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

/* The move of a bestmove reply: its last line, text before the first ';'; -1 (r
 * failed) when there is none or it is not legal on b. */
static int reply_move(struct result *r, const struct hive_board *b, const struct reply *rep,
		      struct hive_move *out)
{
	char err[256];
	int rc = -1;

	if (uhp_reply_refused(rep) || rep->lines.n == 0) {
		check_fail(r, "no move: %s", rep->lines.n ? "refused" : "empty reply");
		return -1;
	}
	char *text = xstrdup(rep->lines.v[rep->lines.n - 1]);
	text[strcspn(text, ";")] = 0;
	if (hive_move_parse(b, text, out, err, sizeof err) != HIVE_OK)
		check_fail(r, "not a legal move: %s", err);
	else
		rc = 0;
	free(text);
	return rc;
}

/* Sends "bestmove <how>" and checks the answer: a legal move; within limit_ms + the
 * margin when limit_ms > 0. */
static int expect_bestmove(struct checker *ck, struct result *r, const struct hive_board *b,
			   const char *how, int limit_ms, struct hive_move *out)
{
	struct reply rep = { 0 };
	char *line = xasprintf("bestmove %s", how);
	int wait = limit_ms > 0 ? limit_ms + ck->margin_ms + ck->timeout_ms : ck->timeout_ms;
	int rc = -1;

	if (limit_ms > 0)
		check_expect(r, "a legal move within %d ms + %d ms margin", limit_ms, ck->margin_ms);
	else
		check_expect(r, "a legal move");
	if (uhp_cmd(ck, r, line, wait, &rep) < 0 || reply_move(r, b, &rep, out) < 0)
		goto out;
	if (limit_ms > 0 && rep.ms > limit_ms + ck->margin_ms)
		check_fail(r, "answered after %" PRId64 " ms", rep.ms);
	else
		rc = 0;
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
	struct result *r;

	check_random_game(ck, &g, ck->caps_type & 7, 12);
	r = check_begin(ck, 1, "bestmove.depth-1");
	if (r && uhp_load_game(ck, r, &g) == 0)
		expect_bestmove(ck, r, &g.board, "depth 1", 0, &m);
	check_end(r);
	r = check_begin(ck, 1, "bestmove.time-1s");
	if (r && uhp_load_game(ck, r, &g) == 0)
		expect_bestmove(ck, r, &g.board, "time 00:00:01", 1000, &m);
	check_end(r);
	hive_game_free(&g);

	r = check_begin(ck, 1, "bestmove.single-move");
	if (r) {
		if (check_load_position(r, &g, POS_SINGLE_MOVE) == 0) {
			if (hive_board_moves(&g.board, moves) != 1)
				check_skip(r, "the core sees more than one move");
			else if (uhp_load_game(ck, r, &g) == 0 &&
				 expect_bestmove(ck, r, &g.board, "depth 1", 0, &m) == 0 &&
				 (m.piece != moves[0].piece || m.to != moves[0].to))
				check_fail(r, "not the only legal move");
			hive_game_free(&g);
		}
		check_end(r);
	}

	r = check_begin(ck, 1, "bestmove.forced-pass");
	if (r) {
		if (check_load_position(r, &g, POS_FORCED_PASS) == 0) {
			if (uhp_load_game(ck, r, &g) == 0 &&
			    expect_bestmove(ck, r, &g.board, "depth 1", 0, &m) == 0 && m.piece != HIVE_PASS_PIECE)
				check_fail(r, "not \"pass\"");
			hive_game_free(&g);
		}
		check_end(r);
	}

	/* Last in the group: nokamute dies here. */
	r = check_begin(ck, 1, "bestmove.game-over");
	if (r && uhp_end_load(r, &uhp_end_positions[0], &g) == 0) {
		if (uhp_load_game(ck, r, &g) == 0 &&
		    uhp_expect_refusal(ck, r, "bestmove depth 1", "err (+ok), then the engine still answers", 1) == 0 &&
		    uhp_cmd(ck, r, "info", ck->timeout_ms, &rep) == 0 && !check_starts_with(uhp_reply_first(&rep), "id "))
			check_fail(r, "info after the refusal does not answer \"id ...\"");
		reply_free(&rep);
		hive_game_free(&g);
	}
	check_end(r);
}

/* timing.bestmove-1s: a second asked for is a second used, and not much more: an
 * engine that answers at once plays below its strength, and one that overruns
 * keeps a client waiting past what it asked for. Optional: neither breaks UHP. */
static void check_time_used(struct checker *ck, const struct hive_game *g)
{
	struct result *r = check_begin(ck, 0, "timing.bestmove-1s");
	struct reply rep = { 0 };
	struct hive_move m;

	if (!r)
		return;
	if (uhp_load_game(ck, r, g) < 0)
		goto out;
	check_expect(r, "a legal move after %d..%d ms", TIMING_LOW_MS, TIMING_HIGH_MS);
	if (uhp_cmd(ck, r, "bestmove time 00:00:01", TIMING_HIGH_MS + ck->timeout_ms, &rep) == 0 &&
	    reply_move(r, &g->board, &rep, &m) == 0) {
		if (rep.ms < TIMING_LOW_MS)
			check_fail(r, "answered after %" PRId64 " ms: the engine does not use the time it is given",
				   rep.ms);
		else if (rep.ms > TIMING_HIGH_MS)
			check_fail(r, "answered after %" PRId64 " ms: its client waits longer than it asked; the "
				   "bridge waits the profile's command_timeout past the time, then restarts it", rep.ms);
		else
			r->reason = xasprintf("answered after %" PRId64 " ms", rep.ms);
	}
out:
	reply_free(&rep);
	check_end(r);
}

/* The engine ended after SIGINT: it died of it or exited. */
static void sigint_ended(struct checker *ck, struct result *r)
{
	char how[120];

	check_child_describe_end(ck->child, how, sizeof how);
	if (strstr(how, "signal")) {
		ck->sigint = "dies";
		check_fail(r, "dies on SIGINT (%s): a search the bridge stops (newgame, exit, a client "
			   "that leaves) ends with the engine restarted", how);
	} else {
		ck->sigint = "exits";
		check_fail(r, "exits on SIGINT (%s): a search the bridge stops (newgame, exit, a client "
			   "that leaves) ends with the engine restarted", how);
	}
	uhp_engine_lost(ck, r, how);
}

/* timing.sigint, informational: what SIGINT to the engine's process group, the way
 * the bridge (and Mzinga's viewer) stops a search, does to it: it stops and
 * answers, within SIGINT_STOP_MS or, slowed by a busy machine, well before its own
 * time (pass), it survives but had answered already (pass), it dies or exits,
 * or it ignores the signal and answers at its own time (optional failures, which
 * say what the bridge does then). ck->sigint keeps the word for the JSON report. */
static void check_sigint(struct checker *ck, const struct hive_game *g)
{
	struct result *r = check_begin(ck, 0, "timing.sigint");
	struct reply rep = { 0 }, more = { 0 };
	struct hive_move m;
	char line[40];

	if (!r)
		return;
	ck->sigint = "untested";
	if (uhp_load_game(ck, r, g) < 0)
		goto out;
	check_expect(r, "a legal move within %d ms of SIGINT (on a busy machine, well before its "
		     "own time), sent %d ms after the engine read "
		     "\"bestmove time 00:00:%02d\"",
		     SIGINT_STOP_MS, SIGINT_AFTER_MS, SIGINT_SEARCH_S);
	snprintf(line, sizeof line, "bestmove time 00:00:%02d", SIGINT_SEARCH_S);
	int64_t start = now_ms();
	if (uhp_cmd_write(ck, r, line) < 0)
		goto out;
	/* Timed from its reading the command: a loaded machine may leave it unread for
	 * longer than SIGINT_AFTER_MS, and a signal then finds it idle. */
	check_child_wait_read(ck->child, ck->timeout_ms);
	int64_t read_at = now_ms();
	check_child_reply(ck->child, "ok", read_at, SIGINT_AFTER_MS, &rep);
	if (rep.end != RD_LINE && rep.end != RD_TIMEOUT) {
		/* Ended or flooded before any signal: what uhp_cmd_read says. */
		reply_free(&rep);
		uhp_cmd_read(ck, r, start, 0, &rep);
		goto out;
	}
	int answered = rep.end == RD_LINE;
	check_note_sent(r, "<SIGINT>");
	int64_t sig_at = now_ms();
	check_child_signal(ck->child, SIGINT);
	if (answered) {
		/* Idle when signalled: whether it survives is all there is to see. */
		if (reply_move(r, &g->board, &rep, &m) < 0)
			goto out;
		if (uhp_cmd_write(ck, r, "info") < 0)
			goto out;
		check_child_reply(ck->child, "ok", now_ms(), ck->timeout_ms, &more);
		render_reply(r, &more);
		if (more.end == RD_EOF) {
			sigint_ended(ck, r);
		} else if (more.end == RD_LINE) {
			ck->sigint = "survives";
			r->reason = xasprintf("survives SIGINT; it answered after %" PRId64 " ms, before the signal, "
					      "so whether it stops a search early is not known", rep.ms);
		} else {
			check_fail(r, "no answer to info after SIGINT");
			uhp_engine_lost(ck, r, "no answer to info after SIGINT");
		}
		goto out;
	}
	check_child_reply(ck->child, "ok", start, SIGINT_SEARCH_S * 1000 + ck->margin_ms + ck->timeout_ms, &more);
	for (size_t i = 0; i < more.lines.n; i++)
		strlist_add(&rep.lines, more.lines.v[i]);
	rep.end = more.end;
	render_reply(r, &rep);
	int64_t after = now_ms() - sig_at;
	if (more.end == RD_EOF) {
		sigint_ended(ck, r);
	} else if (more.end != RD_LINE) {
		check_fail(r, "no \"ok\" within %d ms", SIGINT_SEARCH_S * 1000 + ck->margin_ms + ck->timeout_ms);
		uhp_engine_lost(ck, r, "no answer after SIGINT");
	} else if (reply_move(r, &g->board, &rep, &m) == 0) {
		/* What its search had left when signalled: one that ignores the signal
		 * answers then, and a stop slowed by a busy machine (or a slow stop)
		 * well before. A quarter of it covers our own late look at its reading. */
		int64_t left = SIGINT_SEARCH_S * 1000 - (sig_at - read_at);
		if (after <= SIGINT_STOP_MS) {
			ck->sigint = "stops";
			r->reason = xasprintf("stops its search on SIGINT and answers (%" PRId64 " ms after it)", after);
		} else if (after < left * 3 / 4) {
			ck->sigint = "stops";
			r->reason = xasprintf("stops its search on SIGINT and answers (%" PRId64 " ms after it: "
					      "slow, over %d ms, but long before the %" PRId64 " ms its search "
					      "had left)", after, SIGINT_STOP_MS, left);
		} else {
			ck->sigint = "ignores";
			check_fail(r, "ignores SIGINT: answered %" PRId64 " ms after it, at its own time; a search the "
				   "bridge stops runs on until it answers (up to the profile's command_timeout)", after);
		}
	}
out:
	reply_free(&rep);
	reply_free(&more);
	check_end(r);
}

/* Last before robustness: SIGINT may kill the engine, and the next group restarts it. */
static void group_timing(struct checker *ck)
{
	struct hive_game g;

	check_random_game(ck, &g, ck->caps_type & 7, 12);
	check_time_used(ck, &g);
	check_sigint(ck, &g);
	hive_game_free(&g);
}

/* The engine still answers info properly. */
static void expect_alive(struct checker *ck, struct result *r)
{
	struct reply rep = { 0 };
	if (uhp_cmd(ck, r, "info", ck->timeout_ms, &rep) == 0 && !check_starts_with(uhp_reply_first(&rep), "id "))
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
		if (uhp_cmd(ck, r, "frobnicate the hive", ck->timeout_ms, &rep) == 0 && !check_starts_with(uhp_reply_first(&rep), "err"))
			check_fail(r, "no \"err\" line");
		reply_free(&rep);
		check_end(r);
	}

	/* Ignored (Mzinga) or refused (MzingaCpp, nokamute): either way the next
	 * command is answered. */
	r = check_begin(ck, 1, "robustness.blank-line");
	if (r) {
		check_expect(r, "nothing, or err (+ok); then the info block for info");
		if (uhp_cmd_write(ck, r, "") == 0 &&
		    uhp_cmd(ck, r, "info", ck->timeout_ms, &rep) == 0) {
			if (uhp_reply_refused(&rep)) {
				reply_free(&rep);
				uhp_cmd_read(ck, r, now_ms(), ck->timeout_ms, &rep);
			}
			if (rep.end == RD_LINE && !check_starts_with(uhp_reply_first(&rep), "id "))
				check_fail(r, "info after a blank line does not answer \"id ...\"");
		}
		reply_free(&rep);
		check_end(r);
	}

	r = check_begin(ck, 1, "robustness.long-line");
	if (r) {
		char *line = xreallocarray(NULL, CHECK_LONG_LINE + 1, 1);
		memset(line, 'x', CHECK_LONG_LINE);
		line[CHECK_LONG_LINE] = 0;
		if (uhp_expect_refusal(ck, r, line, "err (+ok) for a 100 KiB line, then the engine still answers", 0) == 0)
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
		int status = 0, rc = check_child_close_input(ck->child, (unsigned)ck->timeout_ms, &status);
		if (rc < 0)
			check_fail(r, "engine is not running");
		else if (rc == 0)
			check_fail(r, "still running after %d ms", ck->timeout_ms);
		else if (!WIFEXITED(status))
			check_fail(r, "killed by signal %d", WTERMSIG(status));
		check_child_kill(ck->child);
		check_end(r);
	}
}

void uhp_check_suite(struct checker *ck)
{
	static void (*const groups[])(struct checker *) = {
		uhp_group_movegen_start, uhp_group_movegen_nokamute, uhp_group_movegen_realgames,
		uhp_group_movegen_random, uhp_group_gameflow, uhp_group_rejections_byrule,
		uhp_group_rejections_malformed, group_bestmove, group_timing, group_robustness,
	};

	ck->child = check_child_new(ck->base, CHECK_MAX_LINE);
	if (!ck->child) {
		struct result *r = check_push(ck, 1, xstrdup("startup.info-unprompted"));
		check_fail(r, "out of memory");
		return;
	}
	group_startup(ck);
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		group_begin(ck);
		groups[g](ck);
	}
	check_child_free(ck->child);
	ck->child = NULL;
}
