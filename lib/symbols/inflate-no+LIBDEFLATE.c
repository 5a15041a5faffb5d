// SPDX-License-Identifier: GPL-2.0
/* Without libdeflate: the debug image inflates with zlib (see inflate.h). */
#include <errno.h>
#include "symbols/inflate.h"

int lupe_inflate_raw(const unsigned char *src, size_t len, unsigned char *dst, size_t dst_len)
{
	(void)src;
	(void)len;
	(void)dst;
	(void)dst_len;
	return -ENOSYS;
}

int lupe_crc32(const void *p, size_t len, uint32_t *crc)
{
	(void)p;
	(void)len;
	(void)crc;
	return -ENOSYS;
}
