/*
 * uhp_check.h: the UHP suite of `hivebridge check` (uhp_check.c, uhp_check_games.c):
 * its entry point, and what its two files share.
 */
#ifndef ADAPTERS_UHP_UHP_CHECK_H
#define ADAPTERS_UHP_UHP_CHECK_H

#include "bridge/check/check.h"

/* The whole UHP suite against the command in ck->argv. */
void uhp_check_suite(struct checker *ck);

/* --- talking to the engine (uhp_check.c) --- */

/* The engine is gone or unusable: kill it, and skip the rest of the group. */
void uhp_engine_lost(struct checker *ck, const struct result *r, const char *why);
/* Sends one line (text without its newline), noting it in r; -1 (r failed) if the
 * engine does not take it. */
int  uhp_cmd_write(struct checker *ck, struct result *r, const char *line);
/* Reads one reply up to "ok"; on a time-out, an exit or a flood r fails, the
 * engine is killed and -1 returned. rep is the caller's to free either way. */
int  uhp_cmd_read(struct checker *ck, struct result *r, int64_t start, int timeout_ms, struct reply *rep);
/* Sends one command line and reads its reply. */
int  uhp_cmd(struct checker *ck, struct result *r, const char *line, int timeout_ms, struct reply *rep);
/* First line of a reply, or "" if it has none. */
const char *uhp_reply_first(const struct reply *rep);
/* Whether a reply is a refusal: an "err" or "invalidmove" line. */
int  uhp_reply_refused(const struct reply *rep);
/* Checks that a reply carries the expected GameString on its first line. */
int  uhp_expect_game(struct result *r, const struct reply *rep, const struct hive_game *want, const char *what);
/* newgame with the game's canonical GameString; checks the GameString it prints. */
int  uhp_load_game(struct checker *ck, struct result *r, const struct hive_game *g);
/* Sends a command that must print the GameString of want. */
int  uhp_expect_cmd_game(struct checker *ck, struct result *r, const char *line, const struct hive_game *want);
/* Sends a command that must be refused (with err if err_only), then ok. */
int  uhp_expect_refusal(struct checker *ck, struct result *r, const char *line, const char *what,
			int err_only);

/* --- positions and groups (uhp_check_games.c) --- */

/* Finished games from the reference notes. */
struct end_position {
	const char *name;
	int         state;
	const char *gs;
};
#define UHP_END_POSITIONS 4
extern const struct end_position uhp_end_positions[UHP_END_POSITIONS];
/* Loads one of uhp_end_positions (or fails/skips r); 0 when g holds it. */
int  uhp_end_load(struct result *r, const struct end_position *e, struct hive_game *g);
/* Sends validmoves and compares it with the core's moves on b. */
int  uhp_expect_moves(struct checker *ck, struct result *r, const struct hive_board *b);

void uhp_group_movegen_start(struct checker *ck);
void uhp_group_movegen_nokamute(struct checker *ck);
void uhp_group_movegen_realgames(struct checker *ck);
void uhp_group_movegen_random(struct checker *ck);
void uhp_group_gameflow(struct checker *ck);
void uhp_group_rejections_byrule(struct checker *ck);
void uhp_group_rejections_malformed(struct checker *ck);

#endif
