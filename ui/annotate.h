/* SPDX-License-Identifier: GPL-2.0 */
/* `lupe annotate --stdio`: perf annotate's layout for one symbol. */
#ifndef LUPE_UI_ANNOTATE_H
#define LUPE_UI_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>
#include <lupe/annotate.h>

struct annotate_view {
	const char *event;   /* "cpu-clock" */
	const char *dso;     /* the DSO's short name, as perf's title shows it */
	bool source;         /* interleave source lines (--no-source: false) */
	bool color;          /* hot percentages in red (>= 5%), warm in green (>= 0.5%) */
};

/*
 * Print sym's instructions from l, each with its share of the symbol's
 * period, source lines before the instructions they became, under perf's
 * title line. Returns 0 or -1 when the stream failed.
 */
int ui_annotate_print(FILE *f, const struct annotate_view *v, const struct lupe_annotated_sym *sym,
		      const struct lupe_listing *l);

#endif
