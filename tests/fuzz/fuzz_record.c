/*
 * fuzz_record.c: libFuzzer target for the game record reader (core/record.c), which
 * `convert`, `perft --game`, `check --positions-from` and `match --openings` feed with
 * files from anywhere. The input is the file. Whatever reads is written back as PGN in
 * both dialects and as BoardSpace SGF and must read again to the same games (moves and
 * result); a refusal must say why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_record: %s\n", what);
		abort();
	}
}

/* round_trip's format beside the two PGN dialects. */
#define SGF (-1)

/* r written as PGN in a dialect, or as BoardSpace SGF (unless the game leaves its
 * board), reads back to the same moves and result. */
static void round_trip(const struct hive_record *r, int how)
{
	size_t need = how == SGF ? hive_record_write_sgf(r, NULL, 0) :
		      hive_record_write_pgn(r, (enum hive_pgn_dialect)how, NULL, 0), n;
	if (how == SGF && !need)
		return;
	char *text = malloc(need + 1), err[512] = "";
	struct hive_record *back;
	check(text != NULL, "no memory");
	check((how == SGF ? hive_record_write_sgf(r, text, need + 1) :
	       hive_record_write_pgn(r, (enum hive_pgn_dialect)how, text, need + 1)) == need, "length");
	check(hive_records_read(text, need, &back, &n, err, sizeof err) == 0, "written record does not read back");
	check(n == 1, "written record is not one game");
	check(hive_game_is_prefix(&r->game, &back[0].game) && back[0].game.len == r->game.len, "moves round trip");
	check(back[0].result == r->result, "result round trip");
	hive_records_free(back, n);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hive_record *v;
	size_t n;
	char err[512] = "";

	if (hive_records_read((const char *)data, size, &v, &n, err, sizeof err) != 0) {
		check(err[0] != '\0', "refused without a reason");
		return 0;
	}
	check(n > 0, "read no game without a reason");
	for (size_t i = 0; i < n; i++) {
		round_trip(&v[i], HIVE_PGN_MZINGA);
		round_trip(&v[i], HIVE_PGN_HIVEGAME);
		round_trip(&v[i], SGF);
	}
	hive_records_free(v, n);
	return 0;
}
