// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a binary whose symbols a profile needs
 * (the ELF symbol tables, .plt, build-id notes, program headers, a
 * .gnu_debuglink), loaded as report loads a DSO, then looked up.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "session/machine.h"
#include "symbols/symbols.h"
#include "membound.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin();
	struct machine *m;
	struct lupe_dso *dso;
	char path[64];
	int fd = memfd_create("fuzz-elf", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size)
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	m = lupe_machine_new();
	dso = m ? lupe_machine_findnew_dso(m, path) : NULL;
	if (dso && !lupe_elf_load_dso(dso, path)) {
		/* lookups across the space the symbols claim */
		for (uint64_t a = 0; a < 0x10000; a += 0x40)
			lupe_dso_find_symbol(dso, lupe_dso_addr_to_vaddr(dso, a));
	}
	lupe_machine_delete(m);
out:
	close(fd);
	fuzz_mem_end(base, size);
	return 0;
}
