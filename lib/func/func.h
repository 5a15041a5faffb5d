/* SPDX-License-Identifier: GPL-2.0 */
/* Private to lib/func: what the ELF and DWARF readers tell the resolver. */
#ifndef LUPE_FUNC_PRIV_H
#define LUPE_FUNC_PRIV_H

#include <stddef.h>
#include <stdint.h>

/* Whether an ELF file can name its functions: .symtab or a debuglink. */
struct func_elf {
	int has_symtab;
	int has_debuglink;
	uint64_t xlo[8], xhi[8]; /* executable PT_LOAD vaddr ranges */
	int nr_x;
};

/* Fill *info for path. Returns 0 or a negative errno. */
int lupe_func_elf_info(const char *path, struct func_elf *info);

/*
 * The vaddrs where lines lo..hi of the source file whose name ends in file
 * begin (*entry) and are left (*exit), from path's DWARF line table.
 * Returns 0, -ENOENT (no such lines), -ENODATA (no DWARF) or another error.
 */
int lupe_func_dwarf_range(const char *path, const char *file, int lo, int hi,
			  uint64_t *entry, uint64_t *exit);

/*
 * Whether path's DWARF has function name only inlined (no code of its own):
 * returns 1 with a source range "file.c:12-20" covering its body in hint,
 * 0 if not, or a negative errno.
 */
int lupe_func_dwarf_inline_only(const char *path, const char *name, char *hint, size_t size);

#endif
