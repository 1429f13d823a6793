/*
 * fuzz_archive.c: libFuzzer target for what the web page reads of records
 * (bridge/http/http_records.c): the first byte picks POST /api/records' reader (the
 * record codec, then the games as JSON) or the [daemon] games archive's (its text
 * split into games, each read by the codec, the newest kept); the rest is the text.
 * What they hold must keep their bounds: at most ARCHIVE_KEEP games of at most
 * ARCHIVE_KEEP_BYTES together, every byte fed used or left for later, and an answer
 * or an error with its status.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/http/http_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	if (data[0] & 1) {
		int status = 0;
		char err[512] = "";
		cJSON *o = records_json(text, len, &status, err, sizeof err);
		if (!o && ((status != 422 && status != 500) || !err[0]))
			abort();
		if (o && cJSON_GetArraySize(cJSON_GetObjectItem(o, "games")) < 1)
			abort();
		cJSON_Delete(o);
		return 0;
	}
	struct archive *a = archive_new("fuzz.pgn");
	if (!a)
		return 0;
	/* Fed in two pieces, as a file that grew between two reads. */
	size_t cut = len ? data[0] % (len + 1) : 0;
	size_t used = archive_feed(a, text, cut, 0);
	if (used > cut)
		abort();
	used += archive_feed(a, text + used, len - used, (long long)used);
	size_t bytes;
	unsigned skipped;
	size_t n = archive_games(a, &bytes, &skipped);
	if (used > len || n > ARCHIVE_KEEP || bytes > ARCHIVE_KEEP_BYTES || bytes > len)
		abort();
	archive_free(a);
	return 0;
}
