// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF facts the function resolver needs beyond the symbol table that
 * lib/symbols loads: which segments hold code (a data object is no
 * function to probe), and whether a file without .symtab has a debuglink.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>
#include "func/func.h"
#include "util/elf-func.h"
#include "util/util.h"

int lupe_func_elf_info(const char *path, struct func_elf *info)
{
	size_t n, shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	memset(info, 0, sizeof(*info));
	elf = lupe_elf_open(path, &fd);
	if (!elf)
		return -errno;
	if (!elf_getphdrnum(elf, &n)) {
		for (size_t i = 0; i < n && info->nr_x < (int)ARRAY_SIZE(info->xlo); i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
				continue;
			info->xlo[info->nr_x] = ph.p_vaddr;
			info->xhi[info->nr_x++] = ph.p_vaddr + ph.p_memsz;
		}
	}
	if (!elf_getshdrstrndx(elf, &shstrndx)) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh))
				continue;
			if (sh.sh_type == SHT_SYMTAB)
				info->has_symtab = 1;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			if (name && !strcmp(name, ".gnu_debuglink"))
				info->has_debuglink = 1;
		}
	}
	lupe_elf_close(elf, fd);
	return 0;
}
