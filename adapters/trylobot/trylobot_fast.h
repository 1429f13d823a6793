/*
 * trylobot_fast.h: the Trylobot codec's fast Choose Turn reader (trylobot_fast.c) and
 * the few codec tables and helpers it shares. Internal to adapters/trylobot: every
 * other module goes through trylobot_codec.h.
 */
#ifndef TRYLOBOT_FAST_H
#define TRYLOBOT_FAST_H

#include "trylobot_codec.h"

/* Real positions list a few hundred turns; the bound keeps de-duplication cheap
 * whatever a peer sends. */
#define TB_POSSIBLE_MAX 8192

/* trylobot_fast.c: a Choose Turn read without cJSON, stricter than tb_request_parse
 * and with the same result whenever it says 0; -1 when not sure (the caller then
 * parses the text the usual way, and rq needs tb_request_free). c is the
 * connection's cache of its last turn_history; [*h, *hend) gets this request's
 * (*h NULL when it is null). */
int tb_fast_request(const char *json, size_t len, struct tb_request *rq, const struct tb_parse_cache *c,
		    const char **h, const char **hend);

/* trylobot_codec.c: */
extern const uint8_t      tb_bug_count[HIVE_BUGS];  /* pieces of each bug per colour */
extern const char *const  tb_color_names[2];        /* "White", "Black" */
/* enum hive_color of "White" or "Black", or -1. */
int tb_color_parse(const char *s);
/* Whether game type bits (creation_parameters) have the bug at all. */
int tb_bug_enabled(unsigned type, int bug);
/* Drops repeated turns (at most TB_POSSIBLE_MAX), keeping the first of each in its
 * place; -1 when memory runs out. */
int tb_turns_dedup(struct tb_turns *l);

#endif
