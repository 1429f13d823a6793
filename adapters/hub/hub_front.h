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

/* The three of struct front (bridge/front.h says what each does), which the
 * protocol's row points at. A session ends by itself on quit, input EOF, an I/O
 * error or the idle time-out; a refused client gets one "error message=WHY" line. */
void  *hub_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		     unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, front_closed_cb *closed, void *arg);
void   hub_front_free(void *session);
size_t hub_front_refusal(char *buf, size_t len, const char *why);

#endif
