// SPDX-License-Identifier: GPL-2.0
/*
 * lupe trace's capture: raw_syscalls sys_enter/sys_exit as BTF tracepoints.
 * Each call of a traced process tree becomes two ring-buffer records: the
 * entry (number, six arguments, the paths, strings and input buffers they
 * point to) and the exit (return value, buffers the call filled). What to
 * read for which argument is decided in userspace from the syscall's
 * tracefs format and handed over in .rodata, so this program knows no
 * syscall by name.
 *
 * Cost: one pid lookup per syscall of any process (two when -a is not
 * given), a copy into a per-CPU scratch buffer and one bpf_ringbuf_output.
 * Userspace is woken only when a good part of the ring is full (or on its
 * poll timer), so a busy workload does not pay a wakeup per call. A record
 * the ring has no room for is counted in lost[], never dropped silently.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "syscall-rec.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool trace_all;            /* -a: every process but ours */
const volatile __u32 self_pid;
const volatile bool filter_syscalls;      /* sys_on[] decides */
const volatile __u32 max_strlen = 32;
const volatile __u64 wake_bytes = 256 * 1024;
const volatile __u8 sys_on[SC_MAX_NR];
const volatile struct sc_cap_spec caps[SC_MAX_NR];

/* tgid -> 0: wait for its exec (a workload held before exec), 1: traced */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20); /* resized by the loader */
} rb SEC(".maps");

/*
 * tid -> arguments whose strings could not be read at entry: a page not yet
 * faulted in (a path in a library's .rodata, first touched by this very
 * call) cannot be read from a tracepoint. The call has faulted it in by its
 * exit, where they are read again.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} retry SEC(".maps");

struct scratch {
	__u8 b[SC_SCRATCH];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline void count_lost(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &zero);

	if (n)
		*n += 1;
}

/* Whether the current process is traced; at execve, a held workload starts. */
static __always_inline bool traced(__u32 tgid, long nr, bool entry)
{
	__u8 *st;

	if (trace_all)
		return tgid != self_pid;
	st = bpf_map_lookup_elem(&pids, &tgid);
	if (!st)
		return false;
	if (*st)
		return true;
	if (entry && (nr == 59 || nr == 322)) { /* execve, execveat */
		*st = 1;
		return true;
	}
	return false;
}

static __always_inline __u64 reg_arg(struct pt_regs *regs, int i)
{
	switch (i) {
	case 0: return regs->di;
	case 1: return regs->si;
	case 2: return regs->dx;
	case 3: return regs->r10;
	case 4: return regs->r8;
	default: return regs->r9;
	}
}

/*
 * The item at *off in the scratch record, *off masked below half of it
 * (which is what lets the verifier bound every access), or NULL when
 * there is no room or no memory to read.
 */
static __always_inline struct sc_item *item_at(struct scratch *s, __u32 *off, __u64 ptr)
{
	__u32 o = *off;

	if (!s || !ptr || o >= SC_SCRATCH / 2)
		return NULL;
	/* the barrier keeps clang from dropping the mask the verifier needs */
	asm volatile("" : "+r"(o));
	o &= SC_SCRATCH / 2 - 1;
	*off = o;
	return (struct sc_item *)&s->b[o];
}

/* Close the item at o holding n bytes: its header, the record's count; the offset after it. */
static __always_inline __u32 item_end(struct scratch *s, struct sc_item *it, __u32 o, __u32 i,
				      __u8 trunc, __u32 n)
{
	it->arg = i;
	it->truncated = trunc;
	it->len = n;
	it->pad = 0;
	((struct sc_rec *)s->b)->nitems++;
	return o + sizeof(*it) + ((n + 7) & ~7);
}

/*
 * Append one item for argument i at *off. The item and its bytes stay below
 * SC_SCRATCH because *off is kept below half of it, which is also what
 * lets the verifier bound every access.
 */
/*
 * Returns the offset after the item (off when there was nothing to add),
 * or -1 when the memory could not be read. A global function: the
 * verifier checks it once, not once per argument of every call site,
 * which keeps loading fast.
 */
__noinline int add_item(struct scratch *s, __u32 off, __u32 icap, __u64 ptr, __u64 want)
{
	__u32 o = off, i = icap & 0xff, cap = icap >> 8;
	struct sc_item *it;
	long n = 0;
	__u64 limit;
	__u8 trunc = 0;

	it = item_at(s, &o, ptr);
	if (!it)
		return off;
	if (cap == SC_CAP_PATH || cap == SC_CAP_STR) {
		limit = cap == SC_CAP_PATH ? SC_PATH_MAX - 1 : max_strlen;
		if (limit > SC_BUF_MAX - 2)
			limit = SC_BUF_MAX - 2;
		/* one byte more than shown tells a longer string from an exact fit */
		n = bpf_probe_read_user_str(&s->b[o + sizeof(*it)], (limit + 2) & (SC_BUF_MAX - 1),
					    (void *)ptr);
		if (n <= 0)
			return -1;
		n -= 1; /* without the NUL */
		if (n > limit) {
			n = limit;
			trunc = 1;
		}
	} else {
		limit = cap == SC_CAP_BUF_IN || cap == SC_CAP_BUF_OUT ? max_strlen + 1 : SC_STRUCT_MAX;
		if (limit > SC_BUF_MAX)
			limit = SC_BUF_MAX;
		n = want;
		if ((__s64)want < 0)
			return off;
		if (want > (__u64)limit) {
			n = limit;
			trunc = 1;
		}
		if (n > SC_BUF_MAX)
			n = SC_BUF_MAX;
		asm volatile("" : "+r"(n));
		if (n < 0 || n > SC_BUF_MAX)
			return off;
		if (n && bpf_probe_read_user(&s->b[o + sizeof(*it)], n, (void *)ptr))
			return -1;
	}
	return item_end(s, it, o, i, trunc, n);
}

/* execve's argv as NUL-separated strings; envp as a count, as strace shows them. */
__noinline int add_vec(struct scratch *s, __u32 off, __u32 icap, __u64 ptr)
{
	__u32 o = off, n = 0, i = icap & 0xff, cap = icap >> 8;
	struct sc_item *it;
	__u8 trunc = 0;
	int k;

	it = item_at(s, &o, ptr);
	if (!it)
		return off;
	if (cap == SC_CAP_ENVP) {
		for (k = 0; k < SC_ENVP_MAX; k++) {
			__u64 p = 0;

			if (bpf_probe_read_user(&p, sizeof(p), (void *)(ptr + k * 8)) || !p)
				break;
		}
		*(__u32 *)&s->b[o + sizeof(*it)] = k;
		n = 4;
		trunc = k == SC_ENVP_MAX;
	} else {
		for (k = 0; k < SC_ARGV_MAX; k++) {
			__u64 p = 0, at;
			long r;
			__u32 lim = max_strlen + 2;

			if (bpf_probe_read_user(&p, sizeof(p), (void *)(ptr + k * 8)) || !p)
				break;
			if (n >= SC_BUF_MAX)
				break;
			if (lim > 256)
				lim = 256;
			at = o + sizeof(*it) + n;
			asm volatile("" : "+r"(at));
			if (at > SC_SCRATCH - 512)
				break;
			r = bpf_probe_read_user_str(&s->b[at], lim & 511, (void *)p);
			if (r <= 0)
				break;
			n += r;
		}
		if (k == SC_ARGV_MAX)
			trunc = 1;
	}
	return item_end(s, it, o, i, trunc, n);
}

static __always_inline void send(struct scratch *s, __u32 off)
{
	__u64 flags = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= wake_bytes ?
		      BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;

	/* off stays below SC_SCRATCH (items start below its half): the mask
	 * only tells the verifier so */
	off &= SC_SCRATCH - 1;
	asm volatile("" : "+r"(off));
	((struct sc_rec *)s->b)->size = off;
	if (off < sizeof(struct sc_rec) || off >= SC_SCRATCH ||
	    bpf_ringbuf_output(&rb, s->b, off & (SC_SCRATCH - 1), flags))
		count_lost();
}

static __always_inline struct scratch *begin(int kind, long nr, __u32 tgid)
{
	__u32 zero = 0;
	struct scratch *s = bpf_map_lookup_elem(&scratch, &zero);
	struct sc_rec *rec;

	if (!s) {
		count_lost();
		return NULL;
	}
	rec = (struct sc_rec *)s->b;
	rec->kind = kind;
	rec->nitems = 0;
	rec->pid = tgid;
	rec->tid = (__u32)bpf_get_current_pid_tgid();
	rec->time = bpf_ktime_get_ns();
	rec->nr = nr;
	return s;
}

/* The record of a call's entry or exit, or NULL when the call is not traced. */
static __always_inline struct scratch *begin_call(int kind, long id, __u32 tgid)
{
	if (!traced(tgid, id, kind == SC_REC_ENTER))
		return NULL;
	if (id < 0 || id >= SC_MAX_NR || (filter_syscalls && !sys_on[id]))
		return NULL;
	return begin(kind, id, tgid);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u32 off = sizeof(struct sc_rec);
	struct scratch *s;
	struct sc_rec *rec;
	__u8 again = 0;
	int r;

	s = begin_call(SC_REC_ENTER, id, tgid);
	if (!s || id < 0 || id >= SC_MAX_NR) /* bounded again: the verifier's proof for caps[id] */
		return 0;
	rec = (struct sc_rec *)s->b;
	for (int i = 0; i < 6; i++)
		rec->args[i] = reg_arg(regs, i);
	/*
	 * execve (argv 1, envp 2) and execveat (argv 2, envp 3) first, while
	 * off is still a constant: their loops stay cheap to verify
	 */
	for (int i = 1; i < 3; i++) {
		if (caps[id].cap[i] == SC_CAP_ARGV) {
			off = add_vec(s, off, i | SC_CAP_ARGV << 8, rec->args[i]);
			off = add_vec(s, off, (i + 1) | SC_CAP_ENVP << 8, rec->args[i + 1]);
			break;
		}
	}
	for (int i = 0; i < 6; i++) {
		__u8 cap = caps[id].cap[i];
		__s8 la = caps[id].lenarg[i];
		__u64 want = 0;

		if (cap == SC_CAP_NONE || cap == SC_CAP_BUF_OUT)
			continue;
		if (cap == SC_CAP_ARGV || cap == SC_CAP_ENVP)
			continue;
		if (la >= 0 && la < 6)
			want = rec->args[la];
		if (cap == SC_CAP_IN_FIXED)
			want = caps[id].size[i];
		r = add_item(s, off, i | cap << 8, rec->args[i], want);
		if (r >= 0)
			off = r;
		else if (cap == SC_CAP_PATH || cap == SC_CAP_STR)
			again |= 1 << i;
	}
	if (again) {
		__u32 tid = rec->tid;

		bpf_map_update_elem(&retry, &tid, &again, BPF_ANY);
	}
	send(s, off);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u32 off = sizeof(struct sc_rec);
	long id = regs->orig_ax;
	struct scratch *s;
	struct sc_rec *rec;

	s = begin_call(SC_REC_EXIT, id, tgid);
	if (!s || id < 0 || id >= SC_MAX_NR)
		return 0;
	rec = (struct sc_rec *)s->b;
	rec->args[0] = ret;
	for (int i = 0; i < 6; i++) {
		__u8 cap = caps[id].cap[i];

		int r = off;

		if (cap == SC_CAP_BUF_OUT && ret > 0)
			r = add_item(s, off, i | cap << 8, reg_arg(regs, i), ret);
		else if (cap == SC_CAP_OUT_FIXED && ret >= 0)
			r = add_item(s, off, i | cap << 8, reg_arg(regs, i), caps[id].size[i]);
		if (r >= 0)
			off = r;
	}
	if ((id == 59 || id == 322) && ret == 0 && off < SC_SCRATCH / 2) {
		/* the new command name, for the summary and the printer */
		struct sc_item *it = (struct sc_item *)&s->b[off & (SC_SCRATCH / 2 - 1)];

		bpf_get_current_comm((char *)(it + 1), 16);
		it->arg = SC_ITEM_COMM;
		it->truncated = 0;
		it->len = 16;
		it->pad = 0;
		off += sizeof(*it) + 16;
		rec->nitems++;
	}
	if (caps[id].cap[0] == SC_CAP_PATH || caps[id].cap[1] == SC_CAP_PATH ||
	    caps[id].cap[0] == SC_CAP_STR || caps[id].cap[1] == SC_CAP_STR ||
	    caps[id].cap[2] == SC_CAP_PATH) {
		__u32 tid = rec->tid;
		__u8 *mask = bpf_map_lookup_elem(&retry, &tid);

		if (mask) {
			__u8 m = *mask;

			bpf_map_delete_elem(&retry, &tid);
			for (int i = 0; i < 4; i++)
				if (m & (1 << i)) {
					__u32 cap = caps[id].cap[i] == SC_CAP_STR ? SC_CAP_STR : SC_CAP_PATH;
					int r = add_item(s, off, i | cap << 8, reg_arg(regs, i), 0);

					if (r >= 0)
						off = r;
				}
		}
	}
	send(s, off);
	return 0;
}

/* Follow forks: a child of a traced process is traced from its first call. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(sched_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 *st, one = 1;

	if (trace_all || ptgid == ctgid)
		return 0;
	st = bpf_map_lookup_elem(&pids, &ptgid);
	if (st && *st)
		bpf_map_update_elem(&pids, &ctgid, &one, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_exit, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	struct scratch *s;

	if (p->pid != p->tgid || !traced(tgid, 0, false))
		return 0;
	/* strace's "+++ exited with N +++": the group's status, else the leader's */
	s = begin(SC_REC_PROC_EXIT, 0, tgid);
	if (s) {
		struct sc_rec *rec = (struct sc_rec *)s->b;

		rec->args[0] = p->signal->group_exit_code ?: p->exit_code;
		send(s, sizeof(*rec));
	}
	if (!trace_all)
		bpf_map_delete_elem(&pids, &tgid);
	return 0;
}
