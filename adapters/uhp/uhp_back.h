/*
 * uhp_back.h: the external UHP engine back end of the engine interface: a child
 * process spoken to in UHP over its stdin/stdout, every wait bounded by a timer.
 */
#ifndef ADAPTERS_UHP_BACK_H
#define ADAPTERS_UHP_BACK_H

#include <stddef.h>

struct bufferevent;
struct event_base;
struct engine;
struct engine_profile;

/* Longest line the engine may print, and most bytes of one reply kept. */
#define UHP_BACK_MAX_LINE  65536
#define UHP_BACK_MAX_REPLY (1024 * 1024)

/* An external engine for profile p (p->argv, p->workdir, timeouts, options); the
 * child is spawned by engine_start() or on first use, and again after a failure.
 * The caller owns the result (engine_free) and keeps p alive as long. NULL with the
 * reason in err on failure. */
struct engine *uhp_back_new(struct event_base *base, const struct engine_profile *p,
			    char *err, size_t errlen);

/* The same back end over bev, an engine that connected in (remote play's engine
 * model): its info block is awaited at once (start_timeout_ms), and it is never
 * respawned: once gone, every job fails with "disconnected". Takes bev, also on
 * failure; NULL with the reason in err. */
struct engine *uhp_back_adopt(struct event_base *base, const struct engine_profile *p,
			      struct bufferevent *bev, unsigned log_id, char *err, size_t errlen);
/* An adopted engine that closes while no command is outstanding would be noticed
 * only at its next command: cb hears it at once (from inside the back end, so it
 * must not free the engine; what says how it ended). */
typedef void uhp_back_closed_cb(void *arg, const char *what);
void uhp_back_on_close(struct engine *e, uhp_back_closed_cb *cb, void *arg);

#endif
