/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Profiles for other tools: an in-memory model of the samples of a perf.data
 * (call stacks as a tree of functions, per thread and event), and writers
 * that turn it into folded stacks, an interactive SVG flame graph, pprof's
 * profile.proto, the Firefox Profiler's Gecko JSON and speedscope's JSON.
 *
 * lupe_profile_collect() is the only part that reads a file; every writer is
 * a function of the model alone, writes to the FILE * it is given and
 * prints nothing else, so a test can build a model by hand
 * (lupe_profile_add_*) and check a writer's output.
 * Thread-safety: a profile is built and written by one thread at a time.
 */
#ifndef LUPE_EXPORT_H
#define LUPE_EXPORT_H

#include <stdint.h>
#include <stdio.h>
#include <lupe/core.h>

#define LUPE_PROF_NONE UINT32_MAX

enum lupe_prof_kind {
	LUPE_PROF_USER,
	LUPE_PROF_KERNEL,
	LUPE_PROF_JIT,     /* perf-PID.map: code a JIT described */
	LUPE_PROF_INLINED, /* a function inlined into its caller */
};

/* A shared object: the first map of it that a sample hit. */
struct lupe_prof_dso {
	const char *name;       /* path, "[kernel.kallsyms]", "[vdso]", "/tmp/perf-N.map" */
	const char *short_name; /* its last component */
	uint8_t build_id[20];
	int build_id_size;
	uint64_t start, limit, pgoff;
	int kernel;
};

/* A function (a symbol of a DSO), or one unresolved address of it. */
struct lupe_prof_func {
	const char *name;  /* NULL: unresolved, addr says where (as perf report shows it) */
	uint32_t dso;      /* index in dsos, or LUPE_PROF_NONE: no map covered the address */
	uint8_t kind;      /* enum lupe_prof_kind */
	uint64_t addr;     /* resolved: the first sampled address; else the unresolved one */
	uint64_t ip;       /* the first sampled address in the process */
};

/* A node of the stack tree: a function called from its parent's function. */
struct lupe_prof_node {
	uint32_t parent;   /* LUPE_PROF_NONE: an outermost frame */
	uint32_t func;
	uint32_t depth;    /* 0 for outermost frames */
};

/* A thread under one comm (a thread that execs shows twice). */
struct lupe_prof_thread {
	int pid, tid;
	const char *comm;
};

struct lupe_prof_event {
	const char *name;
	int tracepoint;   /* perf script shows its fields after the name */
	int has_period;   /* samples carry their period */
	int time_based;   /* the period counts nanoseconds (cpu-clock, task-clock) */
	uint64_t nr_samples, total_period;
};

/* The samples of one stack of one thread and event, added up. */
struct lupe_prof_agg {
	uint32_t thread, node, event; /* node LUPE_PROF_NONE: an empty stack */
	uint64_t count, period;
};

/* One sample in time order (kept only when collect was asked to). */
struct lupe_prof_sample {
	uint32_t thread, node, event, cpu;
	uint64_t time, period;
};

struct lupe_profile {
	struct lupe_prof_dso *dsos;
	struct lupe_prof_func *funcs;
	struct lupe_prof_node *nodes;
	struct lupe_prof_thread *threads;
	struct lupe_prof_event *events;
	struct lupe_prof_agg *aggs;
	struct lupe_prof_sample *samples;
	size_t nr_dsos, nr_funcs, nr_nodes, nr_threads, nr_events, nr_aggs, nr_samples;
	uint32_t first_event;       /* of the first sample not of a tracepoint (folded stacks
				     * show its event); LUPE_PROF_NONE: none */
	uint64_t first_time, last_time;
	uint64_t nr_lost;           /* samples the kernel said it lost */
	struct lupe_profile_priv *priv;
};

/* ---- building the model ---- */

LUPE_API struct lupe_profile *lupe_profile_new(void);
LUPE_API void lupe_profile_delete(struct lupe_profile *p);

/* One copy of s that lives as long as the profile; NULL when out of memory. */
LUPE_API const char *lupe_profile_intern(struct lupe_profile *p, const char *s);

/*
 * Find or add: each returns the index of the item, or a negative errno.
 * Strings are copied. A DSO is identified by its name, a function by
 * (name, dso, kind) or, unresolved, by (dso, addr); a node by (parent,
 * func); a thread by (pid, tid, comm).
 */
LUPE_API long lupe_profile_add_event(struct lupe_profile *p, const char *name, int tracepoint,
				     int has_period, int time_based);
LUPE_API long lupe_profile_add_dso(struct lupe_profile *p, const char *name, int kernel,
				   const uint8_t *build_id, int build_id_size, uint64_t start,
				   uint64_t limit, uint64_t pgoff);
LUPE_API long lupe_profile_add_func(struct lupe_profile *p, const char *name, uint32_t dso,
				    int kind, uint64_t addr, uint64_t ip);
LUPE_API long lupe_profile_add_node(struct lupe_profile *p, uint32_t parent, uint32_t func);
LUPE_API long lupe_profile_add_thread(struct lupe_profile *p, int pid, int tid, const char *comm);

/*
 * A sample of thread on the stack ending in node (LUPE_PROF_NONE: empty),
 * for event. Added up in aggs; kept in samples too when keep is set.
 * Returns 0 or a negative errno.
 */
LUPE_API int lupe_profile_add_sample(struct lupe_profile *p, uint32_t thread, uint32_t node,
				     uint32_t event, uint32_t cpu, uint64_t time, uint64_t period,
				     int keep);

/* ---- reading a perf.data into the model ---- */

struct lupe_collect_opts {
	size_t sz;             /* sizeof(struct lupe_collect_opts) */
	int force;             /* read a file not owned by the caller */
	int keep_samples;      /* keep each sample with its time (firefox, speedscope) */
	const char *pids, *tids, *comms; /* comma-separated filters; NULL: all */
};

/*
 * Read every sample of the perf.data at path ("-": stdin) into a new
 * profile. Frames are named as lupe script names them. NULL + errno on
 * failure (the reason was logged); a file broken part way gives the
 * profile of what was valid before, with a warning logged.
 */
LUPE_API struct lupe_profile *lupe_profile_collect(const char *path,
						   const struct lupe_collect_opts *opts);

/* ---- writers ---- */

/*
 * The name of func in folded stacks, by the rules stackcollapse-perf.pl
 * applies to perf script's text: "+0x.." offsets gone, an unknown symbol
 * becomes "[dso basename]" (or "[unknown]"), ';' becomes ':', what follows
 * a '(' is dropped (except Go's ".(*T)." and "(anonymous namespace)"),
 * quotes are removed. Writes at most size bytes with a NUL (as snprintf);
 * returns the name's whole length (names have no length limit).
 */
LUPE_API size_t lupe_profile_folded_name(const struct lupe_profile *p, uint32_t func,
					 char *buf, size_t size);

/* One line of folded stacks: "comm;outer;...;inner" and its weight. */
struct lupe_folded {
	char *stack;
	uint64_t weight;
	char *kinds; /* per element of stack: 'c' comm, 'u' user, 'k' kernel, 'j' JIT,
		      * 'i' inlined; NULL: not known */
};

/*
 * The profile as folded stacks, sorted as stackcollapse-perf.pl sorts them
 * (byte order), equal stacks merged. Only the samples of the first
 * sample's event (by name) count, with their period as weight; samples of
 * tracepoints (whose fields perf script prints on the event's line) weigh
 * 1 each, as stackcollapse-perf.pl counts them. *out is an array of *nr
 * lines to free with lupe_folded_delete(). Returns 0 or a negative errno.
 */
LUPE_API int lupe_profile_folded(const struct lupe_profile *p, struct lupe_folded **out,
				 size_t *nr);
LUPE_API void lupe_folded_delete(struct lupe_folded *f, size_t nr);

/* Write folded stacks, one "stack weight" line each. Returns 0 or -EIO. */
LUPE_API int lupe_folded_write(const struct lupe_folded *f, size_t nr, FILE *out);

struct lupe_flame_opts {
	size_t sz;            /* sizeof(struct lupe_flame_opts) */
	const char *title;    /* NULL: "Flame Graph" ("Differential Flame Graph" with before) */
	const char *subtitle; /* NULL: none */
	int width;            /* pixels; 0: 1200 */
	int reverse;          /* an icicle graph: roots at the top */
	const char *unit;     /* what weights count: "samples" when NULL */
};

/*
 * An interactive SVG flame graph of folded stacks, as FlameGraph's
 * flamegraph.pl draws it: hover shows a frame's weight and share, a click
 * zooms, Ctrl-F searches and says the matched share. Frames are coloured
 * by kind: kernel ("[k]"), JIT, inlined, user. With before (a second set
 * of folded stacks, an earlier profile), widths come from f and colours
 * from the change of each frame's self weight, before scaled to f's total:
 * red grew, blue shrank. Returns 0 or a negative errno.
 */
LUPE_API int lupe_flame_write(const struct lupe_folded *f, size_t nr,
			      const struct lupe_folded *before, size_t nr_before,
			      const struct lupe_flame_opts *opts, FILE *out);

/*
 * pprof's profile.proto, gzipped: a sample per (stack, thread, event)
 * with values [samples, period] per event, thread labels, locations and
 * functions per function, mappings with build-ids. Returns 0, a negative
 * errno, or -LUPE_ERR_NOT_SUPPORTED when lupe was built without protobuf-c.
 */
LUPE_API int lupe_profile_write_pprof(const struct lupe_profile *p, FILE *out);

/*
 * The Firefox Profiler's Gecko profile JSON: one thread per tid (named by
 * its last comm) with its samples of the main event (first_event; needs
 * keep_samples) in time order, stack, frame and
 * string tables, and a marker for lost samples. Returns 0 or a negative errno.
 */
LUPE_API int lupe_profile_write_gecko(const struct lupe_profile *p, FILE *out);

/* speedscope's file format: a sampled profile per thread. 0 or a negative errno. */
LUPE_API int lupe_profile_write_speedscope(const struct lupe_profile *p, FILE *out);

/*
 * The data of lupe report's browser view: one JSON object with the events,
 * threads, DSOs and functions as JSON, and the stack tree and the main
 * event's samples (time, thread, stack, period; needs keep_samples) as
 * base64 columns of little-endian numbers. No '<' in it, so a page can
 * embed it in a <script> element. Returns 0 or a negative errno.
 */
LUPE_API int lupe_profile_write_web(const struct lupe_profile *p, FILE *out);

#endif
