/*
 * test_hivegame.c: hivegame.com's bot API codec (adapters/hivegame/hivegame_codec.c)
 * on answers shaped as the server's handlers write them (apis/src/api/v1/), its
 * refusals (HTTP 200 "error", 401 "message"), hostile fields, and random games of
 * every type written as the server writes a history ("wS1 ;", "pass ;") and
 * replayed by the core.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/hivegame/hivegame_codec.h"
#include "core/board.h"
#include "core/game.h"
#include "tests/unit/unit.h"

#define GAME_JSON(history, extra) \
	"{" extra "\"id\":\"8b1e\",\"nanoid\":\"abcDEF123456\",\"current_player_id\":\"u-b\"," \
	"\"black_id\":\"u-b\",\"white_id\":\"u-w\",\"finished\":false," \
	"\"game_status\":\"InProgress\",\"game_type\":\"Base+MLP\",\"history\":\"" history "\"," \
	"\"turn\":1,\"time_mode\":\"RealTime\",\"time_base\":300,\"time_increment\":5," \
	"\"white_time_left\":300000000000,\"black_time_left\":299500000000}"

static void test_token(void)
{
	char tok[HG_TOKEN_MAX], err[256];
	const char *ok = "{\"success\":true,\"data\":{\"token\":\"a.b.c\"}}";
	CU_ASSERT_EQUAL(hg_parse_token(ok, strlen(ok), tok, sizeof tok, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(tok, "a.b.c");
	const char *bad = "{\"success\":false,\"data\":{\"message\":\"Not a bot\"}}";
	CU_ASSERT_EQUAL(hg_parse_token(bad, strlen(bad), tok, sizeof tok, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "the site says: Not a bot");
	const char *blank = "{\"success\":true,\"data\":{\"token\":\"a b\"}}";
	CU_ASSERT_EQUAL(hg_parse_token(blank, strlen(blank), tok, sizeof tok, err, sizeof err), -1);
	CU_ASSERT_EQUAL(hg_parse_token("", 0, tok, sizeof tok, err, sizeof err), -1);
	CU_ASSERT_EQUAL(hg_parse_token("[1]", 3, tok, sizeof tok, err, sizeof err), -1);
	/* Not NUL-terminated: only len bytes are read. */
	char buf[64];
	memcpy(buf, ok, strlen(ok));
	buf[strlen(ok)] = 'x';
	CU_ASSERT_EQUAL(hg_parse_token(buf, strlen(ok), tok, sizeof tok, err, sizeof err), 0);
	/* {"sub":"b","exp":1700000000} */
	CU_ASSERT_EQUAL(hg_token_expiry("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiIiwiZXhwIjoxNzAwMDAwMDAwfQ.x"),
			1700000000);
	CU_ASSERT_EQUAL(hg_token_expiry("a.b"), -1);
	CU_ASSERT_EQUAL(hg_token_expiry("a.!!.c"), -1);
}

static void test_refusal(void)
{
	char err[256], *h;
	const char *r = "{\"success\":false,\"data\":{\"error\":\"Not your turn\\n\\u001b[1m\"}}";
	CU_ASSERT_EQUAL(hg_parse_play(r, strlen(r), &h, err, sizeof err), -1);
	CU_ASSERT_PTR_NULL(h);
	CU_ASSERT_STRING_EQUAL(err, "the site says: Not your turn??[1m");
	const char *ok = "{\"success\":true,\"data\":{\"bot\":\"b\",\"history\":\"wS1 ;\"}}";
	CU_ASSERT_EQUAL(hg_parse_play(ok, strlen(ok), &h, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(h, "wS1 ;");
	free(h);
	const char *ctl = "{\"success\":true,\"data\":{\"game_id\":\"x\",\"finished\":true}}";
	CU_ASSERT_EQUAL(hg_parse_ok(ctl, strlen(ctl), err, sizeof err), 0);
}

static void test_games(void)
{
	char err[256];
	struct hg_games gs;
	const char *body = "{\"success\":true,\"data\":{\"bot\":\"b\",\"games\":["
		GAME_JSON("wS1 ;bS1 -wS1;", "") "," GAME_JSON("", "\"white_time_left\":null,") "]}}";
	CU_ASSERT_EQUAL_FATAL(hg_parse_games(body, strlen(body), &gs, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(gs.n, 2);
	struct hg_game *g = &gs.v[0];
	CU_ASSERT_STRING_EQUAL(g->nanoid, "abcDEF123456");
	CU_ASSERT_TRUE(g->type_ok);
	CU_ASSERT_EQUAL(g->mode, HG_REALTIME);
	CU_ASSERT_EQUAL(g->time_increment, 5);
	CU_ASSERT_EQUAL(g->black_time_left, 299500000000LL);
	CU_ASSERT_EQUAL(hg_game_side(g, "u-b"), 1);
	CU_ASSERT_EQUAL(hg_game_side(g, "u-x"), -1);
	CU_ASSERT_EQUAL(gs.v[1].white_time_left, -1);

	struct hive_game hg;
	hive_game_init(&hg, g->type);
	CU_ASSERT_EQUAL(hg_history_replay(g->history, &hg, err, sizeof err), 0);
	CU_ASSERT_EQUAL(hg.len, 2);
	hive_game_free(&hg);
	hg_games_free(&gs);

	/* One game (challenge/accept's "game"); a wrong type fails the whole answer. */
	const char *one = "{\"success\":true,\"data\":{\"game\":" GAME_JSON("", "") "}}";
	CU_ASSERT_EQUAL(hg_parse_games(one, strlen(one), &gs, err, sizeof err), 0);
	CU_ASSERT_EQUAL(gs.n, 1);
	hg_games_free(&gs);
	const char *bad = "{\"success\":true,\"data\":{\"games\":[" GAME_JSON("", "\"turn\":\"3\",") "]}}";
	CU_ASSERT_EQUAL(hg_parse_games(bad, strlen(bad), &gs, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "turn"));
	CU_ASSERT_PTR_NULL(gs.v);
	/* An id goes into a URL's path: a nanoid's characters only. */
	const char *path = "{\"success\":true,\"data\":{\"games\":[" GAME_JSON("", "\"nanoid\":\"../x?y\",") "]}}";
	CU_ASSERT_EQUAL(hg_parse_games(path, strlen(path), &gs, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nanoid"));
}

static void test_challenges(void)
{
	char err[256];
	struct hg_challenges cs;
	const char *body = "{\"success\":true,\"data\":{\"bot\":\"b@x\",\"bot_username\":\"bot1\","
		"\"challenges\":[{\"id\":\"9\",\"challenge_id\":\"chal1\",\"challenger\":{\"username\":\"ann\"},"
		"\"opponent\":null,\"game_type\":\"Base+MLP\",\"rated\":true,\"visibility\":\"Direct\","
		"\"color_choice\":\"Random\",\"time_mode\":\"RealTime\",\"time_base\":600,"
		"\"time_increment\":10},{\"challenge_id\":\"chal2\",\"game_type\":\"Chess\","
		"\"time_mode\":\"Untimed\",\"time_base\":null,\"time_increment\":null}]}}";
	CU_ASSERT_EQUAL_FATAL(hg_parse_challenges(body, strlen(body), &cs, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(cs.n, 2);
	CU_ASSERT_STRING_EQUAL(cs.bot_username, "bot1");
	CU_ASSERT_STRING_EQUAL(cs.v[0].challenger, "ann");
	CU_ASSERT_TRUE(cs.v[0].rated);
	CU_ASSERT_EQUAL(cs.v[0].time_base, 600);
	CU_ASSERT_FALSE(cs.v[1].type_ok);
	CU_ASSERT_EQUAL(cs.v[1].mode, HG_UNTIMED);
	CU_ASSERT_EQUAL(cs.v[1].time_base, -1);
	hg_challenges_free(&cs);
}

static void test_format(void)
{
	char *s = hg_format_login("bot\"1", "pa\\ss");
	CU_ASSERT_STRING_EQUAL(s, "{\"email\":\"bot\\\"1\",\"password\":\"pa\\\\ss\"}");
	free(s);
	s = hg_format_play("abc", "bG1 -wS1");
	CU_ASSERT_STRING_EQUAL(s, "{\"game_id\":\"abc\",\"piece_pos\":\"bG1 -wS1\"}");
	free(s);
	s = hg_format_control("abc", "resign");
	CU_ASSERT_STRING_EQUAL(s, "{\"game_id\":\"abc\",\"control\":\"resign\"}");
	free(s);
}

static void test_history_errors(void)
{
	static const char *const bad[] = {
		"wS1 ",              /* no ';' */
		"wS1 ;wS2 wS1-;",    /* white twice */
		"pass ;",            /* a pass with moves to make */
		"wQ ;",              /* the queen first (tournament rule) */
		";",
		"wS1 ;bS1 -wS1;wA1 zz;",
	};
	char err[256];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct hive_game g;
		hive_game_init(&g, 0);
		CU_ASSERT_EQUAL(hg_history_replay(bad[i], &g, err, sizeof err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "history ply"));
		hive_game_free(&g);
	}
}

/* Random games of every type, written as update_gamestate writes them, replay to the
 * same game; each move's play text is the piece alone first, the MoveString after. */
static void test_random_histories(void)
{
	static struct hive_move moves[HIVE_MAX_MOVES];
	unsigned seed = 12345;
	char err[256];
	for (unsigned type = 0; type < 8; type++) {
		for (int round = 0; round < 6; round++) {
			struct hive_game g;
			hive_game_init(&g, type);
			char *hist = calloc(HG_HISTORY_MAX + 1, 1);
			size_t hl = 0;
			for (int ply = 0; ply < 160 && !hive_game_over(&g.board); ply++) {
				size_t n = hive_board_moves(&g.board, moves);
				if (n == 0)
					break;
				seed = seed * 1103515245u + 12345u;
				struct hive_move m = moves[(seed >> 8) % n];
				char text[HIVE_MOVESTR_MAX], ms[HIVE_MOVESTR_MAX];
				hive_move_format(&g.board, m, ms, sizeof ms);
				if (m.piece == HIVE_PASS_PIECE) {
					CU_ASSERT_EQUAL(hg_move_text(&g, m, text, sizeof text), -1);
					hl += (size_t)snprintf(hist + hl, HG_HISTORY_MAX - hl, "pass ;");
				} else {
					CU_ASSERT_EQUAL(hg_move_text(&g, m, text, sizeof text), 0);
					if (g.len == 0) {
						CU_ASSERT_PTR_NULL(strchr(text, ' '));
						hl += (size_t)snprintf(hist + hl, HG_HISTORY_MAX - hl, "%s ;", text);
					} else {
						CU_ASSERT_STRING_EQUAL(text, ms);
						hl += (size_t)snprintf(hist + hl, HG_HISTORY_MAX - hl, "%s;", ms);
					}
				}
				CU_ASSERT_EQUAL_FATAL(hive_game_play(&g, m), HIVE_OK);
			}
			struct hive_game r;
			hive_game_init(&r, type);
			CU_ASSERT_EQUAL(hg_history_replay(hist, &r, err, sizeof err), 0);
			CU_ASSERT_EQUAL(r.len, g.len);
			CU_ASSERT_EQUAL(r.board.hash, g.board.hash);
			hive_game_free(&r);
			hive_game_free(&g);
			free(hist);
		}
	}
}

static const struct unit_test tests[] = {
	{ "token", test_token },
	{ "refusal", test_refusal },
	{ "games", test_games },
	{ "challenges", test_challenges },
	{ "format", test_format },
	{ "history_errors", test_history_errors },
	{ "random_histories", test_random_histories },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "hivegame",
	.tests = tests,
};
