/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --off-cpu: the BPF program on sched_switch (lib/bpf/offcpu.bpf.c)
 * that sums, per thread, user stack and sleep state, the time tasks spend
 * off the CPU; at the end each sum becomes one sample of the `offcpu-time`
 * event, as perf writes them.
 */
#ifndef LUPE_RECORD_OFFCPU_H
#define LUPE_RECORD_OFFCPU_H

#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct lupe_offcpu;

/*
 * Load the program: every task but ours with system_wide, otherwise the
 * processes added. NULL and errno: -LUPE_ERR_NOT_SUPPORTED without BPF,
 * a libbpf error (EPERM without privileges).
 */
struct lupe_offcpu *lupe_offcpu_new(int system_wide);
int lupe_offcpu_add_pid(struct lupe_offcpu *o, pid_t pid);
int lupe_offcpu_start(struct lupe_offcpu *o);

/* The offcpu-time event's attr: a BPF output software event sampled with callchains. */
void lupe_offcpu_attr(struct perf_event_attr *attr, int system_wide);

/*
 * Each sum as a PERF_RECORD_SAMPLE laid out for attr (sample id id, time
 * past every real sample as perf's, period the nanoseconds off the CPU,
 * the user stack as callchain), handed to emit. Returns 0 or what emit
 * returned.
 */
int lupe_offcpu_write(struct lupe_offcpu *o, const struct perf_event_attr *attr, uint64_t id,
		      int (*emit)(void *arg, const struct perf_event_header *h), void *arg);

void lupe_offcpu_delete(struct lupe_offcpu *o);

#endif
