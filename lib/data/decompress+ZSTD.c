// SPDX-License-Identifier: GPL-2.0
/* COMPRESSED records: one zstd stream per file, decoded record by record. */
#include <stdlib.h>
#include <zstd.h>
#include "data/reader.h"
#include "util/util.h"

struct decomp {
	ZSTD_DStream *ds;
};

struct decomp *lupe_decomp_new(void)
{
	struct decomp *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->ds = ZSTD_createDStream();
	if (!d->ds || ZSTD_isError(ZSTD_initDStream(d->ds))) {
		lupe_decomp_delete(d);
		return err_ptr(-ENOMEM);
	}
	return d;
}

void lupe_decomp_delete(struct decomp *d)
{
	if (!d)
		return;
	ZSTD_freeDStream(d->ds);
	free(d);
}

int lupe_decomp_run(struct decomp *d, const void *src, size_t n, struct rbuf *out)
{
	ZSTD_inBuffer in = { src, n, 0 };

	while (in.pos < in.size) {
		ZSTD_outBuffer o;
		size_t ret;

		if (lupe_rbuf_reserve(out, 256 * 1024))
			return -ENOMEM;
		o = (ZSTD_outBuffer){ out->p + out->len, out->cap - out->len, 0 };
		ret = ZSTD_decompressStream(d->ds, &o, &in);
		out->len += o.pos;
		if (ZSTD_isError(ret)) {
			pr_debug("zstd: %s", ZSTD_getErrorName(ret));
			/* A broken frame leaves the stream unusable: start over. */
			ZSTD_initDStream(d->ds);
			return -LUPE_ERR_CORRUPT;
		}
		if (!o.pos && in.pos < in.size && o.size)
			continue;
	}
	return 0;
}
