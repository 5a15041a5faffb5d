/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The derived values perf stat prints after '#': CPUs utilized, rates per
 * second, IPC, GHz and miss ratios. Each needs other counters of the same
 * aggregate (the task-clock of that CPU, the cycles of that thread), which
 * the caller gathers in a struct stat_shadow first.
 */
#ifndef LUPE_UI_STAT_METRIC_H
#define LUPE_UI_STAT_METRIC_H

#include <linux/perf_event.h>
#include <lupe/events.h>
#include "stat-print.h"

enum stat_kind {
	STAT_K_OTHER,
	STAT_K_CLOCK, /* task-clock, cpu-clock */
	STAT_K_CYCLES,
	STAT_K_INSTRUCTIONS,
	STAT_K_BRANCHES,
	STAT_K_BRANCH_MISSES,
	STAT_K_CACHE_REFS,
	STAT_K_CACHE_MISSES,
	STAT_K_L1D_LOADS,
	STAT_K_L1D_MISSES,
	STAT_K_L1I_LOADS,
	STAT_K_L1I_MISSES,
	STAT_K_DTLB_LOADS,
	STAT_K_DTLB_MISSES,
	STAT_K_ITLB_LOADS,
	STAT_K_ITLB_MISSES,
	STAT_K_LL_LOADS,
	STAT_K_LL_MISSES,
	STAT_K_MAX,
};

enum stat_kind stat_kind_of(const struct perf_event_attr *attr, enum lupe_tool_event tool);

/* The unit column and the factor from count to shown value: "msec" 1e-6 for clocks. */
const char *stat_unit_of(const struct perf_event_attr *attr, enum lupe_tool_event tool,
			 double *scale);

/* Counts of one aggregate (all, one CPU, one thread) that metrics refer to. */
struct stat_shadow {
	double val[STAT_K_MAX];
	int have[STAT_K_MAX];
};

/* Note a counted value (raw count, not scaled to the unit) of kind k. */
void stat_shadow_update(struct stat_shadow *sh, enum stat_kind k, double count);

/*
 * The metric for a counter of kind k showing uval (count * scale), given
 * its aggregate's shadow and the wall time in ns the counters ran (-I: the
 * interval). unitbuf (16 bytes) holds a "K/sec" unit; m points into it.
 */
void stat_metric_for(enum stat_kind k, double uval, double scale, const struct stat_shadow *sh,
		     double walltime_ns, struct stat_metric *m, char *unitbuf);

#endif
