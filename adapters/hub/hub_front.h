/*
 * hub_front.h: the bridge as a Hub engine (docs/hub-hive.md). One session is one
 * Hub GUI over a pair of bufferevents (stdin/stdout for `hivebridge hub`, one socket
 * for a TCP connection); it keeps the canonical game and drives one engine from
 * engine_new(), so any back end can answer a Hub GUI.
 */
#ifndef ADAPTERS_HUB_FRONT_H
#define ADAPTERS_HUB_FRONT_H

#include "bridge/front.h"

struct event_base;
struct bufferevent;
struct engine_profile;
struct hub_front;

/* A Hub session over in/out (the same one for TCP); takes ownership of both, also on
 * failure. closed fires once when the session ends by itself (quit, input EOF, I/O
 * error, idle time-out); the owner then calls hub_front_free(). NULL on failure. */
struct hub_front *hub_front_new(struct event_base *base, struct bufferevent *in,
				struct bufferevent *out, unsigned id,
				const struct engine_profile *profile,
				const struct session_limits *lim, front_closed_cb *closed,
				void *arg);

/* Frees everything (engine, game, bufferevents); safe at any time, also from the
 * closed callback; no callback fires after it. */
void hub_front_free(struct hub_front *s);

#endif
