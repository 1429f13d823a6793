/*
 * fuzz_trylobot_next.c: differential libFuzzer target for a connection's Choose Turn
 * path. The input is up to 8 requests separated by 0xFF bytes (never in a frame:
 * not UTF-8), handled in turn as one connection does: tb_request_parse_next with one
 * parse cache, tb_replay_sync with one kept game. Each must give what the request
 * alone gives (tb_request_parse, tb_replay_load): the same result or the same error
 * text, the same game; tb_turn_answer_frame the bytes of the cJSON printer.
 *
 *   gcc (no -DFUZZING_ENGINE): replays the files given; with --seeds DIR it writes
 *   seeds (mid-game requests of random games, as a connection sends them) into DIR.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"

#define MAX_REQUESTS 8
#define MAX_HISTORY  200     /* replays are quadratic; longer inputs teach nothing new */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_trylobot_next: %s\n", what);
		abort();
	}
}

static int opt_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int turns_same(const struct tb_turns *a, const struct tb_turns *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (!tb_turn_eq(&a->v[i], &b->v[i]))
			return 0;
	return 1;
}

static void check_same_request(const struct tb_request *a, const struct tb_request *b)
{
	check(a->type == b->type, "type differs");
	check(opt_eq(a->request_id, b->request_id) && opt_eq(a->game_id, b->game_id) &&
	      opt_eq(a->request_id_json, b->request_id_json) && opt_eq(a->game_id_json, b->game_id_json) &&
	      opt_eq(a->system_version, b->system_version), "ids differ");
	check(a->request_timestamp == b->request_timestamp && a->response_deadline == b->response_deadline,
	      "timestamps differ");
	const struct tb_state *x = &a->state, *y = &b->state;
	check(x->type == y->type && x->player == y->player && x->turn_number == y->turn_number, "state head differs");
	check(x->nstacks == y->nstacks && !memcmp(x->hand, y->hand, sizeof x->hand), "board or hands differ");
	for (size_t i = 0; i < x->nstacks; i++)
		check(tb_pos_eq(x->stack[i].pos, y->stack[i].pos) && x->stack[i].height == y->stack[i].height &&
		      !memcmp(x->stack[i].piece, y->stack[i].piece, x->stack[i].height * sizeof x->stack[i].piece[0]),
		      "stack differs");
	check(turns_same(&x->history, &y->history), "history differs");
	check(turns_same(&x->possible, &y->possible), "possible differs (or its order)");
}

static void check_answer(const struct tb_turn *t, const struct tb_request *rq)
{
	size_t la = 0, lb = 0;
	char *a = tb_turn_answer_frame(t, rq, &la);
	cJSON *msg = tb_turn_answer_json(t, rq->request_id, rq->game_id);
	char *b = msg && !tb_echo_ids(msg, rq) ? tb_frame_build(msg, &lb) : NULL;
	cJSON_Delete(msg);
	check((a == NULL) == (b == NULL), "answer frame: one printer failed");
	if (a) {
		if (la != lb || memcmp(a, b, la))
			fprintf(stderr, "%.*s\n%.*s\n", (int)la, a, (int)lb, b);
		check(la == lb && !memcmp(a, b, la), "answer frames differ");
	}
	free(a);
	free(b);
}

struct conn {
	struct tb_parse_cache pc;
	struct tb_replay      rp;
	int                   have;
};

static void one(struct conn *cn, const char *json, size_t len)
{
	struct tb_request a, b;
	char ea[TB_ERR_MAX], eb[TB_ERR_MAX];
	ea[0] = eb[0] = 0;
	int ra = tb_request_parse(json, len, &a, ea, sizeof ea);
	int rb = tb_request_parse_next(json, len, &b, &cn->pc, eb, sizeof eb);
	if (ra != rb || (ra && strcmp(ea, eb)))
		fprintf(stderr, "alone %d '%s', next %d '%s'\n", ra, ea, rb, eb);
	check(ra == rb, "parse_next result differs");
	if (ra) {
		check(!strcmp(ea, eb), "parse_next error differs");
		return;
	}
	check_same_request(&a, &b);
	if (a.type == TB_REQ_CHOOSE_TURN) {
		struct tb_turn forfeit = { .type = TB_FORFEIT };
		check_answer(&forfeit, &b);
		for (size_t i = 0; i < b.state.possible.n && i < 3; i++)
			check_answer(&b.state.possible.v[i], &b);
		if (a.state.history.n <= MAX_HISTORY) {
			struct tb_replay r;
			ea[0] = eb[0] = 0;
			int la = tb_replay_load(&r, &a.state, ea, sizeof ea);
			int lb = tb_replay_sync(&cn->rp, cn->have, &b.state, eb, sizeof eb);
			if (la != lb || (la && strcmp(ea, eb)))
				fprintf(stderr, "load %d '%s', sync %d '%s'\n", la, ea, lb, eb);
			check(la == lb, "replay_sync result differs");
			cn->have = lb == 0;
			if (la) {
				check(!strcmp(ea, eb), "replay_sync error differs");
			} else {
				struct tb_turn ta, tb;
				check(r.game.board.hash == cn->rp.game.board.hash && r.game.len == cn->rp.game.len,
				      "replayed games differ");
				check(turns_same(&r.history, &cn->rp.history), "replayed turns differ");
				size_t na = tb_replay_sendable(&r, &a.state.possible, &ta, 2);
				size_t nb = tb_replay_sendable(&cn->rp, &b.state.possible, &tb, 2);
				check(na == nb && (!na || tb_turn_eq(&ta, &tb)), "sendable differs");
				if (na)
					check_answer(&tb, &b);
				tb_replay_free(&r);
			}
		}
	}
	tb_request_free(&a);
	tb_request_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conn cn;
	memset(&cn, 0, sizeof cn);
	const uint8_t *p = data, *e = data + size;
	for (int k = 0; k < MAX_REQUESTS && p <= e; k++) {
		const uint8_t *q = memchr(p, 0xff, (size_t)(e - p));
		if (!q)
			q = e;
		/* An exact-size copy, so that ASan sees any read past the end. */
		size_t n = (size_t)(q - p);
		char *buf = malloc(n ? n : 1);
		check(buf != NULL, "out of memory");
		memcpy(buf, p, n);
		one(&cn, buf, n);
		free(buf);
		p = q + 1;
	}
	tb_parse_cache_free(&cn.pc);
	if (cn.have)
		tb_replay_free(&cn.rp);
	return 0;
}

#ifndef FUZZING_ENGINE
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static char *request_text(const struct tb_replay *r, int ply)
{
	struct tb_request rq = { .type = TB_REQ_CHOOSE_TURN, .request_id = "abcde", .game_id = "fghij",
				 .request_timestamp = 1795315913419LL,
				 .response_deadline = ply % 2 ? 1795315923419LL : 0 };
	char err[TB_ERR_MAX];
	if (tb_replay_state(r, &rq.state, err, sizeof err))
		return NULL;
	cJSON *j = tb_request_json(&rq);
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;
	cJSON_Delete(j);
	tb_state_free(&rq.state);
	return text;
}

/* Seeds: per game, runs of requests as one connection sees them (the game growing,
 * now and then a request of another game or an older one in between). */
static int seeds(const char *dir)
{
	int files = 0;
	for (unsigned type = 0; type < 8; type++) {
		for (int g = 0; g < 3; g++) {
			struct tb_replay r;
			char err[TB_ERR_MAX];
			char *texts[40] = { 0 };
			int nt = 0;
			tb_replay_init(&r, type);
			for (int ply = 0; ply < 40 && !hive_game_over(&r.game.board); ply++) {
				struct hive_move moves[HIVE_MAX_MOVES];
				size_t n = hive_board_moves(&r.game.board, moves);
				texts[nt++] = request_text(&r, ply);
				if (tb_replay_play(&r, moves[rng() % n], err, sizeof err))
					break;
			}
			for (int s = 0; s + 1 < nt; s += 3) {
				char path[1024];
				snprintf(path, sizeof path, "%s/t%u-g%d-s%d", dir, type, g, s);
				FILE *f = fopen(path, "wb");
				if (!f)
					return -1;
				int steps[4] = { s, s + 1, nt - 1 > s + 3 ? s + 3 : nt - 1, s % 2 ? 0 : s };
				for (int i = 0; i < 4; i++) {
					if (i)
						fputc(0xff, f);
					if (texts[steps[i]])
						fputs(texts[steps[i]], f);
				}
				fclose(f);
				files++;
			}
			for (int i = 0; i < nt; i++)
				cJSON_free(texts[i]);
			tb_replay_free(&r);
		}
	}
	printf("fuzz_trylobot_next: %d seeds written\n", files);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		return seeds(argv[2]) ? 1 : 0;
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			rc = 1;
			continue;
		}
		static uint8_t buf[1 << 20];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	return rc;
}
#endif
