/*
 * trylobot_client: a test client that plays the Trylobot core against a bridge acting
 * as a Trylobot AI module (`hivebridge serve` with a trylobot listener).
 *
 * It keeps each game with the core (tb_replay), builds every Choose Turn request
 * with a full game_state and possible_turns, and checks every answer: exactly one
 * frame, ASCII only, the request's ids echoed, no "error" key, a Placement, Movement
 * or Forfeit listed in possible_turns (never a Special Ability), Forfeit only when
 * nothing else is listed, and in time when a response_deadline is set.
 *
 *   trylobot_client play PORT [options]      full games; the bridge plays --sides
 *   trylobot_client interleave PORT [options] two games at once on one connection
 *   trylobot_client faults PORT              framing and request errors
 *   trylobot_client frames PORT DIR          the real frames in DIR (data/trylobot)
 * options: --games N (1) --type GAMETYPE (Base) --sides white|black|both (both)
 *          --deadline MS (0 = null) --plies N (300) --seed N (1)
 *
 * Prints a summary line; exits 0 only if every check passed.
 *
 * (Over 800 lines: one test tool with four modes that share its connection, framing
 * and answer checks; split, each part would need those in a header of their own.)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"
#include "core/game.h"

#define ANSWER_TIMEOUT_MS 30000
/* How late past a response_deadline an answer may come before it counts as a
 * failure (a loaded test machine, sanitizer builds). */
#define LATE_FAIL_MS      2000

static int failures;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failures++;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int64_t epoch_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* splitmix64 */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = (*s += 0x9e3779b97f4a7c15ULL);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The connection.
 */

struct conn {
	int              fd;
	struct tb_reader rd;
	unsigned char    buf[4096];
	size_t           off, len;
};

static int conn_open(struct conn *c, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int one = 1;
	memset(c, 0, sizeof *c);
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	c->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&a, sizeof a) < 0) {
		perror("connect");
		if (c->fd >= 0)
			close(c->fd);
		return -1;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	tb_reader_init(&c->rd, 0);
	return 0;
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	tb_reader_free(&c->rd);
}

static int send_all(struct conn *c, const void *p, size_t len)
{
	const char *s = p;
	while (len) {
		ssize_t n = send(c->fd, s, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static int send_msg(struct conn *c, const cJSON *msg)
{
	size_t len;
	char *frame = tb_frame_build(msg, &len);
	if (!frame)
		return -1;
	int rc = send_all(c, frame, len);
	free(frame);
	return rc;
}

/* Waits up to ms for bytes; 1 = data, 0 = timeout, -1 = EOF or error. */
static int fill(struct conn *c, int ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int r = poll(&p, 1, ms);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	ssize_t n = recv(c->fd, c->buf, sizeof c->buf, 0);
	if (n <= 0)
		return -1;
	c->off = 0;
	c->len = (size_t)n;
	return 1;
}

/* The next frame (malloc'd JSON text, caller frees), or NULL: *why says timeout,
 * EOF or a framing error. Every byte the bridge sends must be ASCII. */
static char *read_frame(struct conn *c, int ms, const char **why)
{
	double end = now_ms() + ms;
	for (;;) {
		if (c->off == c->len) {
			int left = (int)(end - now_ms());
			int r = left > 0 ? fill(c, left) : 0;
			if (r <= 0) {
				*why = r == 0 ? "timeout" : "connection closed";
				return NULL;
			}
		}
		for (size_t i = c->off; i < c->len; i++) {
			if (c->buf[i] >= 0x80) {
				*why = "non-ASCII byte from the bridge";
				return NULL;
			}
		}
		size_t used;
		int rc = tb_reader_push(&c->rd, c->buf + c->off, c->len - c->off, &used);
		c->off += used;
		if (rc < 0) {
			*why = tb_reader_error(&c->rd);
			return NULL;
		}
		if (rc == 1) {
			size_t len;
			const char *f = tb_reader_frame(&c->rd, &len);
			return strndup(f, len);
		}
	}
}

/* Whether the bridge sent nothing more within ms (exactly one answer per request). */
static int quiet(struct conn *c, int ms)
{
	if (c->off < c->len)
		return 0;
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	if (poll(&p, 1, ms) == 0)
		return 1;
	char b;
	/* EOF is quiet too; data is not. */
	return recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/*
 * Checking answers.
 */

static int only_forfeit(const struct tb_turns *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type != TB_FORFEIT)
			return 0;
	return 1;
}

/* Whether nothing but Special Abilities (and Forfeit) is listed: the real core rejects
 * every answer then, and Forfeit is the one a bridge may give. */
static int nothing_sendable(const struct tb_turns *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type == TB_PLACEMENT || l->v[i].type == TB_MOVEMENT)
			return 0;
	return 1;
}

static int str_is(const cJSON *o, const char *key, const char *want)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(j) && want && !strcmp(j->valuestring, want);
}

/* Checks an answer to a Choose Turn request; 0 and the turn if it is acceptable. */
static int check_answer(const char *json, const struct tb_request *rq, struct tb_turn *t, const char *what)
{
	struct tb_response rs;
	char err[TB_ERR_MAX];
	int ok = 0;
	cJSON *o = cJSON_Parse(json);

	if (!o) {
		failf("%s: answer is not JSON: %.200s", what, json);
		return -1;
	}
	if (cJSON_GetObjectItemCaseSensitive(o, "error"))
		failf("%s: answer has an error key: %.200s", what, json);
	else if (!str_is(o, "response_type", "Choose Turn") || !str_is(o, "response_id", rq->request_id) ||
		 !str_is(o, "game_id", rq->game_id))
		failf("%s: answer does not echo response_type/ids: %.200s", what, json);
	else if (tb_response_parse(json, strlen(json), &rs, err, sizeof err) < 0)
		failf("%s: unreadable answer: %s", what, err);
	else {
		*t = rs.turn;
		if (rs.type != TB_RESP_TURN)
			failf("%s: not a turn: %.200s", what, json);
		else if (t->type == TB_ABILITY)
			failf("%s: a Special Ability answer (the real core rejects it): %.200s", what, json);
		else if (t->type == TB_FORFEIT && !only_forfeit(&rq->state.possible) &&
			 !nothing_sendable(&rq->state.possible))
			failf("%s: Forfeit while other turns are possible", what);
		else if (t->type == TB_FORFEIT && !only_forfeit(&rq->state.possible))
			ok = 1;          /* only throws listed: no answer the core accepts exists */
		else if (!tb_turns_has(&rq->state.possible, t))
			failf("%s: answer not in possible_turns: %.200s", what, json);
		else
			ok = 1;
		tb_response_free(&rs);
	}
	cJSON_Delete(o);
	return ok ? 0 : -1;
}

/*
 * Games.
 */

struct opts {
	int      games;
	unsigned type;
	int      sides;        /* bit 0 White, bit 1 Black: the bridge plays these */
	int      deadline;     /* ms, 0 = null */
	int      plies;
	uint64_t seed;
};

struct game {
	struct tb_replay rp;
	char             id[8];
	int              over;       /* finished or given up */
	int              result;     /* enum hive_state at the end */
};

struct stats {
	long   answers, plies, games, finished, late;
	long   bridge_wins, bridge_losses;
	long   no_sendable;      /* games ended: only throws listed, as the real core would end them */
	double total_ms, max_ms;
};

static void make_id(uint64_t *rng, char *buf)
{
	static const char d[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	uint64_t x = rng_next(rng);
	for (int i = 0; i < 5; i++, x /= 62)
		buf[i] = d[x % 62];
	buf[5] = 0;
}

/* Plays one ply of g: asks the bridge or moves at random. 0 = go on, -1 = stop. */
static int game_step(struct conn *c, struct game *g, const struct opts *o, uint64_t *rng,
		     struct stats *st)
{
	struct tb_request rq;
	struct tb_turn t;
	char err[TB_ERR_MAX], rid[8], what[64];
	const struct hive_board *b = &g->rp.game.board;
	int side = hive_side_to_move(b);

	memset(&rq, 0, sizeof rq);
	rq.type = TB_REQ_CHOOSE_TURN;
	if (tb_replay_state(&g->rp, &rq.state, err, sizeof err) < 0) {
		failf("game %s: cannot build the state: %s", g->id, err);
		return -1;
	}
	if (!(o->sides >> side & 1)) {
		/* The client's own side: any listed turn. */
		t = rq.state.possible.v[rng_next(rng) % rq.state.possible.n];
	} else {
		make_id(rng, rid);
		rq.request_id = rid;
		rq.game_id = g->id;
		rq.request_timestamp = epoch_ms();
		rq.response_deadline = o->deadline ? rq.request_timestamp + o->deadline : 0;
		cJSON *msg = tb_request_json(&rq);
		double t0 = now_ms();
		int rc = msg ? send_msg(c, msg) : -1;
		cJSON_Delete(msg);
		if (rc < 0) {
			failf("game %s: cannot send the request", g->id);
			goto fail;
		}
		const char *why;
		char *json = read_frame(c, ANSWER_TIMEOUT_MS, &why);
		double ms = now_ms() - t0;
		snprintf(what, sizeof what, "game %s ply %u", g->id, (unsigned)b->ply);
		if (!json) {
			failf("%s: no answer: %s", what, why);
			goto fail;
		}
		st->answers++;
		st->total_ms += ms;
		if (ms > st->max_ms)
			st->max_ms = ms;
		if (o->deadline && ms > o->deadline) {
			st->late++;
			if (ms > o->deadline + LATE_FAIL_MS)
				failf("%s: answered after %.0f ms, deadline %d ms", what, ms, o->deadline);
		}
		rc = check_answer(json, &rq, &t, what);
		free(json);
		if (rc < 0)
			goto fail;
		if (c->off < c->len) {
			failf("%s: more than one frame for one request", what);
			goto fail;
		}
	}
	if (t.type == TB_FORFEIT && !only_forfeit(&rq.state.possible)) {
		/* The real core gives a match penalty here whatever the answer: the game ends. */
		tb_state_free(&rq.state);
		g->over = 1;
		st->no_sendable++;
		return 0;
	}
	tb_state_free(&rq.state);
	if (tb_replay_play_turn(&g->rp, &t, err, sizeof err) < 0) {
		failf("game %s: the turn does not replay: %s", g->id, err);
		return -1;
	}
	st->plies++;
	if (hive_game_over(b) || (int)b->ply >= o->plies) {
		g->over = 1;
		g->result = b->state;
		st->finished += hive_game_over(b);
		if (b->state == HIVE_WHITE_WINS || b->state == HIVE_BLACK_WINS) {
			int winner = b->state == HIVE_BLACK_WINS;
			if (o->sides != 3) {
				st->bridge_wins += o->sides >> winner & 1;
				st->bridge_losses += !(o->sides >> winner & 1);
			}
		}
	}
	return 0;
fail:
	tb_state_free(&rq.state);
	return -1;
}

static void stats_print(const char *mode, const struct opts *o, const struct stats *st)
{
	printf("%s %s: %ld games (%ld finished, %ld bridge wins, %ld losses, %ld ended with only "
	       "throws listed), %ld plies, %ld answers, "
	       "mean %.1f ms, max %.1f ms, %ld past the deadline, %d failures\n",
	       mode, hive_gametype_name(o->type), st->games, st->finished, st->bridge_wins,
	       st->bridge_losses, st->no_sendable, st->plies, st->answers,
	       st->answers ? st->total_ms / st->answers : 0,
	       st->max_ms, st->late, failures);
}

static int cmd_play(int port, const struct opts *o)
{
	struct conn c;
	struct stats st = { 0 };
	uint64_t rng = o->seed;

	if (conn_open(&c, port) < 0)
		return 1;
	for (int i = 0; i < o->games && !failures; i++) {
		struct game g;
		memset(&g, 0, sizeof g);
		tb_replay_init(&g.rp, o->type);
		make_id(&rng, g.id);
		st.games++;
		while (!g.over && game_step(&c, &g, o, &rng, &st) == 0)
			;
		tb_replay_free(&g.rp);
	}
	if (!failures && !quiet(&c, 200))
		failf("the bridge sent something unasked after the last answer");
	conn_close(&c);
	stats_print("play", o, &st);
	return failures != 0;
}

/* Two games on one connection, requests alternating between them: a Base game and
 * one of the given type, the bridge playing both sides of both. */
static int cmd_interleave(int port, const struct opts *o)
{
	struct conn c;
	struct stats st = { 0 };
	struct game g[2];
	uint64_t rng = o->seed;
	struct opts both = *o;

	both.sides = 3;
	memset(g, 0, sizeof g);
	if (conn_open(&c, port) < 0)
		return 1;
	tb_replay_init(&g[0].rp, 0);
	tb_replay_init(&g[1].rp, o->type);
	make_id(&rng, g[0].id);
	make_id(&rng, g[1].id);
	st.games = 2;
	for (int turn = 0; !failures && (!g[0].over || !g[1].over); turn ^= 1) {
		struct game *x = &g[turn];
		if (!x->over && game_step(&c, x, &both, &rng, &st) < 0)
			break;
	}
	tb_replay_free(&g[0].rp);
	tb_replay_free(&g[1].rp);
	if (!failures && !quiet(&c, 200))
		failf("the bridge sent something unasked after the last answer");
	conn_close(&c);
	stats_print("interleave", &both, &st);
	return failures != 0;
}

/*
 * Faults.
 */

/* Expects an error frame {"success":false,"error":...} next. */
static void expect_error_frame(struct conn *c, const char *what)
{
	const char *why;
	char *json = read_frame(c, 5000, &why);
	if (!json) {
		failf("%s: no error frame: %s", what, why);
		return;
	}
	cJSON *o = cJSON_Parse(json);
	const cJSON *ok = o ? cJSON_GetObjectItemCaseSensitive(o, "success") : NULL;
	const cJSON *e = o ? cJSON_GetObjectItemCaseSensitive(o, "error") : NULL;
	if (!cJSON_IsFalse(ok) || !cJSON_IsString(e) || strncmp(e->valuestring, "Error: ", 7))
		failf("%s: not json-socket's error frame: %.200s", what, json);
	cJSON_Delete(o);
	free(json);
}

static void expect_closed(struct conn *c, const char *what)
{
	const char *why;
	char *json = read_frame(c, 5000, &why);
	if (json) {
		failf("%s: another frame instead of a close: %.200s", what, json);
		free(json);
	} else if (strcmp(why, "connection closed")) {
		failf("%s: connection not closed: %s", what, why);
	}
}

/* Sends a Greetings request with this id and checks the answer. */
static void expect_greetings(struct conn *c, const char *rid, const char *what)
{
	const char *why;
	cJSON *rq = tb_greetings_request_json(rid, "0.1.0");
	if (!rq || send_msg(c, rq) < 0) {
		failf("%s: cannot send Greetings", what);
		cJSON_Delete(rq);
		return;
	}
	cJSON_Delete(rq);
	char *json = read_frame(c, 5000, &why);
	if (!json) {
		failf("%s: no Greetings answer: %s", what, why);
		return;
	}
	cJSON *o = cJSON_Parse(json);
	if (!o || !str_is(o, "response_type", "Greetings") || !str_is(o, "response_id", rid) ||
	    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "active")) || !str_is(o, "name", "hivebridge"))
		failf("%s: bad Greetings answer: %.300s", what, json);
	cJSON_Delete(o);
	free(json);
}

static void send_raw(struct conn *c, const char *s, size_t len, const char *what)
{
	if (send_all(c, s, len) < 0)
		failf("%s: cannot send", what);
}

/* A frame whose framing breaks: error frame, then the bridge closes. */
static void fault_framing(int port, const char *bytes, const char *what)
{
	struct conn c;
	if (conn_open(&c, port) < 0) {
		failf("%s: cannot connect", what);
		return;
	}
	send_raw(&c, bytes, strlen(bytes), what);
	expect_error_frame(&c, what);
	expect_closed(&c, what);
	conn_close(&c);
}

/* A well-framed bad request: error frame, and the session goes on. */
static void fault_request(struct conn *c, const char *json, const char *what)
{
	char head[32];
	size_t n = tb_utf16_length(json, strlen(json));
	snprintf(head, sizeof head, "%zu#", n);
	send_raw(c, head, strlen(head), what);
	send_raw(c, json, strlen(json), what);
	expect_error_frame(c, what);
}

static int cmd_faults(int port)
{
	struct conn c;
	int checks = 0;

	/* Framing errors: garbage header, lengths beyond the bound, invalid UTF-8. */
	fault_framing(port, "abc#{}", "garbage header"), checks++;
	fault_framing(port, "99999999999999999999#{}", "oversized length (20 digits)"), checks++;
	fault_framing(port, "123456789012345678901234#", "length header too long"), checks++;
	fault_framing(port, "2000000#{\"request_type\":", "length over 1 MiB"), checks++;
	fault_framing(port, "#{}", "missing length"), checks++;
	fault_framing(port, "0#", "zero length"), checks++;
	fault_framing(port, "4#\"\xff\xfe\"", "invalid UTF-8"), checks++;

	/* Bad requests in good frames: error frame, then Greetings still works. */
	if (conn_open(&c, port) < 0)
		return 1;
	fault_request(&c, "{abc}", "bad JSON"), checks++;
	fault_request(&c, "{\"type\":\"ping\"}", "ping (no request_type)"), checks++;
	fault_request(&c, "{\"request_type\":\"Pass\"}", "unknown request_type"), checks++;
	fault_request(&c, "{\"request_type\":\"Choose Turn\",\"request_id\":\"a\"}", "no game_state"), checks++;
	fault_request(&c, "[1,2,3]", "not an object"), checks++;
	expect_greetings(&c, "after", "Greetings after bad requests"), checks++;

	/* A request one byte at a time, then two in one write, then non-ASCII ids
	 * (N counted in UTF-16 units; the answer escapes them). */
	{
		cJSON *g = tb_greetings_request_json("split", "0.1.0");
		size_t len;
		char *f = tb_frame_build(g, &len);
		cJSON_Delete(g);
		for (size_t i = 0; f && i < len; i++) {
			send_raw(&c, f + i, 1, "split frame");
			usleep(200);
		}
		free(f);
		const char *why;
		char *json = read_frame(&c, 5000, &why);
		if (!json || !strstr(json, "\"response_id\":\"split\""))
			failf("split frame: bad answer: %s", json ? json : why);
		free(json);
		checks++;
	}
	{
		cJSON *g1 = tb_greetings_request_json("one", "0.1.0"), *g2 = tb_greetings_request_json("two", "0.1.0");
		size_t l1 = 0, l2 = 0;
		char *f1 = g1 ? tb_frame_build(g1, &l1) : NULL, *f2 = g2 ? tb_frame_build(g2, &l2) : NULL;
		char *both = f1 && f2 ? malloc(l1 + l2) : NULL;
		const char *why;
		if (both) {
			memcpy(both, f1, l1);
			memcpy(both + l1, f2, l2);
			send_raw(&c, both, l1 + l2, "two frames in one write");
		}
		for (int i = 0; i < 2; i++) {
			char *json = read_frame(&c, 5000, &why);
			if (!json || !strstr(json, i ? "\"response_id\":\"two\"" : "\"response_id\":\"one\""))
				failf("two frames in one write: answer %d: %s", i, json ? json : why);
			free(json);
		}
		cJSON_Delete(g1);
		cJSON_Delete(g2);
		free(f1);
		free(f2);
		free(both);
		checks++;
	}
	{
		/* "é" counts one UTF-16 unit in N, U+1F600 two. */
		const char *json = "{\"request_type\":\"Greetings\",\"request_id\":\"\xc3\xa9\xf0\x9f\x98\x80\"}";
		char head[16];
		snprintf(head, sizeof head, "%zu#", tb_utf16_length(json, strlen(json)));
		send_raw(&c, head, strlen(head), "non-ASCII id");
		send_raw(&c, json, strlen(json), "non-ASCII id");
		const char *why;
		char *ans = read_frame(&c, 5000, &why);
		if (!ans || !strstr(ans, "\"response_id\":\"\\u00e9\\ud83d\\ude00\""))
			failf("non-ASCII id: answer %s", ans ? ans : why);
		free(ans);
		checks++;
	}
	if (!quiet(&c, 200))
		failf("faults: the bridge sent something unasked");
	conn_close(&c);

	/* A frame cut by EOF: the bridge closes without an answer, and keeps serving. */
	if (conn_open(&c, port) == 0) {
		send_raw(&c, "80#{\"request_type\"", 18, "EOF inside a frame");
		shutdown(c.fd, SHUT_WR);
		expect_closed(&c, "EOF inside a frame");
		conn_close(&c);
		checks++;
	}
	if (conn_open(&c, port) == 0) {
		expect_greetings(&c, "alive", "a new connection after the faults");
		conn_close(&c);
		checks++;
	}
	printf("faults: %d checks, %d failures\n", checks, failures);
	return failures != 0;
}

/*
 * The real frames.
 */

static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		failf("cannot open %s", path);
		return NULL;
	}
	char *buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[*len] = 0;
	return buf;
}

/* Sends a real Choose Turn frame (optionally with its JSON edited) and checks the
 * answer against its own possible_turns. */
static void real_choose(struct conn *c, const char *dir, const char *name, int corrupt, int want_forfeit)
{
	size_t len;
	char *raw = slurp(dir, name, &len), err[TB_ERR_MAX], what[128];
	struct tb_request rq;
	struct tb_turn t;
	const char *why;

	snprintf(what, sizeof what, "%s%s", name, corrupt ? " (board edited)" : "");
	if (!raw)
		return;
	char *json = strchr(raw, '#');
	json = json ? json + 1 : raw;
	while (len && (raw[len - 1] == '\n' || raw[len - 1] == '\r'))
		raw[--len] = 0;
	if (tb_request_parse(json, strlen(json), &rq, err, sizeof err) < 0) {
		failf("%s: the test cannot parse it: %s", what, err);
		free(raw);
		return;
	}
	cJSON *o = cJSON_Parse(json);
	if (corrupt) {
		/* A board that disagrees with turn_history: the bridge cannot replay it and
		 * must still answer a listed turn. */
		cJSON *pieces = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "game_state"), "board"),
			"pieces");
		cJSON_AddItemToObject(pieces, "40,40", cJSON_Parse("[{\"color\":\"White\",\"type\":\"Beetle\"}]"));
	}
	if (!o || send_msg(c, o) < 0)
		failf("%s: cannot send", what);
	cJSON_Delete(o);
	char *ans = read_frame(c, ANSWER_TIMEOUT_MS, &why);
	if (!ans) {
		failf("%s: no answer: %s", what, why);
	} else if (check_answer(ans, &rq, &t, what) == 0 && want_forfeit != (t.type == TB_FORFEIT)) {
		failf("%s: %s", what, want_forfeit ? "expected Forfeit" : "unexpected Forfeit");
	}
	free(ans);
	tb_request_free(&rq);
	free(raw);
}

static int cmd_frames(int port, const char *dir)
{
	struct conn c;
	size_t len;
	const char *why;

	if (conn_open(&c, port) < 0)
		return 1;
	/* The real Greetings request, answered with the real answer's shape. */
	char *g = slurp(dir, "greetings-request.frame", &len);
	if (g) {
		while (len && (g[len - 1] == '\n' || g[len - 1] == '\r'))
			g[--len] = 0;
		struct tb_request rq;
		char err[TB_ERR_MAX];
		const char *json = strchr(g, '#');
		if (!json || tb_request_parse(json + 1, strlen(json + 1), &rq, err, sizeof err) < 0) {
			failf("greetings-request.frame: the test cannot parse it");
			free(g);
			return 1;
		}
		send_raw(&c, g, len, "greetings-request.frame");
		char *ans = read_frame(&c, 5000, &why);
		cJSON *o = ans ? cJSON_Parse(ans) : NULL;
		if (!o || !str_is(o, "response_type", "Greetings") || !str_is(o, "response_id", rq.request_id) ||
		    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "active")) ||
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "long_name")) ||
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "version")) ||
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "description")))
			failf("greetings-request.frame: bad answer %s", ans ? ans : why);
		cJSON_Delete(o);
		free(ans);
		free(g);
		tb_request_free(&rq);
	}
	real_choose(&c, dir, "choose-turn-first.frame", 0, 0);
	real_choose(&c, dir, "choose-turn-forfeit-only.frame", 0, 1);
	real_choose(&c, dir, "choose-turn-mlp-stack-abilities.frame", 0, 0);
	real_choose(&c, dir, "choose-turn-mlp-stack-abilities.frame", 1, 0);
	if (!quiet(&c, 200))
		failf("frames: the bridge sent something unasked");
	conn_close(&c);
	printf("frames: 5 requests, %d failures\n", failures);
	return failures != 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: trylobot_client play|interleave|faults PORT [options] | frames PORT DIR\n"
		"  --games N --type GAMETYPE --sides white|black|both --deadline MS --plies N --seed N\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct opts o = { .games = 1, .type = 0, .sides = 3, .deadline = 0, .plies = 300, .seed = 1 };

	if (argc < 3)
		return usage();
	const char *mode = argv[1];
	int port = atoi(argv[2]);
	if (!strcmp(mode, "frames"))
		return argc == 4 ? cmd_frames(port, argv[3]) : usage();
	for (int i = 3; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			return usage();
		i++;
		if (!strcmp(k, "--games"))
			o.games = atoi(v);
		else if (!strcmp(k, "--type")) {
			if (hive_gametype_parse(v, &o.type) != HIVE_OK)
				return usage();
		} else if (!strcmp(k, "--sides"))
			o.sides = !strcmp(v, "white") ? 1 : !strcmp(v, "black") ? 2 : 3;
		else if (!strcmp(k, "--deadline"))
			o.deadline = atoi(v);
		else if (!strcmp(k, "--plies"))
			o.plies = atoi(v);
		else if (!strcmp(k, "--seed"))
			o.seed = strtoull(v, NULL, 10);
		else
			return usage();
	}
	if (!strcmp(mode, "play"))
		return cmd_play(port, &o);
	if (!strcmp(mode, "interleave"))
		return cmd_interleave(port, &o);
	if (!strcmp(mode, "faults"))
		return cmd_faults(port);
	return usage();
}
