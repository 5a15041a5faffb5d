// SPDX-License-Identifier: GPL-2.0
/*
 * What every lupe executable tells the user, and how: "lupe: " and the
 * message on stderr, the library's log messages the same way, argp's usage
 * errors exiting 129. The dispatcher (main.c) and the helpers it runs
 * (lupe-exporter) both start with cmd_setup().
 */
#include <argp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <lupe/core.h>
#include <lupe/session.h>
#include "builtin.h"

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "lupe: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void warn_lost(const struct lupe_session_stats *st, int chunks)
{
	if (chunks && st->nr_lost_records)
		warning("processed %llu events and lost %llu chunks: check IO/CPU overload (record with a larger -m or a lower -F)",
			(unsigned long long)st->nr_records, (unsigned long long)st->nr_lost_records);
	if (st->nr_lost_samples) {
		uint64_t all = st->nr_samples + st->nr_lost_samples;

		warning("processed %llu samples and lost %.2f%% of them",
			(unsigned long long)all, 100.0 * (double)st->nr_lost_samples / (double)all);
	}
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(EXIT_DIE);
}

/* The library's messages reach the user through here. */
static void lib_log(enum lupe_log_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[LUPE_LOG_ERROR] = "", [LUPE_LOG_WARN] = "warning: ",
		[LUPE_LOG_INFO] = "", [LUPE_LOG_DEBUG] = "debug: ",
	};

	vreport(prefix[level], fmt, ap);
}

void cmd_setup(void)
{
	argp_err_exit_status = EXIT_USAGE;
	lupe_log_set(lib_log);
}
