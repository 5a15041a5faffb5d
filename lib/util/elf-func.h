/* SPDX-License-Identifier: GPL-2.0 */
/* Function symbols of an open ELF by name and by address (.symtab, else .dynsym), for probe and annotate. */
#ifndef LUPE_UTIL_ELF_FUNC_H
#define LUPE_UTIL_ELF_FUNC_H

#include <gelf.h>

/*
 * Open path read-only as an ELF file (mapped, ELF_C_READ_MMAP): the Elf,
 * and its file in *fd; the caller ends one (elf_end) and closes the other.
 * NULL with errno set: open's errno, or LUPE_ERR_FORMAT when the file is
 * not ELF, LUPE_ERR_NOT_SUPPORTED when libelf is not usable.
 */
Elf *lupe_elf_open(const char *path, int *fd);

/* End what lupe_elf_open opened: the Elf, then its file. elf NULL: nothing. */
void lupe_elf_close(Elf *elf, int fd);

/* The function named name: its address and size. 0 or -ENOENT. */
int lupe_elf_find_func(Elf *elf, const char *name, GElf_Addr *addr, GElf_Xword *size);

/* The name of the function holding addr (its start in *start), or NULL. */
const char *lupe_elf_func_at(Elf *elf, GElf_Addr addr, GElf_Addr *start);

#endif
