// SPDX-License-Identifier: GPL-2.0
/* Built without libzstd: -z is refused with a reason. */
#include "data/writer.h"
#include "util/util.h"

struct zstd_frame_ctx *lupe_zstd_frame_new(int level)
{
	return err_ptr(-ENOTSUP);
}

long lupe_zstd_frame_compress(struct zstd_frame_ctx *z, void *dst, size_t dst_size,
			 const void *src, size_t len)
{
	return -ENOTSUP;
}

size_t lupe_zstd_frame_bound(size_t len)
{
	return len;
}

void lupe_zstd_frame_delete(struct zstd_frame_ctx *z)
{
}
