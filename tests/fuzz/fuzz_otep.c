/*
 * fuzz_otep.c: libFuzzer target for the OTEP codec. The first byte picks the sender
 * (host or engine), the rest is a line. Any input either fails with a reason, or
 * parses to a message whose rewrite parses to the same message and rewrites to the
 * same bytes. The error and status writers must carry any parsed text unchanged.
 *
 *   clang -DFUZZING_ENGINE -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_otep.c adapters/otep/otep_codec.c core/game.c core/board.c
 *   gcc -I. tests/fuzz/fuzz_otep.c adapters/otep/otep_codec.c core/game.c core/board.c   # replays files, or the seeds
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/otep/otep_codec.h"

#define FUZZ_LINE_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_otep: %s\n", what);
		abort();
	}
}

static int same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int same_msg(const struct otep_msg *a, const struct otep_msg *b)
{
	if (a->cmd != b->cmd || a->from != b->from || !same_str(a->text, b->text) ||
	    a->has_side != b->has_side || a->side != b->side || a->flag != b->flag ||
	    a->code != b->code || a->has_clock != b->has_clock ||
	    memcmp(&a->clock, &b->clock, sizeof a->clock) != 0 || a->number != b->number ||
	    a->seconds != b->seconds || a->nlines != b->nlines)
		return 0;
	for (size_t i = 0; i < a->nlines; i++) {
		if (a->lines[i].n != b->lines[i].n || a->lines[i].eval_cp != b->lines[i].eval_cp)
			return 0;
		for (size_t k = 0; k < a->lines[i].n; k++)
			if (strcmp(a->lines[i].moves[k], b->lines[i].moves[k]) != 0)
				return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[FUZZ_LINE_MAX * 2 + 64], line2[sizeof line];
	struct otep_msg m, again;
	char err[512];
	char why[128] = "rewrite failed";

	if (size == 0)
		return 0;
	enum otep_from from = data[0] & 1 ? OTEP_FROM_ENGINE : OTEP_FROM_HOST;
	data++;
	size--;
	if (otep_msg_parse_max((const char *)data, size, FUZZ_LINE_MAX, from, &m, err, sizeof err) == -1) {
		check(err[0] != '\0', "parse failed without a reason");
		check(m.buf == NULL && m.lines == NULL && m.items == NULL, "failed parse left a message");
		otep_msg_free(&m);
		return 0;
	}
	int n = otep_msg_format(&m, line, sizeof line, why, sizeof why);
	check(n >= 0, why);
	check(otep_msg_parse_max(line, (size_t)n, sizeof line, from, &again, err, sizeof err) == 0,
	      "rewrite does not parse");
	check(same_msg(&m, &again), "rewrite parses to another message");
	int n2 = otep_msg_format(&again, line2, sizeof line2, why, sizeof why);
	check(n2 == n && memcmp(line, line2, (size_t)n) == 0, "rewrite is not canonical");
	otep_msg_free(&again);
	/* the typed writers agree with the generic one */
	if (m.cmd == OTEP_ERROR) {
		check(otep_format_error(line2, sizeof line2, m.from, m.code, m.text) == n &&
		      memcmp(line, line2, (size_t)n) == 0, "otep_format_error differs");
	} else if (m.cmd == OTEP_STATUS) {
		check(otep_format_status(line2, sizeof line2, m.text) == n &&
		      memcmp(line, line2, (size_t)n) == 0, "otep_format_status differs");
	} else if (m.cmd == OTEP_MOVE && m.from == OTEP_FROM_ENGINE) {
		check(otep_format_move(line2, sizeof line2, m.text) == n, "otep_format_move differs");
	} else if (m.cmd == OTEP_OPPONENT_MOVE) {
		check(otep_format_opponent_move(line2, sizeof line2, m.lines[0].moves, m.lines[0].n,
						m.text) == n && memcmp(line, line2, (size_t)n) == 0,
		      "otep_format_opponent_move differs");
	} else if (m.cmd == OTEP_ANALYSIS) {
		check(otep_format_analysis(line2, sizeof line2, m.lines, m.nlines) == n &&
		      memcmp(line, line2, (size_t)n) == 0, "otep_format_analysis differs");
	}
	otep_msg_free(&m);
	return 0;
}

#ifndef FUZZING_ENGINE
/* First byte: 'h' the host sent it, 'e' the engine. */
static const char *const seeds[] = {
	"ehello",
	"esimple-moves off",
	"hrules Base+MLP",
	"erules",
	"hposition Base+MLP;InProgress;White[3];wS1;bS1_wS1-;wQ_-wS1;bQ_bS1-",
	"eposition",
	"hside black",
	"hclock 12000* 4000 30 2 3",
	"hclock 300000 295500",
	"eclock",
	"hanalyze 3 10",
	"eanalysis 2 wA1_\\wQ|bA1_\\bQ|wA1_bA1/ 0.48 wS2_\\wS1 -1.5",
	"hplay white",
	"emove bQ_bS1\\",
	"emove pass",
	"hmove Base;InProgress;Black[2];wS1;bS1_wS1-;wQ_-wS1",
	"hopponent-move bS1_wS1- Base+MLP;InProgress;White[2];wS1;bS1_wS1-",
	"hopponent-move - Base+MLP",
	"herror 2",
	"eerror -1 out of memory\r",
	"hfinish 3",
	"hgoodbye",
	"estatus depth 6 \"x\" a\rb",
	"hmove wQ -wS1",
	"eanalysis 1 wQ||bQ 0",
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
			char buf[256];
			snprintf(buf, sizeof buf, "%s", seeds[i]);
			buf[0] = buf[0] == 'e' ? 1 : 0;
			LLVMFuzzerTestOneInput((const uint8_t *)buf, strlen(seeds[i]));
		}
		printf("fuzz_otep: %zu seeds ok\n", sizeof seeds / sizeof *seeds);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (f == NULL) {
			perror(argv[i]);
			return 1;
		}
		static uint8_t buf[1 << 20];
		size_t len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("fuzz_otep: %d files ok\n", argc - 1);
	return 0;
}
#endif
