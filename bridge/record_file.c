/*
 * record_file.c: a file of game records, read whole (at most HIVE_RECORD_MAX_BYTES)
 * and handed to the core's reader (see record_file.h).
 */
#include "bridge/record_file.h"

#include <stdlib.h>

#include "bridge/util.h"
#include "core/errbuf.h"

int record_file_read(const char *path, struct hive_record **v, size_t *n, char *err, size_t errlen)
{
	char why[512];
	size_t len;

	*v = NULL;
	*n = 0;
	char *buf = util_read_file(path, HIVE_RECORD_MAX_BYTES, &len, why, sizeof why);
	if (!buf)
		return errbuf_set(err, errlen, "%s: %s", path, why);
	int rc = hive_records_read(buf, len, v, n, why, sizeof why);
	free(buf);
	if (rc != 0)
		return errbuf_set(err, errlen, "%s: %s", path, why);
	return 0;
}
