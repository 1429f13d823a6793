/*
 * otep_front.h: the bridge as an OTEP engine (docs/otep-hive.md, section 5). One
 * session is one OTEP host over a pair of bufferevents (stdin/stdout for
 * `hivebridge otep`, one socket for a `protocol = otep` listener); it keeps the
 * canonical game and drives one engine from engine_new(), so any back end plays
 * for an OTEP host.
 */
#ifndef OTEP_FRONT_H
#define OTEP_FRONT_H

#include <stddef.h>

#include "bridge/front.h"

struct event_base;
struct bufferevent;
struct engine_profile;

/* An OTEP session over in/out (the same one for TCP); takes ownership of both, also
 * on failure. closed fires once when the session ends by itself (goodbye, input
 * EOF, I/O error, idle time-out); the owner then calls otep_front_free(). NULL on
 * failure. Returned as void * for the front-end table. */
void *otep_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		     unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, front_closed_cb *closed, void *arg);

/* Frees everything (engine, game, bufferevents); safe at any time, also from the
 * closed callback; no callback fires after it. */
void otep_front_free(void *session);

/* A refused client's whole answer: "error -1 <why>" and its newline. */
size_t otep_front_refusal(char *buf, size_t len, const char *why);

#endif
