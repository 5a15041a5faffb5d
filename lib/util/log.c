// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

static lupe_log_fn log_fn;
static enum lupe_log_level log_level = LUPE_LOG_WARN;

lupe_log_fn lupe_log_set(lupe_log_fn fn)
{
	lupe_log_fn old = log_fn;

	log_fn = fn;
	return old;
}

void lupe_log_set_level(enum lupe_log_level level)
{
	log_level = level;
}

void lupe_log(enum lupe_log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!log_fn || level > log_level)
		return;
	va_start(ap, fmt);
	log_fn(level, fmt, ap);
	va_end(ap);
}

static const char *const lupe_errors[] = {
	[LUPE_ERR_FORMAT - LUPE_ERR_BASE] = "not in the expected format",
	[LUPE_ERR_TRUNCATED - LUPE_ERR_BASE] = "file is truncated",
	[LUPE_ERR_CORRUPT - LUPE_ERR_BASE] = "file is corrupt",
	[LUPE_ERR_PARSE - LUPE_ERR_BASE] = "event syntax error",
	[LUPE_ERR_NOT_SUPPORTED - LUPE_ERR_BASE] = "not supported on this machine",
	[LUPE_ERR_NO_TRACEFS - LUPE_ERR_BASE] = "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)",
	[LUPE_ERR_FILTER - LUPE_ERR_BASE] = "the kernel refused the filter",
};

const char *lupe_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= LUPE_ERR_BASE && err < LUPE_ERR_MAX)
		return lupe_errors[err - LUPE_ERR_BASE];
	return strerror(err);
}

/*
 * One pointer per thread, initial-exec: no __tls_get_addr (and no NEEDED
 * ld.so) in the static binary, and 8 bytes of static TLS in liblupe.so.
 * The sentence's buffer is allocated at a thread's first error.
 * NEEDSWORK: it is not freed when the thread exits (512 bytes per thread
 * that ever failed); a pthread key with a destructor would free it.
 */
#define LAST_ERROR_SIZE 512
static __thread char *last_error __attribute__((tls_model("initial-exec")));

int lupe_set_error(int err, const char *fmt, ...)
{
	va_list ap;

	if (!last_error && !(last_error = malloc(LAST_ERROR_SIZE)))
		return err;
	va_start(ap, fmt);
	vsnprintf(last_error, LAST_ERROR_SIZE, fmt, ap);
	va_end(ap);
	pr_debug("%s", last_error);
	return err;
}

const char *lupe_last_error(void)
{
	return last_error ? last_error : "";
}
