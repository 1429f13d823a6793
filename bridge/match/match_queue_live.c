/*
 * match_queue_live.c: the dashboard of `match --queue --http` (docs/web.md): the
 * workers as their results and the jobs group's pending entries show them, and their
 * games in progress, mirrored into the live registry from the progress stream. What
 * Redis holds is not trusted: a game is shown only when it is ours and its moves
 * replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/match/match_int.h"
#include "bridge/match/match_queue_int.h"
#include "bridge/util.h"
#include "core/game.h"

/* The worker of that name, made on first sight; NULL past the table's end. */
struct coord_worker *coord_worker(struct coord *c, const char *name)
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
cJSON *coord_workers_json(void *arg)
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

void coord_live_drop_all(struct coord *c)
{
	while (c->nlive)
		coord_live_drop(c, &c->live[c->nlive - 1], -1, NULL);
}

static void coord_refuse(struct coord *c, const char *who, unsigned long long game, const char *why)
{
	c->refused++;
	log_note(0, "match: progress entry of game %llu from worker %s refused: %s", game, who, why);
	if (c->refused <= COORD_REFUSED_SAY)
		fprintf(stderr, "hivebridge %s: refused a progress entry of game %llu (worker %s): %s\n",
			match_cmd(c->m), game, who, why);
}

/* Game g's own start (its opening, else an empty board of the match's type) is a
 * prefix of hg: a game of this match, whoever posted it. */
static int coord_game_is_ours(const struct coord *c, unsigned g, const struct hive_game *hg)
{
	const struct match *m = c->m;
	struct hive_game start;
	char err[128];
	int side[2], white, op, ok;

	match_schedule(m, g, side, &white, &op);
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
void coord_progress(struct coord *c, const redisReply *e)
{
	struct match *m = c->m;
	const char *game = queue_field(e, "game"), *gs = queue_field(e, "gs");
	const char *wms = queue_field(e, "wms"), *bms = queue_field(e, "bms");
	char who[64], err[128];
	unsigned long long g = 0, cw = 0, cb = 0;
	struct hive_game hg;

	queue_escape(who, sizeof who, queue_field(e, "worker"));
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
	if (m->stopping || m->web_lingering)
		return;
	/* A game ends at --max-plies (an opening longer than that at once): checked
	 * before the parse, whose cost grows with the GameString. */
	int side[2], white, op;
	match_schedule(m, (unsigned)g, side, &white, &op);
	size_t most = op >= 0 ? gs_moves(m->openings[op]) : 0;
	if (m->o.max_plies && most < m->o.max_plies)
		most = m->o.max_plies;
	if (most && gs_moves(gs) > most) {
		coord_refuse(c, who, g, "longer than the match's --max-plies");
		return;
	}
	struct coord_live *cl = coord_live_find(c, (unsigned)g);
	hive_game_init(&hg, 0);
	if (hive_game_parse(&hg, gs, err, sizeof err) != HIVE_OK) {
		coord_refuse(c, who, g, err);
		goto out;
	}
	/* A new record (a new game, or one taken over or begun again) starts from
	 * the game's own opening or an empty board of the match's type. A forged entry
	 * is refused whether or not its game is over, so what is said does not depend
	 * on timing. */
	int fresh = !cl || strcmp(cl->worker, who) || !hive_game_is_prefix(&cl->lg->game, &hg);
	if (fresh && !coord_game_is_ours(c, (unsigned)g, &hg)) {
		coord_refuse(c, who, g, "not this game's opening or type");
		goto out;
	}
	if (m->done[g])
		goto out;                    /* late: its result is in */
	if (!cl && c->nlive == COORD_LIVE_MAX)
		goto out;                    /* not shown: no room */
	/* Taken over by another worker, or begun again: the old record is over. */
	if (cl && fresh) {
		log_note(0, "match: game %llu begun again by worker %s", g, who);
		coord_live_drop(c, cl, -1, NULL);
		cl = NULL;
	}
	if (!cl) {
		struct live_game *lg;
		if (c->nlive == COORD_LIVE_MAX || !(lg = live_open("match", m->pl[side[white]].label,
								   m->pl[side[1 - white]].label, &hg, NULL)))
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
void coord_progress_latest(const redisReply *es, unsigned char *skip)
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
void coord_live_result(struct coord *c, unsigned game, const char *gs, const char *res,
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
void coord_running_json(void *arg, cJSON *run)
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

/* XPENDING's summary: the jobs each worker holds. */
static void on_pending(redisAsyncContext *ac, void *reply, void *priv)
{
	struct coord *c = priv;
	struct queue_pending per[COORD_WORKERS_MAX];
	size_t n;
	int changed = 0;

	if (c->q.closing)
		return;
	c->polling = 0;
	if (!reply || queue_pending_decode(reply, per, COORD_WORKERS_MAX, &n) < 0)
		return;
	for (unsigned i = 0; i < c->nworkers; i++) {
		changed |= c->workers[i].in_flight != 0;
		c->workers[i].in_flight = 0;
	}
	for (size_t i = 0; i < n; i++) {
		char who[64];
		struct coord_worker *w = coord_worker(c, queue_escape(who, sizeof who, per[i].name));
		if (!w)
			continue;
		w->in_flight = per[i].count;
		w->last_ms = now_ms();
		changed = 1;
	}
	if (changed)
		live_notify_match();
}

void coord_poll(evutil_socket_t fd, short what, void *arg)
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
