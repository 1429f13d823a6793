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

/* The three of struct front (bridge/front.h says what each does), which the
 * protocol's row points at. A session ends by itself on goodbye, input EOF, an I/O
 * error or the idle time-out; a refused client gets "error -1 WHY". */
void  *otep_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		      unsigned id, const struct engine_profile *profile,
		      const struct session_limits *lim, front_closed_cb *closed, void *arg);
void   otep_front_free(void *session);
size_t otep_front_refusal(char *buf, size_t len, const char *why);

#endif
