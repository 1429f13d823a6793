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

static void round_trip(const struct hive_record *r, enum hive_pgn_dialect dialect)
{
	size_t need = hive_record_write_pgn(r, dialect, NULL, 0), n;
	char *pgn = malloc(need + 1), err[512] = "";
	struct hive_record *back;
	check(pgn != NULL, "no memory");
	check(hive_record_write_pgn(r, dialect, pgn, need + 1) == need, "PGN length");
	check(hive_records_read(pgn, need, &back, &n, err, sizeof err) == 0, "written PGN does not read back");
	check(n == 1, "written PGN is not one game");
	check(hive_game_is_prefix(&r->game, &back[0].game) && back[0].game.len == r->game.len, "PGN moves round trip");
	check(back[0].result == r->result, "PGN result round trip");
	hive_records_free(back, n);
	free(pgn);
}

/* The same as BoardSpace SGF, unless the game leaves its board. */
static void sgf_round_trip(const struct hive_record *r)
{
	size_t need = hive_record_write_sgf(r, NULL, 0), n;
	if (!need)
		return;
	char *sgf = malloc(need + 1), err[512] = "";
	struct hive_record *back;
	check(sgf != NULL, "no memory");
	check(hive_record_write_sgf(r, sgf, need + 1) == need, "SGF length");
	check(hive_records_read(sgf, need, &back, &n, err, sizeof err) == 0, "written SGF does not read back");
	check(n == 1, "written SGF is not one game");
	check(hive_game_is_prefix(&r->game, &back[0].game) && back[0].game.len == r->game.len, "SGF moves round trip");
	check(back[0].result == r->result, "SGF result round trip");
	hive_records_free(back, n);
	free(sgf);
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
		sgf_round_trip(&v[i]);
	}
	hive_records_free(v, n);
	return 0;
}
