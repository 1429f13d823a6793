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

/* Two of struct front (bridge/front.h says what each does), which the protocol's row
 * points at (its refusal is uhp_out_refusal). A session prints the info block at
 * once, and ends by itself on exit, EOF after the last answer, an I/O error or the
 * idle time-out. */
void  *uhp_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		     unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, front_closed_cb *closed, void *arg);
void   uhp_front_free(void *session);

#endif
