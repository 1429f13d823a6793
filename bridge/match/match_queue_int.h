/*
 * match_queue_int.h: what the coordinator of `match --queue` (match_queue.c) shares
 * with its setup on each connection (match_queue_setup.c) and its dashboard
 * (match_queue_live.c). Not for use outside bridge/match/.
 */
#ifndef BRIDGE_MATCH_QUEUE_INT_H
#define BRIDGE_MATCH_QUEUE_INT_H

#include <cJSON.h>
#include <event2/event.h>
#include <stdint.h>

#include "bridge/match/queue.h"

struct match;
struct live_game;

/* Jobs on the stream ahead of the results: enough to keep many workers busy, few
 * enough that a decided SPRT leaves little to drop and a huge --games costs no
 * memory up front. */
#define QUEUE_WINDOW      1024
/* Stream entries read at once. */
#define QUEUE_READ_COUNT  256
/* How long a blocking read waits: the loop's other work waits behind it. */
#define QUEUE_BLOCK_MS    1000
/* At the end, how long the stop key may take to be written. */
#define QUEUE_STOP_MS     3000
/* --http: the workers the dashboard lists (others are counted, not listed), and
 * how often their games in flight are asked of Redis (XPENDING). */
#define COORD_WORKERS_MAX 128
#define COORD_POLL_MS     1000
/* --http: the workers' games shown move by move (more in flight are not shown),
 * and how long one may go without a ply before it is dropped (--live-expiry). */
#define COORD_LIVE_MAX    256
#define COORD_EXPIRY_MS   60000
/* Refused progress entries said on stderr; past this, only counted in the log. */
#define COORD_REFUSED_SAY 10
/* Refused results and malformed replies said on stderr; past this, only logged. */
#define COORD_BAD_SAY     10
/* The jobs stream read back (XRANGE) this many entries at a time. */
#define COORD_SCAN_COUNT  "1000"
/* How often the match hash is looked at: gone means Redis lost the match's data. */
#define COORD_WATCH_MS    2000
/* Writes Redis refuses (OOM, MISCONF, READONLY, ...) are sent again after this
 * back-off, doubled up to the max. */
#define COORD_RETRY_MIN   200
#define COORD_RETRY_MAX   5000

/* A game's job, jobs[g]: */
#define JOB_ASKED 1                  /* queued once (by us, or found on the stream) */
#define JOB_SENT  2                  /* its XADD is outstanding */
#define JOB_ON    4                  /* on the stream (XADD answered, or read back) */

/* A worker as its results and the jobs group's pending entries show it. */
struct coord_worker {
	char              name[64];
	unsigned          games;         /* results counted, earlier runs included */
	unsigned          recent;        /* of them, since this coordinator caught up */
	unsigned          in_flight;     /* jobs it holds (XPENDING) */
	int64_t           last_ms;       /* a result or a held job, now_ms() */
};

/* A worker's game in progress, mirrored into the live registry from the progress
 * stream (--http). */
struct coord_live {
	unsigned          game;
	char              worker[64];
	struct live_game *lg;
	int64_t           last_ms;       /* its latest entry, now_ms() */
};

struct coord {
	struct match     *m;
	struct queue_conn q;
	char              sig[4096];     /* the options a worker plays by */
	char              cur_res[48], cur_ev[48];   /* stream cursors */
	unsigned          queued;        /* highest game put on the stream */
	int               caught_up;     /* the results of earlier runs are read */
	int               first_setup;
	int               reading;       /* a read is outstanding */
	int               stop_sent;
	int               opened;        /* --results and --pgnout are open (after the checks) */
	const char       *stop_value;
	unsigned          dupes;
	struct event     *bound;
	/* The jobs: what is on the stream, what was set aside, what to send again. */
	unsigned char    *jobs;          /* jobs[g]: JOB_* */
	unsigned char    *dead;          /* dead[g]: a worker set its job aside */
	unsigned          ndead;
	int               holes;         /* a game at or above low lost its job */
	unsigned          low;
	char              cur_dead[48];
	/* Setting up on each connection: the hash, the groups, the jobs read back. */
	int               setup_bad;     /* a setup write was refused: again later */
	int               scanned;       /* the jobs stream was read back */
	int               hash_lost;     /* HSETNX set the sig again: the hash was gone */
	int               sig_set;       /* the hash held our sig once */
	unsigned char    *seen;          /* jobs found by the scan, games + 1 */
	char              scan_from[48];
	int               replaying;     /* results read again after a loss: quiet dupes */
	/* Writes refused: sent again with back-off, said once per outage. */
	int               refusing;
	int               rebuilding;    /* the jobs stream is made again */
	int               setup_running;
	int               read_paused;   /* XREAD answered nonsense: read after a back-off */
	unsigned          retry_ms;
	struct event     *retry;
	struct event     *watch;
	int               watching;
	unsigned          bad, rejected; /* malformed replies, refused results */
	/* --http only: the dashboard's workers. */
	struct coord_worker workers[COORD_WORKERS_MAX];
	unsigned          nworkers, unlisted;
	int64_t           since_ms;      /* caught up: the rates count from here */
	struct event     *poll;
	int               polling;       /* an XPENDING is outstanding */
	/* --http only: the workers' games in progress, from the progress stream. */
	char              cur_prog[48];
	struct coord_live live[COORD_LIVE_MAX];
	unsigned          nlive;
	uint64_t          expiry_ms;
	unsigned          refused;
};

/* match_queue.c */
void coord_exit(struct coord *c);
void coord_pump(struct coord *c);
/* The stop key set to value (the workers drop what is left). */
void coord_stop(struct coord *c, const char *value);
/* The match failed (its exit status says so): the workers are paused, as coord_stop. */
void coord_fail(struct coord *c);
/* A reply that makes no sense: said (up to COORD_BAD_SAY), counted. */
void coord_bad(struct coord *c, const char *what);
/* A write refused: sent again after the back-off (coord_backoff). */
void coord_refused(struct coord *c, const redisReply *r, const char *what);
void coord_backoff(struct coord *c);
/* A write went through: the outage, if any, is over. */
void coord_accepted(struct coord *c);
/* Whether stream entry e is exactly our job for game g. */
int  coord_job_matches(const struct coord *c, unsigned g, const redisReply *e);
/* Game g lost its job: queued again. */
void coord_hole(struct coord *c, unsigned g);

/* match_queue_setup.c: the hash, the groups, the jobs stream read back. */
void coord_setup(struct coord *c);

/* match_queue_live.c (--http): the workers and their games in progress. */
struct coord_worker *coord_worker(struct coord *c, const char *name);
cJSON *coord_workers_json(void *arg);
void coord_running_json(void *arg, cJSON *run);
/* The workers' games in flight asked of Redis (XPENDING), every COORD_POLL_MS. */
void coord_poll(evutil_socket_t fd, short what, void *arg);
/* One progress entry: a ply of a worker's game, mirrored into the live registry. */
void coord_progress(struct coord *c, const redisReply *e);
/* skip[j]: progress entry j of batch es is followed by one of the same game and
 * worker (only the last is worth its parse). */
void coord_progress_latest(const redisReply *es, unsigned char *skip);
/* A result arrived for game: its live record shows the final position and result. */
void coord_live_result(struct coord *c, unsigned game, const char *gs, const char *res,
		       const char *reason);
void coord_live_drop_all(struct coord *c);

#endif
