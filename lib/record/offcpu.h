/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --off-cpu: the BPF program on sched_switch (lib/bpf/offcpu.bpf.c)
 * that sums, per thread, user stack and sleep state, the time tasks spend
 * off the CPU; at the end each sum becomes one sample of the `offcpu-time`
 * event, as perf writes them, read from a source as any other records.
 */
#ifndef LUPE_RECORD_OFFCPU_H
#define LUPE_RECORD_OFFCPU_H

#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <lupe/source.h>

struct lupe_bpf_prog;

/*
 * Load the program (bpf/prog.h, which adds processes, starts and deletes
 * it): every task but ours with system_wide, otherwise the processes
 * added. NULL and errno: -LUPE_ERR_NOT_SUPPORTED without BPF, a libbpf
 * error (EPERM without privileges).
 */
struct lupe_bpf_prog *lupe_offcpu_load(int system_wide);

/* The offcpu-time event's attr: a BPF output software event sampled with callchains. */
void lupe_offcpu_attr(struct perf_event_attr *attr, int system_wide);

/*
 * The sums of prog as a record source (lupe/source.h) of one event,
 * offcpu-time with attr: each sum a PERF_RECORD_SAMPLE laid out for attr
 * (sample id id, time past every real sample as perf's, period the
 * nanoseconds off the CPU, the user stack as callchain), not stable. Read
 * it once the recording stopped: one read emits every sum, then the source
 * has ended (a later read emits nothing). Delete it before prog. NULL and
 * errno: -ENOMEM, -LUPE_ERR_NOT_SUPPORTED without BPF.
 */
struct lupe_source *lupe_offcpu_source(struct lupe_bpf_prog *prog,
				       const struct perf_event_attr *attr, uint64_t id);

#endif
