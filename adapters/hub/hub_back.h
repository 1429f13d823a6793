/*
 * hub_back.h: the external Hub engine back end of the engine interface (profile
 * kind "hub"): a child process spoken to in Hub (docs/hub-hive.md) over its
 * stdin/stdout, every wait bounded by a timer.
 *
 *   start:   hub ... wait, set-param per profile option (and hash), init ... ready
 *   go:      pos pos="<GameString>", level (from engine_limits), go think|analyze,
 *            info lines to the info callback, done move=... checked with the core
 *   stop:    stop, then done within stop_timeout
 *   options: the declared parameters as UHP option lines; set = set-param + ping/pong
 *
 * Never ready, never done, an unreadable or over-long line, an illegal move or a
 * crash: ENGINE_FAILED, the child is killed and reaped, and the next command spawns
 * a fresh one.
 */
#ifndef ADAPTERS_HUB_BACK_H
#define ADAPTERS_HUB_BACK_H

#include <stddef.h>

struct event_base;
struct engine;
struct engine_profile;

/* Longest line the engine may print. */
#define HUB_BACK_MAX_LINE 65536

/* An external Hub engine for profile p (p->argv, p->workdir, timeouts, options,
 * hash_mb); the child is spawned by engine_start() or on first use. The caller owns
 * the result (engine_free) and keeps p alive as long. NULL with the reason in err
 * on failure. */
struct engine *hub_back_new(struct event_base *base, const struct engine_profile *p,
			    char *err, size_t errlen);


#endif
