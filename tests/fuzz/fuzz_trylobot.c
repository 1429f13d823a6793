/*
 * fuzz_trylobot.c: libFuzzer target for the Trylobot frame reader and message parser.
 * The input is a byte stream fed to the reader in uneven chunks; every frame it
 * yields (and the whole input as bare JSON) goes to the request and response
 * parsers. Whatever parses must rebuild to JSON that parses to the same thing, and a
 * Choose Turn request whose history replays must give a game_state that replays too.
 *
 *   clang -DFUZZING_ENGINE -fsanitize=fuzzer,address,undefined -I. -I/usr/include/cjson
 *     tests/fuzz/fuzz_trylobot.c adapters/trylobot/{trylobot_codec,trylobot_coords}.c
 *     core/board.c core/game.c -lcjson
 *   gcc (same files, no -DFUZZING_ENGINE): replays the files given, or the real frames
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"

#define MAX_HISTORY 200      /* replays are quadratic; longer inputs teach nothing new */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_trylobot: %s\n", what);
		abort();
	}
}

static int same_state(const struct tb_state *a, const struct tb_state *b)
{
	if (a->type != b->type || a->player != b->player || a->turn_number != b->turn_number ||
	    a->nstacks != b->nstacks || a->history.n != b->history.n || a->possible.n != b->possible.n ||
	    memcmp(a->hand, b->hand, sizeof a->hand))
		return 0;
	for (size_t i = 0; i < a->history.n; i++)
		if (!tb_turn_eq(&a->history.v[i], &b->history.v[i]))
			return 0;
	for (size_t i = 0; i < a->possible.n; i++)
		if (!tb_turns_has(&b->possible, &a->possible.v[i]))
			return 0;
	return 1;
}

/* Builds rq as a frame, reads it back, parses it: the same request. */
static void check_rebuild(const struct tb_request *rq)
{
	struct tb_reader r;
	struct tb_request back;
	char err[TB_ERR_MAX];
	size_t len, used, flen;
	cJSON *j = tb_request_json(rq);
	/* Parsed placements are always a cross product, so the builder cannot refuse. */
	check(j != NULL, "request does not rebuild");
	char *frame = tb_frame_build(j, &len);
	cJSON_Delete(j);
	check(frame != NULL, "request does not frame");
	for (size_t i = 0; i < len; i++)
		check((unsigned char)frame[i] < 0x80, "frame is not ASCII");
	tb_reader_init(&r, len);
	check(tb_reader_push(&r, frame, len, &used) == 1 && used == len, "our frame does not read back");
	const char *json = tb_reader_frame(&r, &flen);
	check(tb_request_parse(json, flen, &back, err, sizeof err) == 0, "our request does not parse");
	check(back.type == rq->type, "request type changed");
	if (rq->type == TB_REQ_CHOOSE_TURN)
		check(same_state(&rq->state, &back.state), "game_state changed");
	tb_request_free(&back);
	tb_reader_free(&r);
	free(frame);
}

static void check_replay(const struct tb_state *st)
{
	struct tb_replay r, again;
	struct tb_state mine;
	char err[TB_ERR_MAX];
	if (st->history.n > MAX_HISTORY || tb_replay_load(&r, st, err, sizeof err))
		return;
	/* Each listed turn is either legal or refused with a reason. */
	for (size_t i = 0; i < st->possible.n; i++) {
		struct hive_move m;
		struct tb_turn t;
		err[0] = 0;
		if (tb_replay_turn_move(&r, &st->possible.v[i], &m, err, sizeof err)) {
			check(err[0] != 0, "turn refused without a reason");
			continue;
		}
		check(tb_replay_move_turn(&r, m, &t, err, sizeof err) == 0, "legal move does not translate");
		struct hive_move back;
		check(tb_replay_turn_move(&r, &t, &back, err, sizeof err) == 0 && back.piece == m.piece &&
		      (m.piece == HIVE_PASS_PIECE || back.to == m.to), "translation does not round-trip");
	}
	check(tb_replay_state(&r, &mine, err, sizeof err) == 0, "state does not build");
	check(tb_replay_load(&again, &mine, err, sizeof err) == 0, "our own state does not replay");
	check(again.game.board.hash == r.game.board.hash, "replayed position differs");
	tb_replay_free(&again);
	tb_state_free(&mine);
	tb_replay_free(&r);
}

static void check_json(const char *json, size_t len)
{
	struct tb_request rq;
	struct tb_response rs;
	char err[TB_ERR_MAX];
	err[0] = 0;
	if (tb_request_parse(json, len, &rq, err, sizeof err) == 0) {
		check_rebuild(&rq);
		if (rq.type == TB_REQ_CHOOSE_TURN)
			check_replay(&rq.state);
		tb_request_free(&rq);
	} else {
		check(err[0] != 0, "request refused without a reason");
	}
	err[0] = 0;
	if (tb_response_parse(json, len, &rs, err, sizeof err) == 0) {
		if (rs.type == TB_RESP_TURN) {
			struct tb_response back;
			cJSON *j = tb_turn_answer_json(&rs.turn, NULL, NULL);
			char *text = j ? cJSON_PrintUnformatted(j) : NULL;
			check(text && !cJSON_GetObjectItem(j, "error"), "answer does not rebuild");
			check(tb_response_parse(text, strlen(text), &back, err, sizeof err) == 0 &&
			      back.type == TB_RESP_TURN && tb_turn_eq(&back.turn, &rs.turn), "answer changed");
			tb_response_free(&back);
			cJSON_free(text);
			cJSON_Delete(j);
		}
		tb_response_free(&rs);
	} else {
		check(err[0] != 0, "response refused without a reason");
	}
}

/* What a reader bounded at max makes of data pushed in pieces of at most chunk bytes:
 * a hash of every frame, every error and where they fell. The bulk path for ASCII
 * runs must read exactly as the byte-by-byte one. */
static uint64_t reader_transcript(const uint8_t *data, size_t size, size_t max, size_t chunk)
{
	struct tb_reader r;
	uint64_t h = 1469598103934665603u;
	size_t off = 0;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211u)
	tb_reader_init(&r, max);
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk, used, flen;
		int rc = tb_reader_push(&r, data + off, n, &used);
		off += used;
		if (rc < 0) {
			MIX(off);
			for (const char *e = tb_reader_error(&r); *e; e++)
				MIX(*e);
			tb_reader_reset(&r);
			off += used == 0;
		} else if (rc == 1) {
			const char *json = tb_reader_frame(&r, &flen);
			MIX(off);
			for (size_t i = 0; i < flen; i++)
				MIX(json[i]);
		}
	}
	MIX(tb_reader_idle(&r));
	tb_reader_free(&r);
#undef MIX
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tb_reader r;
	for (size_t max = 16; max <= 1 << 16; max <<= 12)
		check(reader_transcript(data, size, max, size ? size : 1) == reader_transcript(data, size, max, 1),
		      "the reader reads whole input otherwise than byte by byte");
	size_t off = 0, step = 1;
	tb_reader_init(&r, 1 << 16);
	/* Uneven chunks: 1, 2, 4, ... bytes, so frames straddle pushes. */
	while (off < size) {
		size_t n = size - off < step ? size - off : step, used, flen;
		int rc = tb_reader_push(&r, data + off, n, &used);
		check(used <= n, "reader consumed more than it was given");
		off += used;
		if (rc < 0) {
			check(tb_reader_error(&r) && *tb_reader_error(&r), "framing error without a reason");
			tb_reader_reset(&r);
			off += used == 0;    /* skip the byte it refused */
			continue;
		}
		if (rc == 1) {
			const char *json = tb_reader_frame(&r, &flen);
			check(json && strlen(json) == flen, "frame text is not what was counted");
			check(tb_utf16_length(json, flen) != (size_t)-1, "frame is not UTF-8");
			check_json(json, flen);
		} else {
			step = step < 4096 ? step * 2 : 1;
		}
	}
	tb_reader_free(&r);
	check_json((const char *)data, size);
	return 0;
}

#ifndef FUZZING_ENGINE
static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 1 << 16, n = 0, k;
	uint8_t *buf = malloc(cap);
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return -1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const seeds[] = {
		"greetings-request.frame", "greetings-response.frame", "choose-turn-first.frame",
		"choose-turn-forfeit-only.frame", "choose-turn-mlp-stack-abilities.frame"
	};
	int rc = 0;
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			rc |= run_file(argv[i]);
		return rc ? 1 : 0;
	}
	const char *dir = getenv("HIVE_DATA");
	for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/trylobot/%s", dir && *dir ? dir : "../shared/data", seeds[i]);
		rc |= run_file(path);
	}
	printf("fuzz_trylobot: %zu seeds replayed\n", sizeof seeds / sizeof seeds[0]);
	return rc ? 1 : 0;
}
#endif
