/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat's lines from the counts lib/counting scaled and averaged
 * (struct lupe_counts_runs): the metrics of each counter, printed the way
 * perf does.
 */
#ifndef LUPE_UI_STAT_DISPLAY_H
#define LUPE_UI_STAT_DISPLAY_H

#include <sys/types.h>
#include <lupe/counts.h>
#include <lupe/evlist.h>
#include "stat-print.h"

struct stat_display {
	struct stat_print *print;
	struct lupe_evlist *evlist;
	enum lupe_aggr mode;
	const struct lupe_counts_runs *accum; /* the scaled values, over runs or of one interval */
	const char *prefix;        /* the -I timestamp column, or NULL */
	const char *counter_prefix; /* --metric-only: printed before each counter's metrics, or NULL */
	double walltime_ns;        /* what "CPUs utilized" divides by */
	const char *const *comms;  /* --per-thread: the command of each thread */
	const int *merge_into;     /* an event merged into another prints no line; NULL: none */
	const char *const *names;  /* a name to print instead of the event's, or NULL; NULL: none */
	int skip_zero;             /* --per-thread -a: no line for a thread that counted 0 */
	/*
	 * stat report -I: the clock the rates divide by is the mean over the
	 * intervals so far, per aggregate, as perf stat report's never reset
	 * shadow stats make it; NULL: this interval's own clock.
	 */
	struct lupe_stats *clock_means;
};

/* Print every counter line of one report. */
void stat_display_counters(const struct stat_display *d);

/*
 * --metric-only: the metrics alone, one line per aggregate, as perf 6.1
 * prints them (rates per second and CPUs utilized are left out). header:
 * the line of metric units first.
 */
void stat_display_metric_only(const struct stat_display *d, int header);

/* The widest unit among the events, at least 4 (perf's unit column). */
int stat_unit_width(struct lupe_evlist *evlist);

#endif
