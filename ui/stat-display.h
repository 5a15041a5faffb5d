/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From an evlist's counts to stat's lines: aggregate (all, per CPU, per
 * thread), scale, average over runs (-r), take interval deltas (-I), work
 * out the metrics, and print each counter the way perf does.
 */
#ifndef LUPE_UI_STAT_DISPLAY_H
#define LUPE_UI_STAT_DISPLAY_H

#include <sys/types.h>
#include <lupe/counts.h>
#include <lupe/evlist.h>
#include "stat-print.h"

/* Per event and aggregate: the raw sums of one read. */
struct stat_snapshot {
	int nevsel, naggr;
	struct lupe_counts *c; /* [evsel * naggr + aggr] */
};

/*
 * Take the sums of the last lupe_evlist_read(). merge_into (NULL: none)
 * folds event e's counts into event merge_into[e] (perf's merged aliases:
 * one event counted on several PMUs). Returns 0 or -ENOMEM.
 */
int stat_snapshot_take(struct stat_snapshot *s, struct lupe_evlist *evlist, enum lupe_aggr mode,
		       const int *merge_into);
void stat_snapshot_free(struct stat_snapshot *s);

/* Per event and aggregate: the scaled values over runs (or of one interval). */
struct stat_accum {
	int nevsel, naggr;
	struct lupe_stats *val, *ena, *run; /* [evsel * naggr + aggr] */
	struct lupe_stats wall;             /* ns each run (or interval) took */
};

int stat_accum_init(struct stat_accum *a, int nevsel, int naggr);
void stat_accum_reset(struct stat_accum *a);
void stat_accum_free(struct stat_accum *a);
/*
 * Add one run: now - prev (prev NULL: now itself), scaled as perf does,
 * and the wall time it took.
 */
void stat_accum_add(struct stat_accum *a, const struct stat_snapshot *now,
		    const struct stat_snapshot *prev, double wall_ns);

struct stat_display {
	struct stat_print *print;
	struct lupe_evlist *evlist;
	enum lupe_aggr mode;
	const struct stat_accum *accum;
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
