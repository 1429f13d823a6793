/*
 * match_queue.c: `hivebridge match --queue redis://HOST:PORT/NAME`, the coordinator.
 * No engine runs here: one job per game goes on the jobs stream (ID 0-GAME, so a
 * restart enqueues nothing twice), `hivebridge worker`s play them (worker.c), and
 * their results come back on the results stream. This side keeps what a local
 * match keeps: the results file, the progress lines, the score, Elo and SPRT.
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
#include "bridge/match/queue.h"
#include "bridge/util.h"
#include "core/game.h"

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
	char              sig[1024];     /* the options a worker plays by */
	char              cur_res[48], cur_ev[48];   /* stream cursors */
	unsigned          queued;        /* highest game put on the stream */
	int               caught_up;     /* the results of earlier runs are read */
	int               first_setup;
	int               reading;       /* a read is outstanding */
	int               stop_sent;
	int               opened;        /* --results is open (after the checks) */
	const char       *stop_value;
	unsigned          dupes;
	struct event     *bound;
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

static void coord_pump(struct coord *c);
static void coord_live_drop_all(struct coord *c);

static void coord_exit(struct coord *c)
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
			fprintf(stderr, "hivebridge match: played out; the web page stays up until SIGINT or SIGTERM\n");
		}
		return;
	}
	event_base_loopexit(m->base, NULL);
}

/* The worker of that name, made on first sight; NULL past the table's end. */
static struct coord_worker *coord_worker(struct coord *c, const char *name)
{
	if (!name || !*name)
		name = "?";
	for (unsigned i = 0; i < c->nworkers; i++)
		if (!strncmp(c->workers[i].name, name, sizeof c->workers[i].name - 1))
			return &c->workers[i];
	if (c->nworkers == COORD_WORKERS_MAX) {
		c->unlisted++;
		return NULL;
	}
	struct coord_worker *w = &c->workers[c->nworkers++];
	memset(w, 0, sizeof *w);
	snprintf(w->name, sizeof w->name, "%s", name);
	return w;
}

/* GET /api/match's "workers" (schemas/web-match.json), busiest first as heard. */
static cJSON *coord_workers_json(void *arg)
{
	struct coord *c = arg;
	int64_t now = now_ms();
	cJSON *a = cJSON_CreateArray();
	for (unsigned i = 0; a && i < c->nworkers; i++) {
		const struct coord_worker *w = &c->workers[i];
		cJSON *o = cJSON_CreateObject();
		if (!o)
			break;
		cJSON_AddStringToObject(o, "name", w->name);
		cJSON_AddNumberToObject(o, "in_flight", w->in_flight);
		cJSON_AddNumberToObject(o, "games", w->games);
		/* Over this run only: results read back from earlier runs have no time. */
		if (c->since_ms && now - c->since_ms >= 1000)
			cJSON_AddNumberToObject(o, "games_per_min", w->recent * 60000.0 / (double)(now - c->since_ms));
		else
			cJSON_AddNullToObject(o, "games_per_min");
		if (w->last_ms)
			cJSON_AddNumberToObject(o, "idle_s", (double)(now - w->last_ms) / 1000.0);
		else
			cJSON_AddNullToObject(o, "idle_s");
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* --- the workers' games, live (--http) --------------------------------------------------- */

static struct coord_live *coord_live_find(struct coord *c, unsigned game)
{
	for (unsigned i = 0; i < c->nlive; i++)
		if (c->live[i].game == game)
			return &c->live[i];
	return NULL;
}

/* The record lets go: with a result (state >= 0), else it shows "abandoned". */
static void coord_live_drop(struct coord *c, struct coord_live *cl, int state, const char *reason)
{
	if (state >= 0)
		live_finish(cl->lg, state, reason);
	live_close(cl->lg);
	*cl = c->live[--c->nlive];
}

static void coord_live_drop_all(struct coord *c)
{
	while (c->nlive)
		coord_live_drop(c, &c->live[c->nlive - 1], -1, NULL);
}

/* Untrusted text for a message: printable ASCII, bounded. */
static void clean_text(char *dst, size_t len, const char *src)
{
	size_t i = 0;
	for (; src && src[i] && i + 1 < len; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[i] = 0;
	if (!i)
		snprintf(dst, len, "?");
}

static void coord_refuse(struct coord *c, const char *who, unsigned long long game, const char *why)
{
	c->refused++;
	log_note(0, "match: progress entry of game %llu from worker %s refused: %s", game, who, why);
	if (c->refused <= COORD_REFUSED_SAY)
		fprintf(stderr, "hivebridge match: refused a progress entry of game %llu (worker %s): %s\n",
			game, who, why);
}

/* Game g's own start (its opening, else an empty board of the match's type) is a
 * prefix of hg: a game of this match, whoever posted it. */
static int coord_game_is_ours(const struct coord *c, unsigned g, const struct hive_game *hg)
{
	const struct match *m = c->m;
	struct hive_game start;
	char err[128];
	int op = m->nopenings ? (int)(((g - 1) / 2) % m->nopenings) : -1;
	int ok;

	hive_game_init(&start, m->o.type);
	ok = (op < 0 || hive_game_parse(&start, m->openings[op], err, sizeof err) == HIVE_OK) &&
	     hive_game_is_prefix(&start, hg);
	hive_game_free(&start);
	return ok;
}

/* The moves of a GameString ("Type;State;Turn;move;..."), from its separators. */
static size_t gs_moves(const char *gs)
{
	size_t n = 0;
	for (; *gs; gs++)
		n += *gs == ';';
	return n > 2 ? n - 2 : 0;
}

/* One progress entry (a worker's game after a ply): checked with the core, then
 * mirrored into the live registry like a local game. Everything cheap comes
 * before the parse, which replays every move: a game longer than the match allows
 * or one with nowhere to go costs nothing. */
static void coord_progress(struct coord *c, const redisReply *e)
{
	struct match *m = c->m;
	const char *game = queue_field(e, "game"), *gs = queue_field(e, "gs");
	const char *wms = queue_field(e, "wms"), *bms = queue_field(e, "bms");
	char who[64], err[128];
	unsigned long long g = 0, cw = 0, cb = 0;
	struct hive_game hg;

	clean_text(who, sizeof who, queue_field(e, "worker"));
	if (!game || parse_uint(game, 1, m->o.games, &g) < 0 || g > c->queued || !gs ||
	    strlen(gs) > QUEUE_PROGRESS_GS) {
		coord_refuse(c, who, g, "not a game of this match");
		return;
	}
	if ((wms || bms) && (!wms || !bms || parse_uint(wms, 0, 86400000ULL * 7, &cw) < 0 ||
			     parse_uint(bms, 0, 86400000ULL * 7, &cb) < 0)) {
		coord_refuse(c, who, g, "bad clocks");
		return;
	}
	if (m->done[g] || m->stopping || m->web_lingering)
		return;                      /* late: its result is in */
	/* A game ends at --max-plies (an opening longer than that at once). */
	int op = m->nopenings ? (int)(((g - 1) / 2) % m->nopenings) : -1;
	size_t most = op >= 0 ? gs_moves(m->openings[op]) : 0;
	if (m->o.max_plies && most < m->o.max_plies)
		most = m->o.max_plies;
	if (most && gs_moves(gs) > most) {
		coord_refuse(c, who, g, "longer than the match's --max-plies");
		return;
	}
	struct coord_live *cl = coord_live_find(c, (unsigned)g);
	if (!cl && c->nlive == COORD_LIVE_MAX)
		return;                      /* not shown: no room */
	hive_game_init(&hg, 0);
	if (hive_game_parse(&hg, gs, err, sizeof err) != HIVE_OK) {
		coord_refuse(c, who, g, err);
		goto out;
	}
	/* A new record (a new game, or one taken over or begun again) starts from
	 * the game's own opening or an empty board of the match's type. */
	int fresh = !cl || strcmp(cl->worker, who) || !hive_game_is_prefix(&cl->lg->game, &hg);
	if (fresh && !coord_game_is_ours(c, (unsigned)g, &hg)) {
		coord_refuse(c, who, g, "not this game's opening or type");
		goto out;
	}
	/* Taken over by another worker, or begun again: the old record is over. */
	if (cl && fresh) {
		log_note(0, "match: game %llu begun again by worker %s", g, who);
		coord_live_drop(c, cl, -1, NULL);
		cl = NULL;
	}
	if (!cl) {
		int a_white = g % 2 == 1;
		struct live_game *lg;
		if (c->nlive == COORD_LIVE_MAX || !(lg = live_open("match", m->pl[a_white ? 0 : 1].label,
								   m->pl[a_white ? 1 : 0].label, &hg, NULL)))
			goto out;
		cl = &c->live[c->nlive++];
		memset(cl, 0, sizeof *cl);
		cl->game = (unsigned)g;
		snprintf(cl->worker, sizeof cl->worker, "%s", who);
		cl->lg = lg;
	} else {
		live_update(cl->lg, &hg);
	}
	if (wms)
		live_clocks(cl->lg, (int64_t)cw, (int64_t)cb,
			    hive_game_over(&hg.board) ? -1 : hive_side_to_move(&hg.board));
	cl->last_ms = now_ms();
out:
	hive_game_free(&hg);
}

/* The progress entries of one batch, each holding a whole game: only the last of a
 * game and worker is worth its parse, so a flood costs one parse per game and
 * batch. skip[j]: entry j is followed by one of the same game and worker. */
static void progress_latest(const redisReply *es, unsigned char *skip)
{
	const char *game[QUEUE_READ_COUNT], *who[QUEUE_READ_COUNT];
	size_t n = es->elements;

	if (n > QUEUE_READ_COUNT)
		return;                      /* not asked for: each entry on its own */
	for (size_t j = 0; j < n; j++) {
		game[j] = queue_field(es->element[j], "game");
		who[j] = queue_field(es->element[j], "worker");
	}
	for (size_t j = 0; j < n; j++)
		for (size_t k = j + 1; game[j] && who[j] && !skip[j] && k < n; k++)
			skip[j] = game[k] && who[k] && !strcmp(game[j], game[k]) && !strcmp(who[j], who[k]);
}

/* A result arrived for game: its record shows the final position and the result. */
static void coord_live_result(struct coord *c, unsigned game, const char *gs, const char *res,
			      const char *reason)
{
	struct coord_live *cl = coord_live_find(c, game);
	struct hive_game hg;
	char err[128];

	if (!cl)
		return;
	hive_game_init(&hg, 0);
	if (gs && hive_game_parse(&hg, gs, err, sizeof err) == HIVE_OK && hive_game_is_prefix(&cl->lg->game, &hg))
		live_update(cl->lg, &hg);
	hive_game_free(&hg);
	coord_live_drop(c, cl, !strcmp(res, "1-0") ? HIVE_WHITE_WINS : !strcmp(res, "0-1") ? HIVE_BLACK_WINS :
			HIVE_DRAW, reason);
}

/* GET /api/match's "running": the workers' games shown live. */
static void coord_running_json(void *arg, cJSON *run)
{
	struct coord *c = arg;
	for (unsigned i = 0; i < c->nlive; i++) {
		const struct coord_live *cl = &c->live[i];
		cJSON *g = cJSON_CreateObject();
		if (!g)
			return;
		cJSON_AddNumberToObject(g, "game", cl->game);
		cJSON_AddStringToObject(g, "white", cl->lg->white);
		cJSON_AddStringToObject(g, "black", cl->lg->black);
		cJSON_AddNumberToObject(g, "plies", (double)cl->lg->game.len);
		cJSON_AddNumberToObject(g, "live_id", cl->lg->id);
		cJSON_AddStringToObject(g, "worker", cl->worker);
		cJSON_AddItemToArray(run, g);
	}
}

/* XPENDING's summary: [count, first, last, [[consumer, count], ...]]. */
static void on_pending(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	redisReply *r = reply;
	int changed = 0;

	if (c->q.closing)
		return;
	c->polling = 0;
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements < 4)
		return;
	const redisReply *per = r->element[3];
	for (unsigned i = 0; i < c->nworkers; i++) {
		changed |= c->workers[i].in_flight != 0;
		c->workers[i].in_flight = 0;
	}
	for (size_t i = 0; per->type == REDIS_REPLY_ARRAY && i < per->elements; i++) {
		const redisReply *e = per->element[i];
		if (e->type != REDIS_REPLY_ARRAY || e->elements < 2 || e->element[0]->type != REDIS_REPLY_STRING ||
		    e->element[1]->type != REDIS_REPLY_STRING)
			continue;
		struct coord_worker *w = coord_worker(c, e->element[0]->str);
		if (!w)
			continue;
		w->in_flight = (unsigned)strtoul(e->element[1]->str, NULL, 10);
		w->last_ms = now_ms();
		changed = 1;
	}
	if (changed)
		live_notify_match();
}

static void on_poll(evutil_socket_t fd, short what, void *arg)
{
	struct coord *c = arg;
	struct timeval tv = { COORD_POLL_MS / 1000, (COORD_POLL_MS % 1000) * 1000 };

	int64_t now = now_ms();

	/* A game whose worker went silent (dead, paused, its job taken over). */
	for (unsigned i = 0; i < c->nlive;) {
		if (now - c->live[i].last_ms > (int64_t)c->expiry_ms) {
			log_note(0, "match: game %u of worker %s: no progress for %llu ms, dropped",
				 c->live[i].game, c->live[i].worker, (unsigned long long)c->expiry_ms);
			coord_live_drop(c, &c->live[i], -1, NULL);
		} else {
			i++;
		}
	}
	if (c->q.ready && !c->polling && !c->m->web_lingering &&
	    queue_cmd(&c->q, on_pending, c, "XPENDING %s %s", c->q.k_jobs, QUEUE_GROUP) == 0)
		c->polling = 1;
	evtimer_add(c->poll, &tv);
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
	if (!strncmp(c->stop_value, "over", 4) && m->results && !m->failed && !m->o.keep &&
	    queue_cmd(&c->q, NULL, NULL, "HSET %s deleted %s", c->q.k_match, now) == 0 &&
	    queue_cmd(&c->q, on_deleted, c, "DEL %s %s %s %s", c->q.k_jobs, c->q.k_results, c->q.k_events,
		      c->q.k_progress) == 0)
		return;
	coord_exit(c);
}

/* The match is over or stopped: the workers drop what is left, then we exit. */
static void coord_stop(struct coord *c, const char *value)
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

static void on_enqueued(redisAsyncContext *ac, void *reply, void *priv)
{
	redisReply *r = reply;
	/* Already there (a restart, a reconnection): the ID makes it a no-op. */
	if (r && r->type == REDIS_REPLY_ERROR && !strstr(r->str, "equal or smaller"))
		fprintf(stderr, "hivebridge match: redis: cannot enqueue a game: %s\n", r->str);
}

static void coord_enqueue(struct coord *c)
{
	struct match *m = c->m;
	char id[32], game[16], white[2], depth[16], mt[24], ck[24], inc[24], mp[16], rep[16];
	const char *type = hive_gametype_name(m->o.type);

	while (c->queued < m->o.games && c->queued < m->total + QUEUE_WINDOW) {
		unsigned g = ++c->queued;
		if (m->done[g])
			continue;
		int op = m->nopenings ? (int)(((g - 1) / 2) % m->nopenings) : -1;
		snprintf(id, sizeof id, "0-%u", g);
		snprintf(game, sizeof game, "%u", g);
		snprintf(white, sizeof white, "%s", g % 2 == 1 ? "a" : "b");
		snprintf(depth, sizeof depth, "%d", m->o.depth);
		snprintf(mt, sizeof mt, "%llu", (unsigned long long)m->o.movetime_ms);
		snprintf(ck, sizeof ck, "%llu", (unsigned long long)m->o.clock_ms);
		snprintf(inc, sizeof inc, "%llu", (unsigned long long)m->o.inc_ms);
		snprintf(mp, sizeof mp, "%u", m->o.max_plies);
		snprintf(rep, sizeof rep, "%u", m->o.repetition);
		const char *argv[] = { "XADD", c->q.k_jobs, id, "game", game, "white", white,
			"opening", op >= 0 ? m->openings[op] : "", "type", type, "depth", depth,
			"movetime", mt, "clock", ck, "inc", inc, "max_plies", mp, "repetition", rep,
			"engine_a", m->o.spec[0], "engine_b", m->o.spec[1], "live", "1" };
		/* live: its plies go on the progress stream, for the page. */
		int argc = (int)(sizeof argv / sizeof *argv) - (m->http ? 0 : 2);
		if (queue_cmd_argv(&c->q, on_enqueued, c, argc, argv, NULL) < 0) {
			c->queued = g - 1;
			return;
		}
	}
}

/* One result entry: counted once, written, printed. */
static void coord_result(struct coord *c, const redisReply *e)
{
	struct match *m = c->m;
	const char *line = queue_field(e, "line");
	const char *worker = queue_field(e, "worker");
	cJSON *o = line ? cJSON_Parse(line) : NULL;
	cJSON *g = cJSON_GetObjectItemCaseSensitive(o, "game");
	cJSON *sc = cJSON_GetObjectItemCaseSensitive(o, "a_score");
	cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "white");
	cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "black");
	cJSON *res = cJSON_GetObjectItemCaseSensitive(o, "result");
	cJSON *why = cJSON_GetObjectItemCaseSensitive(o, "reason");
	cJSON *pl = cJSON_GetObjectItemCaseSensitive(o, "plies");

	if (!cJSON_IsNumber(g) || !cJSON_IsNumber(sc) || !cJSON_IsString(w) || !cJSON_IsString(b) ||
	    !cJSON_IsString(res) || !cJSON_IsString(why) || !cJSON_IsNumber(pl) ||
	    g->valuedouble < 1 || g->valuedouble > m->o.games ||
	    (sc->valuedouble != 0 && sc->valuedouble != 0.5 && sc->valuedouble != 1)) {
		fprintf(stderr, "hivebridge match: ignored a result that is not one (worker %s)\n",
			worker ? worker : "?");
		goto out;
	}
	unsigned game = (unsigned)g->valuedouble;
	if (m->done[game]) {
		c->dupes++;
		if (c->caught_up)
			printf("Ignored a second result of game %u (worker %s)\n", game, worker ? worker : "?");
		log_note(0, "match: game %u: second result from %s ignored", game, worker ? worker : "?");
		goto out;
	}
	if (m->results && (fprintf(m->results, "%s\n", line) < 0 || fflush(m->results) != 0)) {
		fprintf(stderr, "hivebridge match: cannot write %s: %s\n", m->o.results_path, strerror(errno));
		m->failed = 1;
		coord_stop(c, "paused");
		goto out;
	}
	m->done[game] = 1;
	m->total++;
	coord_live_result(c, game, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "gamestring")),
			  res->valuestring, why->valuestring);
	results_record(&m->rec, sc->valuedouble);
	if (m->http) {
		struct coord_worker *cw = coord_worker(c, worker);
		if (cw) {
			cw->games++;
			if (c->caught_up) {
				cw->recent++;
				cw->last_ms = now_ms();
			}
		}
	}
	if (c->caught_up) {
		m->played++;
		printf("Finished game %u (%s vs %s): %s {%s}, %d plies (worker %s)\n", game, w->valuestring,
		       b->valuestring, res->valuestring, why->valuestring, (int)pl->valuedouble,
		       worker ? worker : "?");
		results_print_score(m);
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
	cJSON_Delete(o);
}

static void coord_event(const redisReply *e)
{
	const char *worker = queue_field(e, "worker"), *text = queue_field(e, "text");
	fprintf(stderr, "hivebridge match: worker %s: %s\n", worker ? worker : "?", text ? text : "?");
}

static void coord_header(struct coord *c)
{
	struct match *m = c->m;
	printf("Match %s vs %s: %u games (%u already played), %s, queue redis://%s:%d/%s\n",
	       m->pl[0].label, m->pl[1].label, m->o.games, m->total,
	       m->nopenings ? "openings from file" : hive_gametype_name(m->o.type), c->q.host, c->q.port,
	       c->q.name);
	if (m->total)
		results_print_score(m);
	fflush(stdout);
}

static void on_read(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	redisReply *r = reply;
	size_t n = 0;

	if (c->q.closing)
		return;
	c->reading = 0;
	if (!r)
		return;                      /* lost: on_ready reads again from the cursors */
	if (r->type == REDIS_REPLY_ERROR) {
		fprintf(stderr, "hivebridge match: redis: %s\n", r->str);
		c->m->failed = 1;
		coord_stop(c, "paused");
		return;
	}
	for (size_t i = 0; r->type == REDIS_REPLY_ARRAY && i < r->elements; i++) {
		redisReply *st = r->element[i];
		if (st->type != REDIS_REPLY_ARRAY || st->elements < 2 || st->element[1]->type != REDIS_REPLY_ARRAY)
			continue;
		int is_res = !strcmp(st->element[0]->str, c->q.k_results);
		int is_prog = !strcmp(st->element[0]->str, c->q.k_progress);
		redisReply *es = st->element[1];
		unsigned char skip[QUEUE_READ_COUNT] = { 0 };
		if (is_prog)
			progress_latest(es, skip);
		for (size_t j = 0; j < es->elements; j++) {
			redisReply *e = es->element[j];
			if (e->type != REDIS_REPLY_ARRAY || e->elements < 2 || e->element[0]->type != REDIS_REPLY_STRING)
				continue;
			if (is_prog) {
				snprintf(c->cur_prog, sizeof c->cur_prog, "%s", e->element[0]->str);
				if (j >= QUEUE_READ_COUNT || !skip[j])
					coord_progress(c, e);
				continue;
			}
			n++;
			if (is_res) {
				snprintf(c->cur_res, sizeof c->cur_res, "%s", e->element[0]->str);
				coord_result(c, e);
			} else {
				snprintf(c->cur_ev, sizeof c->cur_ev, "%s", e->element[0]->str);
				if (c->caught_up)
					coord_event(e);
			}
		}
	}
	if (!c->caught_up && n == 0) {
		c->caught_up = 1;
		c->since_ms = now_ms();
		coord_header(c);
	}
	coord_pump(c);
}

static void coord_pump(struct coord *c)
{
	struct match *m = c->m;

	if (!c->q.ready || c->reading || m->interrupted)
		return;
	if (c->caught_up && !m->stopping) {
		if (m->verdict != SPRT_CONTINUE)
			coord_stop(c, "over: the SPRT decided");
		else if (m->total >= m->o.games)
			coord_stop(c, "over: every game has a result");
	}
	if (m->stopping) {
		coord_stop(c, c->stop_value ? c->stop_value : "paused");
		return;
	}
	if (c->caught_up)
		coord_enqueue(c);
	/* Catching up reads without waiting, so its end shows as an empty answer. */
	char count[16], block[16];
	snprintf(count, sizeof count, "%d", QUEUE_READ_COUNT);
	snprintf(block, sizeof block, "%d", c->caught_up ? QUEUE_BLOCK_MS : 0);
	const char *argv[12] = { "XREAD", "COUNT", count, "BLOCK", block, "STREAMS" };
	int argc = 6;
	/* The workers' plies, once caught up (from "$": only games still running). */
	int prog = c->caught_up && m->http;
	argv[argc++] = c->q.k_results;
	argv[argc++] = c->q.k_events;
	if (prog)
		argv[argc++] = c->q.k_progress;
	argv[argc++] = c->cur_res;
	argv[argc++] = c->cur_ev;
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

static void on_top(redisAsyncContext *ac, void *reply, void *priv);
static void on_ignore(redisAsyncContext *ac, void *reply, void *priv);

/* [sig, deleted] of the match hash: ours and alive, then the streams and the file. */
static void on_sig(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	struct match *m = c->m;
	redisReply *r = reply;

	if (c->q.closing || !r)
		return;
	const redisReply *sig = r->type == REDIS_REPLY_ARRAY && r->elements == 2 ? r->element[0] : NULL;
	const redisReply *del = sig ? r->element[1] : NULL;
	if (sig && sig->type == REDIS_REPLY_STRING && strcmp(sig->str, c->sig)) {
		fprintf(stderr, "hivebridge match: queue %s holds another match (%s); use another NAME\n",
			c->q.name, sig->str);
		m->failed = 1;
		coord_exit(c);
		return;
	}
	if (del && del->type == REDIS_REPLY_STRING) {
		fprintf(stderr, "hivebridge match: queue %s: this match is over and its streams were deleted "
			"(its results are in the --results file of that run); use another NAME, or DEL %s %s "
			"to play it again\n", c->q.name, c->q.k_match, c->q.k_stop);
		m->failed = 1;
		coord_exit(c);
		return;
	}
	queue_cmd(&c->q, on_ignore, c, "XGROUP CREATE %s %s 0 MKSTREAM", c->q.k_jobs, QUEUE_GROUP);
	/* Workers post with NOMKSTREAM (a late result must not bring a deleted stream
	 * back), so the stream exists before the first job: a group does that. */
	queue_cmd(&c->q, on_ignore, c, "XGROUP CREATE %s coordinator $ MKSTREAM", c->q.k_results);
	if (m->http)
		queue_cmd(&c->q, on_ignore, c, "XGROUP CREATE %s coordinator $ MKSTREAM", c->q.k_progress);
	if (c->first_setup && !m->stopping)
		queue_cmd(&c->q, on_ignore, c, "DEL %s", c->q.k_stop);   /* a paused match goes on */
	c->first_setup = 0;
	queue_cmd(&c->q, on_top, c, "XREVRANGE %s + - COUNT 1", c->q.k_jobs);
	/* The streams are the record: the file is written again from them. */
	if (!c->opened && m->o.results_path) {
		if (!(m->results = fopen(m->o.results_path, "w"))) {
			fprintf(stderr, "hivebridge match: cannot open %s: %s\n", m->o.results_path, strerror(errno));
			m->failed = 1;
			coord_exit(c);
			return;
		}
		c->opened = 1;
	}
	coord_pump(c);
}

static void on_top(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	redisReply *r = reply;

	if (c->q.closing || !r)
		return;
	/* The last job's ID is 0-GAME. */
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 1 && r->element[0]->type == REDIS_REPLY_ARRAY &&
	    r->element[0]->elements >= 1 && r->element[0]->element[0]->type == REDIS_REPLY_STRING) {
		const char *id = r->element[0]->element[0]->str;
		if (!strncmp(id, "0-", 2))
			c->queued = (unsigned)strtoul(id + 2, NULL, 10);
	}
}

static void on_ignore(redisAsyncContext *ac, void *reply, void *priv)
{
	redisReply *r = reply;
	if (r && r->type == REDIS_REPLY_ERROR && !queue_is_error(r, "BUSYGROUP"))
		fprintf(stderr, "hivebridge match: redis: %s\n", r->str);
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
	queue_cmd(&c->q, on_ignore, c, "HSETNX %s sig %s", c->q.k_match, c->sig);
	queue_cmd(&c->q, on_sig, c, "HMGET %s sig deleted", c->q.k_match);
}

static void coord_down(void *arg)
{
	struct coord *c = arg;
	c->reading = 0;
	c->stop_sent = 0;
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
	fprintf(stderr, "hivebridge match: interrupted\n");
	c->m->interrupted = 1;
	/* The workers wait for a coordinator started again. */
	coord_stop(c, "paused");
}

int match_queue_run(struct match *m)
{
	struct coord c;
	char *cause = NULL;
	int status = 1;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.q.who = "match";
	c.first_setup = 1;
	snprintf(c.cur_res, sizeof c.cur_res, "0-0");
	snprintf(c.cur_ev, sizeof c.cur_ev, "0-0");
	snprintf(c.cur_prog, sizeof c.cur_prog, "$");
	c.expiry_ms = m->o.live_expiry_ms;
	if (!c.expiry_ms) {
		/* Longer than any one move can take. */
		c.expiry_ms = COORD_EXPIRY_MS;
		if (m->o.clock_ms + m->o.inc_ms > c.expiry_ms)
			c.expiry_ms = m->o.clock_ms + m->o.inc_ms;
		if (2 * m->o.movetime_ms > c.expiry_ms)
			c.expiry_ms = 2 * m->o.movetime_ms;
	}
	if (queue_url_parse(&c.q, m->o.queue, &cause) < 0 ||
	    queue_password_load(&c.q, m->o.config_path, &cause) < 0) {
		fprintf(stderr, "hivebridge match: %s\n", cause ? cause : "no memory");
		free(cause);
		return 2;
	}
	snprintf(c.sig, sizeof c.sig, "%s vs %s, games %u, type %s, depth %d, movetime %llu, clock %llu+%llu, "
		 "max plies %u, repetition %u, openings %zu", m->o.spec[0], m->o.spec[1], m->o.games,
		 hive_gametype_name(m->o.type), m->o.depth, (unsigned long long)m->o.movetime_ms,
		 (unsigned long long)m->o.clock_ms, (unsigned long long)m->o.inc_ms, m->o.max_plies,
		 m->o.repetition, m->nopenings);
	evthread_use_pthreads();
	m->base = event_base_new();
	if (!m->base) {
		fprintf(stderr, "hivebridge match: cannot set up the event loop\n");
		goto out;
	}
	m->sig_int = evsignal_new(m->base, SIGINT, on_signal, &c);
	m->sig_term = evsignal_new(m->base, SIGTERM, on_signal, &c);
	if (!m->sig_int || !m->sig_term || evsignal_add(m->sig_int, NULL) < 0 ||
	    evsignal_add(m->sig_term, NULL) < 0) {
		fprintf(stderr, "hivebridge match: cannot catch signals\n");
		goto out;
	}
	if (m->o.http) {
		if (match_web_start(m) < 0 || !(c.poll = evtimer_new(m->base, on_poll, &c)))
			goto out;
		m->web_workers = coord_workers_json;
		m->web_workers_arg = &c;
		m->web_running = coord_running_json;
		on_poll(-1, 0, &c);
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
	printf("Match finished: %u games played now, %u of %u with a result%s\n", m->played, m->total,
	       m->o.games, m->interrupted ? " (interrupted)" : "");
	results_print_score(m);
	if (m->o.sprt_set)
		printf("SPRT: %s\n", m->verdict == SPRT_ACCEPT_H1 ? "H1 accepted" :
		       m->verdict == SPRT_ACCEPT_H0 ? "H0 accepted" : "undecided");
	fflush(stdout);
	status = m->interrupted || m->failed || c.q.failed ? 1 : 0;
out:
	coord_live_drop_all(&c);
	queue_close(&c.q);
	if (c.bound)
		event_free(c.bound);
	if (c.poll)
		event_free(c.poll);
	/* c is gone when match.c frees the page: nothing may ask it any more. */
	match_web_free(m);
	m->web_workers = NULL;
	m->web_running = NULL;
	return status;
}
