/*
 * match.c: `hivebridge match [options] ENGINE_A ENGINE_B`, refereed games between
 * two engines on one event loop.
 *
 * The arbiter model of the UHP remote-play proposal: each player is its own engine
 * session (struct engine), the canonical game lives here, and a player only ever
 * gets "search this game" (engine_go). Every move that comes back is checked with
 * the core before it is played; a bad move, a broken engine, a stall or an empty
 * clock loses the game for that engine, and a broken engine is replaced (engine_free
 * + engine_new) before its next game.
 *
 * A slot runs one game at a time with its own pair of engines; --concurrency K
 * runs K slots. A slot is a small state machine driven by engine callbacks (always
 * delivered from the loop), its clock timer, and a kick event that starts the next
 * game from the loop rather than from deep inside the previous one.
 *
 * Game g (1-based) uses opening (g - 1) / 2 and gives white to ENGINE_A when g is
 * odd, so each opening is played twice with colours swapped. Results go to the
 * results file, one JSON line per game, flushed as each game ends; --resume reads
 * them back, skips the games already there and plays the rest.
 */
#include <arpa/inet.h>
#include <cJSON.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/thread.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/log.h"
#include "bridge/match/match.h"
#include "bridge/match/sprt.h"
#include "bridge/proc.h"
#include "bridge/util.h"
#include "core/game.h"

#define MATCH_DEFAULT_MOVETIME_MS 1000
#define MATCH_MAX_CONCURRENCY     64
#define MATCH_MAX_GAMES           1000000
#define MATCH_MAX_DEPTH           64
/* Two deterministic engines can shuffle forever: a game is adjudicated a draw after
 * this many plies or this many repetitions unless the options say otherwise. The
 * ply cap also keeps a game far below the board's 16-bit ply counter. */
#define MATCH_DEFAULT_MAX_PLIES   1000
#define MATCH_PLY_CAP             60000
#define MATCH_DEFAULT_REPETITION  3
/* At shutdown, how long engines get to exit before they are killed. */
#define MATCH_DRAIN_MS            3000
/* A viewer whose unread output passes this is dropped: it cannot slow a match. */
#define VIEWER_MAX_PENDING        (1024 * 1024)
/* At the end, how long viewers get to receive the last positions. */
#define VIEWER_FLUSH_MS           2000
/* Folded into the position key when black is to move. */
#define SIDE_KEY                  0x9e3779b97f4a7c15ULL

static const char match_usage[] =
	"usage: hivebridge match [options] ENGINE_A ENGINE_B\n"
	"  ENGINE: builtin | builtin:depth=N | NAME (a profile of --config) | \"CMD ARGS\"\n"
	"          | uhp:CMD ARGS | hub:CMD ARGS | trylobot:HOST:PORT\n"
	"  an engine that never starts aborts the match\n"
	"  --type GAMETYPE        Base, Base+MLP, ... (default Base)\n"
	"  --games N              games to play (default 2 per opening, else 2)\n"
	"  --concurrency K        games at once, each with its own engines (default 1)\n"
	"  --openings FILE        GameStrings, one per line, each played twice\n"
	"  --depth N | --movetime MS | --clock MS[+INC]   search limits (default movetime 1000)\n"
	"  --max-plies N          adjudicate a draw after N plies (default 1000)\n"
	"  --repetition N         adjudicate a draw when a position occurs N times\n"
	"                         (default 3, 0 = never)\n"
	"  --results FILE         one JSON line per finished game\n"
	"  --resume               skip the games already in --results FILE\n"
	"  --sprt ELO0,ELO1[,ALPHA,BETA]   stop when the test decides\n"
	"  --viewer ADDR:PORT     send GameStrings of running games to TCP viewers\n"
	"                         (a viewer that sends \"attach N\" follows game N only)\n"
	"  --config FILE          engine profiles; --log FILE  protocol trace log\n"
	"  exit status: 0 the match ran to its end (or the SPRT decided), 1 an error\n"
	"  (an engine that cannot start, a file) or an interruption, 2 a usage error\n";

enum player_id { PLAYER_A = 0, PLAYER_B = 1 };

struct match_opts {
	unsigned              type;
	int                   type_set;
	unsigned              games;
	int                   games_set;
	unsigned              concurrency;
	const char           *openings_path;
	int                   depth;
	uint64_t              movetime_ms;
	uint64_t              clock_ms;
	uint64_t              inc_ms;
	unsigned              max_plies;
	unsigned              repetition;
	const char           *results_path;
	int                   resume;
	int                   sprt_set;
	struct sprt_test      sprt;
	const char           *viewer;
	const char           *config_path;
	const char           *log_path;
	const char           *spec[2];
};

struct player {
	const char                  *label;     /* the ENGINE argument */
	const struct engine_profile *profile;   /* in match.conf */
	int                          depth;     /* builtin:depth=N, 0 = none */
	int                          started;   /* it started once in this match */
};

struct match;

/* One game at a time, with its own two engines. */
struct slot {
	struct match     *m;
	unsigned          id;
	struct engine    *eng[2];        /* by player; NULL until created */
	int               ready[2];      /* started */
	char              engine_id[2][128]; /* their "id" lines, for the results */
	int               starting;      /* player whose start is outstanding, -1 */
	int               thinking;      /* player whose go is outstanding, -1 */
	unsigned          game_no;       /* 0 = idle */
	int               white;         /* player with white */
	int               opening;       /* index, -1 = none */
	struct hive_game  game;
	int64_t           clock_us[2];   /* by colour, when clocks are on */
	struct timespec   t0;            /* when the outstanding go was sent */
	uint64_t         *keys;          /* position keys, one per position so far */
	size_t            nkeys, capkeys;
	uint64_t         *times_ms;      /* think time of each engine move */
	size_t            ntimes, captimes;
	struct event     *flag;          /* time forfeit */
	struct event     *kick;          /* next step, from the loop */
};

struct viewer_client {
	struct bufferevent   *bev;
	unsigned              game;          /* attached to this game number, 0 = all */
	struct viewer_client *next;
};

struct match {
	struct match_opts     o;
	struct config         conf;
	struct event_base    *base;
	struct player         pl[2];
	char                **openings;      /* GameStrings, owned */
	size_t                nopenings;
	unsigned char        *done;          /* done[g]: game g has a result */
	unsigned              next_game;
	unsigned              played;        /* games finished in this run */
	unsigned              total;         /* games with a result (resumed included) */
	struct sprt_counts    rec;           /* from ENGINE_A's view */
	FILE                 *results;
	struct slot          *slots;
	unsigned              nslots;
	int                   stopping;      /* start no new game */
	int                   interrupted;
	int                   failed;        /* a fatal error stopped the match */
	int                   finishing;     /* the loop ends once viewers have their data */
	enum sprt_verdict     verdict;
	struct event         *sig_int, *sig_term;
	struct evconnlistener *listener;
	struct viewer_client *viewers;
};

static void slot_play(struct slot *s);
static void slot_abandon(struct slot *s);
static void match_check_done(struct match *m);

/* --- small helpers ----------------------------------------------------------- */

/* "MS" or "MS+INC". */
static int parse_clock(const char *s, uint64_t *ms, uint64_t *inc)
{
	char buf[64];
	unsigned long long a, b = 0;
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (parse_uint(buf, 1, 86400000ULL * 7, &a) < 0)
		return -1;
	if (plus && parse_uint(plus + 1, 0, 86400000ULL, &b) < 0)
		return -1;
	*ms = a;
	*inc = b;
	return 0;
}

static int key_count(const struct slot *s, uint64_t key)
{
	int n = 0;
	for (size_t i = 0; i < s->nkeys; i++)
		n += s->keys[i] == key;
	return n;
}

static uint64_t position_key(const struct hive_board *b)
{
	return b->hash ^ (hive_side_to_move(b) ? SIDE_KEY : 0);
}

static int push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		uint64_t *p = realloc(*a, c * sizeof *p);
		if (!p)
			return -1;
		*a = p;
		*cap = c;
	}
	(*a)[(*n)++] = v;
	return 0;
}

/* The canonical GameString of g; the caller frees it. NULL on no memory. */
static char *game_string(const struct hive_game *g)
{
	size_t n = hive_game_format(g, NULL, 0);
	char *s = malloc(n + 1);
	if (s)
		hive_game_format(g, s, n + 1);
	return s;
}

/* --- viewers ------------------------------------------------------------------- */

static void viewer_drop(struct match *m, struct viewer_client *c)
{
	for (struct viewer_client **p = &m->viewers; *p; p = &(*p)->next) {
		if (*p == c) {
			*p = c->next;
			break;
		}
	}
	bufferevent_free(c->bev);
	free(c);
	if (m->finishing && !m->viewers)
		event_base_loopexit(m->base, NULL);
}

static void viewer_send(struct match *m, struct viewer_client *c, const char *line)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);
	if (evbuffer_get_length(out) > VIEWER_MAX_PENDING) {
		log_note(0, "match: viewer too slow, dropped");
		viewer_drop(m, c);
		return;
	}
	evbuffer_add_printf(out, "%s\n", line);
}

/* Every viewer attached to game (or to all) gets its GameString, a line as UHP prints one. */
static void viewer_broadcast(struct match *m, unsigned game, const struct hive_game *g)
{
	if (!m->viewers)
		return;
	char *gs = game_string(g);
	if (!gs)
		return;
	struct viewer_client *c = m->viewers, *next;
	for (; c; c = next) {
		next = c->next;
		if (!c->game || c->game == game)
			viewer_send(m, c, gs);
	}
	free(gs);
}

/* The games under way (or game n alone), so that a viewer need not wait for a move. */
static void viewer_catch_up(struct match *m, struct viewer_client *c)
{
	for (unsigned i = 0; i < m->nslots; i++) {
		unsigned g = m->slots[i].game_no;
		if (!g || (c->game && c->game != g))
			continue;
		char *gs = game_string(&m->slots[i].game);
		if (gs) {
			viewer_send(m, c, gs);
			free(gs);
		}
	}
}

/* A viewer may say "attach N" to follow game N only ("attach 0": every game);
 * anything else is ignored, and lines are bounded. */
static void viewer_read(struct bufferevent *bev, void *arg)
{
	struct match *m = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	struct viewer_client *c = m->viewers;
	char *line;
	size_t len;

	while (c && c->bev != bev)
		c = c->next;
	while (c && (line = evbuffer_readln(in, &len, EVBUFFER_EOL_CRLF)) != NULL) {
		unsigned long long n;
		if (!strncmp(line, "attach ", 7) && parse_uint(line + 7, 0, UINT32_MAX, &n) == 0) {
			c->game = (unsigned)n;
			log_note(0, "match: viewer attached to %s %llu", n ? "game" : "every game", n);
			viewer_catch_up(m, c);
		}
		free(line);
	}
	if (evbuffer_get_length(in) > 256)
		evbuffer_drain(in, evbuffer_get_length(in));
}

static void viewer_event(struct bufferevent *bev, short what, void *arg)
{
	struct match *m = arg;
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	for (struct viewer_client *c = m->viewers; c; c = c->next) {
		if (c->bev == bev) {
			viewer_drop(m, c);
			return;
		}
	}
}

static void viewer_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
			  int salen, void *arg)
{
	struct match *m = arg;
	struct viewer_client *c = calloc(1, sizeof *c);
	if (!c) {
		evutil_closesocket(fd);
		return;
	}
	c->bev = bufferevent_socket_new(m->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!c->bev) {
		evutil_closesocket(fd);
		free(c);
		return;
	}
	bufferevent_setcb(c->bev, viewer_read, NULL, viewer_event, m);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	c->next = m->viewers;
	m->viewers = c;
	log_note(0, "match: viewer connected");
	viewer_catch_up(m, c);
}

/* "ADDR:PORT" or "[V6ADDR]:PORT", numeric; port 0 picks a free one. */
static int parse_addr_port(const char *spec, struct sockaddr_storage *ss, int *len)
{
	const char *colon = strrchr(spec, ':');
	char host[INET6_ADDRSTRLEN + 2];
	unsigned long long port;

	if (!colon || parse_uint(colon + 1, 0, 65535, &port) < 0)
		return -1;
	size_t hlen = (size_t)(colon - spec);
	if (hlen >= 2 && spec[0] == '[' && spec[hlen - 1] == ']') {
		spec++;
		hlen -= 2;
	}
	if (hlen == 0 || hlen >= sizeof host)
		return -1;
	memcpy(host, spec, hlen);
	host[hlen] = 0;
	memset(ss, 0, sizeof *ss);
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		*len = sizeof *in;
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*len = sizeof *in6;
	} else {
		return -1;
	}
	return 0;
}

/* At the end: the viewer has everything. */
static void viewer_flushed(struct bufferevent *bev, void *arg)
{
	struct match *m = arg;
	for (struct viewer_client *c = m->viewers; c; c = c->next) {
		if (c->bev == bev) {
			viewer_drop(m, c);
			return;
		}
	}
}

/* Ends the loop once every viewer has its last lines (or after VIEWER_FLUSH_MS). */
static void match_exit(struct match *m)
{
	struct viewer_client *c, *next;

	if (m->finishing)
		return;
	m->finishing = 1;
	if (m->listener) {
		evconnlistener_free(m->listener);
		m->listener = NULL;
	}
	for (c = m->viewers; c; c = next) {
		next = c->next;
		if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
			viewer_drop(m, c);
		else
			bufferevent_setcb(c->bev, viewer_read, viewer_flushed, viewer_event, m);
	}
	if (!m->viewers) {
		event_base_loopexit(m->base, NULL);
		return;
	}
	struct timeval tv = { VIEWER_FLUSH_MS / 1000, (VIEWER_FLUSH_MS % 1000) * 1000 };
	event_base_loopexit(m->base, &tv);
}

static int viewer_listen(struct match *m, const char *spec)
{
	struct sockaddr_storage ss;
	int len = 0;

	if (parse_addr_port(spec, &ss, &len) < 0) {
		fprintf(stderr, "hivebridge match: bad --viewer %s (want ADDR:PORT)\n", spec);
		return -1;
	}
	m->listener = evconnlistener_new_bind(m->base, viewer_accept, m,
					      LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 16,
					      (struct sockaddr *)&ss, len);
	if (!m->listener) {
		fprintf(stderr, "hivebridge match: cannot listen on %s: %s\n", spec, strerror(errno));
		return -1;
	}
	/* Port 0 asks for a free one: say which (tests read it). */
	struct sockaddr_storage bound;
	socklen_t blen = sizeof bound;
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;
	if (getsockname(evconnlistener_get_fd(m->listener), (struct sockaddr *)&bound, &blen) == 0) {
		if (bound.ss_family == AF_INET) {
			struct sockaddr_in *in = (struct sockaddr_in *)&bound;
			inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
			port = ntohs(in->sin_port);
		} else if (bound.ss_family == AF_INET6) {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&bound;
			inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
			port = ntohs(in6->sin6_port);
		}
	}
	fprintf(stderr, "viewer listening on %s:%u\n", host, port);
	return 0;
}

/* --- results ------------------------------------------------------------------- */

static const char *result_text(int state)
{
	switch (state) {
	case HIVE_WHITE_WINS: return "1-0";
	case HIVE_BLACK_WINS: return "0-1";
	default: return "1/2-1/2";
	}
}

/* ENGINE_A's score of a finished game. */
static double a_score(int state, int white)
{
	if (state == HIVE_DRAW)
		return 0.5;
	int winner_white = state == HIVE_WHITE_WINS;
	return winner_white == (white == PLAYER_A) ? 1.0 : 0.0;
}

static void record_add(struct sprt_counts *rec, double score)
{
	if (score > 0.75)
		rec->wins++;
	else if (score < 0.25)
		rec->losses++;
	else
		rec->draws++;
}

/* Writes the game's JSON line and flushes it; -1 if the file cannot take it. */
static int results_write(struct match *m, const struct slot *s, int state, const char *reason)
{
	if (!m->results)
		return 0;
	cJSON *o = cJSON_CreateObject();
	char *gs = game_string(&s->game);
	char *line = NULL;
	int rc = -1;

	if (!o || !gs)
		goto out;
	cJSON_AddNumberToObject(o, "game", s->game_no);
	cJSON_AddStringToObject(o, "white", m->pl[s->white].label);
	cJSON_AddStringToObject(o, "black", m->pl[1 - s->white].label);
	cJSON_AddStringToObject(o, "engine_a", s->white == PLAYER_A ? "white" : "black");
	if (s->engine_id[s->white][0])
		cJSON_AddStringToObject(o, "white_id", s->engine_id[s->white]);
	if (s->engine_id[1 - s->white][0])
		cJSON_AddStringToObject(o, "black_id", s->engine_id[1 - s->white]);
	if (s->opening >= 0)
		cJSON_AddStringToObject(o, "opening", m->openings[s->opening]);
	cJSON_AddStringToObject(o, "gamestring", gs);
	cJSON_AddStringToObject(o, "result", result_text(state));
	cJSON_AddStringToObject(o, "reason", reason);
	cJSON_AddNumberToObject(o, "plies", (double)s->game.len);
	cJSON_AddNumberToObject(o, "a_score", a_score(state, s->white));
	cJSON *t = cJSON_AddArrayToObject(o, "times_ms");
	for (size_t i = 0; t && i < s->ntimes; i++)
		cJSON_AddItemToArray(t, cJSON_CreateNumber((double)s->times_ms[i]));
	line = cJSON_PrintUnformatted(o);
	if (!line)
		goto out;
	if (fprintf(m->results, "%s\n", line) < 0 || fflush(m->results) != 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		fprintf(stderr, "hivebridge match: cannot write %s: %s\n", m->o.results_path,
			strerror(errno));
	cJSON_free(line);
	free(gs);
	cJSON_Delete(o);
	return rc;
}

/* Reads an earlier run's results: marks their games done and counts them. A last
 * line cut short by a kill is cut off the file; any other bad line is an error. */
static int results_resume(struct match *m, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long good_end = 0;
	int lineno = 0, rc = 0;

	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		int complete = n > 0 && line[n - 1] == '\n';
		cJSON *o = cJSON_Parse(line);
		cJSON *g = o ? cJSON_GetObjectItemCaseSensitive(o, "game") : NULL;
		cJSON *sc = o ? cJSON_GetObjectItemCaseSensitive(o, "a_score") : NULL;
		if (!complete) {
			cJSON_Delete(o);
			break;               /* the interrupted write: cut off below */
		}
		if (!cJSON_IsNumber(g) || !cJSON_IsNumber(sc) || g->valuedouble < 1 ||
		    g->valuedouble > MATCH_MAX_GAMES) {
			cJSON_Delete(o);
			fprintf(stderr, "hivebridge match: %s line %d is not a result\n",
				m->o.results_path, lineno);
			rc = -1;
			break;
		}
		unsigned game = (unsigned)g->valuedouble;
		if (game <= m->o.games && !m->done[game]) {
			m->done[game] = 1;
			m->total++;
			record_add(&m->rec, sc->valuedouble);
		}
		cJSON_Delete(o);
		good_end = ftell(f);
	}
	free(line);
	if (rc == 0 && ftruncate(fileno(f), good_end) < 0) {
		fprintf(stderr, "hivebridge match: cannot truncate %s: %s\n", m->o.results_path,
			strerror(errno));
		rc = -1;
	}
	return rc;
}

static int results_open(struct match *m)
{
	if (!m->o.results_path)
		return 0;
	if (m->o.resume) {
		m->results = fopen(m->o.results_path, "a+");
		if (m->results) {
			rewind(m->results);
			if (results_resume(m, m->results) < 0)
				return -1;
			fseek(m->results, 0, SEEK_END);
		}
	} else {
		m->results = fopen(m->o.results_path, "w");
	}
	if (!m->results) {
		fprintf(stderr, "hivebridge match: cannot open %s: %s\n", m->o.results_path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* --- progress and summary -------------------------------------------------------- */

/* The match's LLR: the BayesElo model (cutechess) once the record has a win, a loss
 * and a draw; until then the GSPRT logistic model, which needs none of them, so a
 * one-sided match can still be decided. Returns the model's name, NULL if neither
 * is defined yet (*llr = 0). */
static const char *match_llr(const struct match *m, double *llr)
{
	if (sprt_llr(&m->rec, &m->o.sprt, llr) == 0)
		return "BayesElo";
	if (sprt_llr_logistic(&m->rec, &m->o.sprt, llr) == 0)
		return "logistic";
	return NULL;
}

static void print_score(const struct match *m)
{
	const struct sprt_counts *c = &m->rec;
	unsigned n = c->wins + c->losses + c->draws;
	double score = 0, elo, margin;

	sprt_score(c, &score);
	printf("Score of %s vs %s: %u - %u - %u  [%.3f] %u\n", m->pl[0].label, m->pl[1].label,
	       c->wins, c->losses, c->draws, score, n);
	if (sprt_elo(c, &elo, &margin) == 0) {
		char e[64];
		elo += 0.0;      /* no "-0.0" */
		if (isfinite(elo) && isfinite(margin))
			snprintf(e, sizeof e, "%+.1f +/- %.1f", elo, margin);
		else if (isfinite(elo))
			snprintf(e, sizeof e, "%+.1f +/- inf", elo);
		else
			snprintf(e, sizeof e, "%s", elo > 0 ? "+inf" : "-inf");
		/* The likelihood of superiority: P(A stronger), from wins and losses. */
		double wl = (double)c->wins + c->losses;
		double los = wl > 0 ? 0.5 * (1 + erf(((double)c->wins - c->losses) / sqrt(2 * wl))) : 0.5;
		printf("Elo difference: %s, LOS: %.1f %%, DrawRatio: %.1f %%\n", e, 100 * los,
		       n ? 100.0 * c->draws / n : 0.0);
	}
	if (m->o.sprt_set) {
		double llr, lo, hi;
		const char *model = match_llr(m, &llr);
		sprt_bounds(&m->o.sprt, &lo, &hi);
		printf("SPRT: llr %.3f (%.3f, %.3f) elo0 %g elo1 %g, %s model\n", llr + 0.0, lo, hi,
		       m->o.sprt.elo0, m->o.sprt.elo1, model ? model : "no");
	}
	fflush(stdout);
}

/* --- slots ------------------------------------------------------------------------ */

/* Next game without a result, 0 when there is none. */
static unsigned match_take_game(struct match *m)
{
	while (m->next_game <= m->o.games && m->done[m->next_game])
		m->next_game++;
	if (m->next_game > m->o.games)
		return 0;
	return m->next_game++;
}

static void slot_kick(struct slot *s)
{
	event_active(s->kick, EV_TIMEOUT, 1);
}

static void slot_drop_engine(struct slot *s, int p)
{
	engine_free(s->eng[p]);
	s->eng[p] = NULL;
	s->ready[p] = 0;
	if (s->starting == p)
		s->starting = -1;
	if (s->thinking == p) {
		s->thinking = -1;
		evtimer_del(s->flag);
	}
}

static void slot_reset(struct slot *s)
{
	hive_game_free(&s->game);
	s->game_no = 0;
	s->opening = -1;
	s->nkeys = 0;
	s->ntimes = 0;
	s->thinking = -1;
	evtimer_del(s->flag);
}

/* A fatal error (out of memory, results file): stop everything. */
static void match_fail(struct match *m)
{
	m->failed = 1;
	m->stopping = 1;
	for (unsigned i = 0; i < m->nslots; i++)
		slot_abandon(&m->slots[i]);
	match_check_done(m);
}

/* An engine that never started in this match: no game can be played with it, so
 * the match ends rather than record a forfeit per game (as cutechess-cli does). */
static void match_abort(struct match *m, int p, const char *reason)
{
	fprintf(stderr, "hivebridge match: engine \"%s\" %s; match aborted\n", m->pl[p].label,
		reason + (strncmp(reason, "engine crashed: ", 16) ? 0 : 16));
	match_fail(m);
}

/* The game is over: state HIVE_WHITE_WINS, HIVE_BLACK_WINS or HIVE_DRAW. */
static void slot_end(struct slot *s, int state, const char *reason)
{
	struct match *m = s->m;
	double score = a_score(state, s->white);

	evtimer_del(s->flag);
	if (results_write(m, s, state, reason) < 0) {
		match_fail(m);
		return;
	}
	record_add(&m->rec, score);
	m->done[s->game_no] = 1;
	m->played++;
	m->total++;
	printf("Finished game %u (%s vs %s): %s {%s}, %zu plies\n", s->game_no,
	       m->pl[s->white].label, m->pl[1 - s->white].label, result_text(state), reason,
	       s->game.len);
	print_score(m);
	if (m->o.sprt_set && m->verdict == SPRT_CONTINUE) {
		double llr;
		if (match_llr(m, &llr))
			m->verdict = sprt_decide(&m->o.sprt, llr);
		if (m->verdict != SPRT_CONTINUE) {
			printf("SPRT: %s accepted after %u games (llr %.3f)\n",
			       m->verdict == SPRT_ACCEPT_H1 ? "H1" : "H0", m->total, llr);
			fflush(stdout);
			m->stopping = 1;
		}
	}
	slot_reset(s);
	if (m->stopping) {
		/* Decided: the games still running no longer matter. */
		for (unsigned i = 0; i < m->nslots; i++)
			if (&m->slots[i] != s)
				slot_abandon(&m->slots[i]);
	}
	slot_kick(s);
}

/* The player loses the game for the reason given. */
static void slot_forfeit(struct slot *s, int p, const char *reason)
{
	int white_loses = p == s->white;
	log_note(0, "match: game %u: %s loses: %s", s->game_no, s->m->pl[p].label, reason);
	slot_end(s, white_loses ? HIVE_BLACK_WINS : HIVE_WHITE_WINS, reason);
}

/* An engine's failure as the recorded reason. */
static void failure_reason(const struct engine_result *r, char *buf, size_t len)
{
	const char *msg = r->message ? r->message : "no reason given";
	if (r->status == ENGINE_FAILED) {
		if (!strncmp(msg, "illegal move", 12))
			snprintf(buf, len, "%s", msg);
		else if (!strncmp(msg, "unreadable move", 15))
			snprintf(buf, len, "illegal move: %s", msg);
		else if (strstr(msg, "in time") || strstr(msg, "did not stop"))
			snprintf(buf, len, "time forfeit (engine stalled: %s)", msg);
		else
			snprintf(buf, len, "engine crashed: %s", msg);
	} else if (r->status == ENGINE_INVALID) {
		snprintf(buf, len, "engine refused a legal move: %s", msg);
	} else {
		snprintf(buf, len, "engine error: %s", msg);
	}
}

static void on_started(void *arg, const struct engine_result *r)
{
	struct slot *s = arg;
	int p = s->starting;
	char reason[512];

	s->starting = -1;
	if (p < 0 || !s->game_no)
		return;
	if (r->status != ENGINE_OK) {
		snprintf(reason, sizeof reason, "engine crashed: did not start: %s",
			 r->message ? r->message : "no reason given");
		slot_drop_engine(s, p);
		if (!s->m->pl[p].started) {
			match_abort(s->m, p, reason);
			return;
		}
		slot_forfeit(s, p, reason);
		return;
	}
	s->m->pl[p].started = 1;
	s->ready[p] = 1;
	snprintf(s->engine_id[p], sizeof s->engine_id[p], "%s", s->eng[p]->id);
	log_note(0, "match: slot %u: %s is \"%s\"", s->id, s->m->pl[p].label, s->eng[p]->id);
	slot_kick(s);
}

/* Creates and starts what the slot's players lack; 1 once both are ready. */
static int slot_prepare(struct slot *s)
{
	struct match *m = s->m;

	for (int p = 0; p < 2; p++) {
		if (!s->eng[p]) {
			char *cause = NULL;
			s->eng[p] = engine_new(m->base, m->pl[p].profile, &cause);
			if (!s->eng[p]) {
				fprintf(stderr, "hivebridge match: %s: %s\n", m->pl[p].label,
					cause ? cause : "cannot create the engine");
				free(cause);
				match_fail(m);
				return 0;
			}
			engine_set_log_id(s->eng[p], s->id * 2 + (unsigned)p + 1);
		}
		if (!s->ready[p]) {
			s->starting = p;
			if (engine_start(s->eng[p], on_started, s) < 0) {
				s->starting = -1;
				slot_drop_engine(s, p);
				if (!m->pl[p].started)
					match_abort(m, p, "engine crashed: cannot be started");
				else
					slot_forfeit(s, p, "engine crashed: cannot be started");
			}
			return 0;
		}
	}
	return 1;
}

/* Sets up game g: the opening, the clocks, the keys; 0 or -1 (no memory). */
static int slot_setup(struct slot *s, unsigned g)
{
	struct match *m = s->m;
	char err[256];

	s->game_no = g;
	s->white = g % 2 == 1 ? PLAYER_A : PLAYER_B;
	s->opening = m->nopenings ? (int)(((g - 1) / 2) % m->nopenings) : -1;
	hive_game_init(&s->game, m->o.type);
	if (s->opening >= 0 &&
	    hive_game_parse(&s->game, m->openings[s->opening], err, sizeof err) != HIVE_OK) {
		/* Checked at load: only memory can fail here. */
		fprintf(stderr, "hivebridge match: opening %d: %s\n", s->opening + 1, err);
		return -1;
	}
	s->clock_us[HIVE_WHITE] = s->clock_us[HIVE_BLACK] = (int64_t)m->o.clock_ms * 1000;
	s->nkeys = s->ntimes = 0;
	/* Each game starts from a clean slate, as a fresh engine would. */
	for (int p = 0; p < 2; p++)
		if (s->ready[p])
			engine_reset(s->eng[p]);
	if (push_u64(&s->keys, &s->nkeys, &s->capkeys, position_key(&s->game.board)) < 0)
		return -1;
	return 0;
}

static void slot_next(struct slot *s)
{
	struct match *m = s->m;

	if (!s->game_no) {
		unsigned g = m->stopping ? 0 : match_take_game(m);
		if (!g) {
			match_check_done(m);
			return;
		}
		if (slot_setup(s, g) < 0) {
			slot_reset(s);
			match_fail(m);
			return;
		}
		printf("Started game %u of %u (%s vs %s)\n", g, m->o.games, m->pl[s->white].label,
		       m->pl[1 - s->white].label);
		fflush(stdout);
		viewer_broadcast(m, s->game_no, &s->game);
	}
	if (s->starting >= 0 || s->thinking >= 0)
		return;
	if (slot_prepare(s))
		slot_play(s);
}

static void slot_kick_cb(evutil_socket_t fd, short what, void *arg)
{
	slot_next(arg);
}

static void on_flag(evutil_socket_t fd, short what, void *arg)
{
	struct slot *s = arg;
	int p = s->thinking;

	if (p < 0)
		return;
	/* Its search is abandoned with it: a fresh engine plays the next game. */
	s->clock_us[hive_side_to_move(&s->game.board)] = 0;
	if (push_u64(&s->times_ms, &s->ntimes, &s->captimes,
		     (uint64_t)((elapsed_us(&s->t0) + 500) / 1000)) < 0) {
		slot_drop_engine(s, p);
		match_fail(s->m);
		return;
	}
	slot_drop_engine(s, p);
	slot_forfeit(s, p, "time forfeit");
}

static void on_move(void *arg, const struct engine_result *r)
{
	struct slot *s = arg;
	struct match *m = s->m;
	int p = s->thinking;
	int side = hive_side_to_move(&s->game.board);
	char reason[512], ms[HIVE_MOVESTR_MAX];
	struct hive_move legal;

	if (p < 0)
		return;
	s->thinking = -1;
	evtimer_del(s->flag);
	int64_t used = elapsed_us(&s->t0);
	if (push_u64(&s->times_ms, &s->ntimes, &s->captimes, (uint64_t)((used + 500) / 1000)) < 0) {
		match_fail(m);
		return;
	}
	if (m->o.clock_ms) {
		if (used > s->clock_us[side]) {
			s->clock_us[side] = 0;
			if (r->status == ENGINE_FAILED)
				slot_drop_engine(s, p);
			slot_forfeit(s, p, "time forfeit");
			return;
		}
		s->clock_us[side] += (int64_t)m->o.inc_ms * 1000 - used;
	}
	if (r->status != ENGINE_OK) {
		failure_reason(r, reason, sizeof reason);
		if (r->status == ENGINE_FAILED)
			slot_drop_engine(s, p);
		slot_forfeit(s, p, reason);
		return;
	}
	/* The referee's own check: nobody's word is taken for a move. */
	if (!hive_board_find_move(&s->game.board, r->move, &legal)) {
		if (r->move.piece == HIVE_PASS_PIECE)
			snprintf(reason, sizeof reason, "illegal move: pass while moves exist");
		else if (r->move.piece < HIVE_PIECES)
			snprintf(reason, sizeof reason, "illegal move: %s to cell %u",
				 hive_piece_name(r->move.piece), (unsigned)r->move.to);
		else
			snprintf(reason, sizeof reason, "illegal move: no such piece");
		slot_drop_engine(s, p);
		slot_forfeit(s, p, reason);
		return;
	}
	hive_move_format(&s->game.board, legal, ms, sizeof ms);
	log_note(0, "match: game %u ply %zu: %s plays %s (%lld ms)", s->game_no, s->game.len + 1,
		 m->pl[p].label, ms, (long long)(used / 1000));
	if (hive_game_play(&s->game, legal) != HIVE_OK ||
	    push_u64(&s->keys, &s->nkeys, &s->capkeys, position_key(&s->game.board)) < 0) {
		match_fail(m);
		return;
	}
	viewer_broadcast(m, s->game_no, &s->game);
	slot_play(s);
}

/* Ends the game if the rules or the adjudication say so, else asks for a move. */
static void slot_play(struct slot *s)
{
	struct match *m = s->m;
	const struct hive_board *b = &s->game.board;
	char reason[128];

	switch (b->state) {
	case HIVE_WHITE_WINS:
		slot_end(s, HIVE_WHITE_WINS, "black queen surrounded");
		return;
	case HIVE_BLACK_WINS:
		slot_end(s, HIVE_BLACK_WINS, "white queen surrounded");
		return;
	case HIVE_DRAW:
		slot_end(s, HIVE_DRAW, "both queens surrounded");
		return;
	default:
		break;
	}
	if (m->o.max_plies && s->game.len >= m->o.max_plies) {
		snprintf(reason, sizeof reason, "adjudicated: %u plies played", m->o.max_plies);
		slot_end(s, HIVE_DRAW, reason);
		return;
	}
	if (m->o.repetition && s->nkeys &&
	    key_count(s, s->keys[s->nkeys - 1]) >= (int)m->o.repetition) {
		snprintf(reason, sizeof reason, "adjudicated: position occurred %u times",
			 m->o.repetition);
		slot_end(s, HIVE_DRAW, reason);
		return;
	}

	int side = hive_side_to_move(b);
	int p = side == HIVE_WHITE ? s->white : 1 - s->white;
	struct engine_limits l;
	memset(&l, 0, sizeof l);
	l.depth = m->pl[p].depth ? m->pl[p].depth : m->o.depth;
	l.movetime_ms = m->o.movetime_ms;
	if (m->o.clock_ms) {
		for (int c = 0; c < 2; c++) {
			l.time_ms[c] = s->clock_us[c] > 0 ? (uint64_t)s->clock_us[c] / 1000 : 1;
			l.inc_ms[c] = m->o.inc_ms;
		}
	}
	if (!l.depth && !l.movetime_ms && !m->o.clock_ms)
		l.movetime_ms = MATCH_DEFAULT_MOVETIME_MS;

	s->thinking = p;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	if (m->o.clock_ms) {
		int64_t us = s->clock_us[side] + 1000;
		struct timeval tv = { (time_t)(us / 1000000), (suseconds_t)(us % 1000000) };
		evtimer_add(s->flag, &tv);
	}
	if (engine_go(s->eng[p], &s->game, &l, NULL, on_move, s) < 0) {
		s->thinking = -1;
		evtimer_del(s->flag);
		slot_drop_engine(s, p);
		slot_forfeit(s, p, "engine crashed: cannot start a search");
	}
}

/* Drops the slot's game without a result (the match is stopping). */
static void slot_abandon(struct slot *s)
{
	if (!s->game_no)
		return;
	log_note(0, "match: game %u abandoned", s->game_no);
	/* An engine busy with a command is freed: no callback fires after that. */
	if (s->thinking >= 0)
		slot_drop_engine(s, s->thinking);
	if (s->starting >= 0)
		slot_drop_engine(s, s->starting);
	slot_reset(s);
}

static void match_check_done(struct match *m)
{
	for (unsigned i = 0; i < m->nslots; i++)
		if (m->slots[i].game_no)
			return;
	if (!m->stopping) {
		/* A game left to play: an idle slot's kick will take it. */
		unsigned g = m->next_game;
		while (g <= m->o.games && m->done[g])
			g++;
		if (g <= m->o.games)
			return;
	}
	match_exit(m);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct match *m = arg;
	log_note(0, "match: signal %d: stopping", (int)sig);
	fprintf(stderr, "hivebridge match: interrupted\n");
	m->interrupted = 1;
	m->stopping = 1;
	for (unsigned i = 0; i < m->nslots; i++)
		slot_abandon(&m->slots[i]);
	event_base_loopexit(m->base, NULL);
}

/* --- set-up -------------------------------------------------------------------- */

static int parse_args(int argc, char **argv, struct match_opts *o)
{
	int nspec = 0;
	memset(o, 0, sizeof *o);
	o->concurrency = 1;
	o->max_plies = MATCH_DEFAULT_MAX_PLIES;
	o->repetition = MATCH_DEFAULT_REPETITION;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long long v;
		char err[160];

		if (a[0] != '-' || a[1] == 0) {
			if (nspec == 2) {
				fprintf(stderr, "hivebridge match: unexpected argument %s\n", a);
				return -1;
			}
			o->spec[nspec++] = a;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (!strcmp(a, "--resume")) {
			o->resume = 1;
			continue;
		}
		/* Every other option takes a value: "--opt value" or "--opt=value". */
		const char *eq = strchr(a, '=');
		char name[32];
		size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
		if (nlen >= sizeof name) {
			fprintf(stderr, "hivebridge match: unknown option %s\n", a);
			return -1;
		}
		memcpy(name, a, nlen);
		name[nlen] = 0;
		const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val) {
			fprintf(stderr, "hivebridge match: %s needs a value\n", name);
			return -1;
		}
		if (!strcmp(name, "--type")) {
			if (hive_gametype_parse(val, &o->type) != 0) {
				fprintf(stderr, "hivebridge match: unknown game type %s\n", val);
				return -1;
			}
			o->type_set = 1;
		} else if (!strcmp(name, "--games")) {
			if (parse_uint(val, 1, MATCH_MAX_GAMES, &v) < 0)
				goto bad;
			o->games = (unsigned)v;
			o->games_set = 1;
		} else if (!strcmp(name, "--concurrency")) {
			if (parse_uint(val, 1, MATCH_MAX_CONCURRENCY, &v) < 0)
				goto bad;
			o->concurrency = (unsigned)v;
		} else if (!strcmp(name, "--openings")) {
			o->openings_path = val;
		} else if (!strcmp(name, "--depth")) {
			if (parse_uint(val, 1, MATCH_MAX_DEPTH, &v) < 0)
				goto bad;
			o->depth = (int)v;
		} else if (!strcmp(name, "--movetime")) {
			if (parse_uint(val, 1, 86400000ULL, &v) < 0)
				goto bad;
			o->movetime_ms = v;
		} else if (!strcmp(name, "--clock")) {
			if (parse_clock(val, &o->clock_ms, &o->inc_ms) < 0)
				goto bad;
		} else if (!strcmp(name, "--max-plies")) {
			if (parse_uint(val, 1, MATCH_PLY_CAP, &v) < 0)
				goto bad;
			o->max_plies = (unsigned)v;
		} else if (!strcmp(name, "--repetition")) {
			if (parse_uint(val, 0, 1000, &v) < 0 || v == 1)
				goto bad;
			o->repetition = (unsigned)v;
		} else if (!strcmp(name, "--results")) {
			o->results_path = val;
		} else if (!strcmp(name, "--sprt")) {
			if (sprt_parse(val, &o->sprt, err, sizeof err) < 0) {
				fprintf(stderr, "hivebridge match: %s\n", err);
				return -1;
			}
			o->sprt_set = 1;
		} else if (!strcmp(name, "--viewer")) {
			o->viewer = val;
		} else if (!strcmp(name, "--config")) {
			o->config_path = val;
		} else if (!strcmp(name, "--log")) {
			o->log_path = val;
		} else {
			fprintf(stderr, "hivebridge match: unknown option %s\n", name);
			return -1;
		}
		continue;
bad:
		fprintf(stderr, "hivebridge match: bad value for %s: %s\n", name, val);
		return -1;
	}
	if (nspec != 2) {
		fprintf(stderr, "hivebridge match: two engines needed\n");
		return -1;
	}
	if (!!o->depth + !!o->movetime_ms + !!o->clock_ms > 1) {
		fprintf(stderr, "hivebridge match: --depth, --movetime and --clock exclude each other\n");
		return -1;
	}
	if (o->resume && !o->results_path) {
		fprintf(stderr, "hivebridge match: --resume needs --results FILE\n");
		return -1;
	}
	return 0;
}

/* Resolves ENGINE_A and ENGINE_B to profiles of m->conf: 0, 2 for a bad ENGINE,
 * -1 for one that cannot work. */
static int players_resolve(struct match *m)
{
	char *names[2] = { NULL, NULL };
	int rc = -1;

	for (int p = 0; p < 2; p++) {
		const char *spec = m->o.spec[p];
		char *cause = NULL;
		m->pl[p].label = spec;
		const struct engine_profile *pr = config_engine_parse(&m->conf, spec, &m->pl[p].depth, &cause);
		if (!pr) {
			fprintf(stderr, "hivebridge match: engine \"%s\": %s\n", spec, cause ? cause : "bad engine");
			free(cause);
			rc = 2;
			goto out;
		}
		names[p] = strdup(pr->name);
		if (!names[p])
			goto out;
	}
	/* Only now: adding a profile may move the others. */
	for (int p = 0; p < 2; p++) {
		char *cause = NULL;
		m->pl[p].profile = config_profile(&m->conf, names[p]);
		if (!m->pl[p].profile) {
			fprintf(stderr, "hivebridge match: no engine profile \"%s\"\n", names[p]);
			goto out;
		}
		/* A command that is not there, or a host that does not resolve, ends the
		 * match before it starts (and no name is resolved inside the loop). */
		if (config_engine_check(&m->conf, m->pl[p].profile, &cause) < 0) {
			fprintf(stderr, "hivebridge match: engine \"%s\": %s\n", m->pl[p].label,
				cause ? cause : "cannot work");
			free(cause);
			goto out;
		}
	}
	rc = 0;
out:
	free(names[0]);
	free(names[1]);
	return rc;
}

/* Reads the openings: one GameString per line; blank lines and '#' comments skipped. */
static int openings_load(struct match *m)
{
	FILE *f = fopen(m->o.openings_path, "r");
	char *line = NULL, err[256];
	size_t cap = 0, capo = 0;
	ssize_t n;
	int lineno = 0, rc = 0;

	if (!f) {
		fprintf(stderr, "hivebridge match: %s: %s\n", m->o.openings_path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = 0;
		char *s = line + strspn(line, " \t");
		if (!*s || *s == '#')
			continue;
		struct hive_game g;
		hive_game_init(&g, 0);
		if (hive_game_parse(&g, s, err, sizeof err) != HIVE_OK) {
			fprintf(stderr, "hivebridge match: %s line %d: %s\n", m->o.openings_path, lineno, err);
			rc = -1;
		} else if (hive_game_over(&g.board)) {
			fprintf(stderr, "hivebridge match: %s line %d: the game is over\n",
				m->o.openings_path, lineno);
			rc = -1;
		} else if (m->o.type_set && g.type != m->o.type) {
			fprintf(stderr, "hivebridge match: %s line %d: %s, not --type %s\n",
				m->o.openings_path, lineno, hive_gametype_name(g.type),
				hive_gametype_name(m->o.type));
			rc = -1;
		} else {
			if (m->nopenings == capo) {
				capo = capo ? capo * 2 : 16;
				char **o = realloc(m->openings, capo * sizeof *o);
				if (!o)
					rc = -1;
				else
					m->openings = o;
			}
			if (rc == 0 && !(m->openings[m->nopenings] = strdup(s)))
				rc = -1;
			if (rc == 0)
				m->nopenings++;
		}
		hive_game_free(&g);
	}
	free(line);
	fclose(f);
	if (rc == 0 && m->nopenings == 0) {
		fprintf(stderr, "hivebridge match: %s has no opening\n", m->o.openings_path);
		rc = -1;
	}
	return rc;
}

static int slots_create(struct match *m)
{
	m->nslots = m->o.concurrency < m->o.games ? m->o.concurrency : m->o.games;
	m->slots = calloc(m->nslots, sizeof *m->slots);
	if (!m->slots)
		return -1;
	for (unsigned i = 0; i < m->nslots; i++) {
		struct slot *s = &m->slots[i];
		s->m = m;
		s->id = i;
		s->starting = s->thinking = -1;
		s->opening = -1;
		hive_game_init(&s->game, m->o.type);
		s->flag = evtimer_new(m->base, on_flag, s);
		s->kick = event_new(m->base, -1, 0, slot_kick_cb, s);
		if (!s->flag || !s->kick)
			return -1;
	}
	return 0;
}

static void match_free(struct match *m)
{
	for (unsigned i = 0; m->slots && i < m->nslots; i++) {
		struct slot *s = &m->slots[i];
		engine_free(s->eng[0]);
		engine_free(s->eng[1]);
		if (s->flag)
			event_free(s->flag);
		if (s->kick)
			event_free(s->kick);
		hive_game_free(&s->game);
		free(s->keys);
		free(s->times_ms);
	}
	free(m->slots);
	while (m->viewers)
		viewer_drop(m, m->viewers);
	if (m->listener)
		evconnlistener_free(m->listener);
	if (m->sig_int)
		event_free(m->sig_int);
	if (m->sig_term)
		event_free(m->sig_term);
	if (m->base) {
		/* Engines still exiting get a moment, then are killed and reaped. */
		proc_drain(m->base, MATCH_DRAIN_MS);
		event_base_free(m->base);
	}
	if (m->results)
		fclose(m->results);
	for (size_t i = 0; i < m->nopenings; i++)
		free(m->openings[i]);
	free(m->openings);
	free(m->done);
	config_free(&m->conf);
	log_close();
}

int match_main(int argc, char **argv)
{
	struct match m;
	char *cause = NULL;
	int status = 1;

	memset(&m, 0, sizeof m);
	config_defaults(&m.conf);
	int prc = parse_args(argc, argv, &m.o);
	if (prc != 0) {
		if (prc > 0)
			fputs(match_usage, stdout);
		else
			fputs("Try 'hivebridge match --help'.\n", stderr);
		config_free(&m.conf);
		return prc > 0 ? 0 : 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (m.o.config_path && config_load(&m.conf, m.o.config_path, &cause) < 0) {
		fprintf(stderr, "hivebridge match: %s\n", cause ? cause : "cannot load the configuration");
		free(cause);
		goto out;
	}
	if (m.o.log_path && log_open(m.o.log_path) < 0) {
		fprintf(stderr, "hivebridge match: log %s: cannot open: %s\n", m.o.log_path, strerror(errno));
		goto out;
	}
	if ((prc = players_resolve(&m)) != 0) {
		status = prc == 2 ? 2 : 1;
		goto out;
	}
	if (m.o.openings_path && openings_load(&m) < 0)
		goto out;
	if (!m.o.games_set)
		m.o.games = m.nopenings ? (unsigned)(2 * m.nopenings) : 2;
	m.done = calloc((size_t)m.o.games + 1, 1);
	if (!m.done)
		goto out;
	m.next_game = 1;
	if (results_open(&m) < 0)
		goto out;

	/* The built-in engine hands its results over from a worker thread. */
	evthread_use_pthreads();
	m.base = event_base_new();
	if (!m.base || slots_create(&m) < 0) {
		fprintf(stderr, "hivebridge match: cannot set up the event loop\n");
		goto out;
	}
	if (m.o.viewer && viewer_listen(&m, m.o.viewer) < 0)
		goto out;
	m.sig_int = evsignal_new(m.base, SIGINT, on_signal, &m);
	m.sig_term = evsignal_new(m.base, SIGTERM, on_signal, &m);
	if (!m.sig_int || !m.sig_term || evsignal_add(m.sig_int, NULL) < 0 ||
	    evsignal_add(m.sig_term, NULL) < 0) {
		fprintf(stderr, "hivebridge match: cannot catch signals\n");
		goto out;
	}

	/* Without openings, two deterministic engines at fixed depths play the same two
	 * games over and over: the extra games add nothing. */
	if (!m.nopenings && m.o.games > 2 && (m.o.depth || (m.pl[0].depth && m.pl[1].depth)))
		fprintf(stderr, "hivebridge match: warning: no --openings and fixed depths: deterministic "
			"engines play games 3..%u as copies of games 1 and 2\n", m.o.games);
	printf("Match %s vs %s: %u games (%u already played), %s, concurrency %u\n",
	       m.pl[0].label, m.pl[1].label, m.o.games, m.total,
	       m.nopenings ? "openings from file" : hive_gametype_name(m.o.type), m.nslots);
	if (m.total)
		print_score(&m);
	if (m.o.sprt_set && m.total) {
		double llr;
		if (match_llr(&m, &llr))
			m.verdict = sprt_decide(&m.o.sprt, llr);
		m.stopping = m.verdict != SPRT_CONTINUE;
	}
	fflush(stdout);
	for (unsigned i = 0; i < m.nslots; i++)
		slot_kick(&m.slots[i]);
	event_base_dispatch(m.base);

	printf("Match finished: %u games played now, %u of %u with a result%s\n", m.played, m.total,
	       m.o.games, m.interrupted ? " (interrupted)" : "");
	print_score(&m);
	if (m.o.sprt_set)
		printf("SPRT: %s\n", m.verdict == SPRT_ACCEPT_H1 ? "H1 accepted" :
		       m.verdict == SPRT_ACCEPT_H0 ? "H0 accepted" : "undecided");
	fflush(stdout);
	status = m.interrupted || m.failed ? 1 : 0;
out:
	match_free(&m);
	return status;
}
