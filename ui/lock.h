/* SPDX-License-Identifier: GPL-2.0 */
/* lupe lock's tables: perf 6.1's `lock report` and `lock contention` output. */
#ifndef LUPE_UI_LOCK_H
#define LUPE_UI_LOCK_H

#include <stdbool.h>
#include <stdio.h>
#include <lupe/lock.h>

struct lock_print_opts {
	FILE *out;
	bool quiet;           /* -q: no header, no debug counts */
	bool threads;         /* -t: pid and comm columns */
	int entries;          /* -E: at most this many rows (0: all) */
	int verbose;
};

/* perf lock contention's table of the sorted entries v[0..nr). */
void lock_print_contention(const struct lock_print_opts *o, struct lupe_lock_stat **v, size_t nr,
			   const struct lupe_lock *l);
/* perf lock report's table. */
void lock_print_report(const struct lock_print_opts *o, struct lupe_lock_stat **v, size_t nr,
		       const struct lupe_lock *l);

#endif
