/*
 * fuzz_notation.c: libFuzzer target for the core's notation parsers, which every
 * `newgame`, `play` and Hub `pos` goes through. The input is split at the first
 * newline: the first part is parsed as a GameTypeString and as a GameString; when
 * the GameString loads, the second part is parsed as a MoveString against it. What
 * parses must format back to text that parses to the same thing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_notation: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256];
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	char *nl = memchr(text, '\n', size);
	const char *move = "";
	if (nl) {
		*nl = 0;
		move = nl + 1;
	}

	unsigned type;
	if (hive_gametype_parse(text, &type) == 0)
		check(hive_gametype_parse(hive_gametype_name(type), &type) == 0, "game type round trip");

	struct hive_game g;
	hive_game_init(&g, 0);
	if (hive_game_parse(&g, text, err, sizeof err) == 0) {
		size_t need = hive_game_format(&g, NULL, 0);
		char *out = malloc(need + 1);
		check(out != NULL, "no memory");
		hive_game_format(&g, out, need + 1);
		struct hive_game back;
		hive_game_init(&back, 0);
		check(hive_game_parse(&back, out, err, sizeof err) == 0, "GameString does not parse back");
		check(back.len == g.len && back.type == g.type, "GameString round trip");
		hive_game_free(&back);
		free(out);

		struct hive_move m;
		if (hive_move_parse(&g.board, move, &m, err, sizeof err) == 0) {
			char mv[HIVE_MOVESTR_MAX];
			struct hive_move m2;
			hive_move_format(&g.board, m, mv, sizeof mv);
			check(hive_move_parse(&g.board, mv, &m2, err, sizeof err) == 0, "MoveString does not parse back");
			check(hive_game_play(&g, m) == 0, "a parsed move does not play");
		}
	}
	hive_game_free(&g);
	free(text);
	return 0;
}
