// SPDX-License-Identifier: GPL-2.0
/* Built without libdw: no build-ids from ELF files. */
#include "symbols/build-id.h"
#include "util/util.h"

int lupe_build_id_read(const char *path, uint8_t *id)
{
	return -ENOTSUP;
}
