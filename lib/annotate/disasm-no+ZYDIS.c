// SPDX-License-Identifier: GPL-2.0
/* Without Zydis there is no disassembler: annotate says so (lupe runs no objdump). */
#include <string.h>
#include <lupe/annotate.h>

int lupe_disasm(const char *path, const char *name, uint64_t start, uint64_t end,
		unsigned int flags, struct lupe_listing *out)
{
	memset(out, 0, sizeof(*out));
	return -LUPE_ERR_NOT_SUPPORTED;
}
