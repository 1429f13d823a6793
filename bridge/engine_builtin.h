/*
 * engine_builtin.h: the built-in back end of the engine interface: the core's search
 * on a worker thread, results handed back to the event loop thread.
 *
 * The event base must have been created after evthread_use_pthreads().
 */
#ifndef BRIDGE_ENGINE_BUILTIN_H
#define BRIDGE_ENGINE_BUILTIN_H

#ifndef HIVEBRIDGE_VERSION
#define HIVEBRIDGE_VERSION "0.1.0"
#endif

struct event_base;
struct engine;
struct engine_profile;

/* A built-in engine for profile p (hash_mb and options are read from it); the caller
 * owns the result (engine_free). NULL with *cause set (caller frees) on failure. */
struct engine *engine_builtin_new(struct event_base *base, const struct engine_profile *p,
				  char **cause);

#endif
