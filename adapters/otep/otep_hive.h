/*
 * otep_hive.h: OTEP messages to and from the core's types (core/game.h): the game a
 * host line describes, the engine's move checked on the board with the OTEP error
 * code it earns, and the host's lines made from a game. Pure: no I/O, no globals.
 */
#ifndef OTEP_HIVE_H
#define OTEP_HIVE_H

#include <stddef.h>

#include "adapters/otep/otep_codec.h"
#include "core/game.h"

/* The side to move on b. */
enum otep_side otep_side_to_move(const struct hive_board *b);
/* The finish code of b's state: draw, White wins, Black wins; ABORTED while the game
 * is not over. */
enum otep_finish otep_finish_of(const struct hive_board *b);

/* Loads into g (inited) the game that a host's rules (the empty board), position,
 * move or opponent-move describes. For opponent-move the listed moves must be the
 * last moves of the record, in order. Returns 0, or -1 with the reason in err; g is
 * unchanged on failure. */
int otep_game_from_msg(const struct otep_msg *m, struct hive_game *g, char *err, size_t errlen);

/* Reads the engine's MoveString on b. Returns 0 with the legal move in *m, or the
 * error code the host answers with: OTEP_ERR_WRONG_SIDE (a piece of the colour not
 * to move) or OTEP_ERR_ILLEGAL (anything else the rules or the notation refuse, the
 * reason in err, Mzinga's wording). A piece of the other colour that a Pillbug
 * may throw is no wrong side. */
int otep_move_read(const struct hive_board *b, const char *movestring, struct hive_move *m,
		   char *err, size_t errlen);
/* The code for a MoveString the core refused on b: OTEP_ERR_WRONG_SIDE (err then
 * says so) or OTEP_ERR_ILLEGAL (err untouched). No legality check of its own. */
int otep_move_fault(const struct hive_board *b, const char *movestring, char *err, size_t errlen);

/* The host's lines made from g: rules (its game type), position, move (the engine's
 * move was the last of g), opponent-move (the last move of g, or "-" when g has no
 * move, then g). Return the length or -1 (no room: a GameString grows with the game). */
int otep_format_game_rules(char *buf, size_t len, const struct hive_game *g);
int otep_format_game_position(char *buf, size_t len, const struct hive_game *g);
int otep_format_game_move_result(char *buf, size_t len, const struct hive_game *g);
int otep_format_game_opponent_move(char *buf, size_t len, const struct hive_game *g);

#endif
