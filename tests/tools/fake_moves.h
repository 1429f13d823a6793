/*
 * fake_moves.h: what the fake engines share (header-only, so that each stays one
 * program built from one .c file).
 */
#ifndef TESTS_TOOLS_FAKE_MOVES_H
#define TESTS_TOOLS_FAKE_MOVES_H

#include <stdio.h>
#include "core/game.h"

/* Writes some well-formed MoveString the rules forbid on b ("wQ" on the first move,
 * an edge next to a piece where the mover cannot go, ...); with on_top, climbing
 * forms ("wQ bS1") are tried too. 0, or -1 when there is none. */
static inline int fake_illegal_move(const struct hive_board *b, int on_top, char *buf, size_t len)
{
	static const char *const fmts[] = { "%s %s-", "%s -%s", "%s %s/", "%s /%s", "%s %s\\", "%s \\%s", "%s %s" };
	size_t nfmts = sizeof fmts / sizeof fmts[0] - (on_top ? 0 : 1);
	int side = hive_side_to_move(b);
	struct hive_move m;
	char err[256];

	for (int slot = 0; slot < 14; slot++) {
		const char *mine = hive_piece_name(HIVE_PIECE(side, slot));
		if (b->in_play == 0) {
			snprintf(buf, len, "%s", mine);
			if (hive_move_parse(b, buf, &m, err, sizeof err) == HIVE_ERR_ILLEGAL)
				return 0;
			continue;
		}
		for (int p = 0; p < HIVE_PIECES; p++) {
			if (!(b->in_play & (1u << p)))
				continue;
			for (size_t k = 0; k < nfmts; k++) {
				snprintf(buf, len, fmts[k], mine, hive_piece_name(p));
				if (hive_move_parse(b, buf, &m, err, sizeof err) == HIVE_ERR_ILLEGAL)
					return 0;
			}
		}
	}
	return -1;
}

#endif
