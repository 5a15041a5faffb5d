/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differential profiles, as perf diff computes them: several perf.data
 * files, each read into report histograms keyed by the sort keys (perf's
 * default: dso,sym), the first file the baseline. Each event of the
 * baseline is matched with the same event (type and config) of the other
 * files, and its entries with theirs by key: one row per key, a cell per
 * file (empty where the file has no such entry). Rows of a key the
 * baseline lacks are perf's "dummy" entries. Each cell after the first
 * carries the three computations (delta, ratio, weighted diff) against
 * the baseline's cell; the rows are sorted as perf sorts them for the
 * chosen computation.
 *
 *   d = lupe_diff_new(&opts);
 *   lupe_diff_add(d, "perf.data.old", 0);   the baseline
 *   lupe_diff_add(d, "perf.data", 0);
 *   lupe_diff_finish(d);
 *   for each event ev: lupe_diff_event(d, ev), lupe_diff_row(d, ev, i)
 *   lupe_diff_delete(d);
 *
 * The files' sessions stay open until lupe_diff_delete(): the entries
 * point into their symbol tables.
 */
#ifndef LUPE_DIFF_H
#define LUPE_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>
#include <lupe/hist.h>

enum lupe_diff_compute {
	LUPE_DIFF_DELTA_ABS, /* perf's default: sorted by |delta| */
	LUPE_DIFF_DELTA,     /* percent minus the baseline's percent */
	LUPE_DIFF_RATIO,     /* period / baseline period */
	LUPE_DIFF_WDIFF,     /* period * w2 - baseline period * w1 */
};

struct lupe_diff_opts {
	size_t sz;                     /* sizeof(struct lupe_diff_opts) */
	enum lupe_diff_compute compute;
	int64_t w1, w2;                /* LUPE_DIFF_WDIFF's weights (both non-zero) */
	int order;                     /* the file whose column sorts first (perf's -o); -1: 1, 0: none */
	int relative;                  /* percentages of the entries the filters keep (else of all samples) */
	const char *sort;              /* keys: comm,dso,sym; NULL: dso,sym */
	const char *comms, *pids, *tids, *dsos, *symbols; /* filters, comma lists; NULL: all */
	int baseline_only;             /* only the rows another file shares with the baseline (perf's -b) */
};

/* One file's side of a row. */
struct lupe_diff_cell {
	const struct lupe_hist_entry *e; /* NULL: the file has no entry of this key */
	double percent;                  /* of the file's total period */
	double delta;                    /* percent minus the baseline's (files after the first) */
	double ratio;                    /* period / baseline period (1 when the baseline has none) */
	int64_t wdiff;                   /* period * w2 - baseline period * w1 */
};

struct lupe_diff_row {
	struct lupe_diff_cell *cells;    /* one per file; cells[0] is the baseline */
};

struct lupe_diff;
struct lupe_evsel;

/* A diff (opts copied; its strings must outlive it). NULL + errno (EINVAL: logged). */
LUPE_API struct lupe_diff *lupe_diff_new(const struct lupe_diff_opts *opts);
/* Closes the files too; NULL is ok. */
LUPE_API void lupe_diff_delete(struct lupe_diff *d);

/*
 * Read the perf.data at path (the first one added is the baseline) into
 * histograms. Returns 0 or a negative error (logged).
 */
LUPE_API int lupe_diff_add(struct lupe_diff *d, const char *path, int force);

/* Match, compute and sort. Call once, after every file was added. 0 or a negative error. */
LUPE_API int lupe_diff_finish(struct lupe_diff *d);

LUPE_API int lupe_diff_nr_files(const struct lupe_diff *d);
/* The baseline's events, in its order: each gets its own table. */
LUPE_API int lupe_diff_nr_events(const struct lupe_diff *d);
LUPE_API struct lupe_evsel *lupe_diff_event(struct lupe_diff *d, int ev);
/* The event's rows, sorted; NULL past the last. */
LUPE_API long lupe_diff_nr_rows(const struct lupe_diff *d, int ev);
LUPE_API const struct lupe_diff_row *lupe_diff_row(const struct lupe_diff *d, int ev, long idx);
/*
 * The period the file's percentages of the event are of. With
 * baseline_only the baseline's is that of the rows kept, as perf shows it
 * (the deltas were computed before, of all the samples).
 */
LUPE_API uint64_t lupe_diff_total(const struct lupe_diff *d, int ev, int file);
/* The sort keys the rows are made of (perf's columns after the computed ones). */
LUPE_API int lupe_diff_keys(const struct lupe_diff *d, const enum lupe_sort_key **keys);

#endif
