/* SPDX-License-Identifier: GPL-2.0 */
/* `lupe report --stdio`: perf report's text layout for one event's histogram. */
#ifndef LUPE_UI_HIST_H
#define LUPE_UI_HIST_H

#include <stdio.h>
#include <lupe/hist.h>

enum cg_mode { CG_NONE, CG_GRAPH, CG_FLAT, CG_FOLDED };

struct report_view {
	int children;
	int show_nr;
	double percent_limit;
	enum cg_mode cg;
	double cg_min_percent;
	int cg_fractal; /* graph percentages relative to the parent */
	enum lupe_sort_key keys[8];
	int nr_keys;
};

/* The "# Samples: ..." block, the column heads and the entries with their chains. */
void report_print_hists(FILE *fp, const struct report_view *v, const struct lupe_evsel *evsel,
			struct lupe_hists *h, uint64_t nr_samples);

#endif
