/* SPDX-License-Identifier: GPL-2.0 */
/* What func.bpf.c and its loader (bpf+BPF.c) share: limits and the ring record. */
#ifndef LUPE_FUNC_REC_H
#define LUPE_FUNC_REC_H

#define FUNC_MAX_CTR 8          /* counters per session */
#define FUNC_MAX_TGT 16         /* functions and ranges per session */
#define FUNC_COOKIE_RANGE 0x10000 /* attach cookie: target index | this for a source range */

/* One finished call (or, with unfinished set, one call left without returning). */
struct func_rec {
	__u32 tid;
	__u32 target;
	__u32 unfinished;
	__u32 pad;
	__u64 time;                   /* bpf_ktime_get_ns() at entry (CLOCK_MONOTONIC) */
	__u64 v[FUNC_MAX_CTR + 1];    /* counter deltas, then time inside (ns) */
};

/* per thread and target, the open call */
struct func_call {
	__u64 sp;
	__u64 time;
	__u64 v[FUNC_MAX_CTR]; /* the thread's virtual counters at entry */
	__u32 open;
	__u32 pad;
};

#endif
