// SPDX-License-Identifier: GPL-2.0
/* Built without zstd: COMPRESSED records cannot be read. */
#include <stdlib.h>
#include "data/reader.h"
#include "util/util.h"

struct decomp *lupe_decomp_new(void)
{
	return calloc(1, 1);
}

void lupe_decomp_delete(struct decomp *d)
{
	free(d);
}

void lupe_decomp_feed(struct decomp *d, const void *src, size_t n)
{
}

int lupe_decomp_run(struct decomp *d, struct rbuf *out, size_t max)
{
	return -LUPE_ERR_NOT_SUPPORTED;
}
