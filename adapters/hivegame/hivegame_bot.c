/*
 * hivegame_bot.c: a bot account on hivegame.com (or any server of its bot API) played
 * by one of our engines. The API has no push channel for bots, so the bot polls: a
 * cycle logs in when needed (again before the token expires, and on any 401), reads
 * the challenges and accepts those the [site] allows (up to max_games at once),
 * reads the games waiting for its move, and every few cycles the games in progress
 * (a game gone from them is over: its session ends). Each game has one session: the
 * canonical game, rebuilt from the site's history (every ply checked by the core)
 * whenever the site's differs from ours, and one engine kept from move to move. The
 * engine interface checks the engine's move; a move the site refuses is logged with
 * its reason and the game is read again, never sent again as it was. A network error
 * or a 5xx backs off (bot_backoff) and loses nothing: the next poll finds the games
 * where they are, and a move that may not have arrived is sent again only if the
 * site's game is still the one it was made for. With resign_below set, an engine
 * whose own score for its move is that low resigns instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <time.h>
#include <event2/event.h>

#include "adapters/hivegame/hivegame_codec.h"
#include "bridge/bot.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/util.h"
#include "bridge/webclient.h"
#include "core/errbuf.h"

#define ONGOING_EVERY   5          /* cycles between two reads of the games in progress */
#define MAX_REFUSALS    3          /* refused moves in one position before the game is left */
#define MAX_ENGINE_FAILS 3         /* fresh engines failing in one position before resigning */
#define ANSWER_MAX      (4u << 20) /* bytes of one answer (a list of long games) */
#define TOKEN_LIFETIME  6000       /* s: the site's (encode.rs), when a token says none */
#define MAX_SESSIONS(b) (4 * (size_t)(b)->conf->max_games + 4)   /* engines at once, at most */

enum phase { P_IDLE, P_LOGIN, P_IDENT, P_CHALLENGES, P_ACCEPT, P_PENDING, P_ONGOING };
enum gstate { G_IDLE, G_STARTING, G_THINKING, G_PLAYING, G_READING, G_LEFT };

struct hg_sess {
	struct site_bot       *bot;
	LIST_ENTRY(hg_sess)    link;     /* bot->sess, from sess_new to sess_free */
	char                   nanoid[HG_ID_MAX];
	unsigned               log_id;
	int                    side;          /* 0 white, 1 black */
	struct hive_game       game;          /* canonical: the site's history, checked */
	struct engine         *engine;
	enum gstate            state;
	struct webclient_call *call;
	enum hg_time_mode      mode;
	int64_t                left_ns;       /* the bot's time left when the site last said */
	int64_t                inc_s;
	size_t                 seen_len;      /* the position first seen waiting for us... */
	int64_t                seen_ms;       /* ...then */
	int                    has_move;      /* a move made for seen_len plies, maybe not sent */
	struct hive_move       move;
	size_t                 move_len;
	unsigned               refusals;
	unsigned               engine_fails;  /* engines that gave no move in this position */
	int                    listed;        /* in the latest list of games in progress */
	int64_t                changed_ms;    /* the last play sent: a list asked before is stale */
	struct live_game      *live;          /* the web page's record (NULL while nobody watches) */
	int                    has_score;     /* the search reported a score... */
	int                    score;         /* ...its latest, the bot's view */
};

struct site_bot {
	struct event_base           *base;
	const struct bot_conf       *conf;
	const struct engine_profile *profile;
	char                        *password;
	unsigned                     log_id;
	struct webclient            *wc;
	struct event                *tick;
	char                         token[HG_TOKEN_MAX];
	int                          have_token;
	int64_t                      relogin_ms;
	char                         user_id[HG_ID_MAX], name[HG_ID_MAX];
	unsigned                     backoff_ms;
	enum phase                   phase;
	struct webclient_call       *call;
	unsigned                     cycle;
	struct hg_challenges         chal;       /* this cycle's, accepted one by one */
	size_t                       chal_next;
	LIST_HEAD(, hg_sess)         sess;       /* newest first (empty when zeroed) */
	size_t                       nsess;
	int64_t                      rtt_ms;     /* a play request's round trip, smoothed */
	int64_t                      list_ms;    /* when the list being read was asked for */
	unsigned                     next_id;
};

static void cycle_next(struct site_bot *b, unsigned delay_ms);
static void cycle_step(struct site_bot *b);
static void sess_think(struct hg_sess *s);
static void sess_read(struct hg_sess *s);

/* --- requests ------------------------------------------------------------------------ */

static struct webclient_call *request(struct site_bot *b, unsigned log_id, const char *method,
				      const char *path, const char *body, int secret,
				      webclient_done_cb *done, void *arg)
{
	char err[256];
	char *url = xasprintf("%s%s", b->conf->url, path);
	struct webclient_request rq = {
		.method = method, .url = url, .body = body,
		.bearer = b->have_token && strcmp(path, "/api/v1/auth/token") ? b->token : NULL,
		.timeout_ms = b->conf->request_timeout_ms, .max_answer = ANSWER_MAX,
		.secret = secret, .log_id = log_id,
	};
	struct webclient_call *c = webclient_send(b->wc, &rq, done, arg, err, sizeof err);
	free(url);
	if (!c)
		log_warn(log_id, "hivegame %s: %s %s: %s", b->conf->name, method, path, err);
	return c;
}

/* What an answer means before its body is read: 0 read it, else it failed (the
 * back-off is set, or the token dropped on a 401) and the caller stops. */
static int answer_usable(struct site_bot *b, unsigned log_id, const struct webclient_answer *a,
			 const char *what)
{
	if (a->error || a->status == 0 || a->status >= 500) {
		b->backoff_ms = bot_backoff(b->conf, b->backoff_ms);
		log_note(log_id, "hivegame %s: %s: %s; next try in %u ms", b->conf->name, what,
			 a->error ? a->error : "server error", b->backoff_ms);
		return -1;
	}
	if (a->status == 401) {
		log_note(log_id, "hivegame %s: %s: 401, logging in again", b->conf->name, what);
		b->have_token = 0;
		return -1;
	}
	return 0;
}

/* --- sessions ------------------------------------------------------------------------ */

static struct hg_sess *sess_find(struct site_bot *b, const char *nanoid)
{
	struct hg_sess *s;
	LIST_FOREACH(s, &b->sess, link)
		if (!strcmp(s->nanoid, nanoid))
			return s;
	return NULL;
}

static void sess_free(struct hg_sess *s)
{
	struct site_bot *b = s->bot;
	LIST_REMOVE(s, link);
	b->nsess--;
	live_close(s->live);
	webclient_cancel(s->call);
	engine_free(s->engine);
	hive_game_free(&s->game);
	free(s);
}

/* Games being played (a left one counts until the site ends it). */
static size_t sess_count(const struct site_bot *b)
{
	return b->nsess;
}

static struct hg_sess *sess_new(struct site_bot *b, const struct hg_game *g)
{
	struct hg_sess *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->bot = b;
	snprintf(s->nanoid, sizeof s->nanoid, "%s", g->nanoid);
	s->log_id = b->log_id + 1 + (b->next_id++ % 999);
	s->side = hg_game_side(g, b->user_id);
	hive_game_init(&s->game, g->type);
	LIST_INSERT_HEAD(&b->sess, s, link);
	b->nsess++;
	log_note(s->log_id, "hivegame %s: game %s (%s, %s %lld+%lld) as %s", b->conf->name, s->nanoid,
		 g->game_type, hg_time_mode_name(g->mode), (long long)g->time_base,
		 (long long)g->time_increment, s->side < 0 ? "nobody" : s->side ? "black" : "white");
	return s;
}

/* Takes the site's view of the game: the history (checked by the core), the clock;
 * then thinks if it is the bot's move and nothing is under way. */
static void sess_sync(struct hg_sess *s, const struct hg_game *g)
{
	struct site_bot *b = s->bot;
	char err[256];
	if (!g->type_ok || s->side < 0) {
		if (s->state != G_LEFT)
			log_warn(s->log_id, "hivegame %s: game %s: %s; left alone", b->conf->name, s->nanoid,
				 !g->type_ok ? "a game type the core does not play" : "the bot is not in it");
		s->state = G_LEFT;
		return;
	}
	struct hive_game fresh;
	hive_game_init(&fresh, g->type);
	if (hg_history_replay(g->history, &fresh, err, sizeof err) < 0) {
		log_warn(s->log_id, "hivegame %s: game %s: the site's history does not replay (%s); "
			 "left alone", b->conf->name, s->nanoid, err);
		hive_game_free(&fresh);
		s->state = G_LEFT;
		return;
	}
	if (!hive_game_is_prefix(&s->game, &fresh) && s->game.len)
		log_note(s->log_id, "hivegame %s: game %s changed elsewhere: rebuilt from its history",
			 b->conf->name, s->nanoid);
	if (fresh.len != s->game.len || !hive_game_is_prefix(&s->game, &fresh)) {
		hive_game_free(&s->game);
		s->game = fresh;
	} else {
		hive_game_free(&fresh);
	}
	const char *me = b->conf->user, *them = "hivegame.com opponent";
	live_report(&s->live, "hivegame", s->side ? them : me, s->side ? me : them, &s->game);
	if (g->white_time_left >= 0 && g->black_time_left >= 0)
		live_clocks(s->live, g->white_time_left / 1000000, g->black_time_left / 1000000,
			    strcmp(g->game_status, "InProgress") ? -1 : hive_side_to_move(&s->game.board));
	if (g->finished) {
		log_note(s->log_id, "hivegame %s: game %s over: %s", b->conf->name, s->nanoid, g->game_status);
		/* The site's result, which may be a time-out or a resignation the board cannot show. */
		int st = strstr(g->game_status, "1-0") ? HIVE_WHITE_WINS : strstr(g->game_status, "0-1") ?
			 HIVE_BLACK_WINS : HIVE_DRAW;
		if (s->state != G_LEFT)
			live_finish(s->live, st, g->game_status);
		s->state = G_LEFT;
		engine_free(s->engine);
		s->engine = NULL;
		return;
	}
	s->mode = g->mode;
	s->left_ns = s->side ? g->black_time_left : g->white_time_left;
	s->inc_s = g->time_increment;
	int mine = !strcmp(g->current_player_id, b->user_id) && hive_side_to_move(&s->game.board) == s->side;
	if (!mine || hive_game_over(&s->game.board) || s->state != G_IDLE)
		return;
	if (s->seen_len != s->game.len || !s->seen_ms) {
		s->seen_len = s->game.len;
		s->seen_ms = now_ms();
		s->refusals = 0;
		s->engine_fails = 0;
	}
	sess_think(s);
}

static void on_play(void *arg, const struct webclient_answer *a)
{
	struct hg_sess *s = arg;
	struct site_bot *b = s->bot;
	char err[256], *history = NULL;
	s->call = NULL;
	s->state = G_IDLE;
	if (answer_usable(b, s->log_id, a, "play") < 0)
		return;        /* the move is kept: sent again if the game is still where it was */
	b->rtt_ms = b->rtt_ms ? (3 * b->rtt_ms + a->elapsed_ms) / 4 : a->elapsed_ms;
	if (hg_parse_play(a->body, a->len, &history, err, sizeof err) < 0) {
		s->has_move = 0;
		s->refusals++;
		log_warn(s->log_id, "hivegame %s: game %s: move refused: %s; reading the game again",
			 b->conf->name, s->nanoid, err);
		if (s->refusals >= MAX_REFUSALS) {
			log_warn(s->log_id, "hivegame %s: game %s: %u moves refused in this position; "
				 "left alone", b->conf->name, s->nanoid, s->refusals);
			s->state = G_LEFT;
			return;
		}
		sess_read(s);
		return;
	}
	s->has_move = 0;
	free(history);
	/* The opponent may have been passed for (the history then ends in a pass and it is
	 * the bot's move again): the next read of the waiting games shows it. */
	sess_read(s);
}

static void sess_send(struct hg_sess *s)
{
	struct site_bot *b = s->bot;
	char text[HIVE_MOVESTR_MAX];
	if (hg_move_text(&s->game, s->move, text, sizeof text) < 0) {
		log_warn(s->log_id, "hivegame %s: game %s: the engine passed; the site passes by itself",
			 b->conf->name, s->nanoid);
		s->has_move = 0;
		return;
	}
	char *body = hg_format_play(s->nanoid, text);
	if (!body)
		return;
	s->state = G_PLAYING;
	s->changed_ms = now_ms();
	s->call = request(b, s->log_id, "POST", "/api/v1/bot/games/play", body, 0, on_play, s);
	free(body);
	if (!s->call)
		s->state = G_IDLE;
}

static void on_engine_info(void *arg, const struct hive_search_info *info)
{
	struct hg_sess *s = arg;
	s->has_score = 1;
	s->score = info->score;
}

static void on_control(void *arg, const struct webclient_answer *a)
{
	struct hg_sess *s = arg;
	char err[256];
	s->call = NULL;
	s->state = G_IDLE;
	if (answer_usable(s->bot, s->log_id, a, "resign") < 0)
		return;
	if (hg_parse_ok(a->body, a->len, err, sizeof err) < 0)
		log_warn(s->log_id, "hivegame %s: game %s: resign refused: %s", s->bot->conf->name,
			 s->nanoid, err);
	sess_read(s);
}

/* Resigns the game (the site takes it from the second turn on). 1 when the request
 * went out. */
static int sess_post_resign(struct hg_sess *s)
{
	struct site_bot *b = s->bot;
	char *body = s->game.len >= 2 ? hg_format_control(s->nanoid, "resign") : NULL;
	if (!body)
		return 0;
	s->state = G_PLAYING;
	s->changed_ms = now_ms();
	s->call = request(b, s->log_id, "POST", "/api/v1/bot/games/control", body, 0, on_control, s);
	free(body);
	if (!s->call)
		s->state = G_IDLE;
	return s->call != NULL;
}

/* The engine's score says the game is lost beyond the [site]'s threshold: resign. */
static int sess_resign(struct hg_sess *s)
{
	struct site_bot *b = s->bot;
	if (!b->conf->resign || !s->has_score || s->score > b->conf->resign_below || s->game.len < 2)
		return 0;
	log_note(s->log_id, "hivegame %s: game %s: resigning (the engine's score %d, resign_below %d)",
		 b->conf->name, s->nanoid, s->score, b->conf->resign_below);
	return sess_post_resign(s);
}

static void on_engine_move(void *arg, const struct engine_result *r)
{
	struct hg_sess *s = arg;
	struct site_bot *b = s->bot;
	s->state = G_IDLE;
	if (r->status != ENGINE_OK) {
		char why[256];
		engine_failure_reason(r, why, sizeof why);
		engine_free(s->engine);
		s->engine = NULL;
		/* A position that fresh engines fail on again and again is one this engine
		 * cannot play (nokamute's own repetition rule refuses some of the site's
		 * histories): resign, rather than let the clock run out on the opponent. */
		if (++s->engine_fails >= MAX_ENGINE_FAILS) {
			log_warn(s->log_id, "hivegame %s: game %s: the engine gave no move %u times in this "
				 "position (%s); %s", b->conf->name, s->nanoid, s->engine_fails, why,
				 s->game.len >= 2 ? "resigning" : "left alone");
			if (!sess_post_resign(s))
				s->state = G_LEFT;
			return;
		}
		log_warn(s->log_id, "hivegame %s: game %s: the engine gave no move (%s); it starts again",
			 b->conf->name, s->nanoid, why);
		return;
	}
	char ms[HIVE_MOVESTR_MAX];
	hive_move_format(&s->game.board, r->move, ms, sizeof ms);
	log_note(s->log_id, "hivegame %s: game %s ply %zu: %s after %lld ms", b->conf->name, s->nanoid,
		 s->game.len + 1, ms, (long long)(now_ms() - s->seen_ms));
	if (sess_resign(s))
		return;
	s->move = r->move;
	s->move_len = s->game.len;
	s->has_move = 1;
	sess_send(s);
}

static void on_engine_ready(void *arg, const struct engine_result *r)
{
	struct hg_sess *s = arg;
	s->state = G_IDLE;
	if (r->status != ENGINE_OK) {
		log_warn(s->log_id, "hivegame %s: game %s: the engine does not start: %s", s->bot->conf->name,
			 s->nanoid, r->message ? r->message : "");
		engine_free(s->engine);
		s->engine = NULL;
		return;
	}
	sess_think(s);
}

static void sess_think(struct hg_sess *s)
{
	struct site_bot *b = s->bot;
	char err[256];
	if (s->has_move && s->move_len == s->game.len) {
		sess_send(s);       /* made for this very position: its answer was lost */
		return;
	}
	s->has_move = 0;
	if (!s->engine) {
		if (!(s->engine = engine_new(b->base, b->profile, err, sizeof err))) {
			log_warn(s->log_id, "hivegame %s: engine: %s", b->conf->name, err);
			return;
		}
		engine_set_log_id(s->engine, s->log_id);
		s->state = G_STARTING;
		if (engine_start(s->engine, on_engine_ready, s) < 0) {
			s->state = G_IDLE;
			engine_free(s->engine);
			s->engine = NULL;
		}
		return;
	}
	struct engine_limits l;
	enum bot_clock clock = s->mode == HG_REALTIME ? BOT_CLOCK_REAL :
			       s->mode == HG_CORRESPONDENCE ? BOT_CLOCK_DAYS : BOT_CLOCK_NONE;
	int64_t left_ms = s->left_ns >= 0 ? s->left_ns / 1000000 : 0;
	/* Spent already: since the bot saw the position, up to a poll before it (the
	 * site's clock ran from the opponent's move), and the round trip to come. */
	int64_t lag = now_ms() - s->seen_ms + b->conf->poll_ms + (b->rtt_ms ? b->rtt_ms : 200);
	bot_limits(b->conf, clock, s->side, left_ms, s->inc_s > 0 ? s->inc_s * 1000 : 0, lag, &l);
	s->state = G_THINKING;
	s->has_score = 0;
	if (engine_go(s->engine, &s->game, &l, b->conf->resign ? on_engine_info : NULL, on_engine_move,
		      s) < 0) {
		s->state = G_IDLE;
		log_warn(s->log_id, "hivegame %s: game %s: the engine refused the search", b->conf->name,
			 s->nanoid);
	}
}

static void on_game_read(void *arg, const struct webclient_answer *a)
{
	struct hg_sess *s = arg;
	struct site_bot *b = s->bot;
	struct hg_games gs;
	char err[256];
	s->call = NULL;
	s->state = G_IDLE;
	if (answer_usable(b, s->log_id, a, "game") < 0)
		return;
	if (hg_parse_games(a->body, a->len, &gs, err, sizeof err) < 0 || gs.n != 1) {
		log_warn(s->log_id, "hivegame %s: game %s: %s", b->conf->name, s->nanoid,
			 gs.n != 1 && !err[0] ? "no game in the answer" : err);
		if (strstr(err, "the site says"))
			s->state = G_LEFT;   /* gone (aborted): the session ends with the next list */
		return;
	}
	sess_sync(s, &gs.v[0]);
	hg_games_free(&gs);
}

static void sess_read(struct hg_sess *s)
{
	char path[HG_ID_MAX + 32];
	snprintf(path, sizeof path, "/api/v1/bot/game/%s", s->nanoid);
	s->state = G_READING;
	s->call = request(s->bot, s->log_id, "GET", path, NULL, 0, on_game_read, s);
	if (!s->call)
		s->state = G_IDLE;
}

/* --- the poll cycle ------------------------------------------------------------------ */

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
	struct site_bot *b = arg;
	b->cycle++;
	b->phase = P_LOGIN;
	cycle_step(b);
}

static void cycle_next(struct site_bot *b, unsigned delay_ms)
{
	b->phase = P_IDLE;
	hg_challenges_free(&b->chal);
	struct timeval tv = { delay_ms / 1000, (delay_ms % 1000) * 1000 };
	evtimer_add(b->tick, &tv);
}

/* A cycle's request failed: wait (the back-off, or at once for a new login). */
static void cycle_failed(struct site_bot *b)
{
	cycle_next(b, b->backoff_ms ? b->backoff_ms : b->have_token ? b->conf->poll_ms : 0);
}

static void on_login(void *arg, const struct webclient_answer *a)
{
	struct site_bot *b = arg;
	char err[256];
	b->call = NULL;
	if (a->status == 401 || a->status == 400) {
		/* Refused (a wrong password, not a bot): said loudly, tried again slowly. */
		b->backoff_ms = b->conf->backoff_max_ms;
		hg_parse_token(a->body, a->len, b->token, sizeof b->token, err, sizeof err);
		log_warn(b->log_id, "hivegame %s: login as %s refused (%ld): %s", b->conf->name, b->conf->user,
			 a->status, a->len ? err : "no reason given");
		cycle_next(b, b->backoff_ms);
		return;
	}
	if (answer_usable(b, b->log_id, a, "login") < 0) {
		cycle_failed(b);
		return;
	}
	if (hg_parse_token(a->body, a->len, b->token, sizeof b->token, err, sizeof err) < 0) {
		b->backoff_ms = bot_backoff(b->conf, b->backoff_ms);
		log_warn(b->log_id, "hivegame %s: login: %s", b->conf->name, err);
		cycle_failed(b);
		return;
	}
	int64_t exp = hg_token_expiry(b->token), life = exp - (int64_t)time(NULL);
	if (exp < 0 || life <= 0 || life > 86400)
		life = TOKEN_LIFETIME;     /* a clock that disagrees, or no claim: the site's */
	b->have_token = 1;
	b->relogin_ms = now_ms() + life * 900;       /* at nine tenths of its life */
	log_note(b->log_id, "hivegame %s: logged in as %s; again in %lld s", b->conf->name,
		 b->conf->user, (long long)(life * 9 / 10));
	b->phase = b->user_id[0] ? P_CHALLENGES : P_IDENT;
	cycle_step(b);
}

static void on_ident(void *arg, const struct webclient_answer *a)
{
	struct site_bot *b = arg;
	char err[256];
	b->call = NULL;
	if (answer_usable(b, b->log_id, a, "identity") < 0) {
		cycle_failed(b);
		return;
	}
	if (hg_parse_identity(a->body, a->len, b->user_id, b->name, err, sizeof err) < 0) {
		b->user_id[0] = 0;
		b->backoff_ms = bot_backoff(b->conf, b->backoff_ms);
		log_warn(b->log_id, "hivegame %s: identity: %s", b->conf->name, err);
		cycle_failed(b);
		return;
	}
	b->phase = P_CHALLENGES;
	cycle_step(b);
}

static int listed(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; p && *p; ) {
		size_t m = strcspn(p, ",");
		if (m == n && !strncasecmp(p, item, n))
			return 1;
		p += m + (p[m] == ',');
	}
	return 0;
}

/* Whether the [site] takes this challenge (a challenge of its own never). */
static int acceptable(const struct site_bot *b, const struct hg_challenge *c, const char *me)
{
	const struct bot_conf *k = b->conf;
	const char *mode = c->mode == HG_REALTIME ? "realtime" : c->mode == HG_CORRESPONDENCE ?
			   "correspondence" : c->mode == HG_UNTIMED ? "untimed" : "?";
	if (!c->type_ok || !strcmp(c->challenger, me) || !listed(k->time_modes, mode))
		return 0;
	if (k->game_types && !listed(k->game_types, c->game_type))
		return 0;
	if (k->rated >= 0 && k->rated != c->rated)
		return 0;
	if (c->mode == HG_REALTIME && ((k->min_base_s && c->time_base < (int64_t)k->min_base_s) ||
				       (k->max_base_s && c->time_base > (int64_t)k->max_base_s)))
		return 0;
	return 1;
}

static void on_challenges(void *arg, const struct webclient_answer *a)
{
	struct site_bot *b = arg;
	char err[256];
	b->call = NULL;
	if (answer_usable(b, b->log_id, a, "challenges") < 0) {
		cycle_failed(b);
		return;
	}
	hg_challenges_free(&b->chal);
	if (hg_parse_challenges(a->body, a->len, &b->chal, err, sizeof err) < 0)
		log_warn(b->log_id, "hivegame %s: challenges: %s", b->conf->name, err);
	b->chal_next = 0;
	b->phase = P_ACCEPT;
	cycle_step(b);
}

static void on_accept(void *arg, const struct webclient_answer *a)
{
	struct site_bot *b = arg;
	struct hg_games gs;
	char err[256];
	b->call = NULL;
	if (answer_usable(b, b->log_id, a, "accept") < 0) {
		cycle_failed(b);
		return;
	}
	if (hg_parse_games(a->body, a->len, &gs, err, sizeof err) < 0 || gs.n != 1) {
		log_note(b->log_id, "hivegame %s: accept: %s", b->conf->name, gs.n ? err : "no game");
	} else {
		struct hg_sess *s = sess_find(b, gs.v[0].nanoid);
		if (!s)
			s = sess_new(b, &gs.v[0]);
		/* Never under a search or a request: the game they work on must stay. */
		if (s && s->state == G_IDLE)
			sess_sync(s, &gs.v[0]);
		hg_games_free(&gs);
	}
	cycle_step(b);
}

static void on_games(void *arg, const struct webclient_answer *a)
{
	struct site_bot *b = arg;
	struct hg_games gs;
	char err[256];
	int ongoing = b->phase == P_ONGOING;
	b->call = NULL;
	if (answer_usable(b, b->log_id, a, ongoing ? "ongoing games" : "pending games") < 0) {
		cycle_failed(b);
		return;
	}
	b->backoff_ms = 0;
	if (hg_parse_games(a->body, a->len, &gs, err, sizeof err) < 0) {
		log_warn(b->log_id, "hivegame %s: games: %s", b->conf->name, err);
		cycle_next(b, b->conf->poll_ms);
		return;
	}
	if (ongoing)
		for (struct hg_sess *s = LIST_FIRST(&b->sess); s; s = LIST_NEXT(s, link))
			s->listed = 0;
	for (size_t i = 0; i < gs.n; i++) {
		struct hg_sess *s = sess_find(b, gs.v[i].nanoid);
		/* After a restart: rebuilt from its history. Games the bot did not accept here
		 * (a tournament's) are played too, up to a bound on the engines it runs. */
		if (!s && !ongoing && b->nsess < MAX_SESSIONS(b))
			s = sess_new(b, &gs.v[i]);
		else if (!s && !ongoing)
			log_warn(b->log_id, "hivegame %s: game %s waits: %zu games already", b->conf->name,
				 gs.v[i].nanoid, b->nsess);
		if (!s)
			continue;
		s->listed = 1;
		/* A list asked for before the session's last move may show the game before it. */
		if (!ongoing && s->state == G_IDLE && s->changed_ms < b->list_ms)
			sess_sync(s, &gs.v[i]);
	}
	hg_games_free(&gs);
	if (ongoing) {
		/* Over (or aborted): what is not listed any more and waits for nothing. */
		for (struct hg_sess *s = LIST_FIRST(&b->sess), *n; s; s = n) {
			n = LIST_NEXT(s, link);
			if (!s->listed && (s->state == G_IDLE || s->state == G_LEFT)) {
				log_note(s->log_id, "hivegame %s: game %s ended", b->conf->name, s->nanoid);
				sess_free(s);
			}
		}
	}
	if (!ongoing && b->nsess && b->cycle % ONGOING_EVERY == 0) {
		b->phase = P_ONGOING;
		cycle_step(b);
	} else {
		cycle_next(b, b->conf->poll_ms);
	}
}

/* The cycle's next request, from b->phase. */
static void cycle_step(struct site_bot *b)
{
	char path[HG_ID_MAX + 48];
	switch (b->phase) {
	case P_IDLE:
		return;
	case P_LOGIN:
		if (!b->have_token || now_ms() >= b->relogin_ms) {
			char *body = hg_format_login(b->conf->user, b->password);
			b->have_token = 0;
			b->call = body ? request(b, b->log_id, "POST", "/api/v1/auth/token", body,
						 WEBCLIENT_SECRET_BODY | WEBCLIENT_SECRET_ANSWER, on_login, b) : NULL;
			if (body) {
				explicit_bzero(body, strlen(body));
				free(body);
			}
			break;
		}
		b->phase = b->user_id[0] ? P_CHALLENGES : P_IDENT;
		cycle_step(b);
		return;
	case P_IDENT:
		b->call = request(b, b->log_id, "GET", "/api/v1/auth/id", NULL, 0, on_ident, b);
		break;
	case P_CHALLENGES:
		if (sess_count(b) >= b->conf->max_games) {
			b->phase = P_PENDING;
			cycle_step(b);
			return;
		}
		b->call = request(b, b->log_id, "GET", "/api/v1/bot/challenges/", NULL, 0, on_challenges, b);
		break;
	case P_ACCEPT:
		while (b->chal_next < b->chal.n &&
		       !acceptable(b, &b->chal.v[b->chal_next], b->chal.bot_username[0] ?
				   b->chal.bot_username : b->conf->user))
			b->chal_next++;
		if (b->chal_next >= b->chal.n || sess_count(b) >= b->conf->max_games) {
			b->phase = P_PENDING;
			cycle_step(b);
			return;
		}
		const struct hg_challenge *c = &b->chal.v[b->chal_next++];
		log_note(b->log_id, "hivegame %s: accepting %s from %s (%s, %s %lld+%lld%s)", b->conf->name,
			 c->id, c->challenger, c->game_type, hg_time_mode_name(c->mode),
			 (long long)c->time_base, (long long)c->time_increment, c->rated ? ", rated" : "");
		snprintf(path, sizeof path, "/api/v1/bot/challenge/accept/%s", c->id);
		b->call = request(b, b->log_id, "GET", path, NULL, 0, on_accept, b);
		break;
	case P_PENDING:
		b->list_ms = now_ms();
		b->call = request(b, b->log_id, "GET", "/api/v1/bot/games/pending", NULL, 0, on_games, b);
		break;
	case P_ONGOING:
		b->list_ms = now_ms();
		b->call = request(b, b->log_id, "GET", "/api/v1/bot/games/ongoing", NULL, 0, on_games, b);
		break;
	}
	if (!b->call)
		cycle_next(b, bot_backoff(b->conf, b->backoff_ms));
}

/* --- the driver ---------------------------------------------------------------------- */

static void hivegame_free(struct site_bot *b)
{
	if (!b)
		return;
	while (!LIST_EMPTY(&b->sess))
		sess_free(LIST_FIRST(&b->sess));
	webclient_cancel(b->call);
	webclient_free(b->wc);
	if (b->tick)
		event_free(b->tick);
	hg_challenges_free(&b->chal);
	if (b->password) {
		explicit_bzero(b->password, strlen(b->password));
		free(b->password);
	}
	explicit_bzero(b->token, sizeof b->token);
	free(b);
}

static struct site_bot *hivegame_start(struct event_base *base, const struct bot_conf *c,
				       const struct engine_profile *p, char *password, unsigned log_id,
				       char *err, size_t errlen)
{
	struct site_bot *b = calloc(1, sizeof *b);
	if (!b) {
		free(password);
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	b->base = base;
	b->conf = c;
	b->profile = p;
	b->password = password;
	b->log_id = log_id;
	if (strncmp(c->url, "https://", 8) && strncmp(c->url, "http://", 7)) {
		errbuf_set(err, errlen, "url must start with https:// (or http:// for a local server)");
		hivegame_free(b);
		return NULL;
	}
	if (!(b->wc = webclient_new(base, err, errlen)) || !(b->tick = evtimer_new(base, on_tick, b))) {
		if (b->wc)
			errbuf_set(err, errlen, "out of memory");
		hivegame_free(b);
		return NULL;
	}
	log_note(log_id, "hivegame %s: bot %s on %s, engine %s, %u games at once", c->name, c->user,
		 c->url, p->name, c->max_games);
	cycle_next(b, 0);
	return b;
}

static size_t hivegame_games(const struct site_bot *b)
{
	return b->nsess;
}

const struct site_driver site_hivegame = {
	.site = "hivegame",
	.title = "hivegame.com",
	.default_url = "https://hivegame.com",
	.start = hivegame_start,
	.games = hivegame_games,
	.free = hivegame_free,
};
