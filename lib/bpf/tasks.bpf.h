/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which tasks a lupe BPF program follows (lock contention -b, record
 * --off-cpu): every one but lupe's own with -a (trace_all), otherwise the
 * processes whose tgid userspace puts in tgids (the workload, -p) with
 * lupe_bpf_prog_add_pid (bpf/prog.h). Included by one program each: it
 * defines the program's globals and map.
 */
#ifndef LUPE_BPF_TASKS_BPF_H
#define LUPE_BPF_TASKS_BPF_H

const volatile bool trace_all;
const volatile __u32 self_pid;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

/* Whether thread tid of process tgid is followed; the idle task (0) never is with -a. */
static __always_inline bool task_wanted(__u32 tgid, __u32 tid)
{
	if (trace_all)
		return tgid != self_pid && tid != 0;
	return bpf_map_lookup_elem(&tgids, &tgid) != NULL;
}

#endif
