/*
 * trylobot_back.h: a remote Trylobot AI module as a back end of the engine
 * interface. The bridge connects to the module (profile host and port), greets it
 * once, and sends one Choose Turn request per engine_go with a full game_state and
 * possible_turns built by the core; the answer is checked with the core.
 *
 * Error frames, garbage, an illegal or unlisted turn, an unasked frame, silence past
 * the time-out or the connection closing end the command with ENGINE_FAILED and drop
 * the connection; the next command reconnects.
 */
#ifndef ADAPTERS_TRYLOBOT_BACK_H
#define ADAPTERS_TRYLOBOT_BACK_H

#include <stddef.h>

struct event_base;
struct engine;
struct engine_profile;

/* A Trylobot back end for profile p (p->host, p->port, timeouts); it connects on
 * engine_start() or on first use. The caller owns the result (engine_free) and keeps
 * p alive as long. NULL with the reason in err on failure. */
struct engine *trylobot_back_new(struct event_base *base, const struct engine_profile *p,
				 char *err, size_t errlen);


#endif
