/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole-buffer raw deflate for the debug image (debug-image.h), when the
 * output's size is known: libdeflate inflates libc's .debug_info (2.3 MB
 * to 5.8 MB) in about half of zlib's time here (28 ms against 50 ms), and
 * that section is the longest job of a dwarf report's first lookup in libc.
 */
#ifndef LUPE_SYMBOLS_INFLATE_H
#define LUPE_SYMBOLS_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Inflate the raw deflate stream src[0..len) into dst: 0 when it gives
 * exactly dst_len bytes, -1 when it does not (damaged or short data),
 * -ENOSYS when lupe was built without libdeflate (the caller uses zlib).
 */
int lupe_inflate_raw(const unsigned char *src, size_t len, unsigned char *dst, size_t dst_len);

/*
 * *crc (0 to start) carried on over p[0..len): the CRC-32 (libdeflate's,
 * several GB/s), for the cached images' check: 0, or -ENOSYS without
 * libdeflate (*crc untouched: the caller uses zlib's crc32, the same sum).
 */
int lupe_crc32(const void *p, size_t len, uint32_t *crc);

#endif
