/*
 * fake_hub_engine: a small Hub engine (docs/hub-hive.md) on stdin/stdout for tests,
 * playing by the core's rules (a legal move chosen from the position's hash), with
 * faults to switch on:
 *
 *   --fault never-ready    answers hub ... wait, but never ready after init
 *   --fault never-done     go never answers done, and stop does not help (ping does)
 *   --fault illegal-move   done names a well-formed move the rules forbid
 *   --fault garbage        go answers a line that does not parse (unbalanced quote)
 *   --fault crash          abort() on go
 *   --fault long-line      go answers a 200 KiB line
 *   --fault refuse-pos     every pos is answered with error (and no position)
 *   --delay-ms N           a search takes N ms (stop ends it early); default 0
 *   --sloppy               done writes its move in lower case with extra spaces
 *
 * It reads with poll() and read(), so that ping, stop and quit get through while it
 * "searches". Its own checks are strict: a go without a position or on a finished
 * game is an error, as the Hub mapping demands.
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapters/hub/hub_codec.h"
#include "core/game.h"
#include "tests/tools/fake_moves.h"

enum fault {
	F_NONE, F_NEVER_READY, F_NEVER_DONE, F_ILLEGAL, F_GARBAGE, F_CRASH, F_LONG_LINE,
	F_REFUSE_POS
};

static const struct {
	const char *name;
	enum fault  fault;
} fault_names[] = {
	{ "never-ready", F_NEVER_READY }, { "never-done", F_NEVER_DONE },
	{ "illegal-move", F_ILLEGAL }, { "garbage", F_GARBAGE }, { "crash", F_CRASH },
	{ "long-line", F_LONG_LINE }, { "refuse-pos", F_REFUSE_POS },
};

struct fake {
	enum fault       fault;
	long             delay_ms;
	int              sloppy;
	struct hive_game game;
	int              have_pos;
	int              infinite;     /* level infinite */
	long             move_time_ms; /* level move-time, or 0 */
	int              hash;         /* declared parameters, to have something to set */
	int              style;        /* 0 calm, 1 wild */
	int              inited;
	/* Input. */
	char             buf[1 << 20];
	size_t           len;
	int              eof;
};

static void say(const char *line)
{
	fputs(line, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

static void say_error(const char *msg)
{
	char line[1024];
	if (hub_error_write(line, sizeof line, msg) >= 0)
		say(line);
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Next input line (NUL-terminated, without newline) within timeout_ms (-1: no
 * limit). Returns 1 with a line, 0 on time-out, -1 at EOF. */
static int read_line(struct fake *f, char **line, long timeout_ms)
{
	long until = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	static char out[1 << 20];

	for (;;) {
		char *nl = memchr(f->buf, '\n', f->len);
		if (nl || (f->eof && f->len)) {
			size_t n = nl ? (size_t)(nl - f->buf) : f->len;
			memcpy(out, f->buf, n);
			out[n] = 0;
			if (n && out[n - 1] == '\r')
				out[n - 1] = 0;
			size_t take = nl ? n + 1 : n;
			memmove(f->buf, f->buf + take, f->len - take);
			f->len -= take;
			*line = out;
			return 1;
		}
		if (f->eof)
			return -1;
		if (f->len == sizeof f->buf)
			f->len = 0;          /* an absurd line: forget it */
		long wait = until < 0 ? -1 : until - now_ms();
		if (until >= 0 && wait <= 0)
			return 0;
		struct pollfd p = { .fd = 0, .events = POLLIN };
		int rc = poll(&p, 1, (int)(wait > 1000000 ? 1000000 : wait));
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0)
			continue;
		ssize_t r = read(0, f->buf + f->len, sizeof f->buf - f->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			f->eof = 1;
		else
			f->len += (size_t)r;
	}
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

static void cmd_hub(void)
{
	say("id name=FakeHubEngine version=1.0 author=\"hivebridge tests\"");
	say("param name=variant value=Base+MLP type=enum values=\"Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP\"");
	say("param name=hash value=16 type=int min=1 max=4096");
	say("param name=style value=calm type=enum values=\"calm wild\"");
	say("param name=book value=true type=bool");
	say("wait");
}

static void cmd_set_param(struct fake *f, const struct hub_msg *m)
{
	const char *name = hub_msg_get(m, "name"), *value = hub_msg_get(m, "value");
	if (!name || !value) {
		say_error("set-param needs name and value");
	} else if (!strcmp(name, "hash")) {
		int v = atoi(value);
		if (v < 1 || v > 4096)
			say_error("hash out of range");
		else
			f->hash = v;
	} else if (!strcmp(name, "style")) {
		if (strcmp(value, "calm") && strcmp(value, "wild"))
			say_error("style is calm or wild");
		else
			f->style = value[0] == 'w';
	} else if (!strcmp(name, "book") || !strcmp(name, "variant")) {
		/* accepted, unused */
	} else {
		say_error("unknown parameter");
	}
}

static void cmd_pos(struct fake *f, const struct hub_msg *m)
{
	const char *pos = hub_msg_get(m, "pos"), *moves = hub_msg_get(m, "moves");
	const char *cur, *item;
	char err[256], mv[64];
	size_t len;
	struct hive_game g;

	if (f->have_pos)
		hive_game_free(&f->game);
	f->have_pos = 0;
	if (f->fault == F_REFUSE_POS) {
		say_error("this fake engine refuses every position");
		return;
	}
	hive_game_init(&g, 7);
	if (pos && hive_game_parse(&g, pos, err, sizeof err) != HIVE_OK) {
		say_error(err);
		hive_game_free(&g);
		return;
	}
	for (cur = moves; cur && hub_list_next(&cur, &item, &len);) {
		struct hive_move mo;
		snprintf(mv, sizeof mv, "%.*s", (int)(len < 63 ? len : 63), item);
		if (hive_move_parse(&g.board, mv, &mo, err, sizeof err) != HIVE_OK ||
		    hive_game_play(&g, mo) != HIVE_OK) {
			say_error(err);
			hive_game_free(&g);
			return;
		}
	}
	f->game = g;
	f->have_pos = 1;
}

static void cmd_level(struct fake *f, const struct hub_msg *m)
{
	struct hub_level lv;
	char err[256];

	if (hub_level_parse(m, &lv, err, sizeof err) < 0) {
		say_error(err);
		return;
	}
	f->infinite = lv.infinite;
	f->move_time_ms = lv.has_move_time ? (long)lv.move_time_ms : 0;
}

/* The search: thinks, reporting info, until its time is up or stop comes; then
 * done. Returns -1 on quit or EOF. */
static int cmd_go(struct fake *f)
{
	struct hive_move mo;
	char mv[2 * HIVE_MOVESTR_MAX + 8], line[512], *in;
	long think = f->infinite ? -1 : f->delay_ms;
	long until = now_ms() + think;
	int stopped = 0;

	if (!f->have_pos) {
		say_error("no position");
		return 0;
	}
	if (hive_game_over(&f->game.board) || pick_move(f, &mo) < 0) {
		say_error("the game is over");
		return 0;
	}
	switch (f->fault) {
	case F_CRASH:
		abort();
	case F_GARBAGE:
		say("info pv=\"wQ \x01 unclosed");
		return 0;
	case F_LONG_LINE:
		for (int i = 0; i < 200 * 1024; i++)
			putchar('a' + i % 26);
		say("");
		return 0;
	default:
		break;
	}
	hive_move_format(&f->game.board, mo, mv, sizeof mv);
	snprintf(line, sizeof line, "info depth=1 score=0.%02d nodes=%d time=0 pv=\"%s\"",
		 f->game.board.ply % 100, 1 + f->game.board.ply, mv);
	say(line);
	/* Think: ping, stop, ponder-hit and quit get through. */
	for (;;) {
		long left = think < 0 ? -1 : until - now_ms();
		if (think >= 0 && left <= 0 && f->fault != F_NEVER_DONE)
			break;
		int rc = read_line(f, &in, f->fault == F_NEVER_DONE ? -1 : left);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		struct hub_msg m;
		char err[256];
		if (hub_line_parse(in, strlen(in), &m, err, sizeof err) < 0) {
			say_error(err);
		} else if (!strcmp(m.cmd, "ping")) {
			say("pong");
		} else if (!strcmp(m.cmd, "quit")) {
			hub_msg_free(&m);
			return -1;
		} else if (!strcmp(m.cmd, "stop")) {
			stopped = f->fault != F_NEVER_DONE;
		} else if (!strcmp(m.cmd, "ponder-hit")) {
			/* the clock starts: a short think from here */
			until = now_ms() + f->delay_ms;
			think = f->delay_ms;
		} else if (*m.cmd) {
			say_error("not allowed during a search");
		}
		hub_msg_free(&m);
		if (stopped)
			break;
	}
	if (f->fault == F_ILLEGAL && fake_illegal_move(&f->game.board, 0, mv, sizeof mv) == 0) {
		/* mv now holds a forbidden move */
	} else if (f->sloppy) {
		/* "wA1 \wQ" -> "wa1  \wq": any case and extra spaces, as UHP allows */
		char loose[2 * HIVE_MOVESTR_MAX];
		size_t n = 0;
		for (const char *c = mv; *c; c++) {
			if (*c == ' ')
				loose[n++] = ' ';
			loose[n++] = (char)tolower((unsigned char)*c);
		}
		loose[n] = 0;
		snprintf(mv, sizeof mv, "%s", loose);
	}
	struct span_writer w;
	hub_writer_begin(&w, line, sizeof line, "done");
	hub_writer_add(&w, "move", mv);
	if (hub_writer_end(&w) >= 0)
		say(line);
	return 0;
}

int main(int argc, char **argv)
{
	static struct fake f;
	char *line;

	f.hash = 16;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fault") && i + 1 < argc) {
			size_t k;
			for (k = 0; k < sizeof fault_names / sizeof fault_names[0]; k++)
				if (!strcmp(argv[i + 1], fault_names[k].name))
					break;
			if (k == sizeof fault_names / sizeof fault_names[0]) {
				fprintf(stderr, "fake_hub_engine: unknown fault %s\n", argv[i + 1]);
				return 2;
			}
			f.fault = fault_names[k].fault;
			i++;
		} else if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc) {
			f.delay_ms = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--sloppy")) {
			f.sloppy = 1;
		} else {
			fprintf(stderr, "usage: fake_hub_engine [--fault NAME] [--delay-ms N] [--sloppy]\n");
			return 2;
		}
	}
	fprintf(stderr, "fake_hub_engine: pid %ld, fault %d\n", (long)getpid(), (int)f.fault);

	while (read_line(&f, &line, -1) > 0) {
		struct hub_msg m;
		char err[256];
		if (hub_line_parse(line, strlen(line), &m, err, sizeof err) < 0) {
			say_error(err);
			hub_msg_free(&m);
			continue;
		}
		int quit = 0;
		if (!strcmp(m.cmd, "hub"))
			cmd_hub();
		else if (!strcmp(m.cmd, "set-param"))
			cmd_set_param(&f, &m);
		else if (!strcmp(m.cmd, "init")) {
			if (f.fault != F_NEVER_READY)
				say("ready");
		} else if (!strcmp(m.cmd, "pos"))
			cmd_pos(&f, &m);
		else if (!strcmp(m.cmd, "level"))
			cmd_level(&f, &m);
		else if (!strcmp(m.cmd, "go"))
			quit = cmd_go(&f) < 0;
		else if (!strcmp(m.cmd, "ping"))
			say("pong");
		else if (!strcmp(m.cmd, "quit"))
			quit = 1;
		/* new-game, stop, ponder-hit outside a search, unknown: nothing to say */
		hub_msg_free(&m);
		if (quit)
			break;
	}
	if (f.have_pos)
		hive_game_free(&f.game);
	return 0;
}
