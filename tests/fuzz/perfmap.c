// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a /tmp/perf-PID.map (a JIT's "START SIZE
 * NAME" lines), loaded as report loads the DSO of JIT code, then looked
 * up across the addresses its lines claim. The file is this process's own
 * (/tmp/perf-<our pid>.map, removed at exit). The memory bound is on the
 * input's size: nothing here is compressed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "session/machine.h"
#include "symbols/symbols.h"
#include "membound.h"

static char path[64];

static void unlink_map(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base;
	struct machine *m;
	struct lupe_dso *dso;
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
		atexit(unlink_map);
	}
	if (!(f = fopen(path, "w")))
		return 0;
	if (fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	base = fuzz_mem_begin();
	m = lupe_machine_new();
	dso = m ? lupe_machine_findnew_dso(m, path) : NULL;
	if (dso && !lupe_dso_load(dso)) {
		/* every symbol's start, end and one past it, and the low space */
		for (size_t i = 0; i < dso->nr_syms && i < 4096; i++) {
			const struct lupe_symbol *s = &dso->syms[i];

			lupe_dso_find_symbol(dso, s->start);
			lupe_dso_find_symbol(dso, s->end - 1);
			lupe_dso_find_symbol(dso, s->end);
		}
		for (uint64_t a = 0; a < 0x1000; a += 0x10)
			lupe_dso_find_symbol(dso, a);
	}
	lupe_machine_delete(m);
	fuzz_mem_end(base, size);
	return 0;
}
