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
	int show_period;      /* --show-total-period: a Period column (the entry's self period) after it */
	double percent_limit; /* hide entries below this percentage */
	long max_entries;     /* show at most this many entries (0: all; top -E) */
	int hierarchy;        /* --hierarchy: one level per sort key (ui/hist-hierarchy.c) */
	const char *field_sep; /* -t: columns joined by it, unpadded, no dots line (NULL: none) */
	int verbose;          /* -v: DSO paths, symbols with their address and origin */
	unsigned elide;       /* 1 << LUPE_SORT_*: key columns left out (report_elide()) */
	int sym_first;        /* -s sym... without -F: perf prints no chain's first function, the entry's own */
};

/*
 * perf's elided columns: a --comms, --dsos or --symbols filter of one
 * value leaves that key's column out, and a "# comm: VALUE" line, printed
 * here to fp, says its value instead (every such line, in column order).
 * Returns the keys to leave out (report_print_opts.elide): none when
 * that would leave no key column, as perf shows them all again then.
 */
unsigned report_elide(FILE *fp, const struct lupe_report_view *v, const struct report_print_opts *po,
		      const char *comms, const char *dsos, const char *symbols);

/* The columns a line can have: the default value ones, then -F's (at most 16). */
#define REPORT_MAX_COLS 20

/*
 * The pieces of the layout, for the TUI's rows (one code path for both
 * views): the columns' widths and how many entries show, the column
 * heads and an entry's line (both without the "# " / newline).
 */
void report_widths(const struct lupe_report_view *v, const struct report_print_opts *po,
		   struct lupe_hists *h, int width[REPORT_MAX_COLS], long *shown);
/* report_widths() in two steps, for other sets of entries: widen width[] (zeroed first) to e's values, then to the heads. */
void report_widths_add(const struct lupe_report_view *v, const struct report_print_opts *po,
		       const struct lupe_hist_entry *e, int width[REPORT_MAX_COLS]);
void report_widths_heads(const struct lupe_report_view *v, const struct report_print_opts *po,
			 int width[REPORT_MAX_COLS]);
/* Whole lines, names never cut: malloc'd (the caller frees), NULL when out of memory. */
char *report_head_line(const struct lupe_report_view *v, const struct report_print_opts *po,
		       const int width[REPORT_MAX_COLS]);
char *report_entry_line(const struct lupe_report_view *v, const struct report_print_opts *po,
			const int width[REPORT_MAX_COLS], const struct lupe_hist_entry *e, uint64_t total);
/* The same cut to buf's size, for the TUI's screen-wide rows. */
void report_format_head(char *buf, size_t size, const struct lupe_report_view *v,
			const struct report_print_opts *po, const int width[REPORT_MAX_COLS]);
void report_format_entry(char *buf, size_t size, const struct lupe_report_view *v,
			 const struct report_print_opts *po, const int width[REPORT_MAX_COLS],
			 const struct lupe_hist_entry *e, uint64_t total);
/* The period a callchain branch needs to show, of total at min_percent, as perf computes it. */
uint64_t report_min_hit(uint64_t total, double min_percent);
/* A callchain node's function name (or address). */
void report_node_name(const struct lupe_cc_node *n, char *buf, size_t size);
/* A sort key's column head and an entry's value of it, as the columns show them. */
const char *report_key_head(enum lupe_sort_key k);
/* (the value malloc'd, whole; NULL when out of memory) */
char *report_key_str(const struct lupe_hist_entry *e, enum lupe_sort_key k, int verbose);
/* The callchain of e as the view draws it below its line; total: the histogram's period. */
void report_print_chain(FILE *fp, const struct lupe_report_view *v, const struct report_print_opts *po,
			const struct lupe_hist_entry *e, uint64_t total);
/* v scaled to K/M/G as perf's "Samples: 1K"; returns the unit (" " for none). */
const char *report_units(uint64_t *v);

/* The "# Samples: ..." block, the column heads and the entries with their chains. */
void report_print_hists(FILE *fp, const struct lupe_report_view *v, const struct report_print_opts *po,
			const struct lupe_evsel *evsel,
			struct lupe_hists *h, uint64_t nr_samples);

#endif
