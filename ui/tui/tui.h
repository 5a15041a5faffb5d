/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hists browser: report's histogram as perf's TUI shows it (slang),
 * a second view of the same entries the --stdio printer walks. report
 * browses a finished histogram once; top hands a refresh callback that
 * re-finishes it on a timer and a lock that keeps the reader thread out
 * while the browser looks at the entries.
 */
#ifndef LUPE_UI_TUI_H
#define LUPE_UI_TUI_H

#include <stdint.h>
#include <lupe/hist.h>
#include <lupe/report.h>
#include "annotate.h"
#include "hist.h"

struct lupe_perf_file;

/* One event of a multi-event file: TAB and shift-TAB switch between them. */
struct tui_event {
	const struct lupe_evsel *evsel;
	struct lupe_hists *h;
	uint64_t nr_samples;
	int idx; /* in the file, for annotate */
};

struct tui_hists {
	const char *title; /* shown first on the header line (NULL: none) */
	/* What is browsed; top's refresh updates these. view NULL: no sample yet. */
	const struct lupe_report_view *view;
	const struct lupe_evsel *evsel;
	struct lupe_hists *h;
	uint64_t nr_samples, nr_lost;
	struct report_print_opts po;
	/* live: refresh() every refresh_ms with the lock held (0: never) */
	int refresh_ms;
	void (*refresh)(struct tui_hists *th);
	/* around every look at the entries (NULL: no lock) */
	void (*lock)(struct tui_hists *th);
	void (*unlock)(struct tui_hists *th);
	void *arg;
	/* report: the file browsed (annotate reads it again; i shows its header) */
	const char *input;
	int force, evidx;
	struct lupe_perf_file *file;
	/* the events to switch between (nr_events < 2: evsel and h only) */
	struct tui_event *events;
	int nr_events, cur_event;
	/* set when the user picked another data file to browse (report) */
	char next_input[256];
	/*
	 * top, called with the lock held: annotate() starts (or goes on with)
	 * the live annotation of sym in dso and returns it (NULL: out of
	 * memory); sym NULL ends it. zero() turns the zeroing of the samples
	 * at each refresh on or off, toggle_events() the counting of samples;
	 * both return 1 when it is on now.
	 */
	struct lupe_annotated_sym *(*annotate)(struct tui_hists *th, const struct lupe_dso *dso,
					       const struct lupe_symbol *sym);
	int (*zero)(struct tui_hists *th);
	int (*toggle_events)(struct tui_hists *th);
};

/* Whether this lupe was built with the TUI (slang). */
int tui_built(void);

/*
 * Browse until q, ESC or Ctrl-C (returns 0) or SIGINT/SIGTERM/SIGHUP
 * (returns 128 + the signal). The terminal is restored on every path.
 * Returns -1 (said why) when the terminal cannot be set up or the TUI is
 * not built.
 */
int tui_browse_hists(struct tui_hists *th);

/*
 * The annotate browser on d's symbol as (its lines with source when
 * source), until q; Enter on a call browses the callee in d. Sets up and
 * restores the terminal; returns as tui_browse_hists().
 */
int tui_annotate(struct annotate_data *d, struct lupe_annotated_sym *as, bool source);

#endif
