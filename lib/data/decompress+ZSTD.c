// SPDX-License-Identifier: GPL-2.0
/*
 * COMPRESSED records: one zstd stream per file, inflated a slice at a time
 * as the reader consumes records. A record of 64 KiB can claim gigabytes;
 * inflating it whole (as a first version did) let a 37 KB file take 1 GiB
 * of memory. Memory is now the slice, the record straddling two slices and
 * zstd's window, which is capped.
 */
#include <stdlib.h>
#include <zstd.h>
#include "data/reader.h"
#include "util/util.h"

/*
 * perf and lupe write one frame of at most an mmap buffer per record, so
 * their windows are small; 32 MiB leaves room for perf record -m and high
 * levels while a frame header cannot make zstd allocate 2 GiB.
 */
#define WINDOW_LOG_MAX 25

struct decomp {
	ZSTD_DStream *ds;
	ZSTD_inBuffer in;
};

struct decomp *lupe_decomp_new(void)
{
	struct decomp *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->ds = ZSTD_createDStream();
	if (!d->ds || ZSTD_isError(ZSTD_initDStream(d->ds)) ||
	    ZSTD_isError(ZSTD_DCtx_setParameter(d->ds, ZSTD_d_windowLogMax, WINDOW_LOG_MAX))) {
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

void lupe_decomp_feed(struct decomp *d, const void *src, size_t n)
{
	d->in = (ZSTD_inBuffer){ src, n, 0 };
}

int lupe_decomp_run(struct decomp *d, struct rbuf *out, size_t max)
{
	ZSTD_outBuffer o;

	if (lupe_rbuf_reserve(out, max))
		return -ENOMEM;
	o = (ZSTD_outBuffer){ out->p + out->len, max, 0 };
	/* zstd holds input it took in but has not put out yet: call until it stalls */
	while (o.pos < o.size) {
		size_t in_was = d->in.pos, out_was = o.pos;
		size_t ret = ZSTD_decompressStream(d->ds, &o, &d->in);

		if (ZSTD_isError(ret)) {
			pr_debug("zstd: %s", ZSTD_getErrorName(ret));
			/* A broken frame leaves the stream unusable: start over. */
			ZSTD_initDStream(d->ds);
			d->in.pos = d->in.size;
			return -LUPE_ERR_CORRUPT;
		}
		if (d->in.pos == in_was && o.pos == out_was)
			break;
	}
	out->len += o.pos;
	return o.pos > 0;
}
