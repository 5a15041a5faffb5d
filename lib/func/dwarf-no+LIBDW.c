// SPDX-License-Identifier: GPL-2.0
/* Without libdw there is no line table: source ranges cannot be counted. */
#include "func/func.h"
#include "util/util.h"

int lupe_func_dwarf_range(const char *path, const char *file, int lo, int hi,
			  uint64_t *entry, uint64_t *exit)
{
	return -ENODATA;
}

int lupe_func_dwarf_inline_only(const char *path, const char *name, char *hint, size_t size)
{
	return 0;
}
