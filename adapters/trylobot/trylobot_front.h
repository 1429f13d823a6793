/*
 * trylobot_front.h: the bridge as a Trylobot "remote AI module". One session per TCP
 * connection from a Trylobot core: it reads "<N>#<json>" frames, answers Greetings
 * itself and every Choose Turn with the engine's move (bridge/engine.h), exactly one
 * frame per request and nothing else.
 *
 * Stateless per request: each Choose Turn is replayed from its turn_history, so both
 * colours and any number of interleaved games may share one connection.
 *
 * Think time when a request has no response_deadline (the real core never sends one):
 * HIVEBRIDGE_TRYLOBOT_THINK_MS (default 1000) or, if set, a fixed search depth
 * HIVEBRIDGE_TRYLOBOT_DEPTH, both read from the environment when a session opens.
 */
#ifndef ADAPTERS_TRYLOBOT_FRONT_H
#define ADAPTERS_TRYLOBOT_FRONT_H

#include <stddef.h>
#include "bridge/front.h"

struct event_base;
struct bufferevent;
struct engine_profile;

#define TRYLOBOT_FRONT_THINK_MS_DEFAULT 1000

/* The three of struct front (bridge/front.h), which the protocol's row points at.
 * trylobot_front_new: a session (a struct trylobot_front) over in/out (the same
 * bufferevent for TCP); takes ownership of both, also on failure. closed fires once
 * when the session ends by itself (peer closed, I/O error, framing error answered);
 * the owner then calls trylobot_front_free(). NULL on failure. */
void  *trylobot_front_new(struct event_base *base, struct bufferevent *in,
			  struct bufferevent *out, unsigned id, const struct engine_profile *profile,
			  const struct session_limits *lim, front_closed_cb *closed, void *arg);
/* Frees everything (engine, bufferevents); safe at any time, also from the closed
 * callback; no callback fires afterwards. */
void   trylobot_front_free(void *session);
/* json-socket's error frame for a client refused before any session: "Error: WHY"
 * into buf; its length, or 0 if it does not fit. */
size_t trylobot_front_refusal(char *buf, size_t len, const char *why);

#endif
