/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Online unwinding: a stage between a record source and a writer that
 * turns --call-graph dwarf samples (user registers and a copy of the user
 * stack) into plain callchain samples, as samply keeps only the frames.
 * Each sample's user frames, unwound through lib/unwind, go into its
 * callchain after PERF_CONTEXT_USER (after the kernel part the kernel
 * recorded); PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER leave the
 * record, so the file reads as an -g file with every reader (perf 6.1,
 * perfparser, lupe). The writer must write the attrs that
 * lupe_online_attr() made.
 *
 * Records pass through in time order (session/ordered.c, by rounds: a
 * round's records wait for the next FINISHED_ROUND), so that a sample is
 * unwound under the maps its process had at that time: the stage keeps
 * its own machine model (MMAP, MMAP2, COMM, FORK, EXIT of the same stream).
 *
 * Used by record (lib/record/record.c, unless --no-online) and inject
 * (lib/record/inject.c, lupe inject --unwind). Cost: one unwind per sample
 * (lib/unwind's caches make a thread sampled in the same loop a few
 * compares), the records of one round queued; the output is about the
 * size of an -g recording (8 KiB of stack per sample gone). Measured on
 * tests/workloads/threads.c (3 threads, 2 cores): the recording's own
 * user-space work is under 1% of the samples, the workload's slowdown
 * within the noise of raw recording's, the file 70-90x smaller.
 *
 * NEEDSWORK: the stage runs on the thread that drains the rings. A
 * system-wide recording of a busy machine (a build: many short processes,
 * each a new libdw address space) at load 37 on 2 cores lost 65% of its
 * samples online against 20% raw (lupe record -a -- sleep 2). A thread of
 * its own, fed the copied records of each round, would let the rings
 * drain while it unwinds; the writer would then be that thread's, and
 * drain() would wait for it.
 */
#ifndef LUPE_UNWIND_ONLINE_H
#define LUPE_UNWIND_ONLINE_H

#include <stdint.h>
#include <linux/perf_event.h>

struct lupe_online;

/* The attr of a record (its id), as the source recorded it; NULL when unknown. */
typedef const struct perf_event_attr *(*lupe_online_attr_fn)(void *arg,
							      const struct perf_event_header *ev);
/* Take one output record (valid during the call only); 0 or -errno (stops the stage). */
typedef int (*lupe_online_emit_fn)(void *arg, const struct perf_event_header *ev);

/*
 * A stage that reads attrs through attr_of and writes through emit (both
 * with arg). NULL + errno: ENOTSUP when lupe was built without an
 * unwinder, ENOMEM.
 */
struct lupe_online *lupe_online_new(lupe_online_attr_fn attr_of, lupe_online_emit_fn emit,
				    void *arg);
/* Frees the stage without flushing it; NULL is fine. */
void lupe_online_delete(struct lupe_online *o);

/* Whether samples of attr carry what the stage unwinds (user registers and stack). */
int lupe_online_wants(const struct perf_event_attr *attr);
/* Make attr what the output's samples are: CALLCHAIN with the user part, no regs or stack. */
void lupe_online_attr(struct perf_event_attr *attr);

/*
 * Take one input record (stable: it stays valid until the stage flushed
 * it, else it is copied). Returns 0, or what emit returned, or -errno.
 */
int lupe_online_record(struct lupe_online *o, const struct perf_event_header *ev, int stable);
/* Emit everything queued (the end of the input, or of one output file). */
int lupe_online_flush(struct lupe_online *o);

struct lupe_online_stats {
	uint64_t samples;  /* dwarf samples seen */
	uint64_t unwound;  /* those given a user part of at least a caller */
	uint64_t failed;   /* those with user registers whose unwinding stopped at the sampled ip */
};

void lupe_online_get_stats(const struct lupe_online *o, struct lupe_online_stats *st);

#endif
