/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-function counting (lupe stat --func): counters that count only while
 * a thread is inside a function (its outermost call), or between the two
 * ends of a source range, per call.
 *
 * A function becomes an entry and a return uprobe. Where BPF works, BPF
 * programs at the probes read CPU-wide counters, set aside a thread's
 * counts across context switches, and send one record per finished call
 * (lupe_func_session_mechanism() says "bpf"). Otherwise the probes are
 * made in tracefs and opened in one group with the counters on each
 * target thread, inherited by the threads it starts, and sample with
 * PERF_SAMPLE_READ and PERF_FORMAT_GROUP: at every entry and return the
 * kernel writes the thread's own counter values (Linux 6.12+ for inherited
 * events) and the user stack pointer ("records"). Either way a call's
 * counts are the difference between its return and its entry.
 */
#ifndef LUPE_FUNC_H
#define LUPE_FUNC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <lupe/core.h>
#include <lupe/events.h>
#include <lupe/evlist.h>

/* What a --func SPEC says, split: [DSO:]FUNCTION or FILE:LINE-LINE. */
struct lupe_func_spec {
	char *dso;       /* "libc.so.6", a path, or NULL: the program itself */
	char *name;      /* a function name or a glob ("Matrix::*"); NULL for a range */
	char *file;      /* a source file of a range */
	int line_lo, line_hi;
};

/* Parse spec. Returns 0, or -LUPE_ERR_PARSE for an empty part or a bad range. */
LUPE_API int lupe_func_spec_parse(const char *spec, struct lupe_func_spec *out);
/* Free the strings of spec and zero it. */
LUPE_API void lupe_func_spec_clear(struct lupe_func_spec *spec);

/* One place to count: a function, or a source range. */
struct lupe_func_target {
	char *name;      /* the function as shown, or "file.c:120-140" */
	char *path;      /* the ELF file holding it */
	uint64_t entry;  /* file offset of the first instruction */
	uint64_t exit;   /* a range: file offset of its exit; 0 for a function (uretprobe) */
};

/* Why a spec did not resolve, for a sentence the caller writes. */
enum lupe_func_why {
	LUPE_FUNC_OK,
	LUPE_FUNC_NO_DSO,      /* the shared object or file is not found: subject */
	LUPE_FUNC_UNKNOWN,     /* no such function: hint lists close names */
	LUPE_FUNC_INLINE_ONLY, /* the function exists only inlined: hint is a source range */
	LUPE_FUNC_STRIPPED,    /* no symbol table and no debuglink in subject */
	LUPE_FUNC_NO_LINES,    /* a range matches no line of the DWARF line table */
	LUPE_FUNC_NO_DWARF,    /* a range in a file without DWARF (or built without libdw) */
};

struct lupe_func_error {
	enum lupe_func_why why;
	char subject[4096]; /* the file in question */
	char hint[512];    /* close names "a, b, c", or "file.c:12-20" */
};

/*
 * Resolve spec against the program at exe (a path), or the process pid
 * (its mapped shared objects are searched first) when pid > 0. Appends one
 * target per matching function (a glob can match many) to *targets.
 * Returns 0, or -ENOENT with *err filled, or another negative errno.
 */
LUPE_API int lupe_func_resolve(const char *spec, const char *exe, pid_t pid,
			       struct lupe_func_target **targets, int *nr,
			       struct lupe_func_error *err);
/* Free the targets lupe_func_resolve() appended, and the array. */
LUPE_API void lupe_func_targets_delete(struct lupe_func_target *targets, int nr);

/* Per-call and per-thread figures of one target. */
struct lupe_func_stats {
	uint64_t calls;
	uint64_t unfinished; /* left by longjmp, an exception or exit: not in the figures */
	/* per value: the counters of the list, then time inside (ns) */
	double *sum, *sumsq, *min, *max;
};

/* One finished call, for --per-call. */
struct lupe_func_call {
	int target;
	pid_t tid;
	uint64_t time;          /* perf clock at entry, ns */
	const uint64_t *values; /* the counters, then time inside (ns) */
};

typedef void (*lupe_func_call_fn)(void *arg, const struct lupe_func_call *call);

struct lupe_func_session;

/*
 * A session counting events (the counting events of the list: the first
 * supported one leads the group) inside targets. Copies what it needs.
 * Returns NULL with errno set.
 */
LUPE_API struct lupe_func_session *lupe_func_session_new(const struct lupe_event_list *events,
							 const struct lupe_func_target *targets,
							 int nr_targets);
/* Close, remove the probes, free; NULL is ok. */
LUPE_API void lupe_func_session_delete(struct lupe_func_session *s);

/* Call fn for each finished call (NULL: none). */
LUPE_API void lupe_func_session_set_call_fn(struct lupe_func_session *s, lupe_func_call_fn fn,
					    void *arg);

/*
 * Create the probes and start counting on the processes of tids (BPF, for
 * a held workload: enable_on_exec), or
 * open the groups on each thread of tids, one per online CPU (inherited by
 * the threads they start). enable_on_exec: a held workload, counting from
 * its exec; otherwise call lupe_func_session_enable(). Returns 0, or a
 * negative errno with *fail filled (fail->evsel: the index of the event in
 * the list, or -1 for a probe); nothing is left open or created then.
 */
LUPE_API int lupe_func_session_open(struct lupe_func_session *s, const pid_t *tids, int nr_tids,
				    int enable_on_exec, struct lupe_open_failure *fail);
/*
 * records_only: count with sample records even where the BPF programs
 * could run (before lupe_func_session_open; for tests and comparisons).
 */
LUPE_API void lupe_func_session_set_records(struct lupe_func_session *s, int records_only);
/* How the open session counts: "bpf" (in the kernel) or "records" (sample records). */
LUPE_API const char *lupe_func_session_mechanism(const struct lupe_func_session *s);
/* Start counting. Returns 0 or a negative errno. */
LUPE_API int lupe_func_session_enable(struct lupe_func_session *s);

/*
 * Drain the ring buffers into the figures. Call often enough that they do
 * not fill (lost records make calls unfinished). Returns the number of
 * records read, or a negative errno.
 */
LUPE_API int lupe_func_session_poll(struct lupe_func_session *s);

/*
 * Stop counting: disable, drain, close the events and remove the probes
 * (the program's text is as before). Calls still open are counted as
 * unfinished. Safe to call twice.
 */
LUPE_API void lupe_func_session_close(struct lupe_func_session *s);

/* The name of target t as shown ("sum", "file.c:120-140"), or NULL past the last. */
LUPE_API const char *lupe_func_session_target_name(const struct lupe_func_session *s, int t);

/* The number of values per call: counting events, then time inside. */
LUPE_API int lupe_func_session_nr_values(const struct lupe_func_session *s);
/* Name of value idx ("task-clock", ..., "time"), and whether it was counted. */
LUPE_API const char *lupe_func_session_value_name(const struct lupe_func_session *s, int idx);
LUPE_API int lupe_func_session_value_supported(const struct lupe_func_session *s, int idx);
/* The event of value idx (NULL for time). */
LUPE_API const struct lupe_event *lupe_func_session_value_event(const struct lupe_func_session *s,
								int idx);

/*
 * Records the kernel lost (ring full): with the probes' records, calls
 * they held are unfinished; with BPF's, each is a call missing from every
 * figure.
 */
LUPE_API uint64_t lupe_func_session_lost(const struct lupe_func_session *s);

/*
 * Calls that reached lupe but could not be counted: no memory for their
 * thread's figures (a test forces it with LUPE_FUNC_FAULT_THREADS=N: no
 * thread past the first N). With records, each lost return counts.
 */
LUPE_API uint64_t lupe_func_session_lost_calls(const struct lupe_func_session *s);

/* Figures of target t over all threads (tid 0), or of one thread. */
LUPE_API const struct lupe_func_stats *lupe_func_session_stats(const struct lupe_func_session *s,
							      int t, pid_t tid);
/* The threads seen, in order of first sight: how many, and the idx-th. */
LUPE_API int lupe_func_session_nr_tids(const struct lupe_func_session *s);
LUPE_API pid_t lupe_func_session_tid(const struct lupe_func_session *s, int idx);

#endif
