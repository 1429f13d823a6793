/*
 * fuzz_hub.c: libFuzzer target for the Hub codec. Any input either fails with a reason
 * (which must render as an error line that reads back as the same reason) or parses
 * to a message whose canonical rewrite parses to the same message and rewrites to
 * the same bytes. The typed helpers (level, go, info) must agree with their writers.
 *
 *   clang -DFUZZING_ENGINE -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_hub.c adapters/hub/hub_codec.c
 *   gcc -I. tests/fuzz/fuzz_hub.c adapters/hub/hub_codec.c   # replays files, or built-in seeds
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/hub/hub_codec.h"

#define FUZZ_LINE_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_hub: %s\n", what);
		abort();
	}
}

static int same_msg(const struct hub_msg *a, const struct hub_msg *b)
{
	if (strcmp(a->cmd, b->cmd) != 0 || a->nargs != b->nargs)
		return 0;
	for (size_t i = 0; i < a->nargs; i++)
		if (strcmp(a->args[i].name, b->args[i].name) != 0 ||
		    a->args[i].has_value != b->args[i].has_value ||
		    strcmp(a->args[i].value, b->args[i].value) != 0)
			return 0;
	return 1;
}

/* A parse error must come out as an error line that carries the same text. */
static void check_error_line(const char *reason)
{
	char line[1024], err[256];
	struct hub_msg m;
	int n = hub_error_write(line, sizeof line, reason);
	check(n > 0, "error line does not fit");
	check(hub_line_parse(line, (size_t)n, &m, err, sizeof err) == 0, "error line does not parse");
	check(strcmp(m.cmd, "error") == 0, "error line has another command");
	check(strcmp(hub_msg_get(&m, "message"), reason) == 0, "error message changed");
	hub_msg_free(&m);
}

static void check_level(const struct hub_msg *m)
{
	struct hub_level lv, back;
	char line[512], err[256];
	struct hub_msg again;
	if (hub_level_parse(m, &lv, err, sizeof err) == -1) {
		check(err[0] != '\0', "level failed without a reason");
		return;
	}
	int n = hub_level_write(line, sizeof line, &lv, NULL, 0);
	check(n > 0, "a parsed level does not write");
	check(hub_line_parse(line, (size_t)n, &again, err, sizeof err) == 0, "level line does not parse");
	check(hub_level_parse(&again, &back, err, sizeof err) == 0, "written level does not parse");
	check(memcmp(&lv, &back, sizeof lv) == 0, "level changed in a round trip");
	hub_msg_free(&again);
}

static void check_info(const struct hub_msg *m)
{
	struct hub_info in, back;
	const char *pv, *cur, *item, *pv_back;
	char items[HUB_MAX_ARGS * 4][64];
	const char *ptrs[HUB_MAX_ARGS * 4];
	char line[FUZZ_LINE_MAX * 2 + 256], err[256];
	size_t len, n = 0;
	struct hub_msg again;

	if (hub_info_parse(m, &in, &pv, err, sizeof err) == -1)
		return;
	/* the pv items, as many as fit the table */
	for (cur = pv != NULL ? pv : ""; hub_list_next(&cur, &item, &len) && n < 128;) {
		if (len >= sizeof items[n])
			continue;
		memcpy(items[n], item, len);
		items[n][len] = '\0';
		ptrs[n] = items[n];
		n++;
	}
	in.pv = ptrs;
	in.pvlen = n;
	int w = hub_info_write(line, sizeof line, &in, NULL, 0);
	check(w > 0, "a parsed info does not write");
	check(hub_line_parse(line, (size_t)w, &again, err, sizeof err) == 0, "info line does not parse");
	check(hub_info_parse(&again, &back, &pv_back, err, sizeof err) == 0, "written info does not parse");
	check(back.depth == in.depth && back.has_score == in.has_score &&
	      back.score_cp == in.score_cp && back.nodes == in.nodes &&
	      back.has_time == in.has_time && back.time_ms == in.time_ms, "info changed in a round trip");
	size_t k = 0;
	for (cur = pv_back != NULL ? pv_back : ""; hub_list_next(&cur, &item, &len); k++)
		check(k < n && len == strlen(items[k]) && memcmp(item, items[k], len) == 0,
		      "pv changed in a round trip");
	check(k == n, "pv lost items in a round trip");
	hub_msg_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hub_msg m, again;
	char err[256], line[FUZZ_LINE_MAX * 2 + 64], line2[sizeof line];
	char why[128] = "rewrite failed";

	if (hub_line_parse_max((const char *)data, size, FUZZ_LINE_MAX, &m, err, sizeof err) == -1) {
		check(err[0] != '\0', "parse failed without a reason");
		check(m.buf == NULL && m.nargs == 0, "failed parse left a message");
		check_error_line(err);
		hub_msg_free(&m);
		return 0;
	}
	/* an escape never grows the text by more than twice, plus quotes and spaces */
	int n = hub_msg_write(&m, line, sizeof line, why, sizeof why);
	check(n >= 0, why);
	check(hub_line_parse_max(line, (size_t)n, sizeof line, &again, err, sizeof err) == 0,
	      "rewrite does not parse");
	check(same_msg(&m, &again), "rewrite parses to another message");
	int n2 = hub_msg_write(&again, line2, sizeof line2, why, sizeof why);
	check(n2 == n && memcmp(line, line2, (size_t)n) == 0, "rewrite is not canonical");
	hub_msg_free(&again);

	/* accessors agree with the array */
	for (size_t i = 0; i < m.nargs; i++) {
		const struct hub_arg *a = hub_msg_arg(&m, m.args[i].name);
		check(a != NULL && a <= &m.args[i] && hub_msg_has(&m, m.args[i].name), "lookup lost an argument");
	}

	if (strcmp(m.cmd, "level") == 0) {
		check_level(&m);
	} else if (strcmp(m.cmd, "go") == 0) {
		enum hub_go_mode mode;
		if (hub_go_parse(&m, &mode, err, sizeof err) == 0)
			check(hub_msg_has(&m, hub_go_name(mode)), "go mode not in the line");
	} else if (strcmp(m.cmd, "info") == 0) {
		check_info(&m);
	}
	hub_msg_free(&m);
	return 0;
}

#ifndef FUZZING_ENGINE
static const char *const seeds[] = {
	"hub",
	"id name=hivebridge version=0.1 author=\"The hivebridge authors\"",
	"param name=variant value=Base+MLP type=enum values=\"Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP\"",
	"set-param name=variant value=Base+MLP",
	"pos pos=\"Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-\"",
	"pos variant=Base moves=\"wS1;bS1 wS1-\"",
	"level moves=9 time=291.587 inc=2",
	"level infinite",
	"level depth=-3 time",
	"go ponder",
	"info depth=21 score=-0.01 nodes=31261613 time=3.906 nps=8.003 pv=\"wS1;bS1 wS1-;wQ -wS1\"",
	"done move=\"wQ -wS1\" ponder=\"bA1 wQ-\"",
	"error message=\"bad \"\"pos\"\" at C:\\x\"",
	"done move=\"bQ bS1\\\" ponder=\"wA1 \\wS1\"",
	"go x=\"unbalanced",
	"go x==y \"q\" =z",
	"info pv=\"a\\b;c\"\"d\" score=1e3",
};

/* Replays each file named on the command line, or the seeds above. */
int main(int argc, char **argv)
{
	if (argc < 2) {
		for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++)
			LLVMFuzzerTestOneInput((const uint8_t *)seeds[i], strlen(seeds[i]));
		printf("fuzz_hub: %zu seeds ok\n", sizeof seeds / sizeof *seeds);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (f == NULL) {
			perror(argv[i]);
			return 1;
		}
		size_t cap = 1 << 16, len = 0, got;
		uint8_t *buf = malloc(cap);
		while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
			len += got;
			if (len == cap) {
				uint8_t *bigger = realloc(buf, cap * 2);
				if (bigger == NULL) {
					free(buf);
					buf = NULL;
					break;
				}
				buf = bigger;
				cap *= 2;
			}
		}
		fclose(f);
		if (buf == NULL) {
			fprintf(stderr, "%s: out of memory\n", argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	printf("fuzz_hub: %d files ok\n", argc - 1);
	return 0;
}
#endif
