/*
 * match_queue.c: `hivebridge match --queue redis://HOST:PORT/NAME`, the coordinator
 * (and `tournament --queue`'s: a tournament is a match of N engines). No engine
 * runs here: one job per game goes on the jobs stream (its pairing's two ENGINEs,
 * which has white, its opening: match_schedule's numbering), `hivebridge worker`s
 * play them (worker.c), and their results come back on the results stream, each
 * checked against its game's job. This side keeps what a local match keeps: the
 * results file, the progress lines, the score, Elo and SPRT, a tournament's
 * pairing scores and rating list.
 *
 * Redis is not trusted: whoever can write to it (or answer on its port) chooses
 * what we read. Replies go through the pure decoders of queue_reply.c; a result
 * counts only once match_result_check accepts it, and what is written is rebuilt
 * from its checked fields; text is escaped before it is printed. Jobs get their
 * IDs from Redis; on each connection the jobs stream is read back (only entries
 * that are exactly our job for their game count), which tells a restart what is
 * queued and shows a loss (Redis restarted without persistence): what is missing
 * is queued again. Writes Redis refuses are sent again after a back-off. A job a
 * worker sets aside (the dead stream) is reported once and not played: the match
 * ends without it and exits 1.
 *
 * The streams are the record: a coordinator killed and started again reads the
 * results stream from its start (silently, as --resume reads a file), rewrites
 * --results from it and goes on. A game is counted once: a second result for a
 * game number (a worker presumed dead that was only slow) is ignored. When the
 * match is over (every game, or the SPRT decided) or stopped, the stop key tells
 * the workers to drop what is left.
 *
 * Once a match is over and its results file written, its streams are deleted
 * (unless --keep, or without --results: then they are the only record). What
 * stays is tiny: the stop key, for workers still to come, and the match hash with
 * "deleted", so that the same command run again refuses (it would play the whole
 * match again) before it truncates the results file.
 *
 * Here: the jobs and the results, the reads and the run. The setup on each
 * connection is match_queue_setup.c, the dashboard's workers and their games in
 * progress (--http) match_queue_live.c; match_queue_int.h is what they share.
 */
#include <cJSON.h>
#include <errno.h>
#include <event2/event.h>
#include <event2/thread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/match/match_int.h"
#include "bridge/match/match_queue_int.h"
#include "bridge/util.h"
#include "core/game.h"

void coord_exit(struct coord *c)
{
	struct match *m = c->m;
	/* Played out with a page: it stays up until a signal, like a local match. */
	if (m->http && !m->failed && !m->interrupted) {
		if (c->bound)
			evtimer_del(c->bound);
		if (!m->web_lingering) {
			m->web_lingering = 1;
			/* The workers drop what is left: nothing is in flight any more. */
			for (unsigned i = 0; i < c->nworkers; i++)
				c->workers[i].in_flight = 0;
			coord_live_drop_all(c);
			live_notify_match();
			fprintf(stderr, "hivebridge %s: played out; the web page stays up until SIGINT or SIGTERM\n",
				match_cmd(m));
		}
		return;
	}
	event_base_loopexit(m->base, NULL);
}
static void on_bound(evutil_socket_t fd, short what, void *arg)
{
	coord_exit(arg);
}

static void on_deleted(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	redisReply *r = reply;
	if (c->q.closing)
		return;
	if (r && r->type == REDIS_REPLY_INTEGER)
		printf("Deleted the streams of %s: the results are in %s\n", c->q.name, c->m->o.results_path);
	coord_exit(c);
}

static void on_stop_set(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	struct match *m = c->m;
	char now[32];

	if (c->q.closing)
		return;
	if (!reply) {
		c->stop_sent = 0;            /* lost: sent again once reconnected */
		return;
	}
	/* Over, and the file holds every result: the streams are no record any more. */
	snprintf(now, sizeof now, "%lld", (long long)time(NULL));
	/* Games set aside: the dead stream is their only record, so all stays. */
	if (!strncmp(c->stop_value, "over", 4) && m->results && !m->failed && !m->o.keep && !c->ndead &&
	    queue_cmd(&c->q, NULL, NULL, "HSET %s deleted %s", c->q.k_match, now) == 0 &&
	    queue_cmd(&c->q, on_deleted, c, "DEL %s %s %s %s %s", c->q.k_jobs, c->q.k_results, c->q.k_events,
		      c->q.k_progress, c->q.k_dead) == 0)
		return;
	coord_exit(c);
}

/* The match is over or stopped: the workers drop what is left, then we exit. */
void coord_stop(struct coord *c, const char *value)
{
	c->m->stopping = 1;
	c->stop_value = value;
	if (!c->bound) {
		struct timeval tv = { QUEUE_STOP_MS / 1000, 0 };
		c->bound = evtimer_new(c->m->base, on_bound, c);
		if (c->bound)
			evtimer_add(c->bound, &tv);
	}
	if (!c->stop_sent && queue_cmd(&c->q, on_stop_set, c, "SET %s %s", c->q.k_stop, value) == 0)
		c->stop_sent = 1;
	if (!c->q.ready && c->m->interrupted)
		coord_exit(c);               /* nothing to tell anyone now */
}

/* --- what Redis answers that it should not, and writes it refuses ------------------------ */

/* A reply or an entry of the wrong shape: said on stderr the first times, then only
 * logged; it is skipped. */
void coord_fail(struct coord *c)
{
	c->m->failed = 1;
	coord_stop(c, "paused");
}

void coord_bad(struct coord *c, const char *what)
{
	c->bad++;
	log_note(0, "match: redis: %s", what);
	if (c->bad <= COORD_BAD_SAY)
		fprintf(stderr, "hivebridge %s: redis: %s, ignored%s\n", match_cmd(c->m), what,
			c->bad == COORD_BAD_SAY ? " (more are only logged)" : "");
}

/* The retry timer, with a doubling back-off: what was refused is sent again. */
void coord_backoff(struct coord *c)
{
	if (!c->retry || evtimer_pending(c->retry, NULL))
		return;
	if (c->retry_ms < COORD_RETRY_MIN)
		c->retry_ms = COORD_RETRY_MIN;
	struct timeval tv = { c->retry_ms / 1000, (c->retry_ms % 1000) * 1000 };
	evtimer_add(c->retry, &tv);
	c->retry_ms = c->retry_ms * 2 > COORD_RETRY_MAX ? COORD_RETRY_MAX : c->retry_ms * 2;
}

/* Redis refused a write (OOM, MISCONF, READONLY, ...): said once per outage, and
 * sent again after a back-off. */
void coord_refused(struct coord *c, const redisReply *r, const char *what)
{
	char why[256];

	queue_escape(why, sizeof why, r && r->type == REDIS_REPLY_ERROR ? r->str : "an answer of the wrong type");
	log_note(0, "match: redis refused %s: %s", what, why);
	if (!c->refusing)
		fprintf(stderr, "hivebridge %s: redis refused %s: %s; trying again with back-off (up to %d s)\n",
			match_cmd(c->m), what, why, COORD_RETRY_MAX / 1000);
	c->refusing = 1;
	coord_backoff(c);
}

void coord_accepted(struct coord *c)
{
	c->retry_ms = COORD_RETRY_MIN;
	if (!c->refusing)
		return;
	c->refusing = 0;
	log_note(0, "match: redis takes writes again");
	fprintf(stderr, "hivebridge %s: redis takes writes again\n", match_cmd(c->m));
}

/* --- the jobs ------------------------------------------------------------------------------- */

/* Game g's job: XADD's argv (argv[3] on are the fields; "live" last, not compared). */
struct coord_job {
	char        game[16], white[2], depth[16], mt[24], ck[24], inc[24], mp[16], rep[16];
	const char *argv[32];
	int         argc, ncmp;
};

static void coord_job(const struct coord *c, unsigned g, struct coord_job *j)
{
	const struct match *m = c->m;
	int side[2], white, op, n = 0;

	/* A tournament's game: its pairing's engines as engine_a and engine_b. */
	match_schedule(m, g, side, &white, &op);
	snprintf(j->game, sizeof j->game, "%u", g);
	snprintf(j->white, sizeof j->white, "%s", white == 0 ? "a" : "b");
	snprintf(j->depth, sizeof j->depth, "%d", m->o.depth);
	snprintf(j->mt, sizeof j->mt, "%llu", (unsigned long long)m->o.movetime_ms);
	snprintf(j->ck, sizeof j->ck, "%llu", (unsigned long long)m->o.clock_ms);
	snprintf(j->inc, sizeof j->inc, "%llu", (unsigned long long)m->o.inc_ms);
	snprintf(j->mp, sizeof j->mp, "%u", m->o.max_plies);
	snprintf(j->rep, sizeof j->rep, "%u", m->o.repetition);
	const char *f[] = { "XADD", c->q.k_jobs, "*", "game", j->game, "white", j->white,
		"opening", op >= 0 ? m->openings[op] : "", "type", hive_gametype_name(m->o.type), "depth", j->depth,
		"movetime", j->mt, "clock", j->ck, "inc", j->inc, "max_plies", j->mp, "repetition", j->rep,
		"engine_a", m->o.spec[side[0]], "engine_b", m->o.spec[side[1]], "live", "1" };
	for (; n < (int)(sizeof f / sizeof *f); n++)
		j->argv[n] = f[n];
	j->ncmp = n - 2;
	/* live: its plies go on the progress stream, for the page. */
	j->argc = m->http ? n : n - 2;
}

/* Entry e of the jobs stream is game g's job as we would queue it. */
int coord_job_matches(const struct coord *c, unsigned g, const redisReply *e)
{
	struct coord_job j;

	coord_job(c, g, &j);
	for (int i = 3; i + 1 < j.ncmp; i += 2) {
		const char *v = queue_field(e, j.argv[i]);
		if (!v || strcmp(v, j.argv[i + 1]))
			return 0;
	}
	return 1;
}

/* Game g has no job on the stream any more: coord_enqueue sends it again. */
void coord_hole(struct coord *c, unsigned g)
{
	c->jobs[g] &= (unsigned char)~(JOB_SENT | JOB_ON);
	if (!c->holes || g < c->low)
		c->low = g;
	c->holes = 1;
}


struct coord_xadd {
	struct coord *c;
	unsigned      g;
};

static void on_jobs_deleted(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	if (!c->q.closing && reply)
		coord_setup(c);
}

/* XADD refuses every entry once the stream's top ID is the highest there is: an
 * entry planted there blocks the match. The stream goes, with it; the setup makes
 * it again and queues what it then lacks. */
static void coord_jobs_blocked(struct coord *c, const redisReply *r)
{
	char why[256];

	if (c->rebuilding)
		return;
	c->rebuilding = 1;
	c->scanned = 0;
	fprintf(stderr, "hivebridge %s: redis: the jobs stream takes no more entries (%s): an entry with the "
		"highest ID was planted in it; the stream is made again and its games queued again\n",
		match_cmd(c->m), queue_escape(why, sizeof why, r->str));
	if (queue_cmd(&c->q, on_jobs_deleted, c, "DEL %s", c->q.k_jobs) < 0)
		c->rebuilding = 0;
}

static void on_enqueued(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord_xadd *x = priv;
	struct coord *c = x->c;
	unsigned g = x->g;
	redisReply *r = reply;

	free(x);
	if (c->q.closing)
		return;
	if (r && r->type == REDIS_REPLY_STRING) {
		c->jobs[g] = (unsigned char)((c->jobs[g] & ~JOB_SENT) | JOB_ON);
		coord_accepted(c);
		return;
	}
	coord_hole(c, g);
	if (!r)
		return;                      /* lost: the setup reads the stream back first */
	if (r->type == REDIS_REPLY_ERROR && r->str &&
	    (strstr(r->str, "exhausted") || strstr(r->str, "equal or smaller")))
		coord_jobs_blocked(c, r);
	else
		coord_refused(c, r, "a job");
}

static int coord_send_job(struct coord *c, unsigned g)
{
	struct coord_job j;
	struct coord_xadd *x = malloc(sizeof *x);

	if (!x)
		return -1;
	x->c = c;
	x->g = g;
	coord_job(c, g, &j);
	if (queue_cmd_argv(&c->q, on_enqueued, x, j.argc, j.argv, NULL) < 0) {
		free(x);
		return -1;
	}
	c->jobs[g] |= JOB_ASKED | JOB_SENT;
	return 0;
}

/* Jobs go on the stream up to QUEUE_WINDOW ahead of the results; games whose job
 * was refused or lost go again first. Not while a refusal's back-off runs. */
static void coord_enqueue(struct coord *c)
{
	struct match *m = c->m;
	unsigned limit = m->total + c->ndead + QUEUE_WINDOW;

	if (!c->scanned || evtimer_pending(c->retry, NULL))
		return;
	if (limit > m->o.games)
		limit = m->o.games;
	if (c->holes) {
		c->holes = 0;
		for (unsigned g = c->low; g <= c->queued; g++) {
			if ((c->jobs[g] & (JOB_SENT | JOB_ON)) || m->done[g] || c->dead[g])
				continue;
			if (coord_send_job(c, g) < 0) {
				c->holes = 1;
				c->low = g;
				return;
			}
		}
	}
	while (c->queued < limit) {
		unsigned g = ++c->queued;
		if (m->done[g] || c->dead[g] || (c->jobs[g] & (JOB_SENT | JOB_ON)))
			continue;
		if (coord_send_job(c, g) < 0) {
			c->queued = g - 1;
			return;
		}
	}
}

/* --- what comes back -------------------------------------------------------------------- */

static void coord_reject(struct coord *c, unsigned game, const char *who, const char *why)
{
	char g[32] = "";

	c->rejected++;
	if (game)
		snprintf(g, sizeof g, " of game %u", game);
	log_note(0, "match: result%s from worker %s refused: %s", g, who, why);
	if (c->rejected <= COORD_BAD_SAY)
		fprintf(stderr, "hivebridge %s: refused a result%s (worker %s): %s%s\n", match_cmd(c->m), g, who, why,
			c->rejected == COORD_BAD_SAY ? " (more are only logged)" : "");
}

/* One result entry: checked, counted once, written as we rebuild it, printed. */
static void coord_result(struct coord *c, const redisReply *e)
{
	struct match *m = c->m;
	char who[64], why[160], reason[300];
	unsigned game;
	double score;
	char *text = NULL;

	queue_escape(who, sizeof who, queue_field(e, "worker"));
	struct match_result_rules rr = {
		.games = m->o.games, .label = { m->pl[0].label, m->pl[1].label }, .openings = m->openings,
		.nopenings = m->nopenings, .type = m->o.type, .worker = who,
		.labels = m->o.spec, .pairs = (const unsigned char (*)[2])m->pairs, .npairs = m->npairs,
	};
	cJSON *o = match_result_check(queue_field(e, "line"), &rr, &game, &score, why, sizeof why);
	if (!o) {
		coord_reject(c, game, who, why);
		return;
	}
	if (!(c->jobs[game] & JOB_ASKED)) {
		coord_reject(c, game, who, "that game was never queued");
		goto out;
	}
	if (m->done[game]) {
		c->dupes++;
		if (c->caught_up && !c->replaying)
			printf("Ignored a second result of game %u (worker %s)\n", game, who);
		log_note(0, "match: game %u: second result from %s ignored", game, who);
		goto out;
	}
	/* The PGN first, as a local match writes it: both files are written again from
	 * the streams when a coordinator starts, so no kill leaves them apart. */
	if (pgnout_write_result(m, o) < 0) {
		coord_fail(c);
		goto out;
	}
	text = cJSON_PrintUnformatted(o);
	if (!text || (m->results && (fprintf(m->results, "%s\n", text) < 0 || fflush(m->results) != 0))) {
		fprintf(stderr, "hivebridge %s: cannot write %s: %s\n", match_cmd(c->m), m->o.results_path,
			text ? strerror(errno) : "no memory");
		coord_fail(c);
		goto out;
	}
	results_count(m, game, score);
	if (c->dead[game]) {
		c->dead[game] = 0;           /* played after all */
		c->ndead--;
	}
	const char *res = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "result"));
	const char *rsn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "reason"));
	coord_live_result(c, game, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "gamestring")),
			  res, rsn);
	if (m->http) {
		struct coord_worker *cw = coord_worker(c, who);
		if (cw) {
			cw->games++;
			if (c->caught_up) {
				cw->recent++;
				cw->last_ms = now_ms();
			}
		}
	}
	if (c->caught_up) {
		int side[2], white, op;
		unsigned pair = match_schedule(m, game, side, &white, &op);
		m->played++;
		printf("Finished game %u (%s vs %s): %s {%s}, %d plies (worker %s)\n", game,
		       m->pl[side[white]].label, m->pl[side[1 - white]].label, res,
		       queue_escape(reason, sizeof reason, rsn),
		       (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "plies")), who);
		if (m->o.tournament)
			results_print_pair(m, pair);
		else
			results_print_score(m);
		fflush(stdout);
	}
	if (m->o.sprt_set && m->verdict == SPRT_CONTINUE) {
		double llr;
		m->verdict = results_verdict(m, &llr);
		if (m->verdict != SPRT_CONTINUE && c->caught_up) {
			printf("SPRT: %s accepted after %u games (llr %.3f)\n",
			       m->verdict == SPRT_ACCEPT_H1 ? "H1" : "H0", m->total, llr);
			fflush(stdout);
		}
	}
	match_web_result(m, o);
out:
	cJSON_free(text);
	cJSON_Delete(o);
}

/* One entry of the dead-letter stream: a job a worker could not play. The game
 * is not played (nor queued again: any worker would refuse it alike); the match
 * ends without it and says so. */
static void coord_dead(struct coord *c, const redisReply *e)
{
	struct match *m = c->m;
	struct queue_dead d;
	char who[64], why[256], what[64];

	if (queue_dead_decode(e, m->o.games, &d) < 0) {
		coord_bad(c, "a malformed entry on the dead stream");
		return;
	}
	queue_escape(who, sizeof who, d.worker);
	queue_escape(why, sizeof why, d.reason);
	if (!d.game || !(c->jobs[d.game] & JOB_ASKED)) {
		queue_escape(what, sizeof what, d.game_text ? d.game_text : d.job);
		fprintf(stderr, "hivebridge %s: worker %s set aside a job that is no game of this match (%s): %s\n",
			match_cmd(m), who, what, why);
		return;
	}
	if (m->done[d.game] || c->dead[d.game]) {
		log_note(0, "match: game %u set aside again by worker %s: %s", d.game, who, why);
		return;
	}
	c->dead[d.game] = 1;
	c->ndead++;
	fprintf(stderr, "hivebridge %s: game %u will not be played: worker %s set its job aside: %s\n",
		match_cmd(m), d.game, who, why);
}

static void coord_event(struct coord *c, const redisReply *e)
{
	char who[64], text[512];
	queue_escape(who, sizeof who, queue_field(e, "worker"));
	queue_escape(text, sizeof text, queue_field(e, "text"));
	fprintf(stderr, "hivebridge %s: worker %s: %s\n", match_cmd(c->m), who, text);
}

static void coord_header(struct coord *c)
{
	struct match *m = c->m;
	const char *from = m->nopenings ? "openings from file" : hive_gametype_name(m->o.type);
	if (m->o.tournament) {
		printf("Tournament (%s) of %u engines: %u pairings, %u games each, %u games (%u already played), "
		       "%s, queue redis://%s:%d/%s\n", m->o.gauntlet ? "gauntlet" : "round-robin", m->npl,
		       m->npairs, m->per_pair, m->o.games, m->total, from, c->q.host, c->q.port, c->q.name);
	} else {
		printf("Match %s vs %s: %u games (%u already played), %s, queue redis://%s:%d/%s\n",
		       m->pl[0].label, m->pl[1].label, m->o.games, m->total, from, c->q.host, c->q.port,
		       c->q.name);
		if (m->total)
			results_print_score(m);
	}
	fflush(stdout);
}

static void on_read(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	struct match *m = c->m;
	redisReply *r = reply;
	size_t n = 0, nres = 0;
	char why[256];

	if (c->q.closing)
		return;
	c->reading = 0;
	if (!r)
		return;                      /* lost: on_ready reads again from the cursors */
	if (r->type == REDIS_REPLY_ERROR) {
		fprintf(stderr, "hivebridge %s: redis: %s\n", match_cmd(c->m), queue_escape(why, sizeof why, r->str));
		coord_fail(c);
		return;
	}
	if (!queue_xread_answer(r)) {
		coord_bad(c, "XREAD answered with no streams");
		c->read_paused = 1;
		coord_backoff(c);
		return;
	}
	/* The streams asked for, each by its name: an answer may hold any others. */
	const char *keys[4] = { c->q.k_results, c->q.k_events, c->q.k_dead, c->q.k_progress };
	char *curs[4] = { c->cur_res, c->cur_ev, c->cur_dead, c->cur_prog };
	for (int k = 0; k < 4; k++) {
		const redisReply *es = queue_xread_stream(r, keys[k]);
		unsigned char skip[QUEUE_READ_COUNT] = { 0 };
		if (!es || (k == 3 && !(c->caught_up && m->http)))
			continue;
		if (k == 3)
			coord_progress_latest(es, skip);
		for (size_t j = 0; j < es->elements; j++) {
			const redisReply *e = es->element[j];
			const char *id = queue_entry_id(e);
			if (!id) {
				coord_bad(c, "a stream entry that is not [ID, [field, value, ...]]");
				continue;
			}
			snprintf(curs[k], sizeof c->cur_res, "%s", id);
			if (k == 3) {
				if (j >= QUEUE_READ_COUNT || !skip[j])
					coord_progress(c, e);
				continue;
			}
			n++;
			if (k == 0) {
				nres++;
				coord_result(c, e);
			} else if (k == 1) {
				if (c->caught_up)
					coord_event(c, e);
			} else {
				coord_dead(c, e);
			}
		}
	}
	if (!c->refusing)
		c->retry_ms = COORD_RETRY_MIN;
	if (c->replaying && !nres)
		c->replaying = 0;
	if (!c->caught_up && n == 0) {
		c->caught_up = 1;
		c->since_ms = now_ms();
		coord_header(c);
	}
	coord_pump(c);
}

void coord_pump(struct coord *c)
{
	struct match *m = c->m;

	if (!c->q.ready || c->reading || m->interrupted)
		return;
	if (c->caught_up && !m->stopping) {
		if (m->verdict != SPRT_CONTINUE)
			coord_stop(c, "over: the SPRT decided");
		else if (m->total >= m->o.games)
			coord_stop(c, "over: every game has a result");
		else if (m->total + c->ndead >= m->o.games)
			coord_stop(c, "over: every game has a result or was set aside");
	}
	if (m->stopping) {
		coord_stop(c, c->stop_value ? c->stop_value : "paused");
		return;
	}
	/* The jobs stream is read back before anything is read or queued. */
	if (!c->scanned || c->read_paused)
		return;
	if (c->caught_up)
		coord_enqueue(c);
	/* Catching up reads without waiting, so its end shows as an empty answer. */
	char count[16], block[16];
	snprintf(count, sizeof count, "%d", QUEUE_READ_COUNT);
	snprintf(block, sizeof block, "%d", c->caught_up ? QUEUE_BLOCK_MS : 0);
	const char *argv[16] = { "XREAD", "COUNT", count, "BLOCK", block, "STREAMS" };
	int argc = 6;
	/* The workers' plies, once caught up (from "$": only games still running). */
	int prog = c->caught_up && m->http;
	argv[argc++] = c->q.k_results;
	argv[argc++] = c->q.k_events;
	argv[argc++] = c->q.k_dead;
	if (prog)
		argv[argc++] = c->q.k_progress;
	argv[argc++] = c->cur_res;
	argv[argc++] = c->cur_ev;
	argv[argc++] = c->cur_dead;
	if (prog)
		argv[argc++] = c->cur_prog;
	if (!c->caught_up) {
		/* XREAD BLOCK 0 blocks forever: without BLOCK it answers at once. */
		memmove(&argv[3], &argv[5], (size_t)(argc - 5) * sizeof *argv);
		argc -= 2;
	}
	if (queue_cmd_argv(&c->q, on_read, c, argc, argv, NULL) == 0)
		c->reading = 1;
}
/* The back-off is over: set up again, or send again what was refused. */
static void on_retry(evutil_socket_t fd, short what, void *arg)
{
	struct coord *c = arg;

	c->read_paused = 0;
	if (!c->q.ready || c->m->stopping)
		return;
	if (!c->scanned) {
		if (!c->setup_running)
			coord_setup(c);
		return;
	}
	coord_pump(c);
}

/* The match hash gone while connected (FLUSHALL, a DEL, a restart not yet seen):
 * the setup finds out what else is gone. */
static void on_exists(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	long long v;

	if (c->q.closing)
		return;
	c->watching = 0;
	if (!reply)
		return;
	if (queue_integer(reply, &v) < 0) {
		coord_bad(c, "EXISTS answered with no number");
		return;
	}
	if (v == 0 && c->scanned && !c->m->stopping && !c->setup_running) {
		log_note(0, "match: the match hash is gone: setting up again");
		coord_setup(c);
	}
}

static void on_watch(evutil_socket_t fd, short what, void *arg)
{
	struct coord *c = arg;
	struct timeval tv = { COORD_WATCH_MS / 1000, (COORD_WATCH_MS % 1000) * 1000 };

	if (c->q.ready && c->scanned && c->sig_set && !c->watching && !c->m->stopping &&
	    queue_cmd(&c->q, on_exists, c, "EXISTS %s", c->q.k_match) == 0)
		c->watching = 1;
	evtimer_add(c->watch, &tv);
}

/* (Re)connected: the group, the match's options, where the jobs stand, then reads. */
static void coord_ready(void *arg)
{
	struct coord *c = arg;

	c->reading = 0;
	if (c->m->stopping) {
		c->stop_sent = 0;
		coord_stop(c, c->stop_value ? c->stop_value : "paused");
		return;
	}
	coord_setup(c);
}

static void coord_down(void *arg)
{
	struct coord *c = arg;
	c->reading = 0;
	c->stop_sent = 0;
	c->scanned = 0;
	c->setup_running = 0;
	c->watching = 0;
	c->polling = 0;
	c->rebuilding = 0;
}

static void coord_fatal(void *arg)
{
	struct coord *c = arg;
	c->m->failed = 1;
	coord_exit(c);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct coord *c = arg;
	if (c->m->web_lingering) {
		log_note(0, "match: signal %d: the web page closes", (int)sig);
		event_base_loopexit(c->m->base, NULL);
		return;
	}
	log_note(0, "match: signal %d: stopping", (int)sig);
	fprintf(stderr, "hivebridge %s: interrupted\n", match_cmd(c->m));
	c->m->interrupted = 1;
	/* The workers wait for a coordinator started again. */
	coord_stop(c, "paused");
}

/* Workers refuse a job ENGINE that is not builtin[:depth=N] or the name of one
 * of their [engine NAME] profiles (unless started with --allow-engine-commands):
 * said once, before anything is queued. A NAME has no blank. */
static void coord_warn_engines(const struct match *m)
{
	for (unsigned p = 0; p < m->npl; p++) {
		const char *spec = m->o.spec[p];
		unsigned long long v;
		char e[256];
		if (!strcmp(spec, "builtin") || config_engine_movetime(spec) != 0 ||
		    (!strncmp(spec, "builtin:depth=", 14) && parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) == 0))
			continue;                /* builtin:movetime=MS too: workers take it */
		if (!strpbrk(spec, " \t") && !strchr(spec, ':') && !strchr(spec, '/'))
			continue;                /* may well be a profile NAME on the workers */
		char which[16] = "ENGINE";
		if (!m->o.tournament)
			snprintf(which, sizeof which, "ENGINE_%c", p ? 'B' : 'A');
		fprintf(stderr, "hivebridge %s: warning: %s \"%s\" is a command, not an [engine NAME] "
			"profile: workers refuse its jobs unless started with --allow-engine-commands\n",
			match_cmd(m), which, queue_escape(e, sizeof e, spec));
	}
}

int match_queue_run(struct match *m)
{
	struct coord c;
	char err[256];
	int status = 1;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.q.who = "match";
	c.first_setup = 1;
	snprintf(c.cur_res, sizeof c.cur_res, "0-0");
	snprintf(c.cur_ev, sizeof c.cur_ev, "0-0");
	snprintf(c.cur_dead, sizeof c.cur_dead, "0-0");
	c.low = 1;
	snprintf(c.cur_prog, sizeof c.cur_prog, "$");
	c.expiry_ms = m->o.live_expiry_ms;
	if (!c.expiry_ms) {
		/* Longer than any one move can take. */
		c.expiry_ms = COORD_EXPIRY_MS;
		if (m->o.clock_ms + m->o.inc_ms > c.expiry_ms)
			c.expiry_ms = m->o.clock_ms + m->o.inc_ms;
		if (2 * m->o.movetime_ms > c.expiry_ms)
			c.expiry_ms = 2 * m->o.movetime_ms;
		/* An engine's own limit (builtin:movetime=MS) is its moves' time instead. */
		for (unsigned p = 0; p < m->npl; p++)
			if (2 * (uint64_t)m->pl[p].movetime_ms > c.expiry_ms)
				c.expiry_ms = 2 * (uint64_t)m->pl[p].movetime_ms;
	}
	if (queue_url_parse(&c.q, m->o.queue, err, sizeof err) < 0 ||
	    queue_password_load(&c.q, m->o.config_path, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge %s: %s\n", match_cmd(m), err);
		return 2;
	}
	/* A match's engines "A vs B"; a tournament's its kind and every engine, in order
	 * (the order numbers its games). */
	char who[sizeof c.sig / 2] = "";
	if (m->o.tournament) {
		size_t n = (size_t)snprintf(who, sizeof who, "%s of", m->o.gauntlet ? "gauntlet" : "round-robin");
		for (unsigned p = 0; p < m->npl && n < sizeof who; p++)
			n += (size_t)snprintf(who + n, sizeof who - n, "%s %s", p ? "," : "", m->o.spec[p]);
	} else {
		snprintf(who, sizeof who, "%s vs %s", m->o.spec[0], m->o.spec[1]);
	}
	snprintf(c.sig, sizeof c.sig, "%s, games %u, type %s, depth %d, movetime %llu, clock %llu+%llu, "
		 "max plies %u, repetition %u, openings %zu", who, m->o.games,
		 hive_gametype_name(m->o.type), m->o.depth, (unsigned long long)m->o.movetime_ms,
		 (unsigned long long)m->o.clock_ms, (unsigned long long)m->o.inc_ms, m->o.max_plies,
		 m->o.repetition, m->nopenings);
	coord_warn_engines(m);
	evthread_use_pthreads();
	m->base = event_base_new();
	c.jobs = calloc((size_t)m->o.games + 1, 1);
	c.dead = calloc((size_t)m->o.games + 1, 1);
	if (!m->base || !c.jobs || !c.dead || !(c.retry = evtimer_new(m->base, on_retry, &c)) ||
	    !(c.watch = evtimer_new(m->base, on_watch, &c))) {
		fprintf(stderr, "hivebridge %s: cannot set up the event loop\n", match_cmd(m));
		goto out;
	}
	on_watch(-1, 0, &c);
	m->sig_int = evsignal_new(m->base, SIGINT, on_signal, &c);
	m->sig_term = evsignal_new(m->base, SIGTERM, on_signal, &c);
	if (!m->sig_int || !m->sig_term || evsignal_add(m->sig_int, NULL) < 0 ||
	    evsignal_add(m->sig_term, NULL) < 0) {
		fprintf(stderr, "hivebridge %s: cannot catch signals\n", match_cmd(m));
		goto out;
	}
	if (m->o.http) {
		if (match_web_start(m) < 0 || !(c.poll = evtimer_new(m->base, coord_poll, &c)))
			goto out;
		m->web_workers = coord_workers_json;
		m->web_workers_arg = &c;
		m->web_running = coord_running_json;
		coord_poll(-1, 0, &c);
	}
	c.q.on_ready = coord_ready;
	c.q.on_down = coord_down;
	c.q.on_fatal = coord_fatal;
	c.q.arg = &c;
	if (queue_start(&c.q, m->base) < 0)
		goto out;
	event_base_dispatch(m->base);

	if (!c.caught_up)
		coord_header(&c);
	match_report_end(m, c.ndead, c.q.k_dead);
	status = m->interrupted || m->failed || c.q.failed || c.ndead ? 1 : 0;
out:
	coord_live_drop_all(&c);
	queue_close(&c.q);
	util_event_free(&c.retry);
	util_event_free(&c.watch);
	free(c.jobs);
	free(c.dead);
	free(c.seen);
	util_event_free(&c.bound);
	util_event_free(&c.poll);
	/* c is gone when match.c frees the page: nothing may ask it any more. */
	match_web_free(m);
	m->web_workers = NULL;
	m->web_running = NULL;
	return status;
}
