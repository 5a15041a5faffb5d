// SPDX-License-Identifier: GPL-2.0
/* One zstd frame per batch of records, as PERF_RECORD_COMPRESSED carries them. */
#include <stdlib.h>
#include <zstd.h>
#include "data/writer.h"
#include "util/util.h"

struct zstd_frame_ctx {
	ZSTD_CCtx *cctx;
};

struct zstd_frame_ctx *lupe_zstd_frame_new(int level)
{
	struct zstd_frame_ctx *z = calloc(1, sizeof(*z));

	if (!z)
		return err_ptr(-ENOMEM);
	z->cctx = ZSTD_createCCtx();
	if (!z->cctx || ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, level))) {
		ZSTD_freeCCtx(z->cctx);
		free(z);
		return err_ptr(-EINVAL);
	}
	return z;
}

long lupe_zstd_frame_compress(struct zstd_frame_ctx *z, void *dst, size_t dst_size,
			 const void *src, size_t len)
{
	size_t n = ZSTD_compress2(z->cctx, dst, dst_size, src, len);

	if (ZSTD_isError(n)) {
		pr_debug("zstd: %s", ZSTD_getErrorName(n));
		return -EIO;
	}
	return (long)n;
}

size_t lupe_zstd_frame_bound(size_t len)
{
	return ZSTD_compressBound(len);
}

void lupe_zstd_frame_delete(struct zstd_frame_ctx *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	free(z);
}
