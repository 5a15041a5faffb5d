/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The list of events (evsels), libperf's shape: the one event type of
 * lupe, whether it is counted (stat), sampled (record, top) or read back
 * from a perf.data (lupe_perf_file_evlist()). Counting: each opened on
 * every CPU x thread of a target, read and summed. Groups open their members with the leader's
 * fd and are read in one go. Tool events (duration_time, user_time,
 * system_time) have no fd: the caller hands in their values.
 *
 * Thread-safety: an evlist (and its evsels) is used by one thread at a time;
 * distinct evlists are independent.
 */
#ifndef LUPE_EVLIST_H
#define LUPE_EVLIST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <lupe/core.h>
#include <lupe/counts.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>

struct lupe_evlist;
struct lupe_evsel;

/* How the counters are opened; sz first, so that the struct can grow. */
struct lupe_evlist_opts {
	size_t sz;          /* sizeof(struct lupe_evlist_opts) */
	int inherit;        /* count the children the threads fork (a workload) */
	int enable_on_exec; /* start counting at the thread's next exec (a held workload) */
	/*
	 * Sampling (record, top): open each attr as it is, with perf record's
	 * fallbacks (no PERF_FORMAT_LOST before 6.0; user space only when
	 * perf_event_paranoid refuses the kernel); a missing event is an
	 * error, a thread of several that exited meanwhile is skipped.
	 */
	int sampling;
	int cgroup;         /* the thread map holds fds of cgroup directories, not pids:
			     * count what runs in each cgroup (perf stat -G); needs a CPU map */
};

/* Why lupe_evlist_open() stopped: the event and where it was opened. */
struct lupe_open_failure {
	int err;      /* negative errno from the kernel */
	int evsel;    /* index of the event in the list */
	int cpu;      /* -1: any CPU */
	pid_t pid;    /* -1: any thread */
};

/* An empty list; fill it with lupe_evlist_add(). NULL + errno. */
LUPE_API struct lupe_evlist *lupe_evlist_new_empty(void);

/*
 * Append an event (attr copied, name copied; NULL: none yet). Returns the
 * evsel, owned by the list, or NULL + errno.
 */
LUPE_API struct lupe_evsel *lupe_evlist_add(struct lupe_evlist *evlist,
					    const struct perf_event_attr *attr, const char *name);

/*
 * A list with one evsel per event of events (attrs and names are copied;
 * events may be freed after). Returns NULL with errno set on failure.
 */
LUPE_API struct lupe_evlist *lupe_evlist_new(const struct lupe_event_list *events);
/* Close and free everything; NULL is ok. */
LUPE_API void lupe_evlist_delete(struct lupe_evlist *evlist);

LUPE_API int lupe_evlist_nr(const struct lupe_evlist *evlist);

/* The evsel a sample id belongs to (the only one when the list has one), or NULL. */
LUPE_API struct lupe_evsel *lupe_evlist_evsel_by_id(struct lupe_evlist *evlist, uint64_t id);

/*
 * The evsel a record (a sample, or another record with sample_id_all)
 * belongs to, found by its sample id where the first event's sample_type
 * puts it, as perf does. NULL when the id is unknown or the record short.
 */
struct perf_event_header;
LUPE_API struct lupe_evsel *lupe_evlist_record_evsel(struct lupe_evlist *evlist,
						     const struct perf_event_header *ev);
LUPE_API struct lupe_evsel *lupe_evlist_evsel(struct lupe_evlist *evlist, int idx);

/*
 * Open every event on every CPU of cpus and thread of threads (the list
 * takes a reference on each map). Events the machine lacks are marked
 * unsupported and skipped, as perf does (an unsupported group leader with
 * members is an error). Counters start disabled unless opts->enable_on_exec;
 * call lupe_evlist_enable(). Returns 0, or the negative errno of the first
 * refusal with *fail filled (fail may be NULL); nothing is left open then.
 */
LUPE_API int lupe_evlist_open(struct lupe_evlist *evlist, struct lupe_cpu_map *cpus,
			      struct lupe_thread_map *threads,
			      const struct lupe_evlist_opts *opts,
			      struct lupe_open_failure *fail);
/* Start, stop and zero every open counter (a group through its leader). 0 or a negative errno. */
LUPE_API int lupe_evlist_enable(struct lupe_evlist *evlist);
LUPE_API int lupe_evlist_disable(struct lupe_evlist *evlist);
LUPE_API int lupe_evlist_reset(struct lupe_evlist *evlist);

/*
 * The one-liner: a list from an event spec in perf's -e grammar
 * ("task-clock,{instructions,cache-misses}:u"), groups kept. Returns NULL
 * with errno set (LUPE_ERR_PARSE for a bad spec, ENOMEM) and
 * lupe_last_error() saying where the spec went wrong. The caller owns the
 * list (lupe_evlist_delete()). lupe_events_parse() is the same parser for
 * callers that want the attrs before opening.
 */
LUPE_API struct lupe_evlist *lupe_evlist_parse(const char *spec);

/*
 * Open every event on one task and CPU, as perf_event_open(2) takes them:
 * pid 0 the calling thread, a pid/tid that thread, -1 every task (with a
 * cpu); cpu -1 any CPU, or one CPU. The counters start disabled (call
 * lupe_evlist_enable()); events the machine lacks are marked unsupported
 * and skipped. Returns 0 or a negative errno, with lupe_last_error() saying
 * what to do (perf_event_paranoid, a missing PMU).
 */
LUPE_API int lupe_evlist_open_task(struct lupe_evlist *evlist, pid_t pid, int cpu);

/*
 * Read every open counter: the values are cumulative since open. Tool
 * events get the values of lupe_evlist_set_tool_times(). Returns 0 or a
 * negative errno.
 */
LUPE_API int lupe_evlist_read(struct lupe_evlist *evlist);

/* Values for the tool events, in ns: wall time, and the workload's user/sys times. */
LUPE_API void lupe_evlist_set_tool_times(struct lupe_evlist *evlist, uint64_t duration_ns,
					 uint64_t user_ns, uint64_t system_ns);

/* Close every fd (the counts read last stay); the list can be opened again. */
LUPE_API void lupe_evlist_close(struct lupe_evlist *evlist);

LUPE_API struct lupe_cpu_map *lupe_evlist_cpus(const struct lupe_evlist *evlist);
LUPE_API struct lupe_thread_map *lupe_evlist_threads(const struct lupe_evlist *evlist);

/* The event's name ("cpu-clock", "sched:sched_switch"); may be NULL for a file's unnamed event. */
LUPE_API const char *lupe_evsel_name(const struct lupe_evsel *evsel);
/* Its attr, as opened (the fallbacks' changes included) or as the file holds it. */
LUPE_API const struct perf_event_attr *lupe_evsel_attr(const struct lupe_evsel *evsel);
/* Its position in its list, from 0. */
LUPE_API int lupe_evsel_idx(const struct lupe_evsel *evsel);
/* Its sample ids (the kernel's once opened for sampling, or the file's). */
LUPE_API const uint64_t *lupe_evsel_ids(const struct lupe_evsel *evsel, size_t *nr);
/* The fd open on the CPU at cpu_idx and the thread at thread_idx, or -1. */
LUPE_API int lupe_evsel_fd(const struct lupe_evsel *evsel, int cpu_idx, int thread_idx);

/* What a session counted for the event while it read records. */
struct lupe_evsel_stats {
	uint64_t nr_samples;
	uint64_t total_period;
	uint64_t lost_samples;
};
LUPE_API const struct lupe_evsel_stats *lupe_evsel_stats(const struct lupe_evsel *evsel);
LUPE_API enum lupe_tool_event lupe_evsel_tool(const struct lupe_evsel *evsel);
/* 0 once an open found that the machine lacks the event; 1 otherwise. */
LUPE_API int lupe_evsel_supported(const struct lupe_evsel *evsel);
/* The cgroup the event counts in (perf's -G), or NULL: everything. */
LUPE_API const char *lupe_evsel_cgroup(const struct lupe_evsel *evsel);

/*
 * Where perf_event cgroups live, as perf finds it: the v1 hierarchy with
 * the perf_event controller, else the cgroup2 mount. 0 or -ENOENT (none).
 */
LUPE_API int lupe_cgroup_root(char *dir, size_t size);
/* The directory of cgroup name (relative to that root), opened: an fd or -errno. */
LUPE_API int lupe_cgroup_open(const char *name);
/*
 * perf's -G: the comma-separated names of lists[0..nr), in order, are the
 * cgroups of the list's events in order (an empty name: none); a single
 * name is every event's. Each event then opens on every CPU of a
 * system-wide thread map with PERF_FLAG_PID_CGROUP. Returns 0, -E2BIG for
 * more names than events, or the error opening a cgroup; the name at
 * fault goes to bad (size bytes).
 */
LUPE_API int lupe_evlist_set_cgroups(struct lupe_evlist *evlist, char *const *lists, int nr,
				     char *bad, size_t size);

/*
 * The values last read on the CPU at cpu_idx of the list's cpu map and the
 * thread at thread_idx. A tool event has one slot, (0, 0); others give zeros.
 */
LUPE_API struct lupe_counts lupe_evsel_counts(const struct lupe_evsel *evsel, int cpu_idx,
					      int thread_idx);

/*
 * How counts are summed for printing: all together, per CPU (-A), per
 * thread, or per core, socket, die or NUMA node of the CPUs (perf stat's
 * --per-core, --per-socket, --per-die, --per-node), from the sysfs
 * topology of each CPU (/sys/devices/system/cpu/cpuN/topology, nodeM).
 */
enum lupe_aggr {
	LUPE_AGGR_GLOBAL,
	LUPE_AGGR_CPU,
	LUPE_AGGR_THREAD,
	LUPE_AGGR_CORE,
	LUPE_AGGR_SOCKET,
	LUPE_AGGR_DIE,
	LUPE_AGGR_NODE,
};

/* How many aggregates mode makes of the list's maps: 1, the CPUs, the threads, the cores... */
LUPE_API int lupe_evlist_aggr_nr(const struct lupe_evlist *evlist, enum lupe_aggr mode);

/*
 * Where one aggregate of a topology mode sits: the socket, die and core of
 * its CPUs (-1 where the mode does not go that deep), its node, and how
 * many of the list's CPUs it sums (perf's "aggregate-number"). A die_id
 * sysfs lacks is 0, as perf takes it.
 */
struct lupe_aggr_id {
	int socket, die, core, node;
	int cpu;  /* LUPE_AGGR_CPU: the CPU; -1 otherwise */
	int nr;   /* CPUs in the aggregate */
};

/*
 * The id of aggregate idx of mode, the aggregates sorted as perf sorts
 * them (socket, die, core; node). 0, or -EINVAL for an idx out of range.
 */
LUPE_API int lupe_evlist_aggr_id(const struct lupe_evlist *evlist, enum lupe_aggr mode, int idx,
				 struct lupe_aggr_id *id);

/*
 * The topology of one CPU from sysfs; 0 or a negative errno (a CPU that
 * is not there). A file sysfs lacks gives -1 (die: 0, node: 0).
 */
LUPE_API int lupe_cpu_topology(int cpu, struct lupe_aggr_id *id);

/*
 * The raw (unscaled) sum of an event's values in aggregate idx: scale the
 * sum, not the parts, as perf does. A tool event counts in aggregate 0 only.
 */
LUPE_API struct lupe_counts lupe_evsel_aggr_counts(const struct lupe_evsel *evsel,
						   enum lupe_aggr mode, int idx);

/*
 * The raw sums of the last lupe_evlist_read() of every event in every
 * aggregate of mode into t (sized, or resized, to the list). merge_into
 * (NULL: none) folds event e's counts into event merge_into[e], leaving e's
 * zero (perf's merged aliases: one event counted on several PMUs). 0 or
 * -ENOMEM. lupe_counts_table_clear() frees t.
 */
LUPE_API int lupe_evlist_counts_table(struct lupe_evlist *evlist, enum lupe_aggr mode,
				      const int *merge_into, struct lupe_counts_table *t);

#endif
