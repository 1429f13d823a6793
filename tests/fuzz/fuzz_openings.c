/*
 * fuzz_openings.c: libFuzzer target for `hivebridge match --openings FILE`. The input
 * is the file: each line (split as getline does) goes through match_opening_parse,
 * for any type and for the type the first byte picks. An accepted opening is a
 * GameString that parses again, of the type asked for, whose game is not over; a
 * refused one says why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/match_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_openings: %s\n", what);
		abort();
	}
}

static void one_line(const char *p, size_t n, int type)
{
	char *line = malloc(n + 1), *opening, err[256] = "";
	if (!line)
		return;
	memcpy(line, p, n);
	line[n] = 0;
	int got = match_opening_parse(line, type, &opening, err, sizeof err);
	check(got >= -1 && got <= 1, "result out of range");
	if (got < 0)
		check(err[0] != 0, "a refusal without a reason");
	if (got > 0) {
		struct hive_game g;
		char err2[256];
		check(opening >= line && opening < line + n + 1, "opening outside the line");
		hive_game_init(&g, 0);
		check(hive_game_parse(&g, opening, err2, sizeof err2) == HIVE_OK, "an opening that does not parse again");
		check(type < 0 || g.type == (unsigned)type, "an opening of another type");
		check(!hive_game_over(&g.board), "an opening whose game is over");
		hive_game_free(&g);
	}
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	/* Also against a type: the first byte's, one of the eight. */
	int type = size ? data[0] % 8 : 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		one_line(p, n, -1);
		one_line(p, n, type);
		p += n;
	}
	return 0;
}
