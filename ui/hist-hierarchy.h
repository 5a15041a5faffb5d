/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `lupe report --stdio --hierarchy`: perf report's hierarchy text, one
 * level per sort key, each level indented under the one before.
 */
#ifndef LUPE_UI_HIST_HIERARCHY_H
#define LUPE_UI_HIST_HIERARCHY_H

#include <stdio.h>
#include <lupe/hist.h>
#include <lupe/report.h>
#include "hist.h"

/*
 * The column heads (joined by " / ", with their dots line) and the
 * entries of a finished histogram as perf --hierarchy prints them: each
 * level's nodes by their own overhead, in percent of the whole; the
 * callchains under the last level's entries; --percent-limit hides what
 * is below it and says "no entry >= N%" where a level has nothing left.
 */
void report_print_hierarchy(FILE *fp, const struct lupe_report_view *v,
			    const struct report_print_opts *po, struct lupe_hists *h);

#endif
