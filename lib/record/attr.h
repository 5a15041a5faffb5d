/* SPDX-License-Identifier: GPL-2.0 */
/* How record sets up each event's perf_event_attr, as perf record does. */
#ifndef LUPE_RECORD_ATTR_H
#define LUPE_RECORD_ATTR_H

#include <linux/perf_event.h>
#include <lupe/record.h>

/*
 * Sampling fields on top of what the event spec gave: sample_type (IP, TID,
 * TIME, PERIOD; CPU system-wide; CALLCHAIN and the user stack for -g and
 * dwarf; RAW for tracepoints; IDENTIFIER when several events share a file),
 * frequency or period, read_format ID|LOST, disabled (enable_on_exec for a
 * workload). The tracking event (the first) also asks for MMAP2, COMM, and
 * FORK/EXIT records.
 */
void lupe_record_attr_config(struct perf_event_attr *a, const struct lupe_record_opts *o,
			int tracking, int many);

/*
 * The event's own terms (the spec's "cpu-clock/max-stack=3,call-graph=dwarf/"),
 * over what the options set, as perf record applies them: call-graph=
 * fp|dwarf|no, stack-size, max-stack (a callchain of at most N frames; fp
 * unless call-graph says), inherit/no-inherit, time=0|1; no-overwrite is
 * what lupe does anyway. Any other term (overwrite, nr, branch_type, aux-*)
 * is refused rather than ignored. Returns 0 or -LUPE_ERR_NOT_SUPPORTED with
 * the error sentence set.
 */
int lupe_record_attr_terms(struct perf_event_attr *a, const char *terms);

/*
 * The next try for perf's default event (lupe_record_default_event) after
 * err opening it: a lower precision, then cpu-clock at the precision first
 * asked, named from its attr as perf names it ("cpu-clock:ppp"). Returns 1
 * when evsel changed and is worth opening again, 0 when the error stands,
 * or -ENOMEM.
 */
struct lupe_evsel;
int lupe_record_default_fallback(struct lupe_evsel *evsel, int err);

#endif
