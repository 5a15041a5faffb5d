// SPDX-License-Identifier: GPL-2.0
/*
 * Build-ids from raw ELF notes: the kernel publishes its own in sysfs, and
 * the vdso's sit in its image in our own memory.
 */
#include <elf.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/build-id.h"
#include "util/util.h"

int lupe_build_id_from_notes(const void *notes, size_t len, uint8_t *id)
{
	const char *p = notes;
	size_t at = 0;

	/*
	 * Elf32_Nhdr and Elf64_Nhdr have the same layout: three u32. Read by
	 * copy and walked by offset: the notes of a hostile file (a debug
	 * file's section at any offset) need not be aligned, and their sizes
	 * may point past anything.
	 */
	while (len - at >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr n;
		size_t namesz, descsz, name, desc;

		memcpy(&n, p + at, sizeof(n));
		namesz = ((size_t)n.n_namesz + 3) & ~(size_t)3;
		descsz = ((size_t)n.n_descsz + 3) & ~(size_t)3;
		name = at + sizeof(n);
		if (namesz > len - name || descsz > len - name - namesz)
			break;
		desc = name + namesz;
		if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 && !memcmp(p + name, "GNU", 4)) {
			int sz = n.n_descsz > BUILD_ID_MAX ? BUILD_ID_MAX : (int)n.n_descsz;

			memcpy(id, p + desc, sz);
			return sz;
		}
		at = desc + descsz;
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

int lupe_vdso_image(const void **image, size_t *size)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR), lo, hi;
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];

	*size = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == base)
			*size = hi - lo;
	fclose(f);
	*image = (const void *)base;
	return base && *size ? 0 : -ENOENT;
}

int lupe_build_id_vdso(uint8_t *id)
{
	const unsigned char *img;
	const Elf64_Ehdr *eh;
	size_t size;
	int err = lupe_vdso_image((const void **)&img, &size);

	if (err)
		return err;
	eh = (const void *)img;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > size)
		return -ENOENT;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(img + eh->e_phoff + i * sizeof(Elf64_Phdr));

		/* the image is the file: offsets are offsets into it */
		if (ph->p_type == PT_NOTE && ph->p_offset + ph->p_filesz <= size &&
		    (err = lupe_build_id_from_notes(img + ph->p_offset, ph->p_filesz, id)) > 0)
			return err;
	}
	return -ENOENT;
}

void lupe_build_id_hex(const uint8_t *id, int len, char *out)
{
	for (int i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * (len > 0 ? len : 0)] = '\0';
}
