/*
 * fuzz_ratings.c: libFuzzer target for the results files `hivebridge ratings` reads
 * (any file named on its command line). The input is the file: each line (split as
 * getline does) goes through ratings_line_parse. An accepted line (1) gives two
 * different names of at most RATINGS_NAME_MAX bytes without a control byte (they
 * reach the terminal) and a score of 0, 1/2 or 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/ratings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int clean(const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return n > 0 && n <= RATINGS_NAME_MAX;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char white[RATINGS_NAME_MAX + 1], black[RATINGS_NAME_MAX + 1];
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		/* A copy of exactly the line: reading past it is the sanitizer's to see. */
		char *line = malloc(n ? n : 1), err[160];
		double score = -1;
		if (!line)
			return 0;
		memcpy(line, p, n);
		if (ratings_line_parse(line, n, white, black, &score, err, sizeof err) == 1 &&
		    (!clean(white) || !clean(black) || !strcmp(white, black) ||
		     !(score == 0 || score == 0.5 || score == 1))) {
			fprintf(stderr, "fuzz_ratings: \"%s\" - \"%s\" %g accepted\n", white, black, score);
			abort();
		}
		free(line);
		p += n;
	}
	return 0;
}
