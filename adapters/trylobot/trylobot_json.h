/*
 * trylobot_json.h: the Trylobot codec's one JSON reader, internal to adapters/trylobot
 * (every other module goes through trylobot_codec.h). A text is checked whole against
 * RFC 8259 (every escape, \uXXXX surrogate pairs included, the number grammar,
 * nesting at most TB_JSON_DEPTH) and cut into a flat array of tokens pointing into
 * it: no allocation per value and nothing decoded until asked, so that a request
 * costs one pass over its bytes and the reading of the members the codec wants.
 * Where cJSON, the reader before it, is laxer, it reads the same: every byte up to
 * ' ' is whitespace inside the text (after it, only JSON's four), and a UTF-8 byte
 * order mark may lead.
 * (Writing stays with cJSON's builders and printer.)
 */
#ifndef TRYLOBOT_JSON_H
#define TRYLOBOT_JSON_H

#include <stddef.h>
#include <stdint.h>

#define TB_JSON_DEPTH 1000    /* what cJSON allows; Trylobot's messages nest 6 deep */

enum tb_jtype { TB_JNULL, TB_JFALSE, TB_JTRUE, TB_JNUMBER, TB_JSTRING, TB_JARRAY, TB_JOBJECT };

/* One value. An object's tokens are followed by its members' key and value tokens in
 * turn, an array's by its elements'. */
struct tb_jtok {
	uint32_t start, end;   /* the value's text [start, end), a string's with its quotes */
	uint32_t skip;         /* the token after this value and everything in it */
	uint8_t  type;         /* enum tb_jtype */
	uint8_t  escaped;      /* a string with a backslash in it */
	uint8_t  known;        /* an array whose known prefix was not read (tb_json_known) */
};

struct tb_json {
	const char     *text;
	size_t          len;
	struct tb_jtok *tok;   /* owned; tok[0] is the text's value */
	size_t          n, cap;
};

/* A prefix read before: the array that is member key2 of member key1 of the text's
 * object may start with text[0, len), a '[' and whole elements that a text read
 * before held at the same place (so they are valid there). Those are not read again:
 * the array's token is marked known and lists only the elements after them. */
struct tb_json_known {
	const char *key1, *key2;
	const char *text;
	size_t      len;
};

/* Reads text[0, len) (one value, whitespace around it); j may be reused from an
 * earlier read (its tokens' room is kept); known may be NULL. -1 with "not valid
 * JSON ..." in err. */
int  tb_json_parse(struct tb_json *j, const char *text, size_t len, const struct tb_json_known *known,
		   char *err, size_t errlen);
void tb_json_free(struct tb_json *j);

/* The value token of object obj's member key (the first of that name, as cJSON finds
 * it), or 0 when it has none (token 0 is never a member's). */
size_t tb_json_member(const struct tb_json *j, size_t obj, const char *key);
/* Token i's string (a string value or a member key), decoded and NUL-terminated in
 * buf; -1 when it needs more than cap bytes (buf then holds what fits). A \u0000
 * ends it, as in cJSON. */
int  tb_json_str(const struct tb_json *j, size_t i, char *buf, size_t cap);
/* Token i's string, malloc'd; NULL when memory runs out. */
char *tb_json_strdup(const struct tb_json *j, size_t i);
/* Token i's number. */
double tb_json_number(const struct tb_json *j, size_t i);

/* Members of object o: key k, value k + 1. Elements of array a: i. */
#define TB_JSON_MEMBERS(j, o, k) \
	for (size_t k = (o) + 1; k < (j)->tok[o].skip; k = (j)->tok[k + 1].skip)
#define TB_JSON_ELEMENTS(j, a, i) \
	for (size_t i = (a) + 1; i < (j)->tok[a].skip; i = (j)->tok[i].skip)

#endif
