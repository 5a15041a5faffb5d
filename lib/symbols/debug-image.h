/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A debug file's compressed DWARF, decompressed before libdw sees it:
 * libdw inflates every compressed .debug_* section when it opens a file
 * (dwarf_begin_elf), one after the other, location lists included, which
 * no line or inline lookup reads. For a dwarf report of a libc program
 * that was half of lupe's instructions (libc's 4 MB debug file, 8.6 MB
 * inflated without its location lists).
 */
#ifndef LUPE_SYMBOLS_DEBUG_IMAGE_H
#define LUPE_SYMBOLS_DEBUG_IMAGE_H

/*
 * Given fd on an ELF file (taken: closed when replaced), an fd on an
 * in-memory copy whose zlib-compressed .debug_* sections are inflated (on
 * the machine's CPUs, up to four threads) and whose location lists (.debug_loc,
 * .debug_loclists) are dropped: an image for line and inline lookups only.
 * fd itself when there is nothing to inflate or anything fails (a negative
 * fd is returned as is): the caller then reads the file as it is.
 *
 * Images are cached by the file's build-id (and a hash of its section
 * headers) in DIR/.lupe-image/ of the build-id cache's folder, or in
 * $LUPE_IMAGE_CACHE (set empty: no cache): the first read inflates and
 * writes the image (whole, under a temporary name, never through a link or
 * into a device), later reads return an fd on the cached file, checked
 * whole first (size, key, CRC-32) and inflated again when damaged. libc's
 * image (12 MB) costs about 100 M instructions to inflate and 2 ms to check.
 */
int lupe_debug_image(int fd);

#endif
