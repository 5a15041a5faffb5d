/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How lupe stat prints, line for line as perf 6.1 does: the default
 * columns, CSV (-x SEP) and JSON (-j). Pure formatting: the caller hands in
 * values, so that every shape can be tested without a kernel.
 */
#ifndef LUPE_UI_STAT_PRINT_H
#define LUPE_UI_STAT_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

enum stat_format { STAT_STD, STAT_CSV, STAT_JSON };

/*
 * What one output line stands for: everything, one CPU (-A), one thread
 * (--per-thread), one core, socket, die or node (--per-core...).
 */
enum stat_aggr {
	STAT_AGGR_GLOBAL, STAT_AGGR_CPU, STAT_AGGR_THREAD,
	STAT_AGGR_CORE, STAT_AGGR_SOCKET, STAT_AGGR_DIE, STAT_AGGR_NODE,
};

struct stat_print {
	FILE *out;
	enum stat_format format;
	const char *sep;     /* CSV separator */
	enum stat_aggr aggr;
	unsigned interval;   /* -I in ms; 0 without */
	int run_count;       /* -r; 1 without */
	int big_num;         /* thousands separators of the locale in the default format */
	int unit_width;      /* width of the unit column, at least 4 */
	int headers_printed; /* interval headers: perf repeats them every 25 intervals */
	int cgroups;         /* -G: a cgroup column after the event's name */
};

/* A derived value: "#    0.542 CPUs utilized". */
struct stat_metric {
	const char *fmt;  /* printf format of val; NULL: an empty metric column */
	double val;
	/*
	 * May be set with fmt NULL ("insn per cycle" without cycles): JSON
	 * still prints it. NULL prints as "(null)" in JSON, as perf's does.
	 */
	const char *unit;
};

struct stat_row {
	const char *prefix; /* the interval timestamp column or NULL */
	int cpu;            /* STAT_AGGR_CPU */
	const char *comm;   /* STAT_AGGR_THREAD */
	pid_t pid;
	int socket, die, core, node; /* STAT_AGGR_CORE...NODE: the aggregate's place */
	int aggr_nr;        /* and how many CPUs it sums */
	const char *name;
	const char *cgroup; /* -G: the event's cgroup, or NULL */
	const char *unit;   /* "msec", "ns" or "" */
	int fractional;     /* the unit scale is not whole (msec): two decimals */
	double value;       /* count * scale */
	uint64_t run, ena;
	int counted;        /* 0: <not counted> or <not supported> */
	int supported;
	double noise;       /* -r: 100 * stddev / mean of the count */
	struct stat_metric metric;
};

/* " Performance counter stats for 'what' (N runs):" and the blank lines around it. */
void stat_print_header(struct stat_print *p, const char *what);
/* The column header of -I in the default format; perf repeats it every 25 intervals. */
void stat_print_interval_header(struct stat_print *p);
/* The timestamp column of -I for ts (time since counting started). */
void stat_interval_prefix(const struct stat_print *p, const struct timespec *ts,
			  char *buf, size_t size);
/* The aggregate column of a line (CPU, thread, S0-D0-C1...), nothing for a global count. */
void stat_print_aggr(const struct stat_print *p, const struct stat_row *r);
/* One counter line. */
void stat_print_row(const struct stat_print *p, const struct stat_row *row);

struct stat_footer {
	double elapsed;    /* seconds, mean over runs */
	double elapsed_sd; /* stddev of the mean (-r) */
	int rusage;        /* print user and sys (a workload, one run) */
	int null_run;      /* -n: perf prints no blank line before the times */
	double user, sys;  /* seconds */
};

/* "seconds time elapsed" and friends (default format, not -I). */
void stat_print_footer(const struct stat_print *p, const struct stat_footer *f);

#endif
