/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening one perf event and saying why the kernel refused it. Shared by
 * counting (stat) and sampling (record): both open events per CPU x thread
 * and must tell "the machine lacks this event" (perf prints <not supported>
 * and goes on) from "you may not" (a sentence about perf_event_paranoid and
 * CAP_PERFMON) and from everything else.
 */
#ifndef LUPE_EVSEL_H
#define LUPE_EVSEL_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <lupe/core.h>

/*
 * perf_event_open(2) with PERF_FLAG_FD_CLOEXEC. Returns the fd or a negative
 * errno; attr->size is set if it was 0. A PMU that refuses exclude_guest /
 * exclude_host (EINVAL) is retried without them, as perf does, and *attr
 * keeps the cleared bits when the retry works. An event refused for
 * perf_event_paranoid >= 2 (EACCES/EPERM) is retried for user space only
 * (exclude_kernel, exclude_hv), as perf's evsel__fallback does; *attr keeps
 * those bits when that works (callers name the event "NAME:u"), and a
 * warning says so once per process. A retry that fails for another reason
 * (no such event) returns that error: it is the real one.
 */
LUPE_API int lupe_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
				  int group_fd, unsigned long flags);

/*
 * The name perf gives an event that fell back to user space: "NAME:u", or
 * "NAMEu" when NAME has modifiers or a PMU already ("cycles:k" stays as
 * perf leaves it, "cpu/x/" becomes "cpu/x/u"). Malloc'ed; NULL + errno.
 */
LUPE_API char *lupe_evsel_name_user_only(const char *name);

/* What a failed open means for the command that asked. */
enum lupe_open_verdict {
	LUPE_OPEN_UNSUPPORTED, /* the machine has no such event: skip it, print <not supported> */
	LUPE_OPEN_DENIED,      /* permission: perf_event_paranoid, CAP_PERFMON */
	LUPE_OPEN_FATAL,       /* anything else (EMFILE, ESRCH, EBUSY...) */
};

/* Classify the negative errno of a failed open the way perf stat does. */
LUPE_API enum lupe_open_verdict lupe_open_verdict(int err);

/* /proc/sys/kernel/perf_event_paranoid, or 2 (the default) if unreadable. */
LUPE_API int lupe_perf_event_paranoid(void);

/*
 * A sentence (lowercase, no final full stop) for a failed open of the event
 * called name with attr on cpu (-1: any) and pid (-1: any): what failed and
 * what to do (the paranoid level, CAP_PERFMON, try ':u', a missing PMU, a
 * process that went away). Writes at most size bytes to buf; returns buf.
 */
LUPE_API char *lupe_open_strerror(int err, const struct perf_event_attr *attr,
				  const char *name, int cpu, pid_t pid,
				  char *buf, size_t size);

#endif
