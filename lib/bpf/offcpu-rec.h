/* SPDX-License-Identifier: GPL-2.0 */
/* What offcpu.bpf.c and record's off-cpu loader (lib/record/offcpu+BPF.c) share. */
#ifndef LUPE_BPF_OFFCPU_REC_H
#define LUPE_BPF_OFFCPU_REC_H

#define OFFCPU_MAX_STACK 127 /* user frames per stack, as perf's */

/* The off_cpu map's key: who slept, with which user stack, in which state. */
struct offcpu_key {
	__u32 pid;      /* the thread */
	__u32 tgid;
	__s64 stack_id; /* in the stacks map, or negative: no user stack */
	__u32 state;    /* TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE */
	__u32 pad;
};

#endif
