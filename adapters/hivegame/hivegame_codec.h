/*
 * hivegame_codec.h: hivegame.com's bot API (hiveboardgame/hive, apis/src/api/v1/):
 * its JSON answers parsed into structs and its requests formatted, nothing else (no
 * sockets, no clock: fuzzable). Every answer is an envelope
 * {"success":bool,"data":{...}}; a refusal is {"success":false,"data":{"error":...}}
 * (HTTP 200, the bot/ handlers) or {"data":{"message":...}} (401/400, auth/auth_.rs and
 * get_token_handler.rs). A game is the db model Game (db/src/models/game.rs) as serde
 * writes it; its history is "piece pos;" per ply (update_gamestate), the first ply
 * "wS1 ;" and a pass "pass ;".
 *
 * Every parser returns 0, or -1 with one sentence in err: "the site says: ..." for a
 * refusal (the site's words, sanitised), else what is malformed.
 */
#ifndef ADAPTERS_HIVEGAME_CODEC_H
#define ADAPTERS_HIVEGAME_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "core/game.h"

#define HG_ID_MAX      64       /* a nanoid (12), a uuid (36), a user name */
#define HG_TOKEN_MAX   4096     /* a JWT */
#define HG_HISTORY_MAX 32768    /* bytes of a history we accept */
#define HG_LIST_MAX    256      /* games or challenges in one answer we read */

enum hg_time_mode { HG_UNTIMED, HG_REALTIME, HG_CORRESPONDENCE, HG_TIME_UNKNOWN };

struct hg_challenge {
	char     id[HG_ID_MAX];          /* challenge_id (a nanoid) */
	char     challenger[HG_ID_MAX];  /* challenger.username */
	char     game_type[24];          /* as sent: "Base+MLP" */
	int      type_ok;                /* game_type is one the core plays: type is it */
	unsigned type;
	enum hg_time_mode mode;
	int64_t  time_base;              /* s, -1 = null */
	int64_t  time_increment;         /* s, -1 = null */
	int      rated;
	char     color_choice[12];       /* "White", "Black", "Random" */
};

struct hg_game {
	char     nanoid[HG_ID_MAX];
	char     game_type[24];
	int      type_ok;
	unsigned type;
	char     game_status[32];        /* "NotStarted", "InProgress", "Finished(1-0)", ... */
	long     turn;
	char    *history;                /* owned, "" when none */
	enum hg_time_mode mode;
	int64_t  time_base, time_increment;        /* s, -1 = null */
	int64_t  white_time_left, black_time_left; /* ns, -1 = null */
	char     white_id[HG_ID_MAX], black_id[HG_ID_MAX], current_player_id[HG_ID_MAX];
	int      finished;
};

struct hg_games {
	struct hg_game *v;
	size_t          n;
};

struct hg_challenges {
	struct hg_challenge *v;
	size_t               n;
	char                 bot_username[HG_ID_MAX];
};

/* POST /api/v1/auth/token's answer: the token. */
int  hg_parse_token(const char *body, size_t len, char *token, size_t tokcap, char *err, size_t errlen);
/* The "exp" claim of a JWT (seconds since 1970, read, not verified: only to log in
 * again before it), or -1 when the token has none. */
int64_t hg_token_expiry(const char *token);
/* GET /api/v1/auth/id's answer: the bot's user id (a uuid) and name. */
int  hg_parse_identity(const char *body, size_t len, char *user_id, char *name, char *err, size_t errlen);
/* GET /api/v1/bot/challenges/ (into out, freed by hg_challenges_free). */
int  hg_parse_challenges(const char *body, size_t len, struct hg_challenges *out, char *err, size_t errlen);
/* GET games/pending, games/ongoing, game/{id} and challenge/accept (one "game"). */
int  hg_parse_games(const char *body, size_t len, struct hg_games *out, char *err, size_t errlen);
/* POST games/play: the new history (owned by the caller). */
int  hg_parse_play(const char *body, size_t len, char **history, char *err, size_t errlen);
/* Any other answer (games/control): only whether it succeeded. */
int  hg_parse_ok(const char *body, size_t len, char *err, size_t errlen);
void hg_games_free(struct hg_games *g);
void hg_challenges_free(struct hg_challenges *c);

/* Requests, as malloc'd JSON text (NULL only for an argument too long). */
char *hg_format_login(const char *user, const char *password);
char *hg_format_play(const char *game_id, const char *piece_pos);
char *hg_format_control(const char *game_id, const char *control);

/* The game a history describes, every ply checked by the core: g (inited to the game's
 * type by the caller, empty) gets the plies; on failure g holds those before the bad one. */
int  hg_history_replay(const char *history, struct hive_game *g, char *err, size_t errlen);
/* A move as play's piece_pos: the piece alone on an empty board (the server places
 * the first piece itself and reads no position), else the MoveString. -1 for a pass
 * (bots never send one: the server passes for them). */
int  hg_move_text(const struct hive_game *g, struct hive_move m, char *buf, size_t len);

/* Who is the bot in a game: 0 white, 1 black, -1 neither. */
int  hg_game_side(const struct hg_game *g, const char *user_id);
/* The mode's name as the API writes it ("RealTime"), and its parse. */
const char *hg_time_mode_name(enum hg_time_mode m);

#endif
