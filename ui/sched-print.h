/* SPDX-License-Identifier: GPL-2.0 */
/* lupe sched's output: perf 6.1's `sched latency` table and `sched timehist` lines. */
#ifndef LUPE_UI_SCHED_PRINT_H
#define LUPE_UI_SCHED_PRINT_H

#include <stdio.h>
#include <lupe/sched.h>

void sched_print_latency(FILE *out, const struct lupe_sched_lat_result *res);

struct timehist_printer {
	FILE *out;
	int wakeups, cpu_visual;
	int comm_width;         /* perf's: 30, grown by a longer task name */
	int header_done;
};

/* A lupe_sched_th_fn: arg is a struct timehist_printer. */
int sched_print_timehist_line(const struct lupe_sched_th_line *l, void *arg);
/* The header, when no line printed it (an empty file): ncpus from the file. */
void sched_print_timehist_end(struct timehist_printer *p, int max_cpu);

/* A lupe_sched_map_fn: arg is the FILE. */
int sched_print_map_line(const struct lupe_sched_map_line *l, void *arg);
/* After the map: perf's line for lost events, if any. */
void sched_print_map_end(FILE *o, const struct lupe_sched_lost *l);

#endif
