/*
 * game.h: a game record (board + move list) and UHP notation: MoveString, GameString,
 * GameTypeString. Parsing follows Mzinga's strictness; printing is canonical.
 *
 * Pure library: no I/O, no globals. A struct hive_game owns its move array.
 */
#ifndef HIVE_GAME_H
#define HIVE_GAME_H

#include <stddef.h>
#include "board.h"

/* Longest MoveString we print ("wA1 \bG3" is 8 chars). */
#define HIVE_MOVESTR_MAX 16

/* A game: the board after all moves, and the moves from the start. */
struct hive_game {
	struct hive_board board;
	unsigned          type;
	struct hive_undo *hist;   /* owned; hist[i].move is ply i */
	size_t            len;
	size_t            cap;
};

/* Result codes of parsing/playing. */
enum hive_rc {
	HIVE_OK = 0,
	HIVE_ERR_SYNTAX = -1,    /* text that is not a MoveString/GameString at all */
	HIVE_ERR_ILLEGAL = -2,   /* a well-formed move the rules forbid (UHP invalidmove) */
	HIVE_ERR_NOMEM = -3,
	HIVE_ERR_GAMEOVER = -4   /* play/pass after the game ended (UHP err) */
};

void hive_game_init(struct hive_game *g, unsigned type);
void hive_game_free(struct hive_game *g);           /* frees hist; g may be re-inited */
int  hive_game_copy(struct hive_game *dst, const struct hive_game *src);  /* dst must be freed/uninited */
/* 1 if b continues (or is) a: same game type, a's moves are b's first moves. */
int  hive_game_is_prefix(const struct hive_game *a, const struct hive_game *b);

/* Plays a legal move (from hive_board_moves / hive_move_parse). */
int  hive_game_play(struct hive_game *g, struct hive_move m);
/* Takes back n plies; HIVE_ERR_ILLEGAL if n < 1 or n > len (nothing changes). */
int  hive_game_undo(struct hive_game *g, size_t n);

/* GameTypeString: "Base", "Base+M", ... (exactly Mzinga's eight strings). */
int         hive_gametype_parse(const char *s, unsigned *type);
const char *hive_gametype_name(unsigned type);
const char *hive_state_name(int state);       /* "NotStarted", "InProgress", ... */

/* Parses a MoveString against the board, with Mzinga's checks and messages.
 * On failure writes a one-line reason (Mzinga's wording) to err and returns
 * HIVE_ERR_SYNTAX, HIVE_ERR_ILLEGAL or HIVE_ERR_GAMEOVER. Accepts the mover as its
 * own reference ("wQ /wQ"), extra spaces, any case, and "pass". */
int hive_move_parse(const struct hive_board *b, const char *s, struct hive_move *m,
		    char *err, size_t errlen);

/* Canonical MoveString of a legal move on board b (before the move), as Mzinga
 * prints it. buf holds HIVE_MOVESTR_MAX. */
void hive_move_format(const struct hive_board *b, struct hive_move m, char *buf, size_t len);

/* Piece short name ("wQ", "bA3"), and its parse (-1 if not a name). */
const char *hive_piece_name(int piece);
int         hive_piece_parse(const char *s, size_t len);

/* Loads "GameType[;State;Turn[;Move]*]" into g (which must be inited). The state and
 * turn fields, when present, must agree with the moves. On failure g is unchanged. */
int hive_game_parse(struct hive_game *g, const char *s, char *err, size_t errlen);

/* Writes the canonical GameString; returns the length it needs (like snprintf). */
size_t hive_game_format(const struct hive_game *g, char *buf, size_t len);

/* TurnString ("White[3]") of the side to move. */
size_t hive_turn_format(const struct hive_board *b, char *buf, size_t len);

#endif
