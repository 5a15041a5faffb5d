/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack map of a lupe BPF program (lock contention -b, record
 * --off-cpu): bpf_get_stackid(ctx, &stacks, flags) keeps each distinct
 * stack of up to depth frames once and returns its id (negative when it
 * takes none), which the program keeps in its sums; at the end userspace
 * reads the frames back by id with lupe_bpf_stack_read (bpf/stacks.h).
 * 16384 stacks unless the loader sets the map's max_entries.
 */
#ifndef LUPE_BPF_STACKS_BPF_H
#define LUPE_BPF_STACKS_BPF_H

#define LUPE_BPF_STACKS(depth)                                 \
	struct {                                               \
		__uint(type, BPF_MAP_TYPE_STACK_TRACE);        \
		__uint(key_size, sizeof(__u32));               \
		__uint(value_size, (depth) * sizeof(__u64));   \
		__uint(max_entries, 16384);                    \
	} stacks SEC(".maps")

#endif
