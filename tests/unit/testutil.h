/*
 * testutil.h: helpers shared by the rules and notation tests: reference data files,
 * a fixed-seed PRNG, and moves compared as sets of (piece, destination cell, resulting
 * height) rather than as text.
 *
 * Header-only (static inline) so that each test program stays one file.
 */
#ifndef HIVE_TESTUTIL_H
#define HIVE_TESTUTIL_H

#include <CUnit/Basic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/board.h"
#include "core/game.h"

/* Reference data: $HIVE_DATA, else ../shared/data relative to the repo root. */
static inline const char *tu_data_dir(void)
{
	const char *d = getenv("HIVE_DATA");
	return d && *d ? d : "../shared/data";
}

/* Opens a data file; the caller closes it. NULL (and a message) if missing. */
static inline FILE *tu_open_data(const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", tu_data_dir(), name);
	FILE *f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "cannot open %s\n", path);
	return f;
}

/* Next line of f without its end-of-line and without a UTF-8 BOM; NULL at the end.
 * The line lives in buf. A line longer than the buffer fails the test. */
static inline char *tu_read_line(FILE *f, char *buf, size_t size)
{
	if (!fgets(buf, (int)size, f))
		return NULL;
	size_t n = strlen(buf);
	CU_ASSERT_FATAL(n + 1 < size || buf[n - 1] == '\n');
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	if (!strncmp(buf, "\xEF\xBB\xBF", 3))
		memmove(buf, buf + 3, n - 2);
	return buf;
}

/* splitmix64: a fixed-seed generator so that every run plays the same games. */
struct tu_rng {
	uint64_t s;
};

static inline uint64_t tu_rng_next(struct tu_rng *r)
{
	uint64_t x = (r->s += 0x9e3779b97f4a7c15ULL);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline size_t tu_rng_below(struct tu_rng *r, size_t n)
{
	return (size_t)(tu_rng_next(r) % n);
}

/* A move as (piece, destination cell, height it lands at); a pass has its own key. */
#define TU_PASS_KEY ((uint32_t)HIVE_PASS_PIECE << 24)

static inline uint32_t tu_key(uint8_t piece, uint16_t cell, unsigned height)
{
	return (uint32_t)piece << 24 | (uint32_t)cell << 8 | (height & 0xFF);
}

/* Key of a generated move on b (before it is played). */
static inline uint32_t tu_move_key(const struct hive_board *b, struct hive_move m)
{
	if (m.piece == HIVE_PASS_PIECE)
		return TU_PASS_KEY;
	return tu_key(m.piece, m.to, b->height[m.to]);
}

/*
 * Resolves a MoveString to a key by the notation alone, without asking whether the
 * move is legal: written independently of hive_move_parse so that the two check each
 * other. Returns 0, or -1 if the text names no position on this board.
 */
static inline int tu_resolve(const struct hive_board *b, const char *text, uint32_t *key)
{
	char a[32], r[32];
	int n = sscanf(text, " %31s %31s", a, r);
	if (n == 1 && !strcmp(a, "pass")) {
		*key = TU_PASS_KEY;
		return 0;
	}
	if (n < 1)
		return -1;
	int piece = hive_piece_parse(a, strlen(a));
	if (piece < 0)
		return -1;
	if (n == 1) {
		*key = tu_key((uint8_t)piece, HIVE_ORIGIN, 0);
		return 0;
	}
	size_t len = strlen(r);
	const char *name = r;
	int dir = -1;
	switch (r[0]) {
	case '-':  dir = HIVE_W;  break;
	case '/':  dir = HIVE_SW; break;
	case '\\': dir = HIVE_NW; break;
	}
	if (dir >= 0) {
		name++;
		len--;
	} else {
		switch (r[len - 1]) {
		case '-':  dir = HIVE_E;  len--; break;
		case '/':  dir = HIVE_NE; len--; break;
		case '\\': dir = HIVE_SE; len--; break;
		}
	}
	int ref = hive_piece_parse(name, len);
	if (ref < 0 || b->pos[ref] == HIVE_NOWHERE)
		return -1;
	if (dir < 0)
		*key = tu_key((uint8_t)piece, b->pos[ref], b->level[ref] + 1u);
	else
		*key = tu_key((uint8_t)piece, hive_cell_step(b->pos[ref], dir), 0);
	return 0;
}

/* A set of moves with a text for each, for messages. */
struct tu_moveset {
	size_t n;
	uint32_t key[HIVE_MAX_MOVES];
	char text[HIVE_MAX_MOVES][32];
};

/* Every legal move of b. Returns the number of duplicated moves (should be 0). */
static inline size_t tu_generated(const struct hive_board *b, struct tu_moveset *set)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	size_t dups = 0;
	set->n = hive_board_moves(b, moves);
	for (size_t i = 0; i < set->n; i++) {
		set->key[i] = tu_move_key(b, moves[i]);
		hive_move_format(b, moves[i], set->text[i], sizeof set->text[i]);
		for (size_t j = 0; j < i; j++)
			if (set->key[j] == set->key[i])
				dups++;
	}
	return dups;
}

/* The moves of a ';'-separated list, resolved on b; duplicates collapse. Returns
 * the number of entries that name no position (0 when all resolve). */
static inline size_t tu_expected(const struct hive_board *b, const char *list, struct tu_moveset *set)
{
	size_t bad = 0;
	set->n = 0;
	while (*list) {
		const char *end = strchr(list, ';');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char text[64];
		uint32_t key;
		if (len > 0 && len < sizeof text) {
			memcpy(text, list, len);
			text[len] = '\0';
			if (tu_resolve(b, text, &key) != 0) {
				fprintf(stderr, "  expected move \"%s\" names no position\n", text);
				bad++;
			} else {
				size_t i;
				for (i = 0; i < set->n && set->key[i] != key; i++)
					;
				if (i == set->n && set->n < HIVE_MAX_MOVES) {
					set->key[set->n] = key;
					snprintf(set->text[set->n], sizeof set->text[set->n], "%.31s", text);
					set->n++;
				}
			}
		}
		list += len;
		if (*list == ';')
			list++;
	}
	return bad;
}

static inline int tu_in(const struct tu_moveset *s, uint32_t key)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->key[i] == key)
			return 1;
	return 0;
}

/*
 * Compares the expected moves with the generated ones: all of them (exact) or only
 * that each expected move is generated (subset). Prints the moves only one side has,
 * under the label, and returns how many there are.
 */
static inline size_t tu_compare(const char *label, const struct tu_moveset *want,
				const struct tu_moveset *got, int exact)
{
	size_t diff = 0;
	for (size_t i = 0; i < want->n; i++)
		if (!tu_in(got, want->key[i])) {
			if (!diff++)
				fprintf(stderr, "move set mismatch in %s\n", label);
			fprintf(stderr, "  missing (expected, not generated): %s\n", want->text[i]);
		}
	if (exact)
		for (size_t i = 0; i < got->n; i++)
			if (!tu_in(want, got->key[i])) {
				if (!diff++)
					fprintf(stderr, "move set mismatch in %s\n", label);
				fprintf(stderr, "  extra (generated, not expected): %s\n", got->text[i]);
			}
	return diff;
}

/* Loads a GameString into g (inited); fails the test with the reason if it does not load. */
static inline int tu_load(struct hive_game *g, const char *gs)
{
	char err[256];
	int rc = hive_game_parse(g, gs, err, sizeof err);
	if (rc != HIVE_OK)
		fprintf(stderr, "cannot load %s\n  %s\n", gs, err);
	CU_ASSERT_EQUAL(rc, HIVE_OK);
	return rc;
}

/*
 * Loads a GameString whose State and Turn fields may be wrong, as in some of
 * Mzinga's data (Mzinga ignores those fields). The strict parser must reject such a
 * string for exactly that reason; the moves are then replayed one by one.
 * *lied is set when the header was wrong.
 */
static inline int tu_load_relaxed(struct hive_game *g, const char *gs, int *lied)
{
	char err[256], type[32], move[64];
	*lied = 0;
	int rc = hive_game_parse(g, gs, err, sizeof err);
	if (rc == HIVE_OK)
		return rc;
	if (strncmp(err, "GameString says ", 16) != 0)
		return tu_load(g, gs);
	*lied = 1;
	const char *p = strchr(gs, ';');
	size_t len = p ? (size_t)(p - gs) : strlen(gs);
	CU_ASSERT_FATAL(len < sizeof type);
	memcpy(type, gs, len);
	type[len] = '\0';
	unsigned t;
	CU_ASSERT_EQUAL_FATAL(hive_gametype_parse(type, &t), 0);
	hive_game_free(g);
	hive_game_init(g, t);
	/* Skip the State and Turn fields, then play each move. */
	for (int skip = 0; p && skip < 2; skip++)
		p = strchr(p + 1, ';');
	while (p) {
		const char *end = strchr(p + 1, ';');
		len = end ? (size_t)(end - p - 1) : strlen(p + 1);
		CU_ASSERT_FATAL(len < sizeof move);
		memcpy(move, p + 1, len);
		move[len] = '\0';
		struct hive_move m;
		rc = hive_move_parse(&g->board, move, &m, err, sizeof err);
		if (rc == HIVE_OK)
			rc = hive_game_play(g, m);
		if (rc != HIVE_OK) {
			fprintf(stderr, "cannot replay \"%s\" in %s: %s\n", move, gs, err);
			CU_FAIL("replay failed");
			return rc;
		}
		p = end;
	}
	return HIVE_OK;
}

#endif
