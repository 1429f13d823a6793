/*
 * fuzz_uhp_codec.c: libFuzzer target for the UHP codec. The input is one line fed to
 * every parser. Whatever a parser returns must point inside the line, and whatever
 * parses must format to text that parses back to the same value (bestmove limits and
 * option lines).
 *
 *   clang -DFUZZING_ENGINE -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_uhp_codec.c adapters/uhp/uhp_codec.c
 *   gcc -I. tests/fuzz/fuzz_uhp_codec.c adapters/uhp/uhp_codec.c   # replays files, or built-in seeds
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/uhp/uhp_codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_uhp_codec: %s\n", what);
		abort();
	}
}

/* Whether [p, p + n) lies inside [base, base + size). */
static int inside(const char *p, size_t n, const char *base, size_t size)
{
	return p >= base && p <= base + size && n <= (size_t)(base + size - p);
}

static void fuzz_command(const char *s, size_t n)
{
	struct uhp_command c;
	uhp_command_parse(s, n, &c);
	check((unsigned)c.cmd < UHP_CMD_COUNT, "command out of range");
	check(inside(c.arg, c.arg_len, s, n), "command argument outside the line");
	if (c.cmd == UHP_CMD_BLANK)
		check(c.arg_len == 0, "blank line with an argument");

	struct uhp_bestmove b, back;
	char buf[64];
	if (uhp_bestmove_parse(s, n, &b) == 0) {
		if (b.kind == UHP_BEST_TIME)
			check(b.time_ms <= UHP_MAX_TIME_MS && b.time_ms % 1000 == 0, "bad time");
		else
			check(b.depth >= 0 && b.depth <= UHP_MAX_DEPTH, "bad depth");
		size_t len = uhp_bestmove_format(&b, buf, sizeof buf);
		check(len < sizeof buf, "bestmove format too long");
		check(uhp_bestmove_parse(buf, len, &back) == 0, "formatted bestmove does not parse");
		check(back.kind == b.kind && back.time_ms == b.time_ms && back.depth == b.depth,
		      "bestmove round trip differs");
	}

	uint64_t u;
	int d;
	if (uhp_undo_parse(s, n, &u) == 0) {
		uint64_t u2;
		int len = snprintf(buf, sizeof buf, "%llu", (unsigned long long)u);
		check(uhp_undo_parse(buf, (size_t)len, &u2) == 0 && u2 == u, "undo round trip differs");
	}
	if (uhp_perft_parse(s, n, 12, &d) == 0)
		check(d >= 0 && d <= 12, "perft depth out of range");

	struct uhp_options_req o;
	if (uhp_options_parse(s, n, &o) == 0 && o.kind != UHP_OPTIONS_LIST) {
		check(o.name_len > 0 && inside(o.name, o.name_len, s, n), "option name outside");
		check(!memchr(o.name, ';', o.name_len), "option name with ;");
		if (o.kind == UHP_OPTIONS_SET)
			check(o.value_len > 0 && inside(o.value, o.value_len, s, n), "option value outside");
	}
}

static void fuzz_reply(const char *s, size_t n)
{
	const char *rest;
	size_t rest_len;
	enum uhp_reply k = uhp_reply_parse(s, n, &rest, &rest_len);
	check(k <= UHP_REPLY_LINE, "reply kind out of range");
	check(inside(rest, rest_len, s, n), "reply rest outside the line");

	unsigned exp;
	if (uhp_caps_parse(s, n, &exp) == 0)
		check(exp <= 7, "capability bits out of range");
}

static void fuzz_option(const char *s, size_t n)
{
	static struct uhp_option o, back;
	static char buf[8192], again[8192];
	char err[128];

	memset(&o, 0, sizeof o);
	if (uhp_option_parse(s, n, &o, err, sizeof err) != 0) {
		check(memchr(err, 0, sizeof err) != NULL && err[0], "failure without a reason");
		return;
	}
	size_t len = uhp_option_format(&o, buf, sizeof buf);
	check(len < sizeof buf, "option line too long");
	check(uhp_option_parse(buf, len, &back, err, sizeof err) == 0, "formatted option does not parse");
	check(memcmp(&o, &back, sizeof o) == 0, "option round trip differs");
	size_t len2 = uhp_option_format(&back, again, sizeof again);
	check(len2 == len && memcmp(buf, again, len) == 0, "option format not stable");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy of exactly size bytes: ASan catches any read past the end. */
	char *s = malloc(size ? size : 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	fuzz_command(s, size);
	fuzz_reply(s, size);
	fuzz_option(s, size);
	free(s);
	return 0;
}

#ifndef FUZZING_ENGINE
static const char *const seeds[] = {
	"info", "newgame Base+MLP", "play bS1 wS1-", "  PLAY wS1\r", "?", "bestmove time 00:00:05",
	"time 01:02:03", "depth 12", "depth 99999999999999999999", "time 99:59:59", "3", "",
	"set HashMB 32", "get ReportIntermediateBestMoves", "ok", "err Invalid command.",
	"invalidmove You can't move that piece there.", "id MzingaEngine v0.16.0",
	"Mosquito;Ladybug;Pillbug", "MaxHelperThreads;enum;Auto;Auto;Auto;None;1;2;3;4;5",
	"TranspositionTableSizeMB;int;32;32;1;1024", "ReportIntermediateBestMoves;bool;False;False",
	"Aggression;double;0.5;1.25;-3;3.5e2", "N;double;1e308;-1e308", "N;int;-0;+0",
};

/* Replays each file named on the command line, or the seeds when there is none. */
int main(int argc, char **argv)
{
	if (argc < 2) {
		for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
			LLVMFuzzerTestOneInput((const uint8_t *)seeds[i], strlen(seeds[i]));
		printf("fuzz_uhp_codec: %zu seeds ok\n", sizeof seeds / sizeof seeds[0]);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		static uint8_t buf[1 << 20];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("fuzz_uhp_codec: %d files ok\n", argc - 1);
	return 0;
}
#endif
