/*
 * trylobot_codec.h: Trylobot's "remote AI module" protocol, parse and format only.
 *
 * Frames are "<N>#<json>" with N in UTF-16 code units of the JSON text (what
 * JavaScript's .length says). We read frames written by others with that rule and
 * write ASCII-only JSON, so that our byte count and N agree.
 *
 * Messages are plain structs. trylobot_frame.c frames, trylobot_parse.c reads the
 * messages (with the one JSON reader, trylobot_json.c), trylobot_codec.c holds the
 * names and turns and builds messages as cJSON trees (cJSON writes, it does not read).
 * No sockets, no clocks: bytes in, structs out (and back).
 */
#ifndef TRYLOBOT_CODEC_H
#define TRYLOBOT_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <cJSON.h>
#include "core/board.h"

#define TB_FRAME_MAX_DEFAULT (1u << 20)   /* largest N accepted, in UTF-16 units, and
                                            * largest payload, in bytes */
#define TB_ERR_MAX           192           /* room for any error message we write */

/*
 * Framing.
 */

/* A streaming frame reader: feed it any chunks; it hands back whole frames. */
struct tb_reader {
	size_t   max;         /* largest N accepted, and payload bytes held */
	int      state;       /* header, payload, error */
	size_t   want;        /* N of the frame being read */
	size_t   units;       /* UTF-16 units of payload seen so far */
	size_t   hlen;        /* header digits seen */
	unsigned need;        /* continuation bytes still due in a UTF-8 sequence */
	uint32_t cp;          /* code point being decoded */
	uint8_t  lead;        /* its first byte */
	char    *buf;         /* owned: the payload, NUL-terminated when complete */
	size_t   len, cap;
	char     err[TB_ERR_MAX];
};

/* max = 0 means TB_FRAME_MAX_DEFAULT. */
void tb_reader_init(struct tb_reader *r, size_t max);
void tb_reader_free(struct tb_reader *r);
/* Consumes bytes up to the end of the next frame. Returns 1 when a frame is complete
 * (see tb_reader_frame; valid until the next push), 0 when all bytes were consumed
 * without completing one, -1 on a framing error (tb_reader_error says why; the reader
 * stays failed until tb_reader_reset). *used gets the bytes consumed. */
int  tb_reader_push(struct tb_reader *r, const void *data, size_t len, size_t *used);
/* The last complete frame's JSON text (owned by the reader), or NULL. */
const char *tb_reader_frame(const struct tb_reader *r, size_t *len);
const char *tb_reader_error(const struct tb_reader *r);
/* Whether no frame is partly read (an EOF here is clean). */
int  tb_reader_idle(const struct tb_reader *r);
/* Forgets any partial frame and error. */
void tb_reader_reset(struct tb_reader *r);

/* UTF-16 length of UTF-8 text, or (size_t)-1 if the text is not valid UTF-8. */
size_t tb_utf16_length(const char *s, size_t len);

/* Frames JSON text: non-ASCII escaped as \uXXXX (surrogate pairs above U+FFFF), then
 * "<N>#" prepended. Returns a malloc'd NUL-terminated frame (caller frees) and its
 * length in *outlen, or NULL if the text is not valid UTF-8 or memory ran out. */
char *tb_frame_encode(const char *json, size_t len, size_t *outlen);
/* Prints msg compactly and frames it; NULL on failure. Caller frees. */
char *tb_frame_build(const cJSON *msg, size_t *outlen);

/*
 * The message model.
 */

/* A board position "row,col": doubled rows, row grows downwards, row + col even. */
struct tb_pos {
	int32_t row, col;
};

enum tb_turn_type { TB_PLACEMENT, TB_MOVEMENT, TB_ABILITY, TB_FORFEIT };

/* One turn: of the history, of possible_turns, or an answer. */
struct tb_turn {
	uint8_t       type;     /* enum tb_turn_type */
	uint8_t       bug;      /* TB_PLACEMENT: enum hive_bug */
	struct tb_pos user;     /* TB_ABILITY: the pillbug or mosquito */
	struct tb_pos src;      /* TB_MOVEMENT, TB_ABILITY */
	struct tb_pos dst;      /* all but TB_FORFEIT */
};

/* A growable list of turns; owns v. */
struct tb_turns {
	struct tb_turn *v;
	size_t          n, cap;
};

struct tb_piece {
	uint8_t color;          /* enum hive_color */
	uint8_t bug;            /* enum hive_bug */
};

/* An occupied cell, bottom to top. */
struct tb_stack {
	struct tb_pos   pos;
	uint8_t         height;
	struct tb_piece piece[HIVE_MAX_STACK];
};

/* game_state of a Choose Turn request. */
struct tb_state {
	unsigned        type;                    /* expansion bits from creation_parameters */
	int             player;                  /* enum hive_color to move */
	long            turn_number;             /* plies so far */
	size_t          nstacks;
	struct tb_stack stack[HIVE_PIECES];
	uint8_t         hand[2][HIVE_BUGS];      /* missing key = 0 */
	struct tb_turns history;                 /* owned */
	/* De-duplicated possible_turns: Placement expanded to types x positions,
	 * Movement one entry per (src, dst), Special Ability one per (user, src, dst),
	 * Forfeit a single TB_FORFEIT entry. Empty when possible_turns is null. */
	struct tb_turns possible;                /* owned */
};

enum tb_request_type { TB_REQ_GREETINGS, TB_REQ_CHOOSE_TURN };

struct tb_request {
	int             type;                    /* enum tb_request_type */
	char           *request_id;              /* owned, NULL if absent */
	char           *game_id;                 /* owned, NULL if absent */
	/* The same two as JSON string tokens, exactly as sent (an id may hold \u0000,
	 * where the C strings above end): what answers echo. Owned, NULL if absent. */
	char           *request_id_json, *game_id_json;
	char           *system_version;          /* owned, NULL if absent */
	int64_t         request_timestamp;       /* epoch ms, 0 if absent */
	int64_t         response_deadline;       /* epoch ms, 0 if null or absent */
	struct tb_state state;                   /* Choose Turn only */
};

enum tb_response_type { TB_RESP_GREETINGS, TB_RESP_TURN, TB_RESP_ERROR };

/* What a Trylobot module sends back. */
struct tb_response {
	int            type;                     /* enum tb_response_type */
	struct tb_turn turn;                     /* TB_RESP_TURN */
	int            active;                   /* TB_RESP_GREETINGS */
	char          *name, *long_name, *version, *description;  /* owned, may be NULL */
	char          *error;                    /* TB_RESP_ERROR: owned */
};

/* Who we say we are in a Greetings answer; any field may be NULL (omitted). */
struct tb_identity {
	const char *name, *long_name, *version, *description, *author, *project_url;
};

/*
 * Names.
 */

/* "Queen Bee", ..., for an enum hive_bug; NULL if out of range. */
const char *tb_bug_name(int bug);
/* "White" or "Black" for an enum hive_color; NULL if out of range. */
const char *tb_color_name(int color);
/* enum hive_bug of an exact Trylobot type name, or -1. */
int         tb_bug_parse(const char *s);
/* "row,col" into buf (holds 24); returns buf. */
char       *tb_pos_format(struct tb_pos p, char *buf, size_t len);
/* Strict "<int>,<int>" with row + col even; -1 if not. */
int         tb_pos_parse(const char *s, struct tb_pos *p);
static inline int tb_pos_eq(struct tb_pos a, struct tb_pos b)
{
	return a.row == b.row && a.col == b.col;
}
/* Two turns are equal when every field their type uses is. */
int         tb_turn_eq(const struct tb_turn *a, const struct tb_turn *b);

/* Appends a copy of t; -1 when memory runs out. */
int  tb_turns_add(struct tb_turns *l, const struct tb_turn *t);
/* Appends t unless an equal turn is there already. */
int  tb_turns_add_unique(struct tb_turns *l, const struct tb_turn *t);
/* Whether an equal turn is listed. */
int  tb_turns_has(const struct tb_turns *l, const struct tb_turn *t);
void tb_turns_free(struct tb_turns *l);

void tb_state_init(struct tb_state *st);
void tb_state_free(struct tb_state *st);

/*
 * Parsing. Each returns 0, or -1 with the reason in err (the struct is then empty).
 * Keys we do not use are ignored; keys we use must have the documented types.
 */

/* A Greetings or Choose Turn request (what the Trylobot core sends). */
int  tb_request_parse(const char *json, size_t len, struct tb_request *rq, char *err, size_t errlen);
void tb_request_free(struct tb_request *rq);

/* What a connection's requests share: the last turn_history, as text and as turns.
 * Zeroed is empty. */
struct tb_parse_cache {
	char           *text;      /* owned: from '[' to the last turn's end */
	size_t          len, cap;
	struct tb_turns turns;     /* owned: those turns; none = no cache */
};
void tb_parse_cache_free(struct tb_parse_cache *c);
/* tb_request_parse for the next request of a connection: a turn_history whose text
 * starts with the last one's is parsed only past it. Same results and errors. */
int  tb_request_parse_next(const char *json, size_t len, struct tb_request *rq, struct tb_parse_cache *c,
			   char *err, size_t errlen);

/* A module's answer: Greetings, a Choose Turn answer, or json-socket's error frame
 * {"success":false,"error":...}. */
int  tb_response_parse(const char *json, size_t len, struct tb_response *rs, char *err, size_t errlen);
void tb_response_free(struct tb_response *rs);

/*
 * Building. Each returns a new cJSON tree (caller cJSON_Deletes it; frame it with
 * tb_frame_build), or NULL when memory runs out or the input is inconsistent.
 */

/* {"response_type":"Greetings","response_id":...,"active":true,...}. */
cJSON *tb_greetings_answer_json(const struct tb_identity *id, const char *response_id);
/* {"request_type":"Greetings","request_id":...,"system_version":...}. */
cJSON *tb_greetings_request_json(const char *request_id, const char *system_version);
/* A Choose Turn answer; never carries an "error" key. ids may be NULL. */
cJSON *tb_turn_answer_json(const struct tb_turn *t, const char *response_id, const char *game_id);
/* One turn object as found in turn_history and answers ({"turn_type":...}). */
cJSON *tb_turn_json(const struct tb_turn *t);
/* The possible_turns object of a list (types x positions must be a full cross
 * product); an empty list gives null. */
cJSON *tb_possible_json(const struct tb_turns *possible);
/* A full Choose Turn request: the ids, timestamps (deadline 0 = null) and game_state. */
cJSON *tb_request_json(const struct tb_request *rq);
/* json-socket's error frame {"success":false,"error":msg}. */
cJSON *tb_error_json(const char *msg);
/* Makes msg's "response_id" and "game_id" (those it has) rq's ids exactly as sent;
 * 0, or -1 when memory runs out. */
int    tb_echo_ids(cJSON *msg, const struct tb_request *rq);
/* The frame of a Choose Turn answer to rq: what tb_turn_answer_json(t, rq's ids),
 * tb_echo_ids and tb_frame_build give, byte for byte, printed without a cJSON tree.
 * Malloc'd (length in *outlen), NULL on failure. */
char  *tb_turn_answer_frame(const struct tb_turn *t, const struct tb_request *rq, size_t *outlen);

#endif
