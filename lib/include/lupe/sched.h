/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduler analysis of a perf.data of sched tracepoints (lupe sched
 * record): per-task wake-up latency (lupe sched latency), with perf 6.1's
 * bookkeeping so that the numbers are perf's for the same file.
 */
#ifndef LUPE_SCHED_H
#define LUPE_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>

struct lupe_sched_lat {
	const char *comm;       /* the task's name (owned by the result) */
	int tid;                /* the first task's, when several were merged */
	int num_merged;         /* tasks of this name summed into the entry */
	uint64_t runtime;       /* ns on CPU (sched_stat_runtime) */
	uint64_t switches;      /* times it was switched in after waiting */
	uint64_t total_lat, max_lat, max_lat_start, max_lat_end; /* ns; times as recorded */
};

struct lupe_sched_lat_result {
	struct lupe_sched_lat *v; /* sorted, entries without switches included */
	size_t nr;
	unsigned long nr_timestamps, nr_unordered, nr_switch_bugs;
	unsigned long nr_events, nr_lost_events, nr_lost_chunks;
	void *priv;
};

struct lupe_sched_lat_opts {
	size_t sz;
	const char *sort;       /* "avg, max, switch, runtime" (perf's default), or "pid" */
	int no_merge;           /* one entry a task, not one a name (perf's -p) */
	int force;
};

/*
 * Read path and compute the latency table. 0, -EINVAL for an unknown sort
 * key (logged), or another negative errno (the reason logged).
 */
LUPE_API int lupe_sched_latency(const char *path, const struct lupe_sched_lat_opts *opts,
				struct lupe_sched_lat_result *res);
LUPE_API void lupe_sched_lat_result_clear(struct lupe_sched_lat_result *res);

/*
 * sched timehist: one line per sched_switch (the task switched out: how
 * long it waited before it ran, of which scheduling delay, and how long it
 * ran), and with wakeups one per wake-up, in time order, perf 6.1's
 * bookkeeping.
 */
struct lupe_sched_th_line {
	int wakeup;             /* a wake-up line, else a switch's */
	uint64_t lost;          /* non-zero: a LOST record's line ("lost N events on cpu C") */
	uint64_t time;          /* ns, as recorded */
	int cpu;
	int max_cpu;            /* the highest CPU seen so far (the file's online count first) */
	const char *comm;       /* the task (switch: switched out; wake-up: the waker) */
	int tid, pid;           /* pid 0: no [tid] shown (the idle task, or perf's wake-up quirk) */
	uint64_t wait, delay, run; /* ns */
	const char *wcomm;      /* wake-up: the awakened task */
	int wtid, wpid;
};

typedef int (*lupe_sched_th_fn)(const struct lupe_sched_th_line *line, void *arg);

struct lupe_sched_th_opts {
	size_t sz;
	int force;
	int wakeups;            /* also the wake-up lines (-w) */
};

/* Read path, calling fn per line. 0 or a negative errno (logged). *max_cpu: as in the lines. */
LUPE_API int lupe_sched_timehist(const char *path, const struct lupe_sched_th_opts *opts,
				 lupe_sched_th_fn fn, void *arg, int *max_cpu);

/*
 * sched map: one line per sched_switch, the task running on each CPU by a
 * two-character short name ("A0", ". " for the idle task), the switching
 * CPU marked; a task's first line (or its first after a COMM) names it.
 */
struct lupe_sched_map_line {
	uint64_t time;
	int cpu;                /* the CPU that switched */
	int nr_cpus;            /* cells */
	const char *const *cells; /* per CPU: its task's short name, or NULL (none yet) */
	const char *shortname;  /* the task switched in */
	const char *comm;       /* non-NULL: name it ("A0 => comm:tid") */
	int tid;
};

typedef int (*lupe_sched_map_fn)(const struct lupe_sched_map_line *line, void *arg);

struct lupe_sched_map_opts {
	size_t sz;
	int force;
	int nr_cpus;            /* CPUs shown (perf: this machine's configured CPUs) */
};

/* The records of a file and the events its LOST records said were lost. */
struct lupe_sched_lost {
	unsigned long nr_events, nr_lost_events, nr_lost_chunks;
};

/* lost (may be NULL): for perf's "INFO: lost events" line. */
LUPE_API int lupe_sched_map(const char *path, const struct lupe_sched_map_opts *opts,
			    lupe_sched_map_fn fn, void *arg, struct lupe_sched_lost *lost);

#endif
