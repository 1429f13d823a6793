/*
 * trylobot_coords.h: Trylobot "row,col" positions <-> core cells, and Trylobot turns
 * <-> core moves, on a game replayed with the core.
 *
 * Trylobot positions are absolute and unbounded; core cells wrap on a 32x32 ring. So
 * a replay keeps every piece's absolute position, and a core cell is turned into a
 * position through a neighbour whose position is known (the origin "0,0" is
 * HIVE_ORIGIN). Mapping (notes 3.2, Trylobot offset -> core direction):
 *   (-2,0) NE   (-1,+1) E   (+1,+1) SE   (+2,0) SW   (+1,-1) W   (-1,-1) NW
 * i.e. q = (col - row) / 2, r = (col + row) / 2.
 */
#ifndef TRYLOBOT_COORDS_H
#define TRYLOBOT_COORDS_H

#include "core/game.h"
#include "trylobot_codec.h"

/* The neighbour of p in core direction dir (enum hive_dir). */
struct tb_pos tb_pos_step(struct tb_pos p, int dir);
/* Core direction from a to b if they are neighbours, else -1. */
int           tb_pos_dir(struct tb_pos a, struct tb_pos b);
/* The core cell of an absolute position ("0,0" is HIVE_ORIGIN). */
uint16_t      tb_pos_cell(struct tb_pos p);

/* A game replayed with the core, with every piece's absolute position. */
struct tb_replay {
	struct hive_game game;               /* owned */
	struct tb_pos    pos[HIVE_PIECES];   /* valid while the piece is in play */
	struct tb_turns  history;            /* owned: the turns played, Trylobot's way */
};

/* A new game of the type (expansion bits). Free with tb_replay_free. */
void tb_replay_init(struct tb_replay *r, unsigned type);
void tb_replay_free(struct tb_replay *r);

/* Replays st's turn_history from the start, checking every turn with the core, then
 * checks that board, hands, player_turn and turn_number agree with the result.
 * r need not be initialised; on success the caller frees it, on failure (-1, reason
 * in err) there is nothing to free. */
int tb_replay_load(struct tb_replay *r, const struct tb_state *st, char *err, size_t errlen);
/* tb_replay_load for the next request of a connection: when have is set, r holds an
 * earlier request's game, and if st's turn_history extends its turns exactly only the
 * new turns are played (else r is freed and st replayed from the start). Same checks,
 * errors and ownership as tb_replay_load: on failure r is freed. */
int tb_replay_sync(struct tb_replay *r, int have, const struct tb_state *st, char *err, size_t errlen);
/* Replays a core game (for building requests from it); same ownership as load. */
int tb_replay_from_game(struct tb_replay *r, const struct hive_game *g, char *err, size_t errlen);

/* A Trylobot turn as the core move it names on the current position, not checked
 * with the core (the engine interface checks an engine's move once): -1 (reason in
 * err) if it names nothing (no such piece in hand or at the source, an opponent's
 * piece moved, a destination not next to the hive) or a Special Ability's user that
 * cannot throw the piece (the one word of the turn the core move drops). */
int tb_replay_turn_candidate(const struct tb_replay *r, const struct tb_turn *t, struct hive_move *m,
			     char *err, size_t errlen);
/* tb_replay_turn_candidate checked with the core: a legal move; -1 (reason in err)
 * if the game is over or the core says the move is illegal. For turns nobody else
 * checks (a game's history, a peer's list). */
int tb_replay_turn_move(const struct tb_replay *r, const struct tb_turn *t, struct hive_move *m,
			char *err, size_t errlen);
/* The turn as text for messages ("Movement (r, c) -> (r, c)", ...); returns buf. */
const char *tb_turn_format(const struct tb_turn *t, char *buf, size_t len);
/* A legal core move as a Trylobot turn: Forfeit, Placement, Movement (own piece), or
 * Special Ability (opponent piece thrown) with the first user able to throw it. */
int tb_replay_move_turn(const struct tb_replay *r, struct hive_move m, struct tb_turn *t,
			char *err, size_t errlen);
/* Plays a core move / a Trylobot turn (checked); -1 with the reason if illegal. */
int tb_replay_play(struct tb_replay *r, struct hive_move m, char *err, size_t errlen);
int tb_replay_play_turn(struct tb_replay *r, const struct tb_turn *t, char *err, size_t errlen);

/* What the Trylobot core would accept as the answer m, a legal move (checked by the
 * engine interface, or one of hive_board_moves: not checked again here): 1 =
 * sendable, *t is the answer (Placement, Movement or Forfeit listed in possible, which
 * may be NULL to skip that check); 0 = not sendable (err says why: a Special Ability,
 * which the real core always rejects, or a turn it does not list); -1 = m is no turn
 * (an opponent's piece no own pillbug can throw: not legal). */
int tb_replay_answer(const struct tb_replay *r, const struct tb_turns *possible, struct hive_move m,
		     struct tb_turn *t, char *err, size_t errlen);

/* How many sendable answers there are (tb_replay_answer's 1), counting up to max: the
 * listed turns that are legal core moves, checked with the core; the first into *t
 * (which one is first follows the list's order: with exactly one, it is the one).
 * Walks the list, not every legal move: a few lookups when the first turns will do. */
size_t tb_replay_sendable(const struct tb_replay *r, const struct tb_turns *possible, struct tb_turn *t,
			  size_t max);

/* possible_turns of the current position from hive_board_moves(): own moves under
 * Movement, opponent pieces thrown under Special Ability (one entry per able user),
 * a pass as Forfeit alone. Appends to out (de-duplicated); -1 if memory runs out. */
int tb_replay_possible(const struct tb_replay *r, struct tb_turns *out, char *err, size_t errlen);

/* A full game_state of the current position (st is initialised here; free it with
 * tb_state_free). */
int tb_replay_state(const struct tb_replay *r, struct tb_state *st, char *err, size_t errlen);

#endif
