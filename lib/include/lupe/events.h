/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event specs: the one parser every command shares for what perf's -e
 * accepts (symbolic hardware, software, cache and tool events, tracepoints
 * and globs, raw rNNN, pmu/term=val/, mem: breakpoints, modifiers, groups,
 * comma lists). The result is a list of events with their perf_event_attr
 * filled in, ready to open.
 */
#ifndef LUPE_EVENTS_H
#define LUPE_EVENTS_H

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

struct lupe_event {
	struct perf_event_attr attr;
	char *name;       /* as perf prints it: "cycles:u", "sched:sched_switch" */
	char *pmu_name;   /* "cpu", "software", "tracepoint", "msr"...; NULL for tool events */
	enum lupe_tool_event tool;
	int leader;       /* index of the group leader in the list; own index if ungrouped */
	int group_size;   /* on a leader: members counting itself; 1 when ungrouped */
	char *group_name; /* "{a,b}" groups keep perf's name; NULL otherwise */
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
 * (-ENOMEM). On failure the list is left as it was before the call.
 */
LUPE_API int lupe_events_parse(struct lupe_event_list *list, const char *spec,
			       struct lupe_parse_error *err);

/* Free everything the list holds; the list may be reused after. NULL is ok. */
LUPE_API void lupe_event_list_clear(struct lupe_event_list *list);

#endif
