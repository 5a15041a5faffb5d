// SPDX-License-Identifier: GPL-2.0
/* Build-ids from raw ELF notes: the kernel publishes its own in sysfs. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/build-id.h"
#include "util/util.h"

int lupe_build_id_from_notes(const void *notes, size_t len, uint8_t *id)
{
	const char *p = notes, *end = p + len;

	/* Elf32_Nhdr and Elf64_Nhdr have the same layout: three u32. */
	while (p + sizeof(Elf64_Nhdr) <= end) {
		const Elf64_Nhdr *n = (const void *)p;
		size_t namesz = (n->n_namesz + 3) & ~3u, descsz = (n->n_descsz + 3) & ~3u;
		const char *name = p + sizeof(*n), *desc = name + namesz;

		if (desc + descsz > end)
			break;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
			int sz = n->n_descsz > BUILD_ID_MAX ? BUILD_ID_MAX : (int)n->n_descsz;

			memcpy(id, desc, sz);
			return sz;
		}
		p = desc + descsz;
	}
	return -ENOENT;
}

int lupe_build_id_kernel(uint8_t *id)
{
	size_t len;
	char *notes = lupe_read_whole_file("/sys/kernel/notes", &len);
	int ret;

	if (!notes)
		return -errno;
	ret = lupe_build_id_from_notes(notes, len, id);
	free(notes);
	return ret;
}

void lupe_build_id_hex(const uint8_t *id, int len, char *out)
{
	for (int i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * (len > 0 ? len : 0)] = '\0';
}
