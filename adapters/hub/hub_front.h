/*
 * hub_front.h: the bridge as a Hub engine (docs/hub-hive.md). One session is one
 * Hub GUI over a pair of bufferevents (stdin/stdout for `hivebridge hub`, one socket
 * for a TCP connection); it keeps the canonical game and drives one engine from
 * engine_new(), so any back end can answer a Hub GUI.
 */
#ifndef ADAPTERS_HUB_FRONT_H
#define ADAPTERS_HUB_FRONT_H

#include <stddef.h>
#include "bridge/front.h"

struct event_base;
struct bufferevent;
struct engine_profile;

/* The three of struct front (bridge/front.h), which the protocol's row points at.
 * hub_front_new: a Hub session (a struct hub_front) over in/out (the same one for
 * TCP); takes ownership of both, also on failure. closed fires once when the session
 * ends by itself (quit, input EOF, I/O error, idle time-out); the owner then calls
 * hub_front_free(). NULL on failure. */
void  *hub_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		     unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, front_closed_cb *closed, void *arg);
/* Frees everything (engine, game, bufferevents); safe at any time, also from the
 * closed callback; no callback fires after it. */
void   hub_front_free(void *session);
/* One "error message=WHY" line: the answer to a client refused before any session. */
size_t hub_front_refusal(char *buf, size_t len, const char *why);

#endif
