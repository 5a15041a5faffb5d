/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report consumer: a session tool that turns samples into one
 * histogram per event, with perf report's filters, sort keys and callchain
 * modes. report, top (a live source, refreshed) and the TUI share it; a
 * printer walks the entries after lupe_report_finish().
 *
 *   rep = lupe_report_new(&opts);
 *   lupe_session_read(session, source, lupe_report_tool(rep));
 *   lupe_report_finish(rep);          again after more samples (top)
 *   ... lupe_report_hists(rep, idx), lupe_report_view(rep) ...
 *   lupe_report_reset(rep);           forget the samples (top -z)
 *   lupe_report_delete(rep);
 *
 * Thread-safety: a report is fed and printed by one thread at a time.
 */
#ifndef LUPE_REPORT_H
#define LUPE_REPORT_H

#include <stddef.h>
#include <lupe/core.h>
#include <lupe/hist.h>
#include <lupe/session.h>

struct lupe_report_opts {
	size_t sz;              /* sizeof(struct lupe_report_opts) */
	/* sort keys, comma-separated: comm,pid,tid,dso,sym,cpu,trace,srcline;
	 * NULL: comm,dso,sym (trace when every event is a tracepoint, as perf) */
	const char *sort;
	/* perf's -g parameter: graph|fractal|flat|folded|none[,MIN_PERCENT][,caller|callee];
	 * NULL: graph when the samples have callchains */
	const char *call_graph;
	int children;           /* 1, 0, or -1: perf's default (on with callchains, off for a pipe) */
	/* only these (comma lists; NULL: all) */
	const char *comms, *pids, *tids, *dsos, *symbols;
	/*
	 * perf's -F: the output columns, comma-separated: overhead,
	 * overhead_children, sample, period and sort keys ("symbol" is
	 * "sym"). Entries are keyed by -F's keys and the sort's, and sort
	 * by the sort keys, then by the columns in their order (perf's
	 * strict field order; without a sort, the columns alone).
	 * "+FIELDS" adds them after the default value columns, the default
	 * order kept. NULL: perf's default columns.
	 */
	const char *fields;
	/*
	 * perf's --max-stack: use at most this many callchain addresses of
	 * the recorded chain (the outermost ones with caller order) and as
	 * many of the unwound user part (the innermost); 0: perf's default,
	 * lupe_callchain_max() (the sysctl kernel.perf_event_max_stack); below 0:
	 * none, perf's --max-stack 0.
	 */
	int max_stack;
	int inverted;           /* perf's -G: callchains from the caller down */
	/*
	 * perf's --hierarchy: no children (perf turns cumulation off), the
	 * callchain order still the one children would have chosen; a
	 * printer groups the entries with lupe/hierarchy.h. The entries
	 * filtered samples made stay (perf sums them into the levels above
	 * the filter's key): see lupe_report_view.filters.
	 */
	int hierarchy;
	int verbose;            /* perf's -v: entries of equal overhead sort by the DSOs' full paths */
};

enum lupe_cg_mode { LUPE_CG_NONE, LUPE_CG_GRAPH, LUPE_CG_FLAT, LUPE_CG_FOLDED };

/* What the report decided from the options and the events. */
struct lupe_report_view {
	int children;
	enum lupe_cg_mode cg;
	double cg_min_percent;
	int cg_fractal;          /* graph percentages relative to the parent */
	int caller;              /* chains from the caller down */
	enum lupe_sort_key keys[8];
	int nr_keys;
	/*
	 * The -F columns in order, then the sort keys -F did not name
	 * (nr_fields 0: perf's default columns). keys[] holds every key of
	 * the columns.
	 */
	enum lupe_field { LUPE_FIELD_OVERHEAD, LUPE_FIELD_CHILDREN, LUPE_FIELD_SAMPLE,
			  LUPE_FIELD_PERIOD, LUPE_FIELD_KEY } fields[16];
	enum lupe_sort_key field_keys[16]; /* with LUPE_FIELD_KEY */
	int nr_fields;
	int fields_added;        /* "-F +...": the default value columns come first */
	/*
	 * The LUPE_FILTER_* bits of the filters given. With hierarchy, the
	 * entries filtered samples made stay, their filtered field set, and
	 * lupe_hierarchy_opts.filters decides which levels show.
	 */
	unsigned filters;
};

struct lupe_report;

/*
 * Check the sort keys and the call-graph parameter before reading
 * anything. Returns 0 or -EINVAL; the reason was logged.
 */
LUPE_API int lupe_report_check_opts(const struct lupe_report_opts *opts);

/* A report (opts copied; its strings must outlive it). NULL + errno (EINVAL: logged). */
LUPE_API struct lupe_report *lupe_report_new(const struct lupe_report_opts *opts);
/* Frees the histograms too; NULL is ok. */
LUPE_API void lupe_report_delete(struct lupe_report *rep);

/* The tool to feed to lupe_session_read() (ordered, owned by rep). */
LUPE_API struct lupe_tool *lupe_report_tool(struct lupe_report *rep);

/*
 * Build and sort every histogram's entries from the samples so far, the
 * dso and symbol filters applied. May be called again after more samples.
 * Returns 0 or a negative error.
 */
LUPE_API int lupe_report_finish(struct lupe_report *rep);

/* Forget every sample (top -z); the view stays. */
LUPE_API void lupe_report_reset(struct lupe_report *rep);

/* The view, decided at the first sample; NULL before. */
LUPE_API const struct lupe_report_view *lupe_report_view(const struct lupe_report *rep);

/* The histogram of the event at evsel_idx, NULL when it had no sample. */
LUPE_API struct lupe_hists *lupe_report_hists(struct lupe_report *rep, int evsel_idx);

#endif
