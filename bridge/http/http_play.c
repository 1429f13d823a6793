/*
 * http_play.c: games a person plays through the page against an engine profile of
 * the configuration. Each game is a referee's (bridge/referee.h) between the person
 * (a remote seat: the page's moves) and its engine, which it owns: the referee checks
 * every move with the core, keeps the clock and the record, adjudicates, and reports
 * the game to the live registry, tagged with this play so that only its own games
 * take moves here.
 *
 * A game belongs to whoever holds its owner token: 128 random bits (getrandom) given
 * once, in the answer that started it; moves and resignation need it (compared in
 * constant time), everyone else watches. One peer address has at most
 * PLAY_MAX_PER_PEER games at a time, so it leaves most of max_games to the others.
 *
 * A game ends by the rules, by the ply cap ([daemon] http_play_max_plies), by
 * resignation, when its engine fails (the person wins) or when the person's time for
 * a move ([daemon] http_play_move_time) runs out; it is then freed and only the
 * registry's record stays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/http/http_int.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/errbuf.h"

struct pgame {
	struct play       *p;
	unsigned           id;           /* the live id */
	struct referee    *ref;
	struct engine     *eng;          /* NULL once the referee dropped it */
	int                human;        /* the person's colour */
	int                ready;        /* the engine started */
	char               token[WEB_TOKEN_LEN + 1];   /* the owner's */
	char               peer[64];     /* the address that started it */
	char               log_prefix[32]; /* "http: game N" */
	LIST_ENTRY(pgame)  link;         /* p->games, from its start to its free */
};

struct play {
	struct event_base   *base;
	const struct config *conf;
	unsigned             max_games;
	unsigned             think_ms;
	unsigned             ngames;
	LIST_HEAD(, pgame)   games;        /* newest first (empty when zeroed) */
};

static void pgame_free(struct pgame *pg)
{
	struct play *p = pg->p;
	LIST_REMOVE(pg, link);
	p->ngames--;
	referee_free(pg->ref);
	engine_free(pg->eng);
	explicit_bzero(pg->token, sizeof pg->token);
	free(pg);
}

/* The referee's result (logged and reported by it): the game goes. */
static void pgame_ended(void *arg, const struct referee_result *res)
{
	pgame_free(arg);
}

static const struct referee_ops pgame_referee_ops = {
	.ended = pgame_ended,
};

/* The engine's side loses before the game began. */
static void pgame_engine_lost(struct pgame *pg, const char *why)
{
	char reason[320];
	int side = 1 - pg->human;
	snprintf(reason, sizeof reason, "%s %s", side == HIVE_WHITE ? "white" : "black", why);
	referee_forfeit(pg->ref, side, reason);
}

static void on_ready(void *arg, const struct engine_result *r)
{
	struct pgame *pg = arg;
	(void)r;     /* an engine without the option plays on, without reports */
	pg->ready = 1;
	referee_start(pg->ref);
}

static void on_started(void *arg, const struct engine_result *r)
{
	struct pgame *pg = arg;
	char why[300];

	if (r->status != ENGINE_OK) {
		snprintf(why, sizeof why, "engine crashed: did not start: %s",
			 r->message ? r->message : "no reason given");
		pgame_engine_lost(pg, why);
		return;
	}
	/* The built-in engine reports its search (the page's analysis line) only when
	 * asked; it plays the same either way. */
	static const char *argv[] = { "set", "ReportIntermediateBestMoves", "True" };
	if (!strcmp(pg->eng->ops->name, "builtin") && engine_options(pg->eng, 3, argv, on_ready, pg) == 0)
		return;
	on_ready(pg, r);
}

struct play *play_new(struct event_base *base, const struct config *conf, unsigned max_games,
		      unsigned think_ms)
{
	struct play *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->base = base;
	p->conf = conf;
	p->max_games = max_games;
	p->think_ms = think_ms ? think_ms : 1000;
	return p;
}

void play_free(struct play *p)
{
	if (!p)
		return;
	while (!LIST_EMPTY(&p->games))
		pgame_free(LIST_FIRST(&p->games));
	free(p);
}

void *play_tag(struct play *p)
{
	return p;
}

static struct pgame *play_find(struct play *p, unsigned id)
{
	struct pgame *pg;
	LIST_FOREACH(pg, &p->games, link)
		if (pg->id == id)
			return pg;
	return NULL;
}

int play_human_to_move(struct play *p, unsigned id)
{
	struct pgame *pg = p ? play_find(p, id) : NULL;
	return pg && pg->ready && referee_to_move(pg->ref, pg->human);
}

/* The referee of pg: the person against prof, with the configuration's time a move
 * and ply cap; 0 or -1 with err. */
static int pgame_referee(struct pgame *pg, const struct engine_profile *prof, const struct start_req *r,
			 char *err, size_t errlen)
{
	const struct config *c = pg->p->conf;
	struct referee_conf rc = {
		.base = pg->p->base,
		.rules = { .max_plies = c->http_play_max_plies, .side_names = 1 },
		.live_kind = "web",
		.live_owner = pg->p,
		.log_prefix = pg->log_prefix,
		.archive = c->games_path,
		.ops = &pgame_referee_ops,
		.arg = pg,
	};
	rc.seat[pg->human] = (struct referee_seat){
		.name = "you",
		.move_ms = c->http_play_move_ms,
	};
	/* A fixed depth, else the think time; the think time caps it either way. */
	rc.seat[1 - pg->human] = (struct referee_seat){
		.name = prof->name,
		.engine = &pg->eng,
		.depth = r->depth,
		.movetime_ms = r->depth ? 0 : pg->p->think_ms,
		.max_ms = pg->p->think_ms,
	};
	if (!(pg->ref = referee_new(&rc, r->type, NULL, err, errlen)))
		return -1;
	if (!referee_live(pg->ref))
		return errbuf_set(err, errlen, "out of memory");
	pg->id = referee_live(pg->ref)->id;
	snprintf(pg->log_prefix, sizeof pg->log_prefix, "http: game %u", pg->id);
	return 0;
}

unsigned play_start(struct play *p, const struct start_req *r, const char *peer, char *token,
		    int *status, char *err, size_t errlen)
{
	const struct engine_profile *prof = config_profile(p->conf, r->engine);
	char cause[200] = "", why[256] = "out of memory";
	unsigned mine = 0;

	*status = 400;
	if (!prof) {
		errbuf_set(err, errlen, "no such engine profile");
		return 0;
	}
	for (const struct pgame *g = LIST_FIRST(&p->games); g; g = LIST_NEXT(g, link))
		mine += !strcmp(g->peer, peer);
	if (mine >= PLAY_MAX_PER_PEER) {
		*status = 429;
		errbuf_set(err, errlen, "too many games from your address");
		return 0;
	}
	if (p->ngames >= p->max_games) {
		*status = 503;
		errbuf_set(err, errlen, "too many games being played");
		return 0;
	}
	struct pgame *pg = calloc(1, sizeof *pg);
	if (!pg) {
		*status = 500;
		errbuf_set(err, errlen, "out of memory");
		return 0;
	}
	pg->p = p;
	pg->human = r->human;
	random_token(pg->token, WEB_TOKEN_LEN);
	snprintf(pg->peer, sizeof pg->peer, "%s", peer);
	LIST_INSERT_HEAD(&p->games, pg, link);
	p->ngames++;
	pg->eng = engine_new(p->base, prof, cause, sizeof cause);
	if (!pg->eng || pgame_referee(pg, prof, r, why, sizeof why) < 0) {
		errbuf_set(err, errlen, "cannot start the engine: %s", cause[0] ? cause : why);
		pgame_free(pg);
		*status = 500;
		return 0;
	}
	unsigned id = pg->id;
	log_note(0, "http: game %u: %s (%s) against %s", id, r->human == HIVE_WHITE ? "white" : "black",
		 pg->peer, prof->name);
	snprintf(token, WEB_TOKEN_LEN + 1, "%s", pg->token);
	if (engine_start(pg->eng, on_started, pg) < 0)
		pgame_engine_lost(pg, "engine crashed: cannot be started");    /* pg is gone */
	return id;
}

int play_owns(struct play *p, unsigned id, const char *token)
{
	struct pgame *pg = p && token ? play_find(p, id) : NULL;
	return pg && guard_token_eq(token, pg->token);
}

/* The game id of this play where the holder of token may act, or NULL with the status. */
static struct pgame *play_get(struct play *p, unsigned id, const char *token, int *status,
			      char *err, size_t errlen)
{
	struct pgame *pg = play_find(p, id);
	if (!pg) {
		*status = live_find(id) ? 409 : 404;
		errbuf_set(err, errlen, "%s", live_find(id) ? "not a game played here, or it is over" :
			   "no such game");
		return NULL;
	}
	if (!token || !guard_token_eq(token, pg->token)) {
		*status = 403;
		errbuf_set(err, errlen, "not your game: moves and resigning need its owner token (X-Game-Token)");
		return NULL;
	}
	return pg;
}

int play_move(struct play *p, unsigned id, const char *token, const char *move, int *status,
	      char *err, size_t errlen)
{
	struct pgame *pg = play_get(p, id, token, status, err, errlen);

	if (!pg)
		return -1;
	if (!pg->ready) {
		*status = 409;
		return errbuf_set(err, errlen, "not your turn");
	}
	/* The game may end (and pg go) inside. */
	switch (referee_play(pg->ref, pg->human, move, err, errlen)) {
	case REFEREE_OK:
		return 0;
	case REFEREE_INVALID:
		*status = 422;
		return -1;
	case REFEREE_NOT_TURN:
		*status = 409;
		return errbuf_set(err, errlen, "not your turn");
	default:
		*status = 409;
		return errbuf_set(err, errlen, "the game is over: your time ran out");
	}
}

int play_resign(struct play *p, unsigned id, const char *token, int *status, char *err, size_t errlen)
{
	struct pgame *pg = play_get(p, id, token, status, err, errlen);
	if (!pg)
		return -1;
	referee_forfeit(pg->ref, pg->human, "resigned");
	return 0;
}

void play_shutdown(struct play *p, const char *reason)
{
	p->max_games = 0;          /* play_start answers 503 from now on */
	/* Each ends without a result, and goes (pgame_ended). */
	while (!LIST_EMPTY(&p->games))
		referee_abort(LIST_FIRST(&p->games)->ref, reason);
}
