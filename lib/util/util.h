/* SPDX-License-Identifier: GPL-2.0 */
/* Private helpers for liblupe: logging, the error convention, small strings. */
#ifndef LUPE_UTIL_H
#define LUPE_UTIL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <lupe/core.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

void lupe_log(enum lupe_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define pr_err(...)   lupe_log(LUPE_LOG_ERROR, __VA_ARGS__)
#define pr_warn(...)  lupe_log(LUPE_LOG_WARN, __VA_ARGS__)
#define pr_info(...)  lupe_log(LUPE_LOG_INFO, __VA_ARGS__)
#define pr_debug(...) lupe_log(LUPE_LOG_DEBUG, __VA_ARGS__)

/*
 * The one helper for the error convention: a pointer function that fails
 * with the negative error err returns err_ptr(err), which sets errno and
 * yields NULL; an int function that calls libc returns libc_err(ret).
 */
static inline void *err_ptr(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

static inline int libc_err(int ret)
{
	return ret < 0 ? -errno : ret;
}

/*
 * Set the calling thread's lupe_last_error() sentence (lowercase, no full
 * stop) and return err, so that a failing path reads
 * `return lupe_set_error(err, "cannot ...")`. Also logged at debug level.
 */
int lupe_set_error(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read a whole small file (sysfs, procfs) into buf, NUL-terminated, without
 * the final newline. Returns the length or a negative errno. */
int lupe_read_small_file(const char *path, char *buf, size_t size);

/* Read a whole file into a malloc'ed NUL-terminated buffer; *len gets its
 * length. Returns NULL and sets errno on failure. The caller frees it. */
char *lupe_read_whole_file(const char *path, size_t *len);

/*
 * A file that lupe maps whole and reads here and there (libdwfl's ELF and
 * DWARF mappings): lib/util/pages.c says why and what it costs.
 * lupe_file_mapped(): 1 when [p, p + len) lies in one mapping of a file
 * (an inode in /proc/self/maps), else 0 (the heap: an ELF image libelf
 * read into memory, whose pages must not be given back).
 * lupe_pages_fine(): cut such a mapping into pieces, so that a page fault
 * in it maps the kernel's fault-around window, not a whole large folio.
 * lupe_pages_give_back(): its pages unmapped (MADV_DONTNEED): a page read
 * again faults in from the page cache, the same bytes, as nothing writes
 * them (or, in a shared mapping, as they were written). Every page the
 * range touches goes, whole. Both only for a mapping of a file (a memfd's
 * too), not for anonymous memory, whose pages would come back zero.
 */
int lupe_file_mapped(const void *p, size_t len);
/* fn(lo, hi, arg) for each mapping of a file in /proc/self/maps, until it
 * returns non-zero: that value, 0 after the last, or a negative errno. */
int lupe_file_maps_each(int (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg);
void lupe_pages_fine(void *p, size_t len);
/* lupe_pages_fine() with pieces of piece bytes (a multiple of the page size) */
void lupe_pages_cut(void *p, size_t len, size_t piece);
void lupe_pages_give_back(void *p, size_t len);
/*
 * For a file mapping read from its start: base[*given, upto) given back
 * once it is step bytes or more, upto cut to a page; *given follows.
 */
void lupe_pages_give_back_behind(const void *base, size_t *given, size_t upto, size_t step);

/*
 * Grow the array *v (room for *cap items of size sz) to hold n items: the
 * room doubles, from 64, so that appending one at a time costs amortised
 * O(1). v is the address of the array pointer. 0, or -ENOMEM with *v and
 * *cap as they were.
 */
int lupe_grow(void *v, size_t *cap, size_t n, size_t sz);

/*
 * fn(n, arg) for each entry of the directory path whose name is prefix
 * then a digit, n the number there ("node1" with prefix "node"; a pid in
 * /proc with prefix ""), in readdir order, until fn returns non-zero:
 * that is returned, else 0. -errno when path cannot be opened.
 */
int lupe_dir_foreach_num(const char *path, const char *prefix, int (*fn)(int n, void *arg),
			 void *arg);

/*
 * A --sort list: each word of list (cut at any of seps) as its index in
 * names[nr_names], into keys (room for max). The number of keys, -ENOMEM,
 * or -EINVAL after logging "unknown sort key 'WORD' (hint)" for a word not
 * in names or past max.
 */
int lupe_parse_sort_keys(const char *list, const char *seps, const char *const *names,
			 size_t nr_names, int *keys, int max, const char *hint);

/*
 * Whether word is an item of a comma-separated list, as perf's --comms,
 * --dsos, --symbols take them; a NULL list holds everything. _id: the
 * decimal id (--pid, --tid lists).
 */
int lupe_list_has(const char *list, const char *word);
int lupe_list_has_id(const char *list, int id);

/*
 * The one reader of a caller's opts struct (libbpf's OPTS_VALID and OPTS_GET
 * in one step): check it, then copy the caller's first sz bytes into dst, a
 * struct of this build's size whose other fields are zero (their defaults),
 * and set dst's sz to this build's size. The library then reads dst only,
 * never the caller's memory, so a caller built against an older, shorter
 * struct is neither read past nor refused. src NULL: dst all defaults.
 * 0, or -EINVAL when sz is smaller than the size field or a byte past what
 * this build knows is non-zero (a newer caller's option would be ignored).
 */
static inline int lupe_opts_copy(void *dst, size_t size, const void *src)
{
	const unsigned char *p = src;
	size_t sz;

	memset(dst, 0, size);
	if (src) {
		memcpy(&sz, src, sizeof(sz));
		if (sz < sizeof(size_t))
			return -EINVAL;
		for (size_t i = size; i < sz; i++)
			if (p[i])
				return -EINVAL;
		memcpy(dst, src, sz < size ? sz : size);
	}
	memcpy(dst, &size, sizeof(size));
	return 0;
}

/* lupe_opts_copy() into *dst, whose type says this build's size. */
#define lupe_opts_load(dst, src) lupe_opts_copy((dst), sizeof(*(dst)), (src))

#endif
