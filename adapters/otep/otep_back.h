/*
 * otep_back.h: the bridge as an OTEP host (docs/otep-hive.md, section 5): an
 * external OTEP Hive engine as a back end of the engine interface (profile kind
 * "otep"). The profile's command is either the engine's .ini file (one word ending
 * in ".ini": directory, filename, command, arguments, name are read from it) or
 * the engine's command line (with workdir).
 *
 *   start:   spawn, "hello" within start_timeout
 *   go:      rules (when the type changes or a new game starts), then
 *            opponent-move, play, clock ... move <MoveString>, checked with the core
 *            and answered with move <GameString> (and finish when the game ended);
 *            an infinite go is analysis: position, side, clock, analyze in slices
 *            of 1, 2, 4, 4 ... seconds, each analysis line an info callback, until
 *            engine_stop(); the result is the first move of the last analysis
 *   stop:    OTEP cannot interrupt a play: the move comes within the clock sent
 *   options: OTEP has none (an empty list)
 *
 * No hello, a stall, an unreadable, overlong, illegal or wrong-side answer (answered
 * with error 2 / error 1), a critical error, or an exit: ENGINE_FAILED after
 * "finish 0" and "goodbye"; the child is killed and reaped, and the next command
 * starts a fresh one. A non-critical error and status lines are logged.
 */
#ifndef OTEP_BACK_H
#define OTEP_BACK_H

#include <stddef.h>

struct event_base;
struct engine;
struct engine_profile;

/* Longest line the engine may print (the codec's bound). */
#define OTEP_BACK_MAX_LINE 65536
/* The time a go without any limit gets, as an overtime period (clock 5000* ...). */
#define OTEP_BACK_DEFAULT_MOVETIME_MS 5000

/* An OTEP engine for profile p; the child is spawned by engine_start() or on first
 * use. The caller owns the result (engine_free) and keeps p alive as long. NULL
 * with the reason in err on failure, for instance an .ini that does not parse. */
struct engine *otep_back_new(struct event_base *base, const struct engine_profile *p,
			     char *err, size_t errlen);

struct otep_ini;
/* Reads the .ini at path (docs/otep-hive.md, section 2), its relative directory
 * resolved against the .ini's own folder. 0, or -1 with the reason in err; ini is
 * otep_ini_free()'s either way. */
int  otep_back_ini_read(const char *path, struct otep_ini *ini, char *err, size_t errlen);

/* The row's back_check: a profile given as its own .ini file is checked through
 * it (it reads and names an executable filename): 1, or -1 with the reason in err;
 * 0 for a command line, which the runtime checks. No child is started. */
int  otep_back_check(const struct engine_profile *p, char *err, size_t errlen);

#endif
