/*
 * fuzz_config.c: libFuzzer target for the INI configuration. The input is written
 * to a temporary file and loaded over the embedded defaults with config_load, as
 * `--config FILE` does; a load either succeeds or gives a cause, and frees cleanly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bridge/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/fuzz_config.%d", (int)getpid());
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);

	struct config c;
	char cause[512] = "";
	config_defaults(&c);
	if (config_load(&c, path, cause, sizeof cause) < 0) {
		if (!cause[0])
			abort();        /* a failure always says why */
	}
	config_free(&c);
	unlink(path);
	return 0;
}
