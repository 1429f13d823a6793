/*
 * match_queue_setup.c: the coordinator of `match --queue` setting up on each
 * connection to Redis (match_queue.c says what the streams hold and why).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/log.h"
#include "bridge/match/match_int.h"
#include "bridge/match/match_queue_int.h"
#include "bridge/util.h"

/* --- setting up, on each connection --------------------------------------------------------
 * HSETNX the sig (1 again after the first time: Redis lost the hash), HMGET it back
 * (ours, not deleted), the groups (which make the streams), then the jobs stream
 * read back page by page: its entries that are our jobs say which games are queued,
 * and a game we had queued that is not there lost its job (Redis restarted without
 * persistence, or the stream was deleted): it is queued again. Any refused write
 * starts the whole setup again after a back-off. */

static void coord_scan_page(struct coord *c);

static void on_setup_write(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	redisReply *r = reply;

	if (c->q.closing || !r)
		return;
	if (r->type == REDIS_REPLY_ERROR && !queue_is_error(r, "BUSYGROUP")) {
		c->setup_bad = 1;
		coord_refused(c, r, "to set the match up");
	}
}

static void on_hsetnx(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	redisReply *r = reply;
	long long v;

	if (c->q.closing || !r)
		return;
	if (queue_integer(r, &v) < 0) {
		c->setup_bad = 1;
		if (r->type == REDIS_REPLY_ERROR)
			coord_refused(c, r, "to set the match up");
		else
			coord_bad(c, "HSETNX answered with no number");
		return;
	}
	if (v == 1 && c->sig_set)
		c->hash_lost = 1;
	c->sig_set = 1;
}

/* [sig, deleted] of the match hash: ours and alive, then the streams and the file. */
static void on_sig(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	struct match *m = c->m;
	redisReply *r = reply;
	const char *f[2];
	char other[256];

	if (c->q.closing || !r)
		return;
	if (queue_strings(r, 2, f) < 0) {
		coord_bad(c, "HMGET answered with no pair of strings");
		c->setup_running = 0;
		coord_backoff(c);            /* on_retry sets up again */
		return;
	}
	if (f[0] && strcmp(f[0], c->sig)) {
		fprintf(stderr, "hivebridge %s: queue %s holds another match (%s); use another NAME\n",
			match_cmd(m), c->q.name, queue_escape(other, sizeof other, f[0]));
		m->failed = 1;
		coord_exit(c);
		return;
	}
	if (f[1]) {
		fprintf(stderr, "hivebridge %s: queue %s: this match is over and its streams were deleted "
			"(its results are in the --results file of that run); use another NAME, or DEL %s %s "
			"to play it again\n", match_cmd(c->m), c->q.name, c->q.k_match, c->q.k_stop);
		m->failed = 1;
		coord_exit(c);
		return;
	}
	queue_cmd(&c->q, on_setup_write, c, "XGROUP CREATE %s %s 0 MKSTREAM", c->q.k_jobs, QUEUE_GROUP);
	/* Workers post with NOMKSTREAM (a late result must not bring a deleted stream
	 * back), so the stream exists before the first job: a group does that. */
	queue_cmd(&c->q, on_setup_write, c, "XGROUP CREATE %s coordinator $ MKSTREAM", c->q.k_results);
	if (m->http)
		queue_cmd(&c->q, on_setup_write, c, "XGROUP CREATE %s coordinator $ MKSTREAM", c->q.k_progress);
	if (c->first_setup && !m->stopping)
		queue_cmd(&c->q, on_setup_write, c, "DEL %s", c->q.k_stop);   /* a paused match goes on */
	/* The streams are the record: the file is written again from them. */
	if (!c->opened) {
		if (m->o.results_path && !(m->results = fopen(m->o.results_path, "w")))
			fprintf(stderr, "hivebridge %s: cannot open %s: %s\n", match_cmd(m), m->o.results_path,
				strerror(errno));
		if ((m->o.results_path && !m->results) || pgnout_open(m) < 0) {
			m->failed = 1;
			coord_exit(c);
			return;
		}
		c->opened = 1;
	}
	snprintf(c->scan_from, sizeof c->scan_from, "-");
	coord_scan_page(c);
}

static void coord_scan_end(struct coord *c)
{
	struct match *m = c->m;
	unsigned missing = 0;

	for (unsigned g = 1; g <= m->o.games; g++) {
		if (c->seen[g]) {
			c->jobs[g] |= JOB_ASKED | JOB_ON;
			if (g > c->queued)
				c->queued = g;
		} else if ((c->jobs[g] & JOB_ON) && !m->done[g] && !c->dead[g]) {
			coord_hole(c, g);
			missing++;
		} else {
			c->jobs[g] &= (unsigned char)~JOB_ON;
		}
	}
	free(c->seen);
	c->seen = NULL;
	/* What goes again: the jobs lost, and those refused before. */
	unsigned again = 0;
	for (unsigned g = 1; g <= c->queued; g++)
		again += !(c->jobs[g] & (JOB_SENT | JOB_ON)) && !m->done[g] && !c->dead[g];
	if (c->rebuilding) {
		fprintf(stderr, "hivebridge %s: redis: the jobs stream is made again: %u games without a "
			"result are queued again\n", match_cmd(c->m), again);
	} else if (c->hash_lost || missing) {
		fprintf(stderr, "hivebridge %s: redis lost the match's data (restarted without persistence, "
			"or deleted): %u games without a result are queued again\n", match_cmd(c->m), again);
		log_note(0, "match: redis lost the match's data; %u games queued again", again);
	}
	if (c->hash_lost) {
		/* Every stream is new: read each from its start (results counted are dupes). */
		snprintf(c->cur_res, sizeof c->cur_res, "0-0");
		snprintf(c->cur_ev, sizeof c->cur_ev, "0-0");
		snprintf(c->cur_dead, sizeof c->cur_dead, "0-0");
		c->replaying = 1;
	}
	c->hash_lost = 0;
	c->rebuilding = 0;
	c->first_setup = 0;
	c->setup_running = 0;
	c->scanned = 1;
	coord_accepted(c);
	coord_pump(c);
}

static void on_scan(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	struct match *m = c->m;
	redisReply *r = reply;
	const char *last = NULL;

	if (c->q.closing || !r || m->failed)
		return;
	if (c->setup_bad || r->type != REDIS_REPLY_ARRAY) {
		if (!c->setup_bad)
			coord_bad(c, "XRANGE of the jobs answered with no entries");
		c->setup_running = 0;
		coord_backoff(c);            /* on_retry sets up again */
		return;
	}
	if (!c->seen && !(c->seen = calloc((size_t)m->o.games + 1, 1))) {
		coord_fail(c);
		return;
	}
	for (size_t i = 0; i < r->elements; i++) {
		const redisReply *e = r->element[i];
		const char *id = queue_entry_id(e), *g = queue_field(e, "game");
		unsigned long long v;
		if (!id)
			continue;
		last = id;
		/* Only our own jobs count: anything else planted there is the workers' to refuse. */
		if (g && parse_uint(g, 1, m->o.games, &v) == 0 && coord_job_matches(c, (unsigned)v, e))
			c->seen[v] = 1;
	}
	if (last && r->elements == (size_t)atoi(COORD_SCAN_COUNT)) {
		snprintf(c->scan_from, sizeof c->scan_from, "(%s", last);
		coord_scan_page(c);
		return;
	}
	coord_scan_end(c);
}

static void coord_scan_page(struct coord *c)
{
	const char *argv[] = { "XRANGE", c->q.k_jobs, c->scan_from, "+", "COUNT", COORD_SCAN_COUNT };
	queue_cmd_argv(&c->q, on_scan, c, 6, argv, NULL);
}

void coord_setup(struct coord *c)
{
	c->setup_bad = 0;
	c->scanned = 0;
	c->hash_lost = 0;
	c->setup_running = 1;
	free(c->seen);
	c->seen = NULL;
	queue_cmd(&c->q, on_hsetnx, c, "HSETNX %s sig %s", c->q.k_match, c->sig);
	queue_cmd(&c->q, on_sig, c, "HMGET %s sig deleted", c->q.k_match);
}
