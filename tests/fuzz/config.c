// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a perf config file (~/.perfconfig), parsed
 * by lupe_config_parse() with no NUL at the end, then every variable read
 * back, looked up and written out: the parser must stay inside the buffer
 * and keep what it accepted consistent.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/config.h>
#include "membound.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin();
	/* a copy of exactly size bytes: a read past the end is ASan's to see */
	char *text = malloc(size ? size : 1);
	struct lupe_config *c = lupe_config_new();
	const char *sec, *name, *val;
	int line = 0;
	FILE *null;

	if (!text || !c)
		goto out;
	memcpy(text, data, size);
	lupe_config_parse(c, text, size, &line);
	for (size_t i = 0; !lupe_config_item(c, i, &sec, &name, &val); i++) {
		char var[1100];

		snprintf(var, sizeof(var), "%s.%s", sec, name);
		if (!lupe_config_get(c, var))
			abort(); /* a listed variable must be found */
		lupe_config_bool(val);
	}
	if ((null = fopen("/dev/null", "w"))) {
		lupe_config_write(c, null);
		fclose(null);
	}
out:
	lupe_config_delete(c);
	free(text);
	fuzz_mem_end(base, size);
	return 0;
}
