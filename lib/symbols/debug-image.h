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
 */
int lupe_debug_image(int fd);

#endif
