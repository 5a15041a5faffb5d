// SPDX-License-Identifier: GPL-2.0
/* Without libdw (and its libelf) no binary's symbols can be read: --funcs is not supported. */
#include <stddef.h>
#include <lupe/probe.h>
#include "probe/probe-internal.h"

int lupe_probe_symbol_names(const char *path, char ***names, size_t *nr)
{
	(void)path;
	*names = NULL;
	*nr = 0;
	return -LUPE_ERR_NOT_SUPPORTED;
}
