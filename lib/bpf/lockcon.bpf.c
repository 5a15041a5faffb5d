// SPDX-License-Identifier: GPL-2.0
/*
 * lupe lock contention -b: the kernel's lock:contention_begin/end summed
 * in the kernel, per waiting caller (its kernel stack), per thread (-t)
 * or per lock address, as perf's lock_contention.bpf.c sums them; and,
 * beyond perf, futex waits (FUTEX_WAIT, _BITSET, LOCK_PI, LOCK_PI2): the
 * contention of user-space locks such as a pthread mutex, per futex
 * address and process. A thread waits on one lock at a time: its pending
 * wait is one entry of `pending`, and a nested begin (a mutex spins, then
 * sleeps) keeps the first one, as perf does.
 *
 * Which tasks: tasks.bpf.h's (every one but lupe's own with -a;
 * otherwise the processes in tgids, the workload or -p).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "lockcon-rec.h"
#include "stacks.bpf.h"
#include "tasks.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 aggr;

struct pending {
	__u64 when;
	__u64 lock;
	__s64 stack_id;
	__u32 flags;
	__u32 kind;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct pending);
} pending SEC(".maps");

LUPE_BPF_STACKS(LOCKCON_MAX_STACK);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct lockcon_key);
	__type(value, struct lockcon_stat);
} stats SEC(".maps");

static bool wanted(__u32 *tid)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;

	*tid = (__u32)id;
	return task_wanted(tgid, *tid);
}

static void begin(void *ctx, __u64 lock, __u32 flags, __u32 kind)
{
	struct pending p = { 0 };
	__u32 tid;

	if (!wanted(&tid) || bpf_map_lookup_elem(&pending, &tid))
		return;
	p.when = bpf_ktime_get_ns();
	p.lock = lock;
	p.flags = flags;
	p.kind = kind;
	p.stack_id = kind == LOCKCON_KIND_KERNEL && aggr == LOCKCON_AGGR_CALLER ?
		     bpf_get_stackid(ctx, &stacks, BPF_F_FAST_STACK_CMP) : -1;
	bpf_map_update_elem(&pending, &tid, &p, BPF_ANY);
}

static void end(__u32 kind)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct pending *p = bpf_map_lookup_elem(&pending, &tid);
	struct lockcon_key key = { 0 };
	struct lockcon_stat *st, fresh = { 0 };
	__u64 d;

	if (!p || p->kind != kind)
		return;
	d = bpf_ktime_get_ns() - p->when;
	key.kind = kind;
	if (aggr == LOCKCON_AGGR_TASK) {
		key.id = tid;
		key.kind = 0;
	} else if (kind == LOCKCON_KIND_FUTEX) {
		key.id = p->lock;
		key.tgid = id >> 32;
	} else if (aggr == LOCKCON_AGGR_ADDR) {
		key.id = p->lock;
	} else {
		key.id = (__u64)p->stack_id;
	}
	st = bpf_map_lookup_elem(&stats, &key);
	if (!st) {
		fresh.count = 1;
		fresh.total = fresh.max = fresh.min = d;
		fresh.flags = p->flags;
		bpf_get_current_comm(fresh.comm, sizeof(fresh.comm));
		bpf_map_update_elem(&stats, &key, &fresh, BPF_NOEXIST);
	} else {
		__sync_fetch_and_add(&st->count, 1);
		__sync_fetch_and_add(&st->total, d);
		if (d > st->max)
			st->max = d;
		if (d < st->min)
			st->min = d;
	}
	bpf_map_delete_elem(&pending, &tid);
}

SEC("tp_btf/contention_begin")
int BPF_PROG(lockcon_begin, void *lock, unsigned int flags)
{
	begin(ctx, (__u64)lock, flags, LOCKCON_KIND_KERNEL);
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(lockcon_end, void *lock, int ret)
{
	end(LOCKCON_KIND_KERNEL);
	return 0;
}

#define FUTEX_WAIT 0
#define FUTEX_LOCK_PI 6
#define FUTEX_LOCK_PI2 13
#define FUTEX_CMD_MASK 127

SEC("tracepoint/syscalls/sys_enter_futex")
int lockcon_futex_enter(struct trace_event_raw_sys_enter *ctx)
{
	int cmd = (int)ctx->args[1] & FUTEX_CMD_MASK;

	if ((cmd == FUTEX_WAIT && (__u32)ctx->args[2] == 2 && !ctx->args[3]) ||
	    cmd == FUTEX_LOCK_PI || cmd == FUTEX_LOCK_PI2)
		begin(ctx, ctx->args[0], 0, LOCKCON_KIND_FUTEX);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_futex")
int lockcon_futex_exit(void *ctx)
{
	end(LOCKCON_KIND_FUTEX);
	return 0;
}
