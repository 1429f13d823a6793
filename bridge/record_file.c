/*
 * record_file.c: a file of game records, read whole (at most HIVE_RECORD_MAX_BYTES)
 * and handed to the core's reader (see record_file.h).
 */
#include "bridge/record_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errbuf.h"

int record_file_read(const char *path, struct hive_record **v, size_t *n, char *err, size_t errlen)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	char why[512];

	*v = NULL;
	*n = 0;
	if (!f)
		return errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
	/* One byte past the cap tells a file too large from one just at it. */
	char *buf = malloc(HIVE_RECORD_MAX_BYTES + 1);
	size_t len = buf ? fread(buf, 1, HIVE_RECORD_MAX_BYTES + 1, f) : 0;
	int failed = buf == NULL || ferror(f);
	if (!is_stdin)
		fclose(f);
	if (failed) {
		free(buf);
		return errbuf_set(err, errlen, "%s: %s", path, buf ? "cannot be read" : "out of memory");
	}
	int rc = hive_records_read(buf, len, v, n, why, sizeof why);
	free(buf);
	if (rc != 0)
		return errbuf_set(err, errlen, "%s: %s", path, why);
	return 0;
}
