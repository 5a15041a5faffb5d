/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one event type: an evsel is the same object whether it is counted
 * (stat), sampled (record) or read back from a perf.data (the reader), and
 * an evlist holds them, as libperf does. Public headers keep both opaque.
 */
#ifndef LUPE_COUNTING_EVSEL_H
#define LUPE_COUNTING_EVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <lupe/evlist.h>
#include <lupe/evsel.h>

struct lupe_evsel {
	struct perf_event_attr attr; /* as opened: the fallbacks' changes stay */
	char *name;
	char *filter;    /* tracepoint filter set after open (PERF_EVENT_IOC_SET_FILTER); NULL if none */
	char *config_terms; /* the spec's per-event record terms (max-stack=3,...); NULL if none */
	int idx;
	enum lupe_tool_event tool;
	int leader;      /* index of the group leader; own index if ungrouped */
	int group_size;  /* on a leader: members counting itself */
	int supported;
	int *fds;                   /* [cpu_idx * nthreads + thread_idx], -1 if none */
	struct lupe_counts *counts; /* same layout; a tool event uses [0] */
	uint64_t *ids;              /* sample ids: the kernel's (opened) or the file's */
	size_t nr_ids;
	void *tp_format;            /* a file's tracepoint: struct tep_event *, else NULL */
	char *cgroup;               /* -G: counted in this cgroup only (its path under the root), else NULL */
	int cgroup_fd;              /* and its directory, opened with PERF_FLAG_PID_CGROUP */
	struct lupe_evsel_stats stats;
	struct lupe_evlist *evlist;
};

struct lupe_evlist {
	int nr;
	struct lupe_evsel **evsels;
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads;
	int ncpus, nthreads;
	uint64_t tool_ns[4]; /* indexed by enum lupe_tool_event */
	/* id -> evsel, sorted by id; rebuilt when ids changed (ids_dirty) */
	struct lupe_id_entry { uint64_t id; struct lupe_evsel *evsel; } *id_table;
	size_t nr_id_table;
	int ids_dirty;
	int id_pos_sample, id_pos_other; /* where records carry their sample id */
	/* the topology aggregates of the cpu map, for aggr_mode; rebuilt on open */
	struct lupe_aggr_map *aggr_map;
};

/* Drop the cached topology aggregates (the cpu map changed, or the list goes). */
void lupe_evlist_aggr_map_free(struct lupe_evlist *evlist);
/* How many aggregates a topology mode (core, socket, die, node) makes; 0 when sysfs fails. */
int lupe_evlist_aggr_topo_nr(const struct lupe_evlist *evlist, enum lupe_aggr mode);
/* The aggregate of mode the CPU at cpu_idx belongs to, or -1. */
int lupe_evlist_aggr_of_cpu(const struct lupe_evlist *evlist, enum lupe_aggr mode, int cpu_idx);

/* Whether an event's name starts with prefix ("raw_syscalls:"); false for no list. */
bool lupe_evlist_has_prefix(const struct lupe_evlist *evlist, const char *prefix);

/* Append one id to the evsel's; 0 or -ENOMEM. */
int lupe_evsel_add_id(struct lupe_evsel *evsel, uint64_t id);
/* Replace the evsel's ids with a copy of ids; 0 or -ENOMEM. */
int lupe_evsel_set_ids(struct lupe_evsel *evsel, const uint64_t *ids, size_t nr);

/* Name an event from its attr the way perf does ("cpu-clock", "cycles:u"). */
char *lupe_evsel_name_from_attr(const struct perf_event_attr *attr);

/* May this process sample the kernel (perf_event_can_profile_kernel)? 1 or 0. */
int lupe_can_profile_kernel(void);

/* Say once that user space only is counted (perf_event_paranoid). */
void lupe_say_user_only(void);

/*
 * Add an evsel for a parsed event: attr, name, tool kind and tracepoint
 * filter (the group is the caller's). NULL + errno; the list owns the evsel.
 */
struct lupe_evsel *lupe_evlist_add_event(struct lupe_evlist *evlist, const struct lupe_event *ev);

#endif
