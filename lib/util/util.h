/* SPDX-License-Identifier: GPL-2.0 */
/* Private helpers for liblupe: logging, the error convention, small strings. */
#ifndef LUPE_UTIL_H
#define LUPE_UTIL_H

#include <errno.h>
#include <stddef.h>
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
 * Whether word is an item of a comma-separated list, as perf's --comms,
 * --dsos, --symbols take them; a NULL list holds everything. _id: the
 * decimal id (--pid, --tid lists).
 */
int lupe_list_has(const char *list, const char *word);
int lupe_list_has_id(const char *list, int id);

/*
 * An opts struct whose first field is its size (sz), checked as libbpf's
 * OPTS_VALID does: at least the size field, and any bytes past what this
 * build knows (known) must be zero, so that a newer caller's options are
 * not silently ignored.
 */
static inline int lupe_opts_valid(const void *opts, size_t sz, size_t known)
{
	if (sz < sizeof(size_t))
		return 0;
	for (size_t i = known; i < sz; i++)
		if (((const unsigned char *)opts)[i])
			return 0;
	return 1;
}

#endif
