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

/* The three of struct front (bridge/front.h says what each does), which the
 * protocol's row points at. A session ends by itself when the peer closes, on an I/O
 * error or once a framing error is answered; a refused client gets json-socket's
 * error frame, "Error: WHY". */
void  *trylobot_front_new(struct event_base *base, struct bufferevent *in,
			  struct bufferevent *out, unsigned id, const struct engine_profile *profile,
			  const struct session_limits *lim, front_closed_cb *closed, void *arg);
void   trylobot_front_free(void *session);
size_t trylobot_front_refusal(char *buf, size_t len, const char *why);

#endif
