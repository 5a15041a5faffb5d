// SPDX-License-Identifier: GPL-2.0
/* Without libelf there are no symbols to probe. */
#include <string.h>
#include "func/func.h"
#include "util/util.h"

int lupe_func_elf_info(const char *path, struct func_elf *info)
{
	memset(info, 0, sizeof(*info));
	return -LUPE_ERR_NOT_SUPPORTED;
}
