// SPDX-License-Identifier: GPL-2.0
/*
 * lupe record --off-cpu: on each sched_switch, a task of the recording that
 * goes to sleep (interruptible or not) notes when, in which state and its
 * user stack; when it runs again the time it was off the CPU is added to
 * off_cpu[pid, tgid, stack, state]. At the end of the recording userspace
 * turns each entry into one `offcpu-time` sample whose period is that time
 * in nanoseconds, as perf record --off-cpu does.
 *
 * Which tasks: tasks.bpf.h's (every one but lupe's own with -a; otherwise
 * the processes in tgids, the workload or -p), and their children as they fork.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "offcpu-rec.h"
#include "stacks.bpf.h"
#include "tasks.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_INTERRUPTIBLE 0x1
#define TASK_UNINTERRUPTIBLE 0x2

LUPE_BPF_STACKS(OFFCPU_MAX_STACK);

struct sleep_start {
	__u64 when;
	__s64 stack_id;
	__u32 state;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sleep_start);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct offcpu_key);
	__type(value, __u64);
} off_cpu SEC(".maps");

static bool wanted(struct task_struct *t)
{
	return task_wanted(BPF_CORE_READ(t, tgid), BPF_CORE_READ(t, pid));
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 state = BPF_CORE_READ(prev, __state);
	struct sleep_start *s;

	if ((state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)) && wanted(prev)) {
		s = bpf_task_storage_get(&starts, prev, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (s) {
			s->when = now;
			s->state = state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE);
			/* prev is current here: its user stack is the one that sleeps */
			s->stack_id = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK | BPF_F_FAST_STACK_CMP);
		}
	}
	s = bpf_task_storage_get(&starts, next, NULL, 0);
	if (s && s->when) {
		struct offcpu_key key = {
			.pid = BPF_CORE_READ(next, pid),
			.tgid = BPF_CORE_READ(next, tgid),
			.stack_id = s->stack_id,
			.state = s->state,
		};
		__u64 delta = now - s->when, *total;

		s->when = 0;
		total = bpf_map_lookup_elem(&off_cpu, &key);
		if (total)
			__sync_fetch_and_add(total, delta);
		else
			bpf_map_update_elem(&off_cpu, &key, &delta, BPF_ANY);
	}
	return 0;
}

/* The children of a recorded process are recorded too (inherit). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(offcpu_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (!trace_all && ptgid != ctgid && bpf_map_lookup_elem(&tgids, &ptgid))
		bpf_map_update_elem(&tgids, &ctgid, &one, BPF_ANY);
	return 0;
}
