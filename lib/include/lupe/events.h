/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event specs: the one parser every command shares for what perf's -e
 * accepts (symbolic hardware, software, cache and tool events, tracepoints
 * and globs, raw rNNN, pmu/term=val/, mem: breakpoints, modifiers, groups,
 * comma lists). The result is a list of events with their perf_event_attr
 * filled in, ready to open. Documentation/event-specs.md has the grammar.
 *
 * Thread-safety: parsing and listing may run on several threads at once
 * with distinct lists; lupe_events_set_sysfs()/_set_tracefs() are
 * process-wide: call them before starting threads.
 */
#ifndef LUPE_EVENTS_H
#define LUPE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <lupe/core.h>

/* Events perf computes in user space rather than asking the kernel for. */
enum lupe_tool_event {
	LUPE_TOOL_NONE = 0,
	LUPE_TOOL_DURATION_TIME,
	LUPE_TOOL_USER_TIME,
	LUPE_TOOL_SYSTEM_TIME,
};

/*
 * One parsed event. The parser sets attr.size, type, config, config1/2,
 * bp_type/bp_addr/bp_len, the exclude_* bits, precise_ip, and pinned and
 * exclusive on group leaders; disabled is 0 and the rest is left for the
 * counting code. As perf does, every event starts with exclude_guest set
 * (modifiers recompute it): a PMU that refuses it (msr here) answers
 * EINVAL, and perf then retries with exclude_guest and exclude_host clear.
 * Tool events carry a software dummy attr and are never opened.
 */
struct lupe_event {
	struct perf_event_attr attr;
	char *name;       /* as perf prints it: "cycles:u", "sched:sched_switch" */
	char *pmu_name;   /* "cpu", "software", "tracepoint", "msr"...; NULL for tool events */
	enum lupe_tool_event tool;
	int leader;       /* index of the group leader in the list; own index if ungrouped */
	int group_size;   /* on a leader: members counting itself; 1 when ungrouped */
	char *group_name; /* on the leader of a named group "foo{a,b}": "foo"; NULL otherwise
			   * (perf writes "{anon_group}" for those in perf.data) */
	/* Per-event terms, pmu/period=N/ or freq=N: 0 when not given. They beat
	 * the command's -c/-F for this event, as in perf. */
	__u64 sample_period;
	__u64 sample_freq;
	/* The other per-event terms perf's record applies itself, as given:
	 * "call-graph=dwarf,stack-size=8192", "no-inherit", "max-stack=N",
	 * "nr=N", "time=0", "overwrite", "branch_type=any", "aux-output"...;
	 * NULL when none. Tracepoints take them too: sched:sched_switch/call-graph=fp/. */
	char *config_terms;
	/* Modifiers with no attr bit: S (sample the group with PERF_SAMPLE_READ),
	 * P (the highest precise_ip the machine takes), W (weak group: open the
	 * members alone if the group does not fit), b (count with BPF). */
	bool sample_read, precise_max, weak_group, bpf_counter;
	bool exclude_gh;  /* G or H given: u and p then leave exclude_guest alone */
	/* The spec asked for a PMU that counts on these CPUs only (its sysfs
	 * cpumask or cpus file: "0" for an uncore PMU, the P-cores for
	 * cpu_core), as a CPU list; NULL when any CPU goes. */
	char *cpus;
	/* --filter EXPR given after this event's -e (tracepoints): set on
	 * each fd after open with PERF_EVENT_IOC_SET_FILTER; NULL when none */
	char *filter;
};

/* A growable array of events; the list owns each event's strings. */
struct lupe_event_list {
	struct lupe_event *events;
	size_t nr;
	size_t alloc;
};

/* Where and why a spec failed; pos is a byte offset into the spec or -1. */
struct lupe_parse_error {
	int pos;
	char msg[256];   /* "parser error", "unknown event 'foo'" ... */
	char help[256];  /* an optional hint; empty if none */
};

/*
 * Parse spec (comma list, groups, modifiers) and append its events to list.
 * Returns 0, or -LUPE_ERR_PARSE with *err filled, or another negative errno
 * (-ENOMEM). On failure the list is left as it was before the call. err may
 * be NULL. Tracepoints need tracefs: it is mounted at /sys/kernel/tracing
 * when it is not mounted yet and we may (root).
 */
LUPE_API int lupe_events_parse(struct lupe_event_list *list, const char *spec,
			       struct lupe_parse_error *err);

/* Free everything the list holds; the list may be reused after. NULL is ok. */
LUPE_API void lupe_event_list_clear(struct lupe_event_list *list);

/*
 * Where the parser and the lister look for PMUs (default "/sys", which holds
 * bus/event_source/devices) and for tracefs (default: the mounted one). For
 * tests with a fixture tree; NULL restores the default. The string is copied.
 */
LUPE_API int lupe_events_set_sysfs(const char *dir);
LUPE_API int lupe_events_set_tracefs(const char *dir);

/*
 * The tracefs directory (holding events/), mounting it at /sys/kernel/tracing
 * when needed and allowed. Returns a static string, or NULL with errno set to
 * LUPE_ERR_NO_TRACEFS, or to EACCES when it is mounted but closed to us.
 */
LUPE_API const char *lupe_tracefs_dir(void);

/*
 * The id of a tracepoint ("sched:sched_switch"), what perf_event_attr.config
 * takes with type PERF_TYPE_TRACEPOINT. Returns the id (>= 0), or a
 * negative errno: -EINVAL without the ':', -ENOENT for an unknown one,
 * -LUPE_ERR_NO_TRACEFS or -EACCES when tracefs is missing or closed to us;
 * lupe_last_error() then says what to do. Thread-safe.
 */
LUPE_API long long lupe_tracepoint_lookup(const char *sys_name);

/* What `lupe list` shows: one kind per section, in perf's order. */
enum lupe_event_kind {
	LUPE_KIND_HARDWARE,
	LUPE_KIND_SOFTWARE,
	LUPE_KIND_TOOL,
	LUPE_KIND_CACHE,
	LUPE_KIND_PMU,        /* sysfs PMU event aliases: "msr/tsc/" */
	LUPE_KIND_RAW,        /* the rNNN and pmu/terms/ descriptors */
	LUPE_KIND_BREAKPOINT, /* the mem: descriptor */
	LUPE_KIND_TRACEPOINT,
	LUPE_KIND_MAX,
};
#define LUPE_KIND_BIT(k) (1u << (k))
#define LUPE_KINDS_ALL ((1u << LUPE_KIND_MAX) - 1)

/* "Hardware event", "Tracepoint event"...: the words perf puts in brackets. */
LUPE_API const char *lupe_event_kind_desc(enum lupe_event_kind kind);

struct lupe_event_desc {
	enum lupe_event_kind kind;
	char *name;      /* "cpu-cycles", "sched:sched_switch", "msr/tsc/" */
	char *alias;     /* "cycles" for cpu-cycles; NULL if none */
	char *pmu;       /* the PMU that counts it: "cpu", "software", "msr"; NULL for tool */
	char *encoding;  /* how to spell it by hand: "software/config=0x2/"; may be NULL */
};

struct lupe_event_desc_list {
	struct lupe_event_desc *descs;
	size_t nr;
	size_t alloc;
};

/*
 * Collect what this machine can count, as `perf list` shows it: the kinds
 * set in mask, in perf's order, each section sorted as perf sorts it.
 * Hardware and cache events are listed only when the kernel opens them (one
 * probe per event, as perf does). glob (fnmatch) keeps the entries whose
 * name or alias matches; NULL keeps all. Tracepoints: a glob with a ':'
 * matches system and event apart ("sched:*"). Returns 0 or a negative errno;
 * a missing tracefs is not an error (the section is empty, logged).
 */
LUPE_API int lupe_events_list(struct lupe_event_desc_list *out, unsigned int mask,
			      const char *glob);
LUPE_API void lupe_event_desc_list_clear(struct lupe_event_desc_list *list);

/*
 * --filter: give filter (copied) to the tracepoint events of list from index
 * from on, that is those of the last -e. Returns 0, or -EINVAL when none of
 * them is a tracepoint, or -ENOMEM.
 */
LUPE_API int lupe_events_set_filter(struct lupe_event_list *list, size_t from,
				    const char *filter);

/* Set filter on an open tracepoint fd: 0, -LUPE_ERR_FILTER when refused, -errno. */
LUPE_API int lupe_event_fd_set_filter(int fd, const char *filter);

/*
 * The fields of tracepoint name ("sched:sched_switch") from its tracefs
 * format, common_* first, as a NULL-terminated array the caller frees with
 * lupe_tracepoint_fields_delete(). NULL and errno set when the event has no format.
 */
LUPE_API char **lupe_tracepoint_fields(const char *name);
LUPE_API void lupe_tracepoint_fields_delete(char **fields);

/*
 * Why a filter may be refused: the first word of filter compared or tested
 * as a field ("prev_pidd" in "prev_pidd > 0") that is not one of fields
 * (nor one the kernel adds: cpu, comm). Copies it into out and returns 1;
 * 0 when every field is known.
 */
LUPE_API int lupe_filter_unknown_field(const char *filter, char *const *fields,
				       char *out, size_t size);

#endif
