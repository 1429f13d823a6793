/*
 * fuzz_results.c: libFuzzer target for the results file `hivebridge match --resume`
 * reads back. The input is the file: each line (split as getline does, its newline
 * kept) goes through match_result_parse. An accepted line gives a game number in
 * 1..MATCH_MAX_GAMES (an index into the match's table of games) and a score of 0, 1/2 or 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/match_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		/* A copy of exactly the line: reading past it is the sanitizer's to see. */
		char *line = malloc(n ? n : 1);
		unsigned game = 0;
		double score = -1;
		if (!line)
			return 0;
		memcpy(line, p, n);
		if (match_result_parse(line, n, &game, &score) == 0 &&
		    (game < 1 || game > MATCH_MAX_GAMES || !(score == 0 || score == 0.5 || score == 1))) {
			fprintf(stderr, "fuzz_results: game %u, score %g accepted\n", game, score);
			abort();
		}
		free(line);
		p += n;
	}
	return 0;
}
