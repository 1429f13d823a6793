/*
 * fake_otep_engine: a small OTEP Hive engine (docs/otep-hive.md) on stdin/stdout for
 * tests, playing by the core's rules (a legal move chosen from the position's hash),
 * built on the OTEP codec. Faults to switch on, at the engine's Nth move (--at N,
 * default 1; "move" counts the engine's play commands in this process):
 *
 *   --fault no-hello           never says hello (and answers nothing)
 *   --fault slow-hello         says hello after --delay-ms (default 7000)
 *   --fault crash              abort() on play
 *   --fault stall              play is never answered (goodbye and EOF are ignored too)
 *   --fault garbage            play answers a line the codec refuses (binary junk)
 *   --fault longline           play answers a 200 KiB line
 *   --fault illegal            play answers a well-formed move the rules forbid
 *   --fault wrong-side         play answers a move of the opponent's piece
 *   --fault critical-error     play answers "error -1 ..." and no move
 *   --fault noncritical-error  play answers "error 0 ..." and then its move
 *   --fault exit               exits (status 3) on play
 *   --fault banner             prints a line before hello
 *   --fault no-pass            where pass is the only move, answers another (illegal) one
 *   --fault no-retry           after an error from the host, answers no play any more
 *   --fault analysis-count     analysis announces one move list more than it gives
 *   --fault analysis-illegal   analysis starts its first move list with an illegal move
 *   --fault strict             exits (status 4) on a line it cannot parse
 *   --fault ignore-goodbye     goodbye does not end it (end of input does)
 *   --delay-ms N               each move takes N ms; default 0
 *   --status                   writes a status line before each move
 *
 * Its own checks are strict: a line the codec refuses, a play for the side not to
 * move, or a GameString that disagrees with its game gets "error 0 <reason>".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapters/otep/otep_codec.h"
#include "adapters/otep/otep_hive.h"
#include "core/game.h"
#include "tests/tools/fake_moves.h"

enum fault {
	F_NONE, F_NO_HELLO, F_SLOW_HELLO, F_CRASH, F_STALL, F_GARBAGE, F_LONGLINE, F_ILLEGAL,
	F_WRONG_SIDE, F_CRITICAL, F_NONCRITICAL, F_EXIT, F_BANNER, F_NO_PASS, F_NO_RETRY,
	F_ANALYSIS_COUNT, F_ANALYSIS_ILLEGAL, F_STRICT, F_IGNORE_GOODBYE
};

static const struct {
	const char *name;
	enum fault  fault;
} fault_names[] = {
	{ "no-hello", F_NO_HELLO }, { "slow-hello", F_SLOW_HELLO }, { "crash", F_CRASH },
	{ "stall", F_STALL }, { "garbage", F_GARBAGE }, { "longline", F_LONGLINE },
	{ "illegal", F_ILLEGAL }, { "wrong-side", F_WRONG_SIDE },
	{ "critical-error", F_CRITICAL }, { "noncritical-error", F_NONCRITICAL }, { "exit", F_EXIT },
	{ "banner", F_BANNER }, { "no-pass", F_NO_PASS }, { "no-retry", F_NO_RETRY },
	{ "analysis-count", F_ANALYSIS_COUNT }, { "analysis-illegal", F_ANALYSIS_ILLEGAL },
	{ "strict", F_STRICT }, { "ignore-goodbye", F_IGNORE_GOODBYE },
};

struct fake {
	enum fault       fault;
	long             at;          /* the engine move at which the fault fires */
	long             delay_ms;
	int              status;
	long             moves;       /* play commands so far */
	int              refused;     /* the host has sent an error */
	struct hive_game game;
};

static void say(const char *line)
{
	fputs(line, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

static void say_error(int code, const char *msg)
{
	char line[1024];
	if (otep_format_error(line, sizeof line, OTEP_FROM_ENGINE, code, msg) >= 0)
		say(line);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (ms > 0 && nanosleep(&ts, &ts) != 0)
		;
}

/* A legal move picked from the hash, so games vary but replay identically. */
static int pick_move(const struct hive_board *b, struct hive_move *m, size_t skip)
{
	static struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(b, moves);
	if (n == 0)
		return -1;
	*m = moves[(b->hash >> 17 ^ skip) % n];
	return 0;
}

/* A move of a piece of the colour not to move that no Pillbug can make. */
static int wrong_side_move(const struct hive_board *b, char *buf, size_t len)
{
	int other = !hive_side_to_move(b);
	struct hive_move m;
	char err[256];
	for (int slot = 0; slot < 14; slot++) {
		const char *theirs = hive_piece_name(HIVE_PIECE(other, slot));
		for (int p = -1; p < HIVE_PIECES; p++) {
			if (p >= 0 && !(b->in_play & (1u << p)))
				continue;
			if (p < 0)
				snprintf(buf, len, "%s", theirs);
			else
				snprintf(buf, len, "%s %s-", theirs, hive_piece_name(p));
			if (otep_move_read(b, buf, &m, err, sizeof err) == OTEP_ERR_WRONG_SIDE)
				return 0;
		}
	}
	return -1;
}

static void cmd_play(struct fake *f, const struct otep_msg *m)
{
	char mv[2 * HIVE_MOVESTR_MAX], line[512];
	struct hive_move mo;
	int fire = ++f->moves == f->at;

	if (f->fault == F_NO_RETRY && f->refused)
		return;
	if (m->side != otep_side_to_move(&f->game.board)) {
		say_error(OTEP_ERR_NONCRITICAL, "play names the side not to move");
		return;
	}
	if (hive_game_over(&f->game.board) || pick_move(&f->game.board, &mo, 0) < 0) {
		say_error(OTEP_ERR_NONCRITICAL, "the game is over");
		return;
	}
	if (f->delay_ms > 0)
		sleep_ms(f->delay_ms);
	hive_move_format(&f->game.board, mo, mv, sizeof mv);
	if (f->fault == F_NO_PASS && mo.piece == HIVE_PASS_PIECE &&
	    fake_illegal_move(&f->game.board, 0, mv, sizeof mv) < 0)
		fprintf(stderr, "fake_otep_engine: no illegal move here, passing\n");
	if (fire) {
		switch (f->fault) {
		case F_CRASH:
			abort();
		case F_EXIT:
			exit(3);
		case F_STALL:
			signal(SIGPIPE, SIG_IGN);
			for (;;)
				pause();
		case F_GARBAGE:
			say("move \x01\x02 wQ -wS1 \xff\xfe");
			return;
		case F_LONGLINE:
			fputs("status ", stdout);
			for (int i = 0; i < 200 * 1024; i++)
				putchar('a' + i % 26);
			say("");
			return;
		case F_CRITICAL:
			say_error(OTEP_ERR_CRITICAL, "fake critical error: the engine gives up");
			return;
		case F_NONCRITICAL:
			say_error(OTEP_ERR_NONCRITICAL, "fake non-critical error: the game goes on");
			break;
		case F_ILLEGAL:
			if (fake_illegal_move(&f->game.board, 0, mv, sizeof mv) < 0)
				fprintf(stderr, "fake_otep_engine: no illegal move here, playing a legal one\n");
			break;
		case F_WRONG_SIDE:
			if (wrong_side_move(&f->game.board, mv, sizeof mv) < 0)
				fprintf(stderr, "fake_otep_engine: no wrong-side move here, playing a legal one\n");
			break;
		default:
			break;
		}
	}
	if (f->status) {
		char text[128];
		snprintf(text, sizeof text, "depth 1 nodes %u pv %s", 1u + f->game.board.ply, mv);
		if (otep_format_status(line, sizeof line, text) > 0)
			say(line);
	}
	if (otep_format_move(line, sizeof line, mv) > 0)
		say(line);
}

static void cmd_analyze(struct fake *f, const struct otep_msg *m)
{
	static struct hive_move moves[HIVE_MAX_MOVES];
	static char text[OTEP_ANALYSIS_MAX][2][2 * HIVE_MOVESTR_MAX];
	const char *ptr[OTEP_ANALYSIS_MAX][2];
	struct otep_moves lines[OTEP_ANALYSIS_MAX];
	char line[8192];
	size_t n = hive_board_moves(&f->game.board, moves), k;

	if (n == 0) {
		say_error(OTEP_ERR_NONCRITICAL, "the game is over: nothing to analyse");
		return;
	}
	for (k = 0; k < n && k < (size_t)m->number; k++) {
		struct hive_board after = f->game.board;
		struct hive_undo u;
		struct hive_move reply;
		hive_move_format(&f->game.board, moves[k], text[k][0], sizeof text[k][0]);
		ptr[k][0] = text[k][0];
		lines[k].moves = ptr[k];
		lines[k].n = 1;
		lines[k].eval_cp = (int64_t)(k * 7 % 50) - 20;
		hive_board_do(&after, moves[k], &u);
		if (!hive_game_over(&after) && pick_move(&after, &reply, 0) == 0) {
			hive_move_format(&after, reply, text[k][1], sizeof text[k][1]);
			ptr[k][1] = text[k][1];
			lines[k].n = 2;
		}
	}
	if (f->fault == F_ANALYSIS_ILLEGAL)
		ptr[0][0] = fake_illegal_move(&f->game.board, 0, text[0][0], sizeof text[0][0]) == 0 ?
			    text[0][0] : "wQ";
	int len = otep_format_analysis(line, sizeof line, lines, k);
	if (len > 0 && f->fault == F_ANALYSIS_COUNT) {
		/* "analysis N ..." announcing N + 1 */
		char more[8192];
		snprintf(more, sizeof more, "analysis %zu%s", k + 1, line + strcspn(line + 9, " ") + 9);
		say(more);
	} else if (len > 0) {
		say(line);
	}
}

int main(int argc, char **argv)
{
	static struct fake f;
	static char line[1 << 20];
	long slow = 7000;

	f.at = 1;
	f.delay_ms = -1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fault") && i + 1 < argc) {
			size_t k;
			for (k = 0; k < sizeof fault_names / sizeof fault_names[0]; k++)
				if (!strcmp(argv[i + 1], fault_names[k].name))
					break;
			if (k == sizeof fault_names / sizeof fault_names[0]) {
				fprintf(stderr, "fake_otep_engine: unknown fault %s\n", argv[i + 1]);
				return 2;
			}
			f.fault = fault_names[k].fault;
			i++;
		} else if (!strcmp(argv[i], "--at") && i + 1 < argc) {
			f.at = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc) {
			f.delay_ms = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--status")) {
			f.status = 1;
		} else {
			fprintf(stderr, "usage: fake_otep_engine [--fault NAME] [--at N] [--delay-ms N] [--status]\n");
			return 2;
		}
	}
	if (f.fault == F_SLOW_HELLO && f.delay_ms >= 0)
		slow = f.delay_ms;
	if (f.delay_ms < 0 || f.fault == F_SLOW_HELLO)
		f.delay_ms = 0;
	fprintf(stderr, "fake_otep_engine: pid %ld, fault %d at move %ld\n", (long)getpid(),
		(int)f.fault, f.at);
	hive_game_init(&f.game, 7);

	if (f.fault == F_NO_HELLO) {
		while (fgets(line, sizeof line, stdin) != NULL)
			;
		return 0;
	}
	if (f.fault == F_SLOW_HELLO)
		sleep_ms(slow);
	if (f.fault == F_BANNER)
		say("Fake OTEP engine, starting up");
	say("hello");

	while (fgets(line, sizeof line, stdin) != NULL) {
		struct otep_msg m;
		char err[512];
		if (otep_msg_parse(line, strlen(line), OTEP_FROM_HOST, &m, err, sizeof err) < 0) {
			if (f.fault == F_STRICT) {
				fprintf(stderr, "fake_otep_engine: %s: exiting\n", err);
				otep_msg_free(&m);
				hive_game_free(&f.game);
				return 4;
			}
			say_error(OTEP_ERR_NONCRITICAL, err);
			otep_msg_free(&m);
			continue;
		}
		int quit = 0;
		switch (m.cmd) {
		case OTEP_RULES:
		case OTEP_POSITION:
		case OTEP_MOVE:
		case OTEP_OPPONENT_MOVE:
			if (otep_game_from_msg(&m, &f.game, err, sizeof err) < 0)
				say_error(OTEP_ERR_NONCRITICAL, err);
			break;
		case OTEP_PLAY:
			cmd_play(&f, &m);
			break;
		case OTEP_ANALYZE:
			cmd_analyze(&f, &m);
			break;
		case OTEP_ERROR:
			f.refused = 1;
			fprintf(stderr, "fake_otep_engine: the host says error %d\n", m.code);
			break;
		case OTEP_FINISH:
			fprintf(stderr, "fake_otep_engine: finish %d\n", m.code);
			break;
		case OTEP_GOODBYE:
			quit = f.fault != F_IGNORE_GOODBYE;
			break;
		default:   /* hello, side, clock: nothing to say */
			break;
		}
		otep_msg_free(&m);
		if (quit)
			break;
	}
	hive_game_free(&f.game);
	return 0;
}
