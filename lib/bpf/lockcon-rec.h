/* SPDX-License-Identifier: GPL-2.0 */
/* What lockcon.bpf.c and its loader (lib/bpf/lockcon+BPF.c) share. */
#ifndef LUPE_BPF_LOCKCON_REC_H
#define LUPE_BPF_LOCKCON_REC_H

#define LOCKCON_MAX_STACK 16     /* kernel frames kept per waiting caller */

#define LOCKCON_AGGR_CALLER 0
#define LOCKCON_AGGR_TASK   1
#define LOCKCON_AGGR_ADDR   2

#define LOCKCON_KIND_KERNEL 0    /* lock:contention_begin/end */
#define LOCKCON_KIND_FUTEX  1    /* a futex wait: a user-space lock's contention */

struct lockcon_key {
	__u64 id;       /* stack id, tid or lock address (a futex: its user address) */
	__u32 tgid;     /* a futex's process, else 0 */
	__u32 kind;
};

struct lockcon_stat {
	__u64 total, max, min;   /* ns */
	__u32 count, flags;
	char comm[16];           /* the first waiter's */
};

#endif
