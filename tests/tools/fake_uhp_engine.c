/*
 * fake_uhp_engine: a small UHP engine on stdin/stdout for tests, playing by the
 * core's rules (any legal move, chosen from the position's hash), with faults to
 * switch on:
 *
 *   --fault crash-on-bestmove   abort() when asked for a move
 *   --fault stall               bestmove never answers (SIGINT still ends it)
 *   --fault garbage             bestmove answers binary junk
 *   --fault long-line           bestmove answers a 200 KiB line
 *   --fault illegal-move        bestmove answers a well-formed illegal move
 *   --fault exit-at-start       exits before the info block
 *   --fault slow-start          waits --delay-ms (default 60000) before the info block
 *   --fault no-ok               never prints "ok" after the info block
 *   --fault ignore-sigint       ignores SIGINT; bestmove thinks --delay-ms (default 1 h)
 *                               or, with --use-time, the time asked for
 *   --fault die-on-sigint       SIGINT kills it (its default action), as it does nokamute
 *   --fault invalidmove-all     every play, pass and newgame with moves: invalidmove
 *   --fault overrun             as nokamute: dies of SIGINT, and a timed bestmove takes
 *                               its time plus --delay-ms (default 0)
 *   --delay-ms N                bestmove thinks N ms (SIGINT ends it early)
 *   --use-time                  "bestmove time T" thinks T (SIGINT ends it early)
 *   --stop-ms N                 SIGINT ends a search N ms later (a slow stop)
 *   --sloppy                    legal moves in another notation: the last reference
 *                               instead of the first, odd case, extra spaces, and an
 *                               intermediate "move;depth;score" line first
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/game.h"
#include "tests/tools/fake_moves.h"

enum fault {
	F_NONE, F_CRASH, F_STALL, F_GARBAGE, F_LONG_LINE, F_ILLEGAL, F_EXIT_AT_START,
	F_SLOW_START, F_NO_OK, F_IGNORE_SIGINT, F_INVALID_ALL, F_OVERRUN, F_DIE_ON_SIGINT
};

static const struct {
	const char *name;
	enum fault  fault;
} fault_names[] = {
	{ "crash-on-bestmove", F_CRASH }, { "stall", F_STALL }, { "garbage", F_GARBAGE },
	{ "long-line", F_LONG_LINE }, { "illegal-move", F_ILLEGAL },
	{ "exit-at-start", F_EXIT_AT_START }, { "slow-start", F_SLOW_START },
	{ "no-ok", F_NO_OK }, { "ignore-sigint", F_IGNORE_SIGINT },
	{ "invalidmove-all", F_INVALID_ALL }, { "overrun", F_OVERRUN },
	{ "die-on-sigint", F_DIE_ON_SIGINT },
};

static volatile sig_atomic_t interrupted;
static long stop_ms;            /* --stop-ms */

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct fake {
	enum fault       fault;
	long             delay_ms;
	struct hive_game game;
	int              max_depth;    /* an option, to have something to list and set */
	int              ponder;
	int              sloppy;
	int              use_time;     /* "bestmove time T" thinks T */
};

/* A valid but non-canonical MoveString of m: the last occupied neighbour of the
 * destination as reference (canonical is the first), upper-case colour, spaces. */
static void sloppy_format(const struct hive_board *b, struct hive_move m, char *buf, size_t len)
{
	static const char *const marks[HIVE_DIRS][2] = {
		{ "", "\\" }, { "/", "" }, { "-", "" }, { "\\", "" }, { "", "/" }, { "", "-" }
	};
	char canon[HIVE_MOVESTR_MAX], name[8];
	hive_move_format(b, m, canon, sizeof canon);
	if (m.piece == HIVE_PASS_PIECE || b->ply == 0 || b->height[m.to] > 0) {
		snprintf(buf, len, "  %s ", canon);
		return;
	}
	snprintf(name, sizeof name, "%s", hive_piece_name(m.piece));
	name[0] = name[0] == 'w' ? 'W' : 'B';
	for (int d = HIVE_DIRS - 1; d >= 0; d--) {
		uint16_t c = hive_cell_step(m.to, d);
		int top = b->top[c];
		if (c == m.from)    /* the mover's own cell: what stays under it, if anything */
			top = b->under[m.piece];
		if (top == HIVE_NO_PIECE)
			continue;
		snprintf(buf, len, "%s   %s%s%s ", name, marks[d][0], hive_piece_name(top), marks[d][1]);
		return;
	}
	snprintf(buf, len, "%s", canon);
}

static void ok(const struct fake *f)
{
	if (f->fault != F_NO_OK)
		fputs("ok\n", stdout);
	fflush(stdout);
}

static long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleeps up to ms, in slices, until SIGINT (unless SIGINT is ignored); by the
 * clock, so that a loaded machine's late wake-ups do not add up. */
static void think(long ms)
{
	struct timespec slice = { 0, 10 * 1000 * 1000 };
	long end = mono_ms() + ms;
	while (mono_ms() < end && !interrupted)
		nanosleep(&slice, NULL);
	if (interrupted && stop_ms > 0) {
		struct timespec rest = { stop_ms / 1000, stop_ms % 1000 * 1000 * 1000 };
		while (nanosleep(&rest, &rest) < 0 && errno == EINTR)
			;
	}
}

static void print_game(const struct fake *f)
{
	char buf[8192];
	hive_game_format(&f->game, buf, sizeof buf);
	printf("%s\n", buf);
}

/* A legal move picked from the hash, so games vary but replay identically. */
static int pick_move(const struct fake *f, struct hive_move *m)
{
	static struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(&f->game.board, moves);
	if (n == 0)
		return -1;
	*m = moves[(f->game.board.hash >> 17) % n];
	return 0;
}

static void cmd_bestmove(struct fake *f, const char *arg, int have_delay)
{
	long ms = f->delay_ms;
	unsigned h, mi, s;
	int depth, timed;

	timed = sscanf(arg, "time %u:%u:%u", &h, &mi, &s) == 3;
	if (!timed && (sscanf(arg, "depth %d", &depth) != 1 || depth < 0)) {
		printf("err Invalid bestmove arguments.\n");
		ok(f);
		return;
	}
	if (timed && f->use_time)
		ms = ((long)h * 3600 + (long)mi * 60 + (long)s) * 1000;
	if (hive_game_over(&f->game.board)) {
		printf("err The game is over.\n");
		ok(f);
		return;
	}
	switch (f->fault) {
	case F_CRASH:
		abort();
	case F_STALL:
		think(24L * 3600 * 1000);
		break;
	case F_GARBAGE:
		fputs("\x01\xfe garbage ~~ \x7f\n", stdout);
		ok(f);
		return;
	case F_LONG_LINE:
		for (int i = 0; i < 200 * 1024; i++)
			putchar('A' + i % 26);
		putchar('\n');
		ok(f);
		return;
	case F_ILLEGAL: {
		char buf[64];
		if (fake_illegal_move(&f->game.board, 1, buf, sizeof buf) == 0) {
			printf("%s\n", buf);
			ok(f);
			return;
		}
		break;
	}
	case F_IGNORE_SIGINT:
		think(have_delay || (timed && f->use_time) ? ms : 3600L * 1000);
		break;
	case F_OVERRUN:
		if (timed)
			think(((h * 60L + mi) * 60 + s) * 1000 + ms);
		break;
	default:
		think(ms);
		break;
	}
	interrupted = 0;
	struct hive_move m;
	char buf[64];
	if (pick_move(f, &m) < 0) {
		printf("err No move.\n");
	} else {
		if (f->sloppy) {
			sloppy_format(&f->game.board, m, buf, sizeof buf);
			printf("%s;1;0.00\n", buf);
		} else {
			hive_move_format(&f->game.board, m, buf, sizeof buf);
		}
		printf("%s\n", buf);
	}
	ok(f);
}

static void cmd_play(struct fake *f, const char *arg)
{
	struct hive_move m;
	char err[256];

	if (f->fault == F_INVALID_ALL) {
		printf("invalidmove This fake engine refuses every move.\n");
		ok(f);
		return;
	}
	int rc = hive_move_parse(&f->game.board, arg, &m, err, sizeof err);
	if (rc == HIVE_ERR_ILLEGAL)
		printf("invalidmove %s\n", err);
	else if (rc != HIVE_OK)
		printf("err %s\n", err);
	else if (hive_game_play(&f->game, m) != HIVE_OK)
		printf("err Cannot play.\n");
	else
		print_game(f);
	ok(f);
}

static void cmd_newgame(struct fake *f, const char *arg)
{
	char err[256];
	struct hive_game g;

	hive_game_init(&g, 0);
	if (*arg && hive_game_parse(&g, arg, err, sizeof err) != HIVE_OK) {
		printf("err %s\n", err);
	} else if (f->fault == F_INVALID_ALL && g.len > 0) {
		printf("invalidmove This fake engine refuses every move.\n");
	} else {
		hive_game_free(&f->game);
		f->game = g;
		print_game(f);
		ok(f);
		return;
	}
	hive_game_free(&g);
	ok(f);
}

static void print_option(const struct fake *f, const char *name)
{
	if (!strcmp(name, "MaxDepth"))
		printf("MaxDepth;int;%d;2;1;10\n", f->max_depth);
	else
		printf("Ponder;bool;%s;False\n", f->ponder ? "True" : "False");
}

static void cmd_options(struct fake *f, char *arg)
{
	char *verb = strtok(arg, " "), *name = strtok(NULL, " "), *value = strtok(NULL, " ");

	if (!verb) {
		print_option(f, "MaxDepth");
		print_option(f, "Ponder");
	} else if (!name || (strcmp(name, "MaxDepth") && strcmp(name, "Ponder"))) {
		printf("err Unknown option.\n");
	} else if (!strcmp(verb, "get")) {
		print_option(f, name);
	} else if (!strcmp(verb, "set") && value) {
		if (!strcmp(name, "MaxDepth") && atoi(value) >= 1 && atoi(value) <= 10) {
			f->max_depth = atoi(value);
			print_option(f, name);
		} else if (!strcmp(name, "Ponder") && (!strcmp(value, "True") || !strcmp(value, "False"))) {
			f->ponder = value[0] == 'T';
			print_option(f, name);
		} else {
			printf("err Invalid option value.\n");
		}
	} else {
		printf("err Invalid options command.\n");
	}
	ok(f);
}

static void cmd_validmoves(const struct fake *f)
{
	static struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(&f->game.board, moves);
	char buf[HIVE_MOVESTR_MAX];
	for (size_t i = 0; i < n; i++) {
		hive_move_format(&f->game.board, moves[i], buf, sizeof buf);
		printf("%s%s", i ? ";" : "", buf);
	}
	printf("\n");
	ok(f);
}

static void info(const struct fake *f, int at_start)
{
	printf("id FakeUhpEngine 1.0\nMosquito;Ladybug;Pillbug\n");
	if (at_start)
		fputs("ok\n", stdout);    /* no-ok starts fine, then never says ok */
	ok(f);
}

int main(int argc, char **argv)
{
	struct fake f = { .fault = F_NONE, .delay_ms = 0, .max_depth = 2 };
	int have_delay = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fault") && i + 1 < argc) {
			size_t k;
			for (k = 0; k < sizeof fault_names / sizeof fault_names[0]; k++)
				if (!strcmp(argv[i + 1], fault_names[k].name))
					break;
			if (k == sizeof fault_names / sizeof fault_names[0]) {
				fprintf(stderr, "fake_uhp_engine: unknown fault %s\n", argv[i + 1]);
				return 2;
			}
			f.fault = fault_names[k].fault;
			i++;
		} else if (!strcmp(argv[i], "--use-time")) {
			f.use_time = 1;
		} else if (!strcmp(argv[i], "--sloppy")) {
			f.sloppy = 1;
		} else if (!strcmp(argv[i], "--stop-ms") && i + 1 < argc) {
			stop_ms = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc) {
			f.delay_ms = atol(argv[++i]);
			have_delay = 1;
		} else {
			fprintf(stderr, "usage: fake_uhp_engine [--fault NAME] [--delay-ms N] [--stop-ms N] [--use-time] "
				"[--sloppy]\n");
			return 2;
		}
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = f.fault == F_IGNORE_SIGINT ? SIG_IGN :
		f.fault == F_OVERRUN || f.fault == F_DIE_ON_SIGINT ? SIG_DFL : on_sigint;
	sigaction(SIGINT, &sa, NULL);

	hive_game_init(&f.game, 0);
	fprintf(stderr, "fake_uhp_engine: pid %ld, fault %d\n", (long)getpid(), (int)f.fault);
	if (f.fault == F_EXIT_AT_START)
		return 3;
	if (f.fault == F_SLOW_START) {
		think(have_delay ? f.delay_ms : 60000);
		interrupted = 0;
	}
	info(&f, f.fault == F_NO_OK);

	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	for (;;) {
		errno = 0;
		n = getline(&line, &cap, stdin);
		if (n < 0) {
			if (errno == EINTR) {
				clearerr(stdin);
				interrupted = 0;     /* SIGINT between commands: nothing to stop */
				continue;
			}
			break;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		char *arg = strchr(line, ' ');
		if (arg)
			*arg++ = 0;
		else
			arg = line + n;
		interrupted = 0;
		if (!strcmp(line, "info"))
			info(&f, 0);
		else if (!strcmp(line, "newgame"))
			cmd_newgame(&f, arg);
		else if (!strcmp(line, "play"))
			cmd_play(&f, arg);
		else if (!strcmp(line, "pass"))
			cmd_play(&f, "pass");
		else if (!strcmp(line, "validmoves"))
			cmd_validmoves(&f);
		else if (!strcmp(line, "bestmove"))
			cmd_bestmove(&f, arg, have_delay);
		else if (!strcmp(line, "undo")) {
			long k = *arg ? atol(arg) : 1;
			if (k < 1 || hive_game_undo(&f.game, (size_t)k) != HIVE_OK)
				printf("err Unable to undo that many moves.\n");
			else
				print_game(&f);
			ok(&f);
		} else if (!strcmp(line, "options"))
			cmd_options(&f, arg);
		else if (!strcmp(line, "exit"))
			break;
		else if (*line) {
			printf("err Invalid command. Try 'help' to see a list of valid commands.\n");
			ok(&f);
		}
	}
	free(line);
	hive_game_free(&f.game);
	return 0;
}
