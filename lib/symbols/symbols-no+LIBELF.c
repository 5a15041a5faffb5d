// SPDX-License-Identifier: GPL-2.0
/* Built without libelf: ELF DSOs have no symbols (kallsyms and perf maps still work). */
#include "symbols/symbols.h"
#include "util/util.h"

int lupe_elf_load_dso(struct lupe_dso *dso, const char *path)
{
	return -LUPE_ERR_NOT_SUPPORTED;
}

int lupe_elf_load_vdso(struct lupe_dso *dso)
{
	return -LUPE_ERR_NOT_SUPPORTED;
}

int lupe_elf_has_symtab(const char *path)
{
	return -LUPE_ERR_NOT_SUPPORTED;
}

int lupe_elf_plt_foreach(struct Elf *elf, int (*fn)(uint64_t addr, const char *name, void *arg), void *arg)
{
	return 0;
}
