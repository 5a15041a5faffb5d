/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cache of what parsing a kallsyms file gave (its symbol table, as
 * symbols.c lays it out), keyed by the file: the copy of the recorded
 * kernel's kallsyms that perf keeps in the build-id cache never changes,
 * and parsing its 122,000 lines took 13 ms of CPU in every report of a
 * file with kernel samples, on the thread that maps the data ahead of the
 * reader. The bytes are the caller's; this file names, checks, reads and
 * writes them.
 */
#ifndef LUPE_SYMBOLS_KALLSYMS_INDEX_H
#define LUPE_SYMBOLS_KALLSYMS_INDEX_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * The index stored for the kallsyms file at path (st: its stat), checked
 * (the file's size, times and inode, the bytes' checksum): a malloc'd
 * copy of them, their length in *len; NULL when there is none, it is
 * damaged, or the cache is off (LUPE_KALLSYMS_CACHE set empty).
 */
void *lupe_kallsyms_index_read(const char *path, const struct stat *st, size_t *len);

/*
 * Store p (len bytes) as the index of the kallsyms file at path: written
 * whole under a temporary name and renamed, never through a link. Failing
 * is not an error: the next read parses the file again.
 */
void lupe_kallsyms_index_write(const char *path, const struct stat *st, const void *p, size_t len);

#endif
