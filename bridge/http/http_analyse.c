/*
 * http_analyse.c: POST /api/analyse, an engine's evaluation of one position on demand
 * (the page's evaluation bar and best line). Nothing is kept between requests: each
 * one starts an engine of the profile it names, searches the position once under a
 * capped time and depth, answers and frees the engine. Bounded: ANALYSE_MAX searches
 * at once (503 beyond), one per peer address at a time (429), at most ANALYSE_MAX_MS
 * and PLAY_MAX_DEPTH each. The answer comes when the search ends, so the request is
 * held (http_req_defer) and its connection closes after it; a client that hangs up
 * stops its search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/http/http_int.h"
#include "bridge/log.h"
#include "core/errbuf.h"

struct ajob {
	struct analyse    *a;
	struct http_req   *req;          /* NULL once its client left */
	struct engine     *eng;
	struct hive_game   game;         /* the position to search */
	struct engine_limits lim;
	char               peer[64];
	char               name[64];     /* the profile's */
	int                has_info;
	struct hive_search_info info;    /* the latest report */
	LIST_ENTRY(ajob)   link;         /* a->jobs, from its start to its free */
};

struct analyse {
	struct event_base   *base;
	const struct config *conf;
	LIST_HEAD(, ajob)    jobs;         /* empty when zeroed */
	unsigned             n;
};

struct analyse *analyse_new(struct event_base *base, const struct config *conf)
{
	struct analyse *a = calloc(1, sizeof *a);
	if (a) {
		a->base = base;
		a->conf = conf;
	}
	return a;
}

static void ajob_free(struct ajob *j)
{
	struct analyse *a = j->a;
	LIST_REMOVE(j, link);
	a->n--;
	engine_free(j->eng);
	hive_game_free(&j->game);
	free(j);
}

void analyse_free(struct analyse *a)
{
	if (!a)
		return;
	while (!LIST_EMPTY(&a->jobs))
		ajob_free(LIST_FIRST(&a->jobs));
	free(a);
}

void analyse_closed(struct analyse *a, struct http_req *req)
{
	for (struct ajob *j = a ? LIST_FIRST(&a->jobs) : NULL; j; j = LIST_NEXT(j, link)) {
		if (j->req == req) {
			j->req = NULL;
			if (engine_busy(j->eng))
				engine_stop(j->eng);       /* its done frees the job */
			else
				ajob_free(j);
			return;
		}
	}
}

/* Ends j: the answer (o, or an error with code and why) if its client is still
 * there, then the job. */
static void ajob_end(struct ajob *j, cJSON *o, int code, const char *why)
{
	struct http_req *req = j->req;
	j->req = NULL;             /* the reply may close it: analyse_closed finds nothing */
	if (req) {
		if (o)
			reply_json(req, 200, o);
		else
			reply_error(req, code, why);
		o = NULL;
	}
	cJSON_Delete(o);
	ajob_free(j);
}

static void on_info(void *arg, const struct hive_search_info *info)
{
	struct ajob *j = arg;
	j->info = *info;
	j->has_info = 1;
}

/* The answer: the engine's move, and the latest report's depth, score and line
 * (moves that do not replay on the board are cut off). */
static cJSON *ajob_answer(struct ajob *j, const struct engine_result *r)
{
	const struct hive_board *b0 = &j->game.board;
	char ms[HIVE_MOVESTR_MAX];
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "engine", j->name);
	cJSON_AddNumberToObject(o, "ply", (double)j->game.len);
	cJSON_AddStringToObject(o, "to_move", hive_side_to_move(b0) ? "b" : "w");
	hive_move_format(b0, r->move, ms, sizeof ms);
	cJSON_AddStringToObject(o, "bestmove", ms);
	if (j->has_info) {
		cJSON_AddNumberToObject(o, "depth", j->info.depth);
		cJSON_AddNumberToObject(o, "score", j->info.score);
	} else {
		cJSON_AddNullToObject(o, "depth");
		cJSON_AddNullToObject(o, "score");
	}
	cJSON *pv = cJSON_AddArrayToObject(o, "pv");
	struct hive_board b = *b0;
	for (int i = 0; j->has_info && i < j->info.pvlen && i < HIVE_MAX_PLY; i++) {
		struct hive_move legal;
		struct hive_undo u;
		if (hive_game_over(&b) || !hive_board_find_move(&b, j->info.pv[i], &legal))
			break;
		hive_move_format(&b, legal, ms, sizeof ms);
		cJSON_AddItemToArray(pv, cJSON_CreateString(ms));
		hive_board_do(&b, legal, &u);
	}
	return o;
}

/* A step of the engine that failed ends j with a 502 saying what and why: 1. */
static int ajob_failed(struct ajob *j, const struct engine_result *r, const char *what)
{
	char why[300];
	if (r->status == ENGINE_OK)
		return 0;
	snprintf(why, sizeof why, "the engine %s: %s", what, r->message ? r->message : "no reason given");
	ajob_end(j, NULL, 502, why);
	return 1;
}

static void on_done(void *arg, const struct engine_result *r)
{
	struct ajob *j = arg;
	if (ajob_failed(j, r, "gave no move"))
		return;
	cJSON *o = ajob_answer(j, r);
	ajob_end(j, o, 500, "out of memory");
}

static void ajob_go(struct ajob *j)
{
	if (!j->req) {
		ajob_free(j);
		return;
	}
	if (engine_go(j->eng, &j->game, &j->lim, on_info, on_done, j) < 0)
		ajob_end(j, NULL, 502, "the engine refused the search");
}

static void on_option(void *arg, const struct engine_result *r)
{
	(void)r;     /* without the reports the answer has the move alone */
	ajob_go(arg);
}

static void on_started(void *arg, const struct engine_result *r)
{
	struct ajob *j = arg;
	if (ajob_failed(j, r, "did not start"))
		return;
	/* The built-in engine reports its iterations only when asked. */
	static const char *argv[] = { "set", "ReportIntermediateBestMoves", "True" };
	if (!strcmp(j->eng->ops->name, "builtin") && j->req &&
	    engine_options(j->eng, 3, argv, on_option, j) == 0)
		return;
	ajob_go(j);
}

/* The request's numbers: v in 0..max, def when absent; -1 when not such a number. */
static long body_uint(const cJSON *b, const char *key, long def, long max)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, key);
	if (!v || cJSON_IsNull(v))
		return def;
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble != (double)(long)v->valuedouble)
		return -1;
	return v->valuedouble > (double)max ? max : (long)v->valuedouble;
}

/* Reads the request into j (the position, the profile, the limits): 0, or -1 with
 * the status and why. */
static int ajob_read(struct ajob *j, const cJSON *b, int *status, char *err, size_t errlen)
{
	const char *gs = body_str(b, "game");
	const char *name = body_str(b, "engine");
	char perr[256];
	*status = 400;
	if (!gs)
		return errbuf_set(err, errlen, "want {\"game\": GAMESTRING, \"ply\": N, \"engine\": PROFILE, \"ms\": N, \"depth\": N}");
	if (hive_game_parse(&j->game, gs, perr, sizeof perr) != HIVE_OK)
		return errbuf_set(err, errlen, "%s", perr);
	long ply = body_uint(b, "ply", (long)j->game.len, (long)j->game.len + 1);
	long ms = body_uint(b, "ms", ANALYSE_MAX_MS, ANALYSE_MAX_MS);
	long depth = body_uint(b, "depth", 0, PLAY_MAX_DEPTH);
	if (ply < 0 || (size_t)ply > j->game.len)
		return errbuf_set(err, errlen, "ply must be 0..the number of moves");
	if (ms < 0 || depth < 0)
		return errbuf_set(err, errlen, "ms and depth must be whole numbers");
	if ((size_t)ply < j->game.len)
		hive_game_undo(&j->game, j->game.len - (size_t)ply);
	if (hive_game_over(&j->game.board)) {
		*status = 409;
		return errbuf_set(err, errlen, "the game is over at this ply");
	}
	const struct engine_profile *prof = config_profile(j->a->conf, name ? name : "builtin");
	if (!prof)
		return errbuf_set(err, errlen, "no such engine profile");
	snprintf(j->name, sizeof j->name, "%s", name ? name : "builtin");
	j->lim.depth = (int)depth;
	j->lim.movetime_ms = depth ? 0 : (uint64_t)(ms ? ms : ANALYSE_MAX_MS);
	j->lim.max_ms = (uint64_t)(ms ? ms : ANALYSE_MAX_MS);
	j->lim.deadline_ms = j->lim.max_ms;
	return 0;
}

void analyse_request(struct analyse *a, struct http_req *req, const cJSON *b)
{
	const char *peer = http_req_peer(req);
	char err[300], cause[200] = "";
	int status;
	unsigned mine = 0;

	for (const struct ajob *j = LIST_FIRST(&a->jobs); j; j = LIST_NEXT(j, link))
		mine += !strcmp(j->peer, peer);
	if (mine) {
		reply_error(req, 429, "an analysis from your address is running: one at a time");
		return;
	}
	if (a->n >= ANALYSE_MAX) {
		reply_error(req, 503, "too many analyses running");
		return;
	}
	struct ajob *j = calloc(1, sizeof *j);
	if (!j) {
		reply_error(req, 500, "out of memory");
		return;
	}
	j->a = a;
	hive_game_init(&j->game, 0);
	snprintf(j->peer, sizeof j->peer, "%s", peer);
	LIST_INSERT_HEAD(&a->jobs, j, link);
	a->n++;
	if (ajob_read(j, b, &status, err, sizeof err) < 0) {
		ajob_end(j, NULL, status, err);   /* j->req is NULL: answered here */
		reply_error(req, status, err);
		return;
	}
	j->eng = engine_new(a->base, config_profile(a->conf, j->name), cause, sizeof cause);
	if (!j->eng) {
		snprintf(err, sizeof err, "cannot start the engine: %s", cause[0] ? cause : "out of memory");
		ajob_end(j, NULL, 500, err);
		reply_error(req, 500, err);
		return;
	}
	if (engine_start(j->eng, on_started, j) < 0) {
		ajob_end(j, NULL, 502, "");
		reply_error(req, 502, "the engine cannot be started");
		return;
	}
	j->req = req;
	http_req_defer(req);
	log_note(0, "http: analysis for %s by %s at ply %zu", peer, j->name, j->game.len);
}
