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
#include "hist.h"

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

#endif
