/*
 * queue_job.h: what a worker reads from Redis, decoded without a connection
 * (queue_job.c; pure, so that tests/fuzz/fuzz_redis_job.c feeds it any reply).
 * Whoever can write to Redis, or answer on its port, chooses these replies: every
 * element's type is checked before use, and a job that cannot be played says why
 * in plain printable text. Not for use outside bridge/match/.
 */
#ifndef BRIDGE_MATCH_QUEUE_JOB_H
#define BRIDGE_MATCH_QUEUE_JOB_H

#include <hiredis/hiredis.h>
#include <stddef.h>
#include <stdint.h>

#define QUEUE_JOB_ID_MAX      48       /* "MS-SEQ": two 20-digit numbers and a dash */
#define QUEUE_JOB_ENGINE_MAX  1024     /* bytes of an ENGINE string */
#define QUEUE_JOB_OPENING_MAX 65536    /* bytes of an opening GameString */
#define QUEUE_JOB_WHY_MAX     300      /* a reason, as posted on the dead stream */
#define QUEUE_DEAD_MAX        "1024"   /* entries kept on the dead stream (about) */

/* One job entry of the jobs stream, as match_queue.c's coord_enqueue writes it. */
struct queue_job {
	char      id[QUEUE_JOB_ID_MAX];   /* its entry ID; "" if it has none that is valid */
	unsigned  game;                   /* 0 until a valid one is read */
	int       white;                  /* PLAYER_A or PLAYER_B (enum player_id) */
	char     *opening;                /* owned, NULL = none; parses, game not over */
	int       live;                   /* live=1: its plies go on the progress stream */
	/* The match's, the same in every job of a match or a tournament: */
	unsigned  type;
	int       depth;
	uint64_t  movetime_ms, clock_ms, inc_ms;
	unsigned  max_plies, repetition;
	char     *engine[2];              /* owned: engine_a, engine_b (no control byte): the game's
					   * pairing; white names which has white */
};

/* Entry e ([id, [field, value, ...]]) into j (zeroed first): 0, or -1 with the
 * reason in why (printable ASCII, cut to fit whylen); j->id and j->game are set
 * whenever the entry had valid ones, so that a job set aside can be named. Call
 * queue_job_clear either way. */
int  queue_job_decode(const redisReply *e, struct queue_job *j, char *why, size_t whylen);
void queue_job_clear(struct queue_job *j);
/* True if a and b are jobs of the same match or tournament: same type and limits
 * (their engines are each job's own). */
int  queue_job_same_limits(const struct queue_job *a, const struct queue_job *b);
/* True if j asks for a time a move that does not fit under cap ms (worker
 * --max-move-ms) with its margin (MATCH_MOVE_MARGIN): its own movetime, or an
 * engine's builtin:movetime=MS; why says which. Any other seat is capped there
 * instead (match.c). */
int  queue_job_over_cap(const struct queue_job *j, uint64_t cap, char *why, size_t whylen);
/* The first entry of an XREADGROUP answer [[key, [entry, ...]]]; NULL when there is
 * none (nil after BLOCK, an empty list, any other shape). Decode it before use. */
const redisReply *queue_read_entry(const redisReply *r);
/* XAUTOCLAIM's answer [cursor, [entry, ...], (deleted IDs)]: the cursor to send
 * next into cursor (of QUEUE_JOB_ID_MAX bytes; "0-0" once the pending entries have
 * all been seen) and the first entry claimed into *entry (NULL if none). -1 if r
 * is not that answer or its cursor is not an entry ID. */
int  queue_claim_decode(const redisReply *r, char *cursor, const redisReply **entry);
/* A stream entry ID "MS-SEQ" (decimal, each at most 20 digits) into *ms and *seq;
 * -1 if s is not one. */
int  queue_id_parse(const char *s, uint64_t *ms, uint64_t *seq);
/* src made printable for a terminal, a log or a reason: printable ASCII kept, any
 * other byte as \xNN, cut with "..." to fit len (at least 8). Returns dst. */
const char *queue_job_text(char *dst, size_t len, const char *src, size_t n);

#endif
