/*
 * hub_front_int.h: what the two halves of a Hub session share, inside adapters/hub/
 * only. hub_front.c is the session: its input, the position, level and the search;
 * hub_front_params.c answers `hub` and `set-param` from the engine's options, which
 * it lists when the engine starts and sets on the engine (engine_options).
 */
#ifndef ADAPTERS_HUB_FRONT_INT_H
#define ADAPTERS_HUB_FRONT_INT_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "adapters/hub/hub_codec.h"
#include "bridge/engine.h"
#include "bridge/engine_options.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/session_io.h"
#include "bridge/util.h"
#include "core/game.h"

#define HF_HASH_MIN            1
#define HF_HASH_MAX            256    /* when the profile does not say (hash_mb_max) */
#define HF_ERROR_MAX           1024
/* The engine option the hash parameter stands for, and the one that turns info on. */
#define HF_OPT_HASH            "HashMB"
#define HF_OPT_REPORT          "ReportIntermediateBestMoves"

enum hf_busy {
	HF_IDLE,
	HF_START,       /* engine_start outstanding: input queued */
	HF_OPTIONS,     /* engine_options outstanding: input queued */
	HF_SEARCH       /* engine_go outstanding: only ping, stop, ponder-hit, quit */
};

enum hf_optjob { HF_JOB_LIST, HF_JOB_REPORT, HF_JOB_SET };

struct hub_front {
	struct session_io      io;           /* first (session_io_new): the client, the engine, closing */


	/* Parameters. */
	unsigned               variant;
	size_t                 hash_mb;
	int                    hash_mb_max;  /* the profile's client limit */
	struct engine_option     *opts;         /* the engine's options, owned */
	size_t                 nopts;

	/* The next search. */
	struct hive_game       game;
	int                    have_pos;
	struct hub_level       level;
	int                    have_level;

	/* The engine command outstanding. */
	enum hf_busy           busy;
	enum hf_optjob         optjob;
	char                  *opt_argv[3];  /* options command in flight, owned */
	enum hub_go_mode       mode;
	int                    stopping;     /* stop sent: the next done is final */
	int                    restart;      /* ponder-hit: search again when done comes */
	int64_t                t0_ms;        /* when the limits started to count, now_ms() */
	struct hive_search_info last;        /* latest info, for ponder= and fall-backs */
	int                    have_last;

};

/* ---- output, the same from both halves ---- */

/* ---- output ---- */

static inline void out_line(struct hub_front *s, const char *line, size_t len)
{
	session_io_write_line(&s->io, line, len);
}

static inline void out_str(struct hub_front *s, const char *line)
{
	out_line(s, line, strlen(line));
}

/* Ends a hub_writer line: sends it, or logs why it could not be built. */
static inline void out_writer(struct hub_front *s, struct span_writer *w)
{
	int n = hub_writer_end(w);
	if (n < 0) {
		log_note(s->io.id, "hub: cannot write a '%.16s' line: %s", w->buf, w->error);
		return;
	}
	out_line(s, w->buf, (size_t)n);
}

static inline void out_error(struct hub_front *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void out_error(struct hub_front *s, const char *fmt, ...)
{
	char msg[HF_ERROR_MAX], line[HF_ERROR_MAX + 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	int n = hub_error_write(line, sizeof line, msg);
	if (n >= 0)
		out_line(s, line, (size_t)n);
}

/* hub_front_params.c. started is engine_start's callback: it lists the options. */
void hub_params_started(void *arg, const struct engine_result *r);
void hub_params_cmd_hub(struct hub_front *s, const struct hub_msg *m);
void hub_params_cmd_set(struct hub_front *s, const struct hub_msg *m);
/* The game types, separated by sep and the last one by last_sep. */
void hub_params_variants(char *buf, size_t len, const char *sep, const char *last_sep);
/* Frees the option cache and the options command's arguments. */
void hub_params_free(struct hub_front *s);

#endif
