/*
 * fuzz_hivegame.c: libFuzzer target for hivegame.com's bot API codec
 * (adapters/hivegame/hivegame_codec.c). Every input goes to every parser: each fails
 * with a sentence or gives bounded, NUL-terminated fields; a game's history either
 * replays move by move through the core or fails with the ply it stopped at, and a
 * replayed game's moves written back as play texts replay again to the same board.
 *
 *   clang -DFUZZING_ENGINE -fsanitize=fuzzer,address,undefined -I. -I/usr/include/cjson
 *     tests/fuzz/fuzz_hivegame.c adapters/hivegame/hivegame_codec.c core/board.c core/game.c core/errbuf.c -lcjson
 *   gcc (same files, no -DFUZZING_ENGINE): replays the files given, or the seeds below
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/hivegame/hivegame_codec.h"
#include "core/board.h"
#include "core/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_hivegame: %s\n", what);
		abort();
	}
}

/* A replayed game, written back as the server writes a history, replays the same. */
static void check_history(const struct hg_game *hg)
{
	char err[256];
	struct hive_game g, again;
	hive_game_init(&g, hg->type);
	int rc = hg_history_replay(hg->history, &g, err, sizeof err);
	check(rc == 0 || strstr(err, "history ply") != NULL, "replay failed without its ply");
	size_t cap = g.len * 24 + 1, len = 0;
	char *text = malloc(cap);
	check(text != NULL, "out of memory");
	text[0] = 0;
	struct hive_game w;
	hive_game_init(&w, hg->type);
	for (size_t i = 0; i < g.len; i++) {
		char s[HIVE_MOVESTR_MAX];
		struct hive_move m = g.hist[i].move;
		if (hg_move_text(&w, m, s, sizeof s) < 0)
			len += (size_t)snprintf(text + len, cap - len, "pass ;");
		else
			len += (size_t)snprintf(text + len, cap - len, i == 0 ? "%s ;" : "%s;", s);
		check(hive_game_play(&w, m) == HIVE_OK, "a replayed move does not play again");
	}
	hive_game_init(&again, hg->type);
	check(hg_history_replay(text, &again, err, sizeof err) == 0, "a written history does not replay");
	check(again.len == g.len && again.board.hash == g.board.hash, "a written history replays otherwise");
	hive_game_free(&again);
	hive_game_free(&w);
	hive_game_free(&g);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data;
	char err[256], tok[HG_TOKEN_MAX], id[HG_ID_MAX], name[HG_ID_MAX], *h = NULL;
	if (hg_parse_token(body, size, tok, sizeof tok, err, sizeof err) == 0)
	{
		check(tok[0] && strlen(tok) < sizeof tok, "token");
		hg_token_expiry(tok);
	}
	hg_parse_identity(body, size, id, name, err, sizeof err);
	hg_parse_ok(body, size, err, sizeof err);
	if (hg_parse_play(body, size, &h, err, sizeof err) == 0)
		check(h != NULL, "play without a history");
	free(h);
	struct hg_challenges cs;
	if (hg_parse_challenges(body, size, &cs, err, sizeof err) == 0) {
		check(cs.n <= HG_LIST_MAX, "too many challenges");
		for (size_t i = 0; i < cs.n; i++)
			check(strlen(cs.v[i].id) < HG_ID_MAX, "challenge id");
		hg_challenges_free(&cs);
	}
	struct hg_games gs;
	if (hg_parse_games(body, size, &gs, err, sizeof err) == 0) {
		check(gs.n <= HG_LIST_MAX, "too many games");
		for (size_t i = 0; i < gs.n; i++)
			if (gs.v[i].type_ok)
				check_history(&gs.v[i]);
		hg_games_free(&gs);
	}
	/* The history replay on its own, the whole input being one. */
	if (size < 4096) {
		char *s = malloc(size + 1);
		check(s != NULL, "out of memory");
		memcpy(s, data, size);
		s[size] = 0;
		struct hive_game g;
		hive_game_init(&g, 7);
		hg_history_replay(s, &g, err, sizeof err);
		hive_game_free(&g);
		free(s);
	}
	return 0;
}

#ifndef FUZZING_ENGINE
static const char *const seeds[] = {
	"{\"success\":true,\"data\":{\"token\":\"a.b.c\"}}",
	"{\"success\":false,\"data\":{\"message\":\"No token provided\"}}",
	"{\"success\":false,\"data\":{\"error\":\"Not your turn\"}}",
	"{\"success\":true,\"data\":{\"bot_username\":\"b\",\"challenges\":[{\"challenge_id\":\"c1\","
	"\"game_type\":\"Base+M\",\"time_mode\":\"RealTime\",\"time_base\":60,\"time_increment\":1}]}}",
	"{\"success\":true,\"data\":{\"games\":[{\"nanoid\":\"n1\",\"game_type\":\"Base+MLP\","
	"\"game_status\":\"InProgress\",\"time_mode\":\"RealTime\",\"white_id\":\"w\",\"black_id\":\"b\","
	"\"current_player_id\":\"w\",\"turn\":3,\"time_base\":60,\"time_increment\":1,"
	"\"white_time_left\":1,\"black_time_left\":2,\"finished\":false,"
	"\"history\":\"wS1 ;bS1 -wS1;wQ wS1-;\"}]}}",
	"wS1 ;bS1 -wS1;wQ wS1-;bQ -bS1;",
	"wS1 ;pass ;",
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++)
			LLVMFuzzerTestOneInput((const uint8_t *)seeds[i], strlen(seeds[i]));
		printf("fuzz_hivegame: %zu seeds ok\n", sizeof seeds / sizeof *seeds);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		static uint8_t buf[1 << 20];
		size_t len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
	}
	return 0;
}
#endif
