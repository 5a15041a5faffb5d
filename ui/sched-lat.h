/* SPDX-License-Identifier: GPL-2.0 */
/* lupe sched's tables: perf 6.1's `sched latency` output. */
#ifndef LUPE_UI_SCHED_LAT_H
#define LUPE_UI_SCHED_LAT_H

#include <stdio.h>
#include <lupe/sched.h>

void sched_print_latency(FILE *out, const struct lupe_sched_lat_result *res);

#endif
