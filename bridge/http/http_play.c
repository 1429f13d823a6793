/*
 * http_play.c: games a person plays through the page against an engine profile of
 * the configuration. Each game owns its canonical game and its engine; the person's
 * moves are checked with the core (hive_move_parse) and so is every engine move
 * (hive_board_find_move) before it is played. Every game is reported to the live
 * registry, tagged with this play so that only its own games take moves here.
 *
 * A game belongs to whoever holds its owner token: 128 random bits (getrandom) given
 * once, in the answer that started it; moves and resignation need it (compared in
 * constant time), everyone else watches. One peer address has at most
 * PLAY_MAX_PER_PEER games at a time, so it leaves most of max_games to the others.
 *
 * A game ends by the rules, by resignation, when its engine fails (the person wins)
 * or after PLAY_IDLE_MS without a move from the person; it is then freed and only
 * the registry's record stays.
 */
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/http/http_int.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/util.h"

#define PLAY_IDLE_MS   (30u * 60u * 1000u)

struct pgame {
	struct play       *p;
	unsigned           id;           /* the live id */
	struct live_game  *lg;
	struct hive_game   game;
	struct engine     *eng;
	int                human;        /* the person's colour */
	int                ready;        /* the engine started */
	int                busy;         /* a start or go is outstanding */
	int                depth;        /* fixed search depth, 0 = the think time */
	char               token[WEB_TOKEN_LEN + 1];   /* the owner's */
	char               peer[64];     /* the address that started it */
	struct event      *idle;
	struct pgame      *next;
};

struct play {
	struct event_base   *base;
	const struct config *conf;
	unsigned             max_games;
	unsigned             think_ms;
	unsigned             ngames;
	struct pgame        *games;
	char                 why[256];
};

static void pgame_free(struct pgame *pg)
{
	struct play *p = pg->p;
	for (struct pgame **pp = &p->games; *pp; pp = &(*pp)->next) {
		if (*pp == pg) {
			*pp = pg->next;
			break;
		}
	}
	p->ngames--;
	engine_free(pg->eng);
	if (pg->idle)
		event_free(pg->idle);
	hive_game_free(&pg->game);
	live_close(pg->lg);
	explicit_bzero(pg->token, sizeof pg->token);
	free(pg);
}

/* The game is over (state, why): reported, then freed. */
static void pgame_end(struct pgame *pg, int state, const char *reason)
{
	log_note(0, "http: game %u: %s (%s)", pg->id,
		 state == HIVE_WHITE_WINS ? "1-0" : state == HIVE_BLACK_WINS ? "0-1" : "1/2-1/2", reason);
	live_finish(pg->lg, state, reason);
	pgame_free(pg);
}

static void pgame_lose(struct pgame *pg, int color, const char *reason)
{
	pgame_end(pg, color == HIVE_WHITE ? HIVE_BLACK_WINS : HIVE_WHITE_WINS, reason);
}

/* 1 (and the game freed) if the rules ended it. */
static int pgame_check_end(struct pgame *pg)
{
	switch (pg->game.board.state) {
	case HIVE_WHITE_WINS:
		pgame_end(pg, HIVE_WHITE_WINS, "black queen surrounded");
		return 1;
	case HIVE_BLACK_WINS:
		pgame_end(pg, HIVE_BLACK_WINS, "white queen surrounded");
		return 1;
	case HIVE_DRAW:
		pgame_end(pg, HIVE_DRAW, "both queens surrounded");
		return 1;
	default:
		return 0;
	}
}

static void pgame_idle_arm(struct pgame *pg)
{
	struct timeval tv = { PLAY_IDLE_MS / 1000, 0 };
	evtimer_add(pg->idle, &tv);
}

static void on_idle(evutil_socket_t fd, short what, void *arg)
{
	struct pgame *pg = arg;
	pgame_lose(pg, pg->human, "abandoned: no move from the player");
}

static void pgame_go(struct pgame *pg);

static void on_info(void *arg, const struct hive_search_info *info)
{
	struct pgame *pg = arg;
	live_analysis(pg->lg, info);
}

static void on_move(void *arg, const struct engine_result *r)
{
	struct pgame *pg = arg;
	int side = hive_side_to_move(&pg->game.board);
	struct hive_move legal;
	char reason[300];

	pg->busy = 0;
	if (r->status != ENGINE_OK) {
		snprintf(reason, sizeof reason, "engine failed: %s", r->message ? r->message : "no reason");
		pgame_lose(pg, side, reason);
		return;
	}
	/* The engine's word is not taken for it: the core checks the move. */
	if (!hive_board_find_move(&pg->game.board, r->move, &legal)) {
		pgame_lose(pg, side, "illegal move from the engine");
		return;
	}
	if (hive_game_play(&pg->game, legal) != HIVE_OK) {
		pgame_lose(pg, side, "out of memory");
		return;
	}
	live_update(pg->lg, &pg->game);
	if (pgame_check_end(pg))
		return;
	pgame_idle_arm(pg);
}

static void pgame_go(struct pgame *pg)
{
	struct engine_limits l;
	memset(&l, 0, sizeof l);
	if (pg->depth)
		l.depth = pg->depth;
	else
		l.movetime_ms = pg->p->think_ms;
	l.max_ms = pg->p->think_ms;
	pg->busy = 1;
	if (engine_go(pg->eng, &pg->game, &l, on_info, on_move, pg) < 0) {
		pg->busy = 0;
		pgame_lose(pg, 1 - pg->human, "engine failed: cannot search");
	}
}

static void on_started(void *arg, const struct engine_result *r)
{
	struct pgame *pg = arg;
	char reason[300];

	pg->busy = 0;
	if (r->status != ENGINE_OK) {
		snprintf(reason, sizeof reason, "engine failed: did not start: %s",
			 r->message ? r->message : "no reason");
		pgame_lose(pg, 1 - pg->human, reason);
		return;
	}
	pg->ready = 1;
	if (hive_side_to_move(&pg->game.board) != pg->human)
		pgame_go(pg);
	else
		live_update(pg->lg, &pg->game);    /* watchers learn it is the person's move */
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
	while (p->games)
		pgame_free(p->games);
	free(p);
}

void *play_tag(struct play *p)
{
	return p;
}

static struct pgame *play_find(struct play *p, unsigned id)
{
	for (struct pgame *pg = p->games; pg; pg = pg->next)
		if (pg->id == id)
			return pg;
	return NULL;
}

int play_human_to_move(struct play *p, unsigned id)
{
	struct pgame *pg = p ? play_find(p, id) : NULL;
	return pg && pg->ready && !pg->busy && hive_side_to_move(&pg->game.board) == pg->human;
}

unsigned play_start(struct play *p, const struct start_req *r, const char *peer, char *token,
		    int *status, const char **why)
{
	const struct engine_profile *prof = config_profile(p->conf, r->engine);
	char cause[200] = "";
	unsigned mine = 0;
	int human = r->human;

	*status = 400;
	if (!prof) {
		*why = "no such engine profile";
		return 0;
	}
	for (const struct pgame *g = p->games; g; g = g->next)
		mine += !strcmp(g->peer, peer);
	if (mine >= PLAY_MAX_PER_PEER) {
		*status = 429;
		*why = "too many games from your address";
		return 0;
	}
	if (p->ngames >= p->max_games) {
		*status = 503;
		*why = "too many games being played";
		return 0;
	}
	struct pgame *pg = calloc(1, sizeof *pg);
	if (!pg) {
		*status = 500;
		*why = "out of memory";
		return 0;
	}
	pg->p = p;
	pg->human = human;
	pg->depth = r->depth;
	random_token(pg->token, WEB_TOKEN_LEN);
	snprintf(pg->peer, sizeof pg->peer, "%s", peer);
	hive_game_init(&pg->game, r->type);
	pg->next = p->games;
	p->games = pg;
	p->ngames++;
	pg->idle = evtimer_new(p->base, on_idle, pg);
	pg->eng = engine_new(p->base, prof, cause, sizeof cause);
	pg->lg = live_open("web", human == HIVE_WHITE ? "you" : prof->name,
			   human == HIVE_WHITE ? prof->name : "you", &pg->game, p);
	if (!pg->idle || !pg->eng || !pg->lg) {
		snprintf(p->why, sizeof p->why, "cannot start the engine: %s",
			 cause[0] ? cause : "out of memory");
		pgame_free(pg);
		*status = 500;
		*why = p->why;
		return 0;
	}
	pg->id = pg->lg->id;
	log_note(0, "http: game %u: %s (%s) against %s", pg->id, human == HIVE_WHITE ? "white" : "black",
		 pg->peer, prof->name);
	snprintf(token, WEB_TOKEN_LEN + 1, "%s", pg->token);
	pg->busy = 1;
	if (engine_start(pg->eng, on_started, pg) < 0) {
		unsigned id = pg->id;
		pg->busy = 0;
		pgame_lose(pg, 1 - human, "engine failed: cannot be started");
		return id;
	}
	pgame_idle_arm(pg);
	return pg->id;
}

int play_owns(struct play *p, unsigned id, const char *token)
{
	struct pgame *pg = p && token ? play_find(p, id) : NULL;
	return pg && guard_token_eq(token, pg->token);
}

/* The game id of this play where the holder of token may act, or NULL with the status. */
static struct pgame *play_get(struct play *p, unsigned id, const char *token, int *status,
			      const char **why)
{
	struct pgame *pg = play_find(p, id);
	if (!pg) {
		*status = live_find(id) ? 409 : 404;
		*why = live_find(id) ? "not a game played here, or it is over" : "no such game";
		return NULL;
	}
	if (!token || !guard_token_eq(token, pg->token)) {
		*status = 403;
		*why = "not your game: moves and resigning need its owner token (X-Game-Token)";
		return NULL;
	}
	return pg;
}

int play_move(struct play *p, unsigned id, const char *token, const char *move, int *status,
	      const char **why)
{
	struct pgame *pg = play_get(p, id, token, status, why);
	struct hive_move m;

	if (!pg)
		return -1;
	if (!pg->ready || pg->busy || hive_side_to_move(&pg->game.board) != pg->human) {
		*status = 409;
		*why = "not your turn";
		return -1;
	}
	if (hive_move_parse(&pg->game.board, move, &m, p->why, sizeof p->why) != HIVE_OK) {
		*status = 422;
		*why = p->why;
		return -1;
	}
	if (hive_game_play(&pg->game, m) != HIVE_OK) {
		*status = 500;
		*why = "out of memory";
		return -1;
	}
	live_update(pg->lg, &pg->game);
	if (pgame_check_end(pg))
		return 0;
	pgame_idle_arm(pg);
	pgame_go(pg);
	return 0;
}

int play_resign(struct play *p, unsigned id, const char *token, int *status, const char **why)
{
	struct pgame *pg = play_get(p, id, token, status, why);
	if (!pg)
		return -1;
	pgame_lose(pg, pg->human, "resigned");
	return 0;
}

void play_shutdown(struct play *p, const char *reason)
{
	p->max_games = 0;          /* play_start answers 503 from now on */
	while (p->games) {
		struct pgame *pg = p->games;
		log_note(0, "http: game %u: * (%s)", pg->id, reason);
		live_abort(pg->lg, reason);
		pgame_free(pg);
	}
}
