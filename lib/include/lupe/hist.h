/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms of samples by sort keys (comm, pid, tid, dso, sym, cpu), with
 * self and children (cumulative) periods and callchain trees. Samples are
 * first aggregated by identical stack (same thread state, same addresses),
 * so the work and the memory grow with distinct stacks, not with samples.
 * Thread-safety: a histogram is used by one thread at a time.
 */
#ifndef LUPE_HIST_H
#define LUPE_HIST_H

#include <stdint.h>
#include <lupe/session.h>

enum lupe_sort_key {
	LUPE_SORT_COMM,
	LUPE_SORT_PID,   /* perf's "pid": the thread, shown as tid:comm */
	LUPE_SORT_TID,
	LUPE_SORT_DSO,
	LUPE_SORT_SYM,
	LUPE_SORT_CPU,
	LUPE_SORT_TRACE, /* a tracepoint's formatted fields */
	LUPE_SORT_SRCLINE, /* the entry's source file:line (DWARF), as perf's srcline */
	LUPE_SORT_CGROUP,  /* the sample's cgroup (PERF_SAMPLE_CGROUP), named by the file's CGROUP records */
};

struct lupe_hist_opts {
	size_t sz;     /* sizeof(struct lupe_hist_opts): declare it with LUPE_OPTS */
	enum lupe_sort_key keys[8];
	int nr_keys;
	int children;  /* accumulate callers' periods (perf's --children) */
	int callchain; /* build callchain trees */
	int caller;    /* trees from the caller down (else from the callee up) */
	int max_stack; /* callchain addresses used at most, as lupe_report_opts' (0: perf's default, lupe_callchain_max(); below 0: none) */
	int long_dso_names; /* entries of equal overhead sort by the DSOs' paths (perf's -v) */
	int keep_filtered; /* lupe_hists_finish() keeps the entries filtered samples made (--hierarchy) */
};

/* The report filters that left a sample out (lupe_hist_entry.filtered), perf's HIST_FILTER__* */
enum lupe_hist_filter {
	LUPE_FILTER_THREAD = 1 << 0, /* --comms, --pid, --tid */
	LUPE_FILTER_DSO = 1 << 1,    /* --dsos */
	LUPE_FILTER_SYMBOL = 1 << 2, /* --symbols */
	LUPE_FILTER_ALL = 7,
};

/* A node of a callchain tree: one function, how much ended here, how much below. */
struct lupe_cc_node {
	const struct lupe_dso *dso;
	const struct lupe_symbol *sym; /* NULL: unresolved, addr (as recorded, as perf keys and shows it) says where */
	uint64_t addr;
	int kernel;
	uint32_t key_rank; /* among its siblings in perf's tree order (DSO, address): flat chains walk it */
	uint64_t hit, cumul;
	struct lupe_cc_node *child, *next; /* children sorted by cumul, largest first */
};

struct lupe_hist_entry {
	const char *comm;              /* at the first sample */
	const struct lupe_thread *thread; /* its comm now is the last one, which perf's "pid" shows */
	const char *trace;             /* with LUPE_SORT_TRACE */
	const char *srcline;           /* with LUPE_SORT_SRCLINE */
	int pid, tid, cpu;
	uint64_t cgroup;               /* with LUPE_SORT_CGROUP: its id, 0 for none */
	const char *cgroup_name;       /* and its path (lupe_session_cgroup_name()), NULL for 0 */
	const struct lupe_dso *dso;    /* NULL: no map */
	const struct lupe_symbol *sym; /* NULL: unresolved */
	uint64_t addr;                 /* in its DSO: unresolved, the key; else the first sample's */
	int kernel;
	uint64_t self, children;       /* periods */
	uint64_t nr_samples;
	int depth;                     /* the longest chain added: orders children ties as perf */
	/*
	 * Made by a filtered sample: the LUPE_FILTER_* bits of the filters
	 * that left it out. lupe_hists_finish() drops it unless keep_filtered.
	 */
	int filtered;
	struct lupe_cc_node chain;     /* root: its children are the chains */
};

struct lupe_hists;

/* An empty histogram keyed as opts says (copied). NULL + EINVAL (bad opts) or ENOMEM. */
LUPE_API struct lupe_hists *lupe_hists_new(const struct lupe_hist_opts *opts);
LUPE_API void lupe_hists_delete(struct lupe_hists *h);

/* Account one sample (its period) to the histogram; trace: its fields as text, for LUPE_SORT_TRACE (else NULL). */
LUPE_API int lupe_hists_add(struct lupe_hists *h, struct lupe_session *s,
			    const struct lupe_sample *sample, struct lupe_thread *t,
			    uint8_t cpumode, const char *trace);
/*
 * A sample report filters (--comms, --dsos, ...) left out, accounted as
 * perf accounts it: its period counts in the totals and in every entry
 * it adds to, but an entry it makes first stays hidden (perf marks an
 * entry filtered when it is made). So --dso prog shows main's callers in
 * libc with all their children, and percentages stay of the whole.
 * filters: the LUPE_FILTER_* bits of the filters that left it out (0: all).
 */
LUPE_API int lupe_hists_add_filtered(struct lupe_hists *h, struct lupe_session *s,
				     const struct lupe_sample *sample, struct lupe_thread *t,
				     uint8_t cpumode, const char *trace, unsigned filters);

/*
 * Build the entries from what was added and sort them (by children, then
 * self, when children are on). keep decides which entries stay (NULL:
 * all); it may look at dso and sym. Returns the number of entries. May be
 * called again after more samples (top's refresh): the entries of the
 * previous call are freed then.
 */
LUPE_API long lupe_hists_finish(struct lupe_hists *h,
				int (*keep)(const struct lupe_hist_entry *e, void *arg), void *arg);

/* Forget every sample and entry (top -z); the options stay. */
LUPE_API void lupe_hists_reset(struct lupe_hists *h);

/*
 * Sort the entries lupe_hists_finish() made again, by cmp (qsort_r's
 * contract: a and b point to entry pointers). Entries cmp finds equal
 * come in perf's collapsed order (by the sort keys, a symbol by its
 * address), as perf's -F sort inserts them. 0 or -ENOMEM.
 */
LUPE_API int lupe_hists_sort(struct lupe_hists *h,
			      int (*cmp)(const void *a, const void *b, void *arg), void *arg);

LUPE_API struct lupe_hist_entry *lupe_hists_entry(struct lupe_hists *h, long idx);
LUPE_API uint64_t lupe_hists_total_period(const struct lupe_hists *h);
LUPE_API uint64_t lupe_hists_nr_samples(const struct lupe_hists *h);

/*
 * perf's --max-stack on a completed callchain (ips, nr entries, with
 * context markers; see lupe_session_complete_callchain()): max addresses
 * of the recorded chain, the outermost ones when caller (perf walks it
 * from there in caller order), and max of the unwound user part, the
 * innermost (perf's unwinder stops there); markers are not counted and
 * all stay. Writes up to nr entries to out and returns how many;
 * *lost_ip: the sample's own address (the chain's first) is not kept.
 */
/*
 * The addresses --max-stack lets a chain use: max_stack when above 0, none
 * below; 0 (not given) is perf's default, the sysctl
 * kernel.perf_event_max_stack of this machine (127 when unreadable). The
 * kernel stops frame-pointer chains there when recording; dwarf chains are
 * unwound whole, and this cuts them where perf's unwinder stops.
 */
LUPE_API unsigned lupe_callchain_max(int max_stack);

LUPE_API uint32_t lupe_callchain_cut(const uint64_t *ips, uint32_t nr, unsigned max, int caller,
				     uint64_t *out, int *lost_ip);

#endif
