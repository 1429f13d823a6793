/*
 * worker.c: `hivebridge worker --queue redis://HOST:PORT/NAME [--config FILE]
 * [--concurrency K]`, a member of match NAME's consumer group. It takes jobs
 * (XAUTOCLAIM of a dead worker's job first, else XREADGROUP), plays each on a slot
 * of match.c's game loop with its own engine profiles (the job's ENGINE names are
 * resolved here, so each machine has its own paths), posts the result line (XADD,
 * with its name and the engines' ids) and only then XACKs the job.
 *
 * Nothing is lost: a job is pending until its result is on the results stream; a
 * worker that dies leaves it pending, and after --claim-after another worker
 * claims it and plays the game from the start. While a game runs, its job is
 * claimed again every third of that time (XCLAIM ... JUSTID resets its idle
 * time), so a long game is not taken from a live worker, and the stop key is read
 * every second, so the games of a match that is over are dropped at once. A result that cannot be
 * posted (Redis down) stays here and is posted again on reconnection.
 *
 * Each job names its own two ENGINEs (a tournament's jobs, its pairings'): they are
 * players made as jobs first name them (worker_players.c), and a slot keeps an
 * engine its next game uses again (match.c). Whoever can write to Redis writes the
 * jobs: a job's ENGINEs must be profiles of this worker's --config or
 * builtin[:depth=N] (config_engine_configured), unless --allow-engine-commands. A
 * job that cannot be played (that, or a field that queue_job_decode refuses, or
 * other limits than the first job's) is
 * set aside: XADDed with its reason to the dead stream, then XACKed, and the worker
 * goes on. A profile this worker lacks, or an engine that never starts, is a
 * misconfigured machine instead: reported once on the events stream, and the
 * worker stops; its jobs go back to the others, which may have the profile.
 *
 * (Over 900 lines: a job's whole life, taken, configured, played, posted, acknowledged
 * and kept by the heartbeat, is one state machine over one connection, and each of
 * its steps answers the others' failures; the Redis connection is queue.c, the
 * decoding of what Redis holds queue_job.c and queue_reply.c.)
 */
#include <event2/event.h>
#include <event2/thread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge/config.h"
#include "bridge/log.h"
#include "bridge/match/match.h"
#include "bridge/match/match_int.h"
#include "bridge/match/queue.h"
#include "bridge/match/queue_job.h"
#include "bridge/match/worker_players.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/game.h"

#define WORKER_BLOCK_MS      1000
#define WORKER_POLL_MS       1000    /* the stop key is read this often while games run */
#define WORKER_EXIT_MS       3000    /* at the end, results still posting get this long */
#define WORKER_CLAIM_STEPS   10000   /* XAUTOCLAIMs a poll at most (10 entries each) */
#define WORKER_HELD_MAX      64      /* jobs held unposted: no more are taken */
#define WORKER_STOP_READ     "255"   /* bytes of the stop key read (GETRANGE): a huge value costs nothing */

struct job {
	struct queue_job  q;             /* as read from the jobs stream */
	char             *result;        /* the line, once played, until XACKed */
	char             *reason;        /* set aside: why, posted on dead, then XACKed */
	int               posting;       /* XADD or XACK outstanding */
	struct slot      *slot;
	struct job       *next;
};

struct worker {
	struct match       m;
	struct queue_conn  q;
	char               name[MATCH_WORKER_NAME_MAX];
	int                configured;   /* m is set up from the first job played */
	struct queue_job   limits;       /* that job: its limits, every job's (no engines) */
	struct worker_players players;   /* the engines the jobs name, as m->pl */
	char               cursor[QUEUE_JOB_ID_MAX];   /* XAUTOCLAIM's, "0-0" to start a scan */
	unsigned           claim_steps;  /* XAUTOCLAIMs of this scan */
	int                fetching;
	int                paused;       /* the coordinator is stopped */
	int                over;         /* the match is over */
	int                dead;         /* an engine cannot work: report, exit 1 */
	int                exiting;
	int                nogroup;      /* create the group once the stop key is read */
	struct job        *jobs;
	struct event      *beat;
	unsigned           beat_ms, beat_due;   /* the timer's period; ms to the next XCLAIM */
	struct event      *bound;
	struct event      *repost;       /* posts Redis refused, sent again after repost_ms */
	unsigned           repost_ms;    /* back-off: QUEUE_BACKOFF_MIN doubling to _MAX */
	int                refused;      /* a refusal was said: said once until one goes through */
};

static void worker_pump(struct worker *w);

static void job_free(struct job *j)
{
	queue_job_clear(&j->q);
	free(j->result);
	free(j->reason);
	free(j);
}

/* The one free path of a held job: out of the list and off its slot. */
static void worker_unlink(struct worker *w, struct job *j)
{
	if (j->slot && j->slot->job == j)
		j->slot->job = NULL;
	for (struct job **p = &w->jobs; *p; p = &(*p)->next)
		if (*p == j) {
			*p = j->next;
			break;
		}
	job_free(j);
}

/* Whether job entry id is held here already (a reclaim of our own pending entry). */
static int worker_holds(const struct worker *w, const char *id)
{
	for (const struct job *j = w->jobs; j; j = j->next)
		if (!strcmp(j->q.id, id))
			return 1;
	return 0;
}

static unsigned worker_held(const struct worker *w)
{
	unsigned n = 0;
	for (const struct job *j = w->jobs; j; j = j->next)
		n += !j->slot;
	return n;
}

static int worker_posting(const struct worker *w)
{
	for (const struct job *j = w->jobs; j; j = j->next)
		if (j->result || j->reason)
			return 1;
	return 0;
}

static void on_bound(evutil_socket_t fd, short what, void *arg)
{
	event_base_loopexit(arg, NULL);
}

/* Ends the loop once nothing is left to post (or after a bound). */
static void worker_finish(struct worker *w)
{
	w->exiting = 1;
	w->m.stopping = 1;
	for (unsigned i = 0; i < w->m.nslots; i++)
		match_slot_abandon(&w->m.slots[i]);
	/* Abandoned games keep their jobs pending: another worker claims them. */
	for (struct job *j = w->jobs, *next; j; j = next) {
		next = j->next;
		if (!j->result && !j->reason)
			worker_unlink(w, j);
	}
	if (!worker_posting(w) && !w->dead)
		event_base_loopexit(w->m.base, NULL);
	if (!w->bound) {
		struct timeval tv = { WORKER_EXIT_MS / 1000, 0 };
		w->bound = evtimer_new(w->m.base, on_bound, w->m.base);
		if (w->bound)
			evtimer_add(w->bound, &tv);
	}
}

/* --- results ------------------------------------------------------------------------- */

static void job_post(struct worker *w, struct job *j);
static void worker_repost_later(struct worker *w);

static void on_acked(redisAsyncContext *ac, void *reply, void *priv)
{
	struct job *j = priv;
	struct worker *w = ac->data ? ((struct queue_conn *)ac->data)->arg : NULL;

	if (!w || w->q.closing)
		return;
	j->posting = 0;
	if (!reply)
		return;                   /* posted again on reconnection (a duplicate is ignored) */
	if (w->refused) {
		w->refused = 0;
		w->repost_ms = 0;
		fprintf(stderr, "hivebridge worker: redis takes our posts again\n");
	}
	worker_unlink(w, j);
	if (w->exiting && !worker_posting(w) && !w->dead)
		event_base_loopexit(w->m.base, NULL);
	else
		worker_pump(w);
}

static void on_posted(redisAsyncContext *ac, void *reply, void *priv)
{
	struct job *j = priv;
	struct worker *w = ((struct queue_conn *)ac->data)->arg;
	redisReply *r = reply;

	if (w->q.closing)
		return;
	if (!r) {
		j->posting = 0;
		return;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		/* Refused (OOM, MISCONF, READONLY, WRONGTYPE...): the job is kept and sent
		 * again with back-off; said once until a post goes through. */
		char text[256];
		queue_job_text(text, sizeof text, r->str, r->len);
		log_note(0, "worker: redis refused a post of job %s: %s", j->q.id, text);
		if (!w->refused)
			fprintf(stderr, "hivebridge worker: redis: cannot post %s %u: %s; trying again with "
				"back-off\n", j->reason ? "the reason of job" : "game", j->q.game, text);
		w->refused = 1;
		j->posting = 0;
		worker_repost_later(w);
		return;
	}
	on_acked(ac, reply, priv);       /* posted and acknowledged at once */
}

/* A post and its XACK in one script: atomic, and only while the job is pending
 * (a post whose answer was lost with the connection, then sent again, is not
 * posted twice; no jobs stream or group: posted as before, XADD NOMKSTREAM says
 * nil). Keys as arguments: a worker's ACL user may write the results but not
 * read them, and EVAL's declared keys need both. A failing XADD (WRONGTYPE...)
 * stops the script before the XACK. */
#define WORKER_POST_LUA \
	"local p = redis.pcall('XPENDING', ARGV[2], ARGV[3], ARGV[4], ARGV[4], 1) " \
	"if type(p) == 'table' and p.err == nil and #p == 0 then return false end " \
	"local r = redis.call('XADD', ARGV[1], unpack(ARGV, 5)) " \
	"redis.call('XACK', ARGV[2], ARGV[3], ARGV[4]) return r"


static void job_post(struct worker *w, struct job *j)
{
	char game[16];

	if (j->posting || (!j->result && !j->reason))
		return;
	snprintf(game, sizeof game, "%u", j->q.game);
	if (j->reason) {
		/* Set aside: its reason for the coordinator, then acknowledged. */
		const char *argv[] = { "EVAL", WORKER_POST_LUA, "0", w->q.k_dead, w->q.k_jobs, QUEUE_GROUP,
				       j->q.id, "MAXLEN", "~", QUEUE_DEAD_MAX, "*", "game",
				       j->q.game ? game : j->q.id, "worker", w->name, "reason", j->reason,
				       "id", j->q.id };
		if (queue_cmd_argv(&w->q, on_posted, j, 19, argv, NULL) == 0)
			j->posting = 1;
		return;
	}
	/* A match over and deleted answers nil: nothing to post to, nothing recreated. */
	const char *argv[] = { "EVAL", WORKER_POST_LUA, "0", w->q.k_results, w->q.k_jobs, QUEUE_GROUP,
			       j->q.id, "NOMKSTREAM", "*", "game", game, "worker", w->name, "line", j->result };
	if (queue_cmd_argv(&w->q, on_posted, j, 15, argv, NULL) == 0)
		j->posting = 1;
}

static void on_rechecked(redisAsyncContext *ac, void *reply, void *priv)
{
	struct job *j = priv;
	struct worker *w = ((struct queue_conn *)ac->data)->arg;
	redisReply *r = reply;

	if (w->q.closing)
		return;
	j->posting = 0;
	if (!r)
		return;                      /* checked again on reconnection */
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 0) {
		/* Posted and acknowledged before the connection went: not again. */
		on_acked(ac, reply, priv);
		return;
	}
	job_post(w, j);
}

/* After a reconnection: a post whose answer was lost may have gone through
 * (and its XACK with it): posted again only if the job is still pending. */
static void job_recheck(struct worker *w, struct job *j)
{
	if (j->posting || (!j->result && !j->reason))
		return;
	if (queue_cmd(&w->q, on_rechecked, j, "XPENDING %s %s %s %s 1", w->q.k_jobs, QUEUE_GROUP, j->q.id,
		      j->q.id) == 0)
		j->posting = 1;
}

static void on_repost(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	for (struct job *j = w->jobs; j; j = j->next)
		job_post(w, j);
}

static void worker_repost_later(struct worker *w)
{
	if (!w->repost && !(w->repost = evtimer_new(w->m.base, on_repost, w)))
		return;                      /* posted again on reconnection */
	if (evtimer_pending(w->repost, NULL))
		return;
	w->repost_ms = w->repost_ms ? w->repost_ms * 2 : QUEUE_BACKOFF_MIN;
	if (w->repost_ms > QUEUE_BACKOFF_MAX)
		w->repost_ms = QUEUE_BACKOFF_MAX;
	struct timeval tv = { w->repost_ms / 1000, (w->repost_ms % 1000) * 1000 };
	evtimer_add(w->repost, &tv);
}

static void on_game_ended(struct slot *s, int state, const char *reason)
{
	struct worker *w = s->m->hook_arg;
	struct job *j = s->job;

	s->job = NULL;
	if (!j)
		return;
	j->slot = NULL;
	j->result = results_line(&w->m, s, state, reason, w->name);
	if (!j->result) {
		/* No memory: the job stays pending and another worker plays it. */
		worker_unlink(w, j);
		return;
	}
	printf("Finished game %u (%s vs %s): %s {%s}, %zu plies\n", j->q.game, slot_label(s, s->white),
	       slot_label(s, 1 - s->white), results_text(state), reason, referee_game(s->ref)->len);
	fflush(stdout);
	job_post(w, j);
}

/* The game as it stands, for the coordinator's page: one capped entry per ply,
 * its whole GameString (so a missed or trimmed entry costs nothing), no reply
 * awaited. Nothing when Redis is down: the next ply says it all again. */
static void on_game_moved(struct slot *s)
{
	struct worker *w = s->m->hook_arg;
	struct job *j = s->job;
	char game[16], wms[24], bms[24];

	if (!j || !j->q.live || !w->q.ready)
		return;
	char *gs = match_game_string(referee_game(s->ref));
	if (!gs || strlen(gs) > QUEUE_PROGRESS_GS) {
		free(gs);
		return;
	}
	snprintf(game, sizeof game, "%u", j->q.game);
	snprintf(wms, sizeof wms, "%lld", (long long)referee_clock_ms(s->ref, 0));
	snprintf(bms, sizeof bms, "%lld", (long long)referee_clock_ms(s->ref, 1));
	/* NOMKSTREAM: a match over and deleted does not get its stream back. */
	const char *argv[] = { "XADD", w->q.k_progress, "NOMKSTREAM", "MAXLEN", "~", QUEUE_PROGRESS_MAX, "*",
			       "game", game, "worker", w->name, "gs", gs, "wms", wms, "bms", bms };
	int argc = (int)(sizeof argv / sizeof *argv) - (w->m.o.clock_ms ? 0 : 4);
	queue_cmd_argv(&w->q, NULL, NULL, argc, argv, NULL);
	free(gs);
}

/* --- engines --------------------------------------------------------------------------- */

static void on_reported(redisAsyncContext *ac, void *reply, void *priv)
{
	struct worker *w = priv;
	if (w->q.closing)
		return;
	event_base_loopexit(w->m.base, NULL);
}

/* Once: the coordinator learns why this worker stops, and the worker stops. */
static void worker_die(struct worker *w, const char *text)
{
	char shown[700];

	if (w->dead)
		return;
	w->dead = 1;
	fprintf(stderr, "hivebridge worker: %s; this worker stops taking jobs\n",
		queue_job_text(shown, sizeof shown, text, strlen(text)));
	worker_finish(w);
	if (queue_cmd(&w->q, on_reported, w, "XADD %s * worker %s text %s", w->q.k_events, w->name,
		      text) < 0)
		event_base_loopexit(w->m.base, NULL);
}

static void on_engine_dead(struct match *m, int p, const char *reason)
{
	char text[600];
	snprintf(text, sizeof text, "engine \"%s\" %s", m->pl[p].label,
		 reason + (strncmp(reason, "engine crashed: ", 16) ? 0 : 16));
	worker_die(m->hook_arg, text);
}

/* The first job played (its engines allowed) sets the worker's match: its limits
 * (every job's: a match's or a tournament's, whichever engines each names), and the
 * slots. 0, or -1 after worker_die. */
static int worker_configure(struct worker *w, const struct queue_job *jb)
{
	struct match *m = &w->m;

	w->limits = *jb;
	w->limits.opening = NULL;
	w->limits.engine[0] = w->limits.engine[1] = NULL;
	m->o.type = jb->type;
	m->o.depth = jb->depth;
	m->o.movetime_ms = jb->movetime_ms;
	m->o.clock_ms = jb->clock_ms;
	m->o.inc_ms = jb->inc_ms;
	m->o.max_plies = jb->max_plies;
	m->o.repetition = jb->repetition;
	m->o.games = m->o.concurrency;
	if (match_slots_create(m) < 0) {
		worker_die(w, "out of memory");
		return -1;
	}
	w->configured = 1;
	return 0;
}

/* The job's two players (its engine_a, engine_b: ENGINE syntax, resolved against
 * this machine's profiles) into side: 0; 1 when the job cannot be played (why says
 * why: set it aside); 2 when it must wait (no room for its engines now); -1 after
 * worker_die (this machine lacks what the job names: another worker may have it). */
static int worker_players_of(struct worker *w, const struct queue_job *jb, int side[2], char *why, size_t whylen)
{
	char err[QUEUE_JOB_WHY_MAX / 2], shown[QUEUE_JOB_WHY_MAX / 2], text[700];

	for (int p = 0; p < 2; p++) {
		side[p] = worker_player(&w->m, &w->players, jb->engine[p], w->m.o.allow_commands,
					p ? side[0] : -1, err, sizeof err);
		if (side[p] >= 0)
			continue;
		queue_job_text(shown, sizeof shown, jb->engine[p], strlen(jb->engine[p]));
		if (side[p] == WORKER_PLAYER_BUSY)
			return 2;
		if (side[p] == WORKER_PLAYER_REFUSED) {
			errbuf_set(why, whylen, "engine_%c \"%s\": %s", 'a' + p, shown, err);
			return 1;
		}
		snprintf(text, sizeof text, "engine \"%s\": %s", shown, err);
		worker_die(w, text);
		return -1;
	}
	return 0;
}

/* --- jobs ------------------------------------------------------------------------------ */

static struct slot *worker_free_slot(struct worker *w)
{
	for (unsigned i = 0; i < w->m.nslots; i++)
		if (!w->m.slots[i].game_no && !w->m.slots[i].job)
			return &w->m.slots[i];
	return NULL;
}

/* The free slot for a game between players side[0] and side[1]: one that keeps
 * engines of theirs (started already, kept for them), else any. */
static struct slot *worker_slot_for(struct worker *w, const int side[2])
{
	struct slot *best = NULL;
	int best_kept = -1;

	for (unsigned i = 0; i < w->m.nslots; i++) {
		struct slot *s = &w->m.slots[i];
		int kept = 0;
		if (s->game_no || s->job)
			continue;
		for (int k = 0; k < 2; k++)
			kept += s->eng[k] && (s->eng_of[k] == side[0] || s->eng_of[k] == side[1]);
		if (kept > best_kept) {
			best = s;
			best_kept = kept;
		}
	}
	return best;
}

static int worker_has_room(struct worker *w)
{
	/* Jobs held unposted (Redis refusing our posts) stop the taking of more. */
	if (worker_held(w) >= WORKER_HELD_MAX)
		return 0;
	return !w->configured || worker_free_slot(w) != NULL;
}

/* A job that cannot be played: said here, posted on the dead stream, acknowledged
 * (so that no worker takes it again), and the worker goes on. */
static void worker_set_aside(struct worker *w, struct job *j, const char *raw)
{
	char game[16], why[QUEUE_JOB_WHY_MAX];

	/* A cause may quote a job's bytes: printable for the terminal and the stream. */
	queue_job_text(why, sizeof why, raw, strlen(raw));
	snprintf(game, sizeof game, "%u", j->q.game);
	fprintf(stderr, "hivebridge worker: job %s (game %s) set aside: %s\n", j->q.id,
		j->q.game ? game : "?", why);
	log_note(0, "worker: job %s set aside: %s", j->q.id, why);
	if (!(j->reason = strdup(why))) {
		job_free(j);                 /* stays pending: claimed again later */
		return;
	}
	j->next = w->jobs;
	w->jobs = j;
	job_post(w, j);
}

/* A job entry [id, fields]: played on a free slot, or set aside. */
static void worker_take(struct worker *w, const redisReply *e)
{
	char why[QUEUE_JOB_WHY_MAX];
	struct job *j = calloc(1, sizeof *j);

	if (!j)
		return;                      /* stays pending: claimed again later */
	int bad = queue_job_decode(e, &j->q, why, sizeof why) < 0;
	if (j->q.id[0] && worker_holds(w, j->q.id)) {
		job_free(j);                 /* ours already: a reclaim of our own pending entry */
		return;
	}
	if (bad) {
		if (!j->q.id[0]) {
			/* Nothing to name or acknowledge: not an entry Redis would send. */
			fprintf(stderr, "hivebridge worker: ignored a reply that is not a job: %s\n", why);
			job_free(j);
			return;
		}
		worker_set_aside(w, j, why);
		return;
	}
	if (w->configured && !queue_job_same_limits(&w->limits, &j->q)) {
		/* Not the match's: this worker's limits are the first job's it plays. */
		worker_set_aside(w, j, "its limits are not those of the match's other jobs");
		return;
	}
	if (queue_job_over_cap(&j->q, w->m.o.max_move_ms, why, sizeof why)) {
		worker_set_aside(w, j, why);
		return;
	}
	int side[2], rc = worker_players_of(w, &j->q, side, why, sizeof why);
	if (rc == 0 && !w->configured && worker_configure(w, &j->q) < 0)
		rc = -1;
	if (rc == 1)
		worker_set_aside(w, j, why);
	struct slot *s = rc == 0 ? worker_slot_for(w, side) : NULL;
	if (!s) {
		if (rc != 1)
			job_free(j);         /* stays pending: claimed again later, here or elsewhere */
		return;
	}
	j->next = w->jobs;
	w->jobs = j;
	j->slot = s;
	s->job = j;
	if (match_slot_begin(s, j->q.game, side, j->q.white, -1, j->q.opening) < 0) {
		/* The opening was checked: only memory fails here. Pending, claimed later. */
		worker_unlink(w, j);
	}
}

/* A fetch (stop key, claim, read) answered: the reply, or NULL when there is
 * nothing to do (the connection is closing or gone). */
static redisReply *fetch_done(struct worker *w, void *reply)
{
	if (w->q.closing)
		return NULL;
	w->fetching = 0;
	return reply;
}

static void on_read(redisAsyncContext *ac, void *reply, void *priv)
{
	struct worker *w = priv;
	redisReply *r = fetch_done(w, reply);
	const redisReply *e;
	char text[256];

	if (!r)
		return;
	if (r->type == REDIS_REPLY_ERROR) {
		if (queue_is_error(r, "NOGROUP"))
			w->nogroup = 1;
		else
			fprintf(stderr, "hivebridge worker: redis: %s\n", queue_job_text(text, sizeof text, r->str, r->len));
	} else if (!w->exiting && !w->paused && (e = queue_read_entry(r)) != NULL) {
		worker_take(w, e);
	}
	worker_pump(w);
}

static void on_claimed(redisAsyncContext *ac, void *reply, void *priv);

static void worker_claim(struct worker *w)
{
	char ms[16];

	/* A dead worker's job, replayed from the start: XAUTOCLAIM looks at ten pending
	 * entries a call (COUNT 1), so the cursor is followed to the end of the list. */
	snprintf(ms, sizeof ms, "%u", w->m.o.claim_ms);
	const char *argv[] = { "XAUTOCLAIM", w->q.k_jobs, QUEUE_GROUP, w->name, ms, w->cursor, "COUNT", "1" };
	if (queue_cmd_argv(&w->q, on_claimed, w, 8, argv, NULL) == 0)
		w->fetching = 1;
}

/* True if cursor next goes on past the current one (so a scan always ends). */
static int cursor_moves(const char *cur, const char *next)
{
	uint64_t a, b, c, d;

	if (queue_id_parse(cur, &a, &b) < 0 || queue_id_parse(next, &c, &d) < 0)
		return 0;
	return (c || d) && (c > a || (c == a && d > b));
}

static void on_claimed(redisAsyncContext *ac, void *reply, void *priv)
{
	struct worker *w = priv;
	redisReply *r = fetch_done(w, reply);
	const redisReply *e = NULL;
	char next[QUEUE_JOB_ID_MAX];

	if (!r)
		return;
	int ok = queue_claim_decode(r, next, &e) == 0;
	if (ok && e && !w->exiting && !w->paused) {
		log_note(0, "worker: took over a job (scan at %s)", w->cursor);
		snprintf(w->cursor, sizeof w->cursor, "%s", next);
		worker_take(w, e);
		worker_pump(w);
		return;
	}
	if (w->exiting || w->paused || w->dead)
		return;
	if (ok && cursor_moves(w->cursor, next) && ++w->claim_steps < WORKER_CLAIM_STEPS) {
		snprintf(w->cursor, sizeof w->cursor, "%s", next);
		worker_claim(w);
		return;
	}
	/* Every pending entry seen: new jobs. */
	char block[16];
	snprintf(block, sizeof block, "%d", WORKER_BLOCK_MS);
	const char *argv[] = { "XREADGROUP", "GROUP", QUEUE_GROUP, w->name, "COUNT", "1", "BLOCK", block,
			       "STREAMS", w->q.k_jobs, ">" };
	if (queue_cmd_argv(&w->q, on_read, w, 11, argv, NULL) == 0)
		w->fetching = 1;
}

static void worker_stop_state(struct worker *w, const redisReply *r)
{
	int was_paused = w->paused;
	char text[256];

	if (w->exiting)
		return;                      /* over, stopping or dead: the jobs are let go already */
	w->paused = 0;
	/* GETRANGE answers "" for a key absent: no stop. */
	if (!r || r->type != REDIS_REPLY_STRING || !r->len)
		return;
	if (!strncmp(r->str, "over", 4)) {
		if (!w->over)
			printf("Match %s is %s\n", w->q.name, queue_job_text(text, sizeof text, r->str, r->len));
		fflush(stdout);
		w->over = 1;
		worker_finish(w);
		return;
	}
	/* Paused: the games under way are dropped; their jobs wait for a worker. */
	w->paused = 1;
	if (!was_paused) {
		printf("Match %s is paused: waiting for its coordinator\n", w->q.name);
		fflush(stdout);
		for (unsigned i = 0; i < w->m.nslots; i++)
			if (w->m.slots[i].job) {
				struct job *j = w->m.slots[i].job;
				match_slot_abandon(&w->m.slots[i]);
				worker_unlink(w, j);
			}
	}
}

static void on_stop_read(redisAsyncContext *ac, void *reply, void *priv)
{
	struct worker *w = priv;
	redisReply *r = fetch_done(w, reply);

	if (!r)
		return;
	worker_stop_state(w, r);
	if (w->exiting || w->paused || w->dead)
		return;
	/* Not before: a match over and deleted must not get its jobs stream back. */
	if (w->nogroup)
		queue_cmd(&w->q, NULL, NULL, "XGROUP CREATE %s %s 0 MKSTREAM", w->q.k_jobs, QUEUE_GROUP);
	w->nogroup = 0;
	if (!worker_has_room(w))
		return;
	/* Each poll scans all the pending entries once, from the start. */
	snprintf(w->cursor, sizeof w->cursor, "0-0");
	w->claim_steps = 0;
	worker_claim(w);
}

/* A free slot asks for a job: the stop key, a claim, a read. */
static void worker_pump(struct worker *w)
{
	if (w->fetching || w->exiting || w->dead || !w->q.ready || !worker_has_room(w))
		return;
	if (queue_cmd(&w->q, on_stop_read, w, "GETRANGE %s 0 " WORKER_STOP_READ, w->q.k_stop) == 0)
		w->fetching = 1;
}

static void on_slot_idle(struct slot *s)
{
	worker_pump(s->m->hook_arg);
}

/* --- the heartbeat: jobs kept, the stop key watched ------------------------------------- */

static void on_beat_stop(redisAsyncContext *ac, void *reply, void *priv)
{
	struct worker *w = priv;
	if (w->q.closing || !reply)
		return;
	worker_stop_state(w, reply);
	worker_pump(w);
}

static void on_beat(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;

	if (!w->q.ready || w->exiting)
		return;
	if (w->beat_due > w->beat_ms) {
		w->beat_due -= w->beat_ms;
	} else {
		w->beat_due = w->m.o.claim_ms / 3;
		for (struct job *j = w->jobs; j; j = j->next)
			if (j->slot)
				queue_cmd(&w->q, NULL, NULL, "XCLAIM %s %s %s 0 %s JUSTID", w->q.k_jobs,
					  QUEUE_GROUP, w->name, j->q.id);
	}
	queue_cmd(&w->q, on_beat_stop, w, "GETRANGE %s 0 " WORKER_STOP_READ, w->q.k_stop);
}

static void worker_ready(void *arg)
{
	struct worker *w = arg;

	w->fetching = 0;
	w->nogroup = 1;
	for (struct job *j = w->jobs; j; j = j->next)
		job_recheck(w, j);
	if (w->dead) {
		/* Died while Redis was down: exit now, the jobs are pending anyway. */
		event_base_loopexit(w->m.base, NULL);
		return;
	}
	worker_pump(w);
}

static void worker_down(void *arg)
{
	struct worker *w = arg;
	w->fetching = 0;
	for (struct job *j = w->jobs; j; j = j->next)
		j->posting = 0;
}

static void worker_fatal(void *arg)
{
	struct worker *w = arg;
	w->m.failed = 1;
	event_base_loopexit(w->m.base, NULL);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct worker *w = arg;
	log_note(0, "worker: signal %d: stopping", (int)sig);
	fprintf(stderr, "hivebridge worker: stopping; its games in flight go back to the queue\n");
	worker_finish(w);
}

static int worker_parse(struct worker *w, int argc, char **argv)
{
	struct match_opts *o = &w->m.o;
	int rc = match_options_parse(argc, argv, MATCH_CMD_WORKER, o);

	if (rc != 0)
		return rc;
	if (!o->queue) {
		fprintf(stderr, "hivebridge worker: --queue redis://HOST:PORT/NAME is needed\n");
		return -1;
	}
	if (o->worker_name)
		snprintf(w->name, sizeof w->name, "%s", o->worker_name);
	return 0;
}

int worker_main(int argc, char **argv)
{
	struct worker w;
	struct match *m = &w.m;
	char err[512];
	int status = 1;

	memset(&w, 0, sizeof w);
	config_defaults(&m->conf);
	w.q.who = "worker";
	w.q.bound.string_max = QUEUE_WORKER_STRING_MAX;
	w.q.bound.reply_max = QUEUE_WORKER_REPLY_MAX;
	int prc = worker_parse(&w, argc, argv);
	if (prc == 0 && queue_url_parse(&w.q, m->o.queue, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge worker: %s\n", err);
		prc = -1;
	}
	if (prc != 0) {
		if (prc > 0)
			match_help(stdout, MATCH_CMD_WORKER);
		else
			fputs("Try 'hivebridge worker --help'.\n", stderr);
		config_free(&m->conf);
		return prc > 0 ? 0 : 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (!w.name[0]) {
		char host[64] = "worker";
		gethostname(host, sizeof host - 1);
		host[sizeof host - 1] = 0;
		snprintf(w.name, sizeof w.name, "%s-%ld", host, (long)getpid());
	}
	if (m->o.config_path) {
		err[0] = 0;
		if (config_load(&m->conf, m->o.config_path, err, sizeof err) < 0) {
			fprintf(stderr, "hivebridge worker: %s\n", err[0] ? err : "cannot load the configuration");
			goto out;
		}
	}
	if (queue_password_load(&w.q, m->o.config_path, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge worker: %s\n", err);
		goto out;
	}
	if (m->o.log_path && log_open(m->o.log_path) < 0) {
		fprintf(stderr, "hivebridge worker: log %s: cannot open\n", m->o.log_path);
		goto out;
	}
	evthread_use_pthreads();
	m->base = event_base_new();
	if (!m->base)
		goto out;
	m->slot_idle = on_slot_idle;
	m->game_ended = on_game_ended;
	m->game_moved = on_game_moved;
	m->engine_dead = on_engine_dead;
	m->hook_arg = &w;
	m->next_game = 1;
	m->sig_int = evsignal_new(m->base, SIGINT, on_signal, &w);
	m->sig_term = evsignal_new(m->base, SIGTERM, on_signal, &w);
	w.beat_due = m->o.claim_ms / 3;
	w.beat_ms = w.beat_due < WORKER_POLL_MS ? w.beat_due : WORKER_POLL_MS;
	struct timeval tv = { w.beat_ms / 1000, (w.beat_ms % 1000) * 1000 };
	w.beat = event_new(m->base, -1, EV_PERSIST, on_beat, &w);
	if (!m->sig_int || !m->sig_term || !w.beat || evsignal_add(m->sig_int, NULL) < 0 ||
	    evsignal_add(m->sig_term, NULL) < 0 || evtimer_add(w.beat, &tv) < 0) {
		fprintf(stderr, "hivebridge worker: cannot set up the event loop\n");
		goto out;
	}
	w.q.on_ready = worker_ready;
	w.q.on_down = worker_down;
	w.q.on_fatal = worker_fatal;
	w.q.arg = &w;
	printf("Worker %s: queue redis://%s:%d/%s, concurrency %u\n", w.name, w.q.host, w.q.port, w.q.name,
	       m->o.concurrency);
	if (m->o.allow_commands)
		fprintf(stderr, "hivebridge worker: --allow-engine-commands: a job's ENGINE may be any command, "
			"run here as this user: whoever can write to redis://%s:%d/%s can run programs on "
			"this machine\n", w.q.host, w.q.port, w.q.name);
	fflush(stdout);
	if (queue_start(&w.q, m->base) < 0)
		goto out;
	event_base_dispatch(m->base);
	status = w.dead || m->failed || w.q.failed ? 1 : 0;
out:
	/* Engines first (their callbacks name the jobs), then Redis, then the jobs. */
	for (unsigned i = 0; i < m->nslots; i++)
		match_slot_abandon(&m->slots[i]);
	queue_close(&w.q);
	while (w.jobs) {
		struct job *j = w.jobs;
		w.jobs = j->next;
		job_free(j);
	}
	util_event_free(&w.beat);
	util_event_free(&w.bound);
	util_event_free(&w.repost);
	match_free(m);
	worker_players_free(m, &w.players);
	queue_job_clear(&w.limits);
	return status;
}
