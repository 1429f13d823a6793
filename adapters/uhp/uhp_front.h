/*
 * uhp_front.h: one UHP session (a client speaking UHP to the bridge) over a pair of
 * bufferevents: stdin/stdout for `hivebridge uhp`, one socket for a TCP connection.
 * The session keeps the canonical game and drives one engine from engine_new().
 */
#ifndef ADAPTERS_UHP_FRONT_H
#define ADAPTERS_UHP_FRONT_H

#include <stddef.h>
#include "bridge/front.h"

struct event_base;
struct bufferevent;
struct engine_profile;

/* Two of struct front (bridge/front.h), which the protocol's row points at.
 * uhp_front_new: a UHP session (a struct uhp_front) over in/out bufferevents (the
 * same one for TCP). Takes ownership of both, also on failure. Prints the info block
 * at once. closed fires once when the session ends (exit, EOF after the last answer,
 * I/O error or idle time-out); the owner then calls uhp_front_free(). NULL on
 * failure. */
void  *uhp_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		     unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, front_closed_cb *closed, void *arg);
/* Frees everything (engine, game, bufferevents); safe at any time, also from the
 * closed callback; no callback fires after it. */
void   uhp_front_free(void *session);

#endif
