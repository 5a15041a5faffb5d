/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lupe stat --func: count inside functions of a workload or of -p PID, and
 * print per function its calls and, per event, the total, the mean per call
 * with its spread, min and max, in stat's three shapes (default, -x CSV,
 * -j JSON), per thread with --per-thread, and one line per call with
 * --per-call.
 */
#ifndef LUPE_UI_STAT_FUNC_H
#define LUPE_UI_STAT_FUNC_H

#include <stdio.h>
#include <lupe/events.h>
#include <lupe/func.h>
#include "stat-print.h"

struct stat_func_opts {
	char *const *specs;
	int nr_specs;
	const struct lupe_event_list *events;
	const char *pid;       /* -p PID, or NULL with a workload */
	char **argv;           /* the workload */
	int argc;
	int per_thread;
	int per_call;
	enum stat_format format;
	const char *sep;
	FILE *out;             /* stderr, or the -o file */
	int big_num;
};

/* Run, count and print (cmd/stat-func.c). Returns the exit code: the workload's, or 1, 126, 127, 129. */
int stat_func_run(const struct stat_func_opts *o);

/* The --per-call column names line (none with JSON). */
void stat_func_print_call_header(const struct stat_func_opts *o, struct lupe_func_session *s);

/* Print the figures of a closed session (exposed for tests of the shapes). */
void stat_func_print(const struct stat_func_opts *o, struct lupe_func_session *s,
		     const char *what, double elapsed_s);

/* One --per-call line of call to f; header: the column names line first. */
void stat_func_print_call(const struct stat_func_opts *o, struct lupe_func_session *s,
			  const struct lupe_func_target *t, const struct lupe_func_call *call);

#endif
