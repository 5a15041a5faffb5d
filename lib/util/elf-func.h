/* SPDX-License-Identifier: GPL-2.0 */
/* Function symbols of an open ELF by name and by address (.symtab, else .dynsym), for probe and annotate. */
#ifndef LUPE_UTIL_ELF_FUNC_H
#define LUPE_UTIL_ELF_FUNC_H

#include <gelf.h>

/* The function named name: its address and size. 0 or -ENOENT. */
int lupe_elf_find_func(Elf *elf, const char *name, GElf_Addr *addr, GElf_Xword *size);

/* The name of the function holding addr (its start in *start), or NULL. */
const char *lupe_elf_func_at(Elf *elf, GElf_Addr addr, GElf_Addr *start);

#endif
