/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter values and the arithmetic perf stat does on them: sums over CPUs
 * and threads, deltas between reads (-I), scaling by enabled/running time
 * when the kernel multiplexed a counter, and running mean/stddev over
 * repeated runs (-r), per event and aggregate. Pure functions: no kernel
 * needed, thread-safe.
 */
#ifndef LUPE_COUNTS_H
#define LUPE_COUNTS_H

#include <stdint.h>
#include <lupe/core.h>

struct lupe_counts {
	uint64_t val; /* the count */
	uint64_t ena; /* ns the event was enabled */
	uint64_t run; /* ns it was actually on a counter */
};

/* a += b */
LUPE_API void lupe_counts_add(struct lupe_counts *a, const struct lupe_counts *b);
/* now - prev, each field; a counter never goes backwards, so a smaller now gives 0 */
LUPE_API struct lupe_counts lupe_counts_delta(const struct lupe_counts *now,
					      const struct lupe_counts *prev);

/*
 * Scale c->val by ena/run as perf does. Returns 0 when the counter ran all
 * the time it was enabled, 1 when it was scaled (multiplexed), -1 when it
 * never ran (val becomes 0: perf prints <not counted>).
 */
LUPE_API int lupe_counts_scale(struct lupe_counts *c);

/* Running statistics over runs (Welford): the mean and the stddev of the mean. */
struct lupe_stats {
	double n, mean, m2;
};

LUPE_API void lupe_stats_update(struct lupe_stats *s, double val);
LUPE_API double lupe_stats_mean(const struct lupe_stats *s);
/* The standard deviation of the mean, sqrt(var / n); 0 below two samples. */
LUPE_API double lupe_stats_stddev(const struct lupe_stats *s);
/* 100 * stddev / mean, 0 when mean is 0: perf's "+- x.xx%". */
LUPE_API double lupe_stats_rel_stddev(double stddev, double mean);

/* Per event and aggregate: the raw sums of one read (lupe_evlist_counts_table). */
struct lupe_counts_table {
	int nevsel, naggr;
	struct lupe_counts *c; /* [evsel * naggr + aggr] */
};

/* Free t's counts; t may be taken again. */
LUPE_API void lupe_counts_table_clear(struct lupe_counts_table *t);

/*
 * Per event and aggregate, over runs (-r) or over one interval (-I): the
 * scaled values, and the times enabled and running, as running statistics.
 */
struct lupe_counts_runs {
	int nevsel, naggr;
	struct lupe_stats *val, *ena, *run; /* [evsel * naggr + aggr] */
	struct lupe_stats wall;             /* ns each run (or interval) took */
};

/* Room for nevsel events in naggr aggregates, no run yet. 0 or -ENOMEM (r is then empty). */
LUPE_API int lupe_counts_runs_init(struct lupe_counts_runs *r, int nevsel, int naggr);
/* Forget the runs added (the next interval starts). */
LUPE_API void lupe_counts_runs_reset(struct lupe_counts_runs *r);
/* Free what init took; r may be initialized again. */
LUPE_API void lupe_counts_runs_clear(struct lupe_counts_runs *r);

/*
 * Add one run: now - prev (prev NULL: now itself) per event and aggregate,
 * each scaled by its enabled/running time as perf does
 * (lupe_counts_scale), and the wall time it took. now and prev have r's
 * shape.
 */
LUPE_API void lupe_counts_runs_add(struct lupe_counts_runs *r, const struct lupe_counts_table *now,
				   const struct lupe_counts_table *prev, double wall_ns);

/*
 * Whether event e counted in aggregate g over the runs: it was enabled and
 * ran on a counter (perf prints "<not counted>" otherwise).
 */
LUPE_API int lupe_counts_runs_counted(const struct lupe_counts_runs *r, int e, int g);

#endif
