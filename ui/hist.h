/* SPDX-License-Identifier: GPL-2.0 */
/* `lupe report --stdio`: perf report's text layout for one event's histogram. */
#ifndef LUPE_UI_HIST_H
#define LUPE_UI_HIST_H

#include <stdio.h>
#include <lupe/hist.h>
#include <lupe/report.h>

/* How the entries print, beyond the report's view. */
struct report_print_opts {
	int show_nr;          /* -n: a Samples column */
	double percent_limit; /* hide entries below this percentage */
};

/* The "# Samples: ..." block, the column heads and the entries with their chains. */
void report_print_hists(FILE *fp, const struct lupe_report_view *v, const struct report_print_opts *po,
			const struct lupe_evsel *evsel,
			struct lupe_hists *h, uint64_t nr_samples);

#endif
