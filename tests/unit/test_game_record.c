/*
 * test_game_record.c: bridge/game_record.c: a game with its timed plies becomes a
 * record whose comments give each move's time and, where the engine reported a
 * search, its score and depth; tags as match writes them; the time controls as PGN
 * writes them; the archive appended game by game reads back whole, and a torn last
 * game is told from a whole one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge/game_record.h"
#include "bridge/referee.h"
#include "core/game.h"
#include "tests/unit/unit.h"

/* "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1" as a game: 3 plies. */
static void three_plies(struct hive_game *g)
{
	hive_game_init(g, 0);
	CU_ASSERT_EQUAL_FATAL(hive_game_parse(g, "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1", NULL, 0), HIVE_OK);
}

static void test_comments_and_tags(void)
{
	struct hive_game g;
	struct hive_record rec;
	/* The first ply was the opening's: the referee timed plies 2 and 3. */
	const uint64_t times[] = { 1234, 7 };
	const struct referee_eval evals[] = { { 2, -35 }, { 0, 0 } };
	struct game_record_plies p = { 1, times, evals, 2 };
	struct game_record_tags t = {
		.white = "nokamute 1.0", .black = "hivebridge v0", .event = "hivebridge match", .round = "7",
		.opening = "Base;InProgress;Black[1];wS1", .termination = "time forfeit",
		.time_control = "60+1", .result = HIVE_WHITE_WINS, .date = 86400 * 365,
	};
	char buf[2048];

	three_plies(&g);
	CU_ASSERT_EQUAL_FATAL(game_record_build(&rec, &g, &t, &p, NULL, 0), 0);
	CU_ASSERT_EQUAL(rec.game.len, 3);
	CU_ASSERT_PTR_NULL(rec.comments[0]);
	CU_ASSERT_STRING_EQUAL(rec.comments[1], "-35/2 1.234s");
	CU_ASSERT_STRING_EQUAL(rec.comments[2], "0.007s");
	hive_record_write_pgn(&rec, HIVE_PGN_MZINGA, buf, sizeof buf);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[GameType \"Base\"]\n[Date \"1971.01.01\"]\n[Event \"hivebridge match\"]\n"
				     "[Site \"\"]\n[Round \"7\"]\n[White \"nokamute 1.0\"]\n"
				     "[Black \"hivebridge v0\"]\n[Result \"WhiteWins\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[Termination \"time forfeit\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[TimeControl \"60+1\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n1. wS1\n2. bS1 wS1- {-35/2 1.234s}\n3. wQ -wS1 {0.007s}\n\nWhiteWins\n"));
	hive_record_free(&rec);

	/* No plies timed (a live game shown on the page): no comments, no result. */
	t.result = HIVE_IN_PROGRESS;
	CU_ASSERT_EQUAL_FATAL(game_record_build(&rec, &g, &t, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(rec.result, HIVE_IN_PROGRESS);
	for (size_t i = 0; i < 3; i++)
		CU_ASSERT_TRUE(!rec.comments || !rec.comments[i]);
	hive_record_free(&rec);
	hive_game_free(&g);
}

static void test_time_control(void)
{
	char buf[64];
	struct referee_seat s = { .clock_ms = 60000, .inc_ms = 1000 };
	CU_ASSERT_TRUE(game_record_time_control(&s, buf, sizeof buf) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "60+1");
	s = (struct referee_seat){ .clock_ms = 10500, .inc_ms = 100 };
	game_record_time_control(&s, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "10.5+0.1");
	s = (struct referee_seat){ .movetime_ms = 50 };
	game_record_time_control(&s, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "1/0.05");
	s = (struct referee_seat){ .move_ms = 1800000, .movetime_ms = 5 };
	game_record_time_control(&s, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "1/1800");
	s = (struct referee_seat){ .depth = 3 };
	CU_ASSERT_EQUAL(game_record_time_control(&s, buf, sizeof buf), 0);
}

static void test_archive(void)
{
	char path[] = "/tmp/test_game_record_XXXXXX";
	int fd = mkstemp(path);
	struct hive_game g;
	struct hive_record rec, *v;
	struct game_record_tags t = { .white = "a", .black = "b", .result = HIVE_DRAW };
	size_t n, len;
	char err[256];

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	three_plies(&g);
	CU_ASSERT_EQUAL_FATAL(game_record_build(&rec, &g, &t, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(game_record_append(path, &rec, err, sizeof err), 0);
	CU_ASSERT_EQUAL(game_record_append(path, &rec, err, sizeof err), 0);
	char *text = game_record_pgn(&rec, &len);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_TRUE(game_record_whole(text, len));
	CU_ASSERT_FALSE(game_record_whole(text, len - 1));
	CU_ASSERT_FALSE(game_record_whole(text, len / 2));
	/* Two games, one after the other, each whole. */
	FILE *f = fopen(path, "rb");
	char *buf = malloc(2 * len + 1);
	CU_ASSERT_FATAL(f && buf);
	CU_ASSERT_EQUAL(fread(buf, 1, 2 * len + 1, f), 2 * len);
	fclose(f);
	CU_ASSERT_EQUAL(memcmp(buf, text, len), 0);
	CU_ASSERT_EQUAL(memcmp(buf + len, text, len), 0);
	CU_ASSERT_EQUAL_FATAL(hive_records_read(buf, 2 * len, &v, &n, err, sizeof err), 0);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(v[1].result, HIVE_DRAW);
	CU_ASSERT_EQUAL(v[1].game.len, 3);
	hive_records_free(v, n);
	/* After a torn game (the file ends mid-line) the next starts whole after a blank line. */
	f = fopen(path, "wb");
	CU_ASSERT_FATAL(f != NULL);
	fwrite(text, 1, len / 2, f);
	fclose(f);
	CU_ASSERT_EQUAL(game_record_append(path, &rec, err, sizeof err), 0);
	f = fopen(path, "rb");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(fread(buf, 1, 2 * len + 1, f), len / 2 + 2 + len);
	fclose(f);
	CU_ASSERT_EQUAL(memcmp(buf + len / 2, "\n\n", 2), 0);
	CU_ASSERT_EQUAL(memcmp(buf + len / 2 + 2, text, len), 0);
	/* A file that cannot be opened: the error names it. */
	CU_ASSERT_EQUAL(game_record_append("/nonexistent/dir/x.pgn", &rec, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/dir/x.pgn"));
	free(buf);
	free(text);
	unlink(path);
	hive_record_free(&rec);
	hive_game_free(&g);
}

static const struct unit_test tests[] = {
	{ "comments (time, score/depth) and tags", test_comments_and_tags },
	{ "time controls as PGN writes them", test_time_control },
	{ "archive appended game by game, torn game told, the next whole", test_archive },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "game_record",
	.tests = tests,
};
