// SPDX-License-Identifier: GPL-2.0
/* Raw deflate with libdeflate (see inflate.h). */
#include <libdeflate.h>
#include "symbols/inflate.h"

int lupe_inflate_raw(const unsigned char *src, size_t len, unsigned char *dst, size_t dst_len)
{
	/* one per call: about 10 KB, and a debug file has a dozen sections */
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	size_t out = 0;
	enum libdeflate_result rc;

	if (!d)
		return -1;
	rc = libdeflate_deflate_decompress(d, src, len, dst, dst_len, &out);
	libdeflate_free_decompressor(d);
	return rc == LIBDEFLATE_SUCCESS && out == dst_len ? 0 : -1;
}

int lupe_crc32(const void *p, size_t len, uint32_t *crc)
{
	*crc = libdeflate_crc32(*crc, p, len);
	return 0;
}
