// SPDX-License-Identifier: GPL-2.0
/*
 * lupe stat --func, counted in the kernel: no sample record per probe hit.
 *
 * func_entry and func_return run at the function's entry and return uprobes
 * (uprobe PMU events bound to the target process: the kernel's uprobe
 * filter runs them for each of its threads). The counters are CPU-wide,
 * one per CPU in counters[cpu * FUNC_MAX_CTR + i], read with
 * bpf_perf_event_read_value(). Each thread that is inside a function
 * carries a virtual counter, as perf's bperf does: acc (what it counted up
 * to its last switch-out) plus, while it runs, the CPU's counter now minus
 * base (the CPU's counter when it came on). func_switch banks at
 * switch-out and rebases at switch-in. A call is the virtual counter at
 * its return minus at its entry; one ring record per finished call,
 * nothing per entry. The thread's state is task local storage, so the
 * program at every context switch of the machine costs little.
 *
 * The outermost call of a recursion is told by the stack pointer: a nested
 * entry has a lower sp, the outermost return has the entry's sp plus the
 * return address slot. An entry at or above an open call's sp means that
 * call was left without returning (longjmp, exception): it is unfinished.
 * A source range (cookie FUNC_COOKIE_RANGE) has an exit probe instead of a
 * return probe and no nesting.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "func-rec.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nc;          /* counters in use, <= FUNC_MAX_CTR */
const volatile __u32 clocks;      /* bit i: counter i is task-clock or cpu-clock, read as the clock */
const volatile __u32 ret_slot = 8; /* bytes the call pushed (x86: the return address) */
int enabled;                      /* set by userspace: -p counts from its enable */
__u64 lost;                       /* records the ring had no room for */
__u64 missed;                     /* switch-ins of a thread inside a function not seen */

extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, FUNC_MAX_CTR); /* resized: possible CPUs * FUNC_MAX_CTR */
} counters SEC(".maps");

struct thr {
	__u64 acc[FUNC_MAX_CTR];
	__u64 base[FUNC_MAX_CTR];
	__u32 active; /* open calls: the virtual counter runs while > 0 */
	__u32 out;    /* banked at a switch-out, not yet rebased at a switch-in */
};

/* a thread's state: task local storage, found without hashing, also from sched_switch */
struct tstate {
	struct thr t;
	struct func_call c[FUNC_MAX_TGT];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct tstate);
} tstore SEC(".maps");

/* per target, calls open now (summed over CPUs): unfinished when counting ends */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FUNC_MAX_TGT);
	__type(key, __u32);
	__type(value, __s64);
} opened SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} rb SEC(".maps");

/*
 * The CPU's counters now. A thread's task-clock (or cpu-clock) is the time
 * it spends on a CPU: the clock itself, read at the same moments as the
 * counters (a counter read costs about 190 ns here, the clock 30).
 */
static __always_inline void read_now(__u64 *now, __u64 clock)
{
	__u32 base = bpf_get_smp_processor_id() * FUNC_MAX_CTR;

	for (int i = 0; i < FUNC_MAX_CTR; i++) {
		struct bpf_perf_event_value v = {};

		if (i >= nc)
			break;
		if (clocks & (1u << i))
			now[i] = clock;
		else
			now[i] = bpf_perf_event_read_value(&counters, base + i, &v, sizeof(v)) ?
				 0 : v.counter;
	}
}

/*
 * In the thread's own context: if its last switch-in was not seen (rare:
 * measured about 1 in 2,000 on 6.18), base is another moment's, maybe
 * another CPU's. Rebase now; what it counted since that switch-in is lost.
 */
static __always_inline void thr_check(struct thr *t, const __u64 *now)
{
	if (!t->active || !t->out)
		return;
	for (int i = 0; i < FUNC_MAX_CTR && i < nc; i++)
		t->base[i] = now[i];
	t->out = 0;
	__sync_fetch_and_add(&missed, 1);
}

static __always_inline void open_add(__u32 target, __s64 n)
{
	__s64 *o = bpf_map_lookup_elem(&opened, &target);

	if (o)
		*o += n;
}

/* The thread leaves its last open call: bank the running part. */
static __always_inline void thr_leave(struct thr *t, const __u64 *now)
{
	thr_check(t, now);
	if (t->active && !--t->active)
		for (int i = 0; i < FUNC_MAX_CTR && i < nc; i++)
			t->acc[i] += now[i] - t->base[i];
}

static __always_inline void emit_unfinished(__u32 tid, __u32 target)
{
	struct func_rec *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	if (!r) {
		__sync_fetch_and_add(&lost, 1);
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->tid = tid;
	r->target = target;
	r->unfinished = 1;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
}

/* The open call c of thread t was left without returning. */
static __always_inline void drop(struct thr *t, struct func_call *c, __u32 tid, __u32 target)
{
	__u64 now[FUNC_MAX_CTR] = {};

	c->open = 0;
	open_add(target, -1);
	emit_unfinished(tid, target);
	bpf_preempt_disable();
	read_now(now, bpf_ktime_get_ns());
	thr_leave(t, now);
	bpf_preempt_enable();
}

/*
 * The current thread's state. No switch may bank or rebase between a read
 * and an update, nor find the storage busy: preemption is off around both.
 */
static __always_inline struct tstate *my_state(__u64 flags)
{
	struct tstate *ts;

	bpf_preempt_disable();
	ts = bpf_task_storage_get(&tstore, bpf_get_current_task_btf(), 0, flags);
	bpf_preempt_enable();
	return ts;
}

SEC("uprobe")
int func_entry(struct pt_regs *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx), sp = PT_REGS_SP(ctx), time;
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), target = cookie & 0xffff;
	__u64 now[FUNC_MAX_CTR] = {};
	struct func_call *c;
	struct tstate *ts;

	if (!enabled || target >= FUNC_MAX_TGT)
		return 0;
	ts = my_state(BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts)
		return 0;
	c = &ts->c[target];
	if (c->open) {
		if (!(cookie & FUNC_COOKIE_RANGE) && sp < c->sp)
			return 0; /* a nested call: only the outermost counts */
		drop(&ts->t, c, tid, target);
	}
	c->sp = sp;
	bpf_preempt_disable();
	time = bpf_ktime_get_ns();
	read_now(now, time);
	thr_check(&ts->t, now);
	if (!ts->t.active++)
		for (int i = 0; i < FUNC_MAX_CTR && i < nc; i++)
			ts->t.base[i] = now[i];
	for (int i = 0; i < FUNC_MAX_CTR && i < nc; i++)
		c->v[i] = ts->t.acc[i] + now[i] - ts->t.base[i];
	bpf_preempt_enable();
	c->open = 1;
	open_add(target, 1);
	c->time = time;
	return 0;
}

SEC("uprobe")
int func_return(struct pt_regs *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx), sp = PT_REGS_SP(ctx), time;
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), target = cookie & 0xffff;
	__u64 now[FUNC_MAX_CTR] = {};
	struct func_rec *r;
	struct func_call *c;
	struct tstate *ts;
	struct thr *t;

	if (target >= FUNC_MAX_TGT)
		return 0;
	ts = my_state(0);
	if (!ts)
		return 0;
	c = &ts->c[target];
	t = &ts->t;
	if (!c->open)
		return 0;
	if (!(cookie & FUNC_COOKIE_RANGE)) {
		/* the outermost return leaves sp where the call found it */
		if (sp < c->sp + ret_slot)
			return 0; /* a nested call returned */
		if (sp != c->sp + ret_slot) {
			drop(t, c, tid, target);
			return 0;
		}
	}
	c->open = 0;
	open_add(target, -1);
	r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	bpf_preempt_disable();
	time = bpf_ktime_get_ns();
	read_now(now, time);
	thr_check(t, now);
	if (r)
		for (int i = 0; i < FUNC_MAX_CTR && i < nc; i++)
			r->v[i] = t->acc[i] + now[i] - t->base[i] - c->v[i];
	thr_leave(t, now);
	bpf_preempt_enable();
	if (!r) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	r->tid = tid;
	r->target = target;
	r->unfinished = 0;
	r->pad = 0;
	r->time = c->time;
	for (int i = 0; i < FUNC_MAX_CTR; i++)
		if (i >= nc)
			r->v[i] = 0;
	r->v[FUNC_MAX_CTR] = time - c->time;
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

/* Bank the counts of a thread inside a function that goes off, rebase one that comes on. */
SEC("tp_btf/sched_switch")
int BPF_PROG(func_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now[FUNC_MAX_CTR] = {}, clock = 0;
	struct tstate *ts;
	int have = 0;

	ts = bpf_task_storage_get(&tstore, prev, 0, 0);
	if (ts && ts->t.active) {
		clock = bpf_ktime_get_ns();
		read_now(now, clock);
		have = 1;
		if (!ts->t.out) /* else its switch-in was not seen: nothing to bank */
			for (int i = 0; i < FUNC_MAX_CTR && i < nc; i++)
				ts->t.acc[i] += now[i] - ts->t.base[i];
		ts->t.out = 1;
	}
	ts = bpf_task_storage_get(&tstore, next, 0, 0);
	if (ts && ts->t.active) {
		if (!have)
			read_now(now, bpf_ktime_get_ns());
		for (int i = 0; i < FUNC_MAX_CTR && i < nc; i++)
			ts->t.base[i] = now[i];
		ts->t.out = 0;
	}
	return 0;
}
