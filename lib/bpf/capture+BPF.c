// SPDX-License-Identifier: GPL-2.0
/*
 * Loader and reader of the syscall capture program (syscalls.bpf.c,
 * embedded through its bpftool skeleton). Settings go in .rodata before
 * load, so the verifier prunes what a run does not use (the pid lookup
 * under -a, the syscall filter when there is none).
 *
 * The program writes perf samples: one PERF_COUNT_SW_BPF_OUTPUT event per
 * CPU, opened through the live engine (record/engine.h) with a ring each
 * and put in the program's events map, so this capture is read as the
 * fallback is (trace_rings in perf-source.c): the engine drains the rings,
 * the session's queue (session/ordered.c) puts the samples back in time
 * order (per-CPU rings lose the one order a BPF ring buffer had, and a
 * call may enter on one CPU and exit on another), and each sample's RAW
 * bytes (a struct sc_rec and its items) decode into a struct
 * lupe_sc_event that points into the queued copy. The price, against the
 * libbpf ring buffer this replaced: a perf output costs the traced
 * program about 0.25 us more a record (its task-clock, on 6.18 here), and
 * each record is copied into the queue. A full ring's losses are the
 * kernel's count (lupe_trace_rings_lost).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <lupe/cpumap.h>
#include <lupe/evsel.h>
#include "bpf/libbpf-log.h"
#include "bpf/syscall-rec.h"
#include "record/engine.h"
#include "syscalls.skel.h"
#include "trace/internal.h"
#include "util/util.h"

struct bpf_trace {
	struct lupe_trace t;
	struct lupe_sc *skel;
	struct trace_rings r;
	size_t ring_bytes;      /* of each CPU's ring */
	lupe_sc_fn fn;          /* of the poll in progress */
	void *arg;
	int count;
};

/* A sample's RAW bytes, a struct sc_rec and its items, as the one syscall event. */
static int decode(void *arg, const struct perf_event_header *h, uint64_t offset)
{
	struct bpf_trace *bt = arg;
	/* RAW's u32 size, then the bytes (at 4: read the headers by copy) */
	const unsigned char *data = (const unsigned char *)(h + 1) + 4, *p, *end;
	struct lupe_sc_event ev;
	struct sc_rec rec;
	__u32 raw_size;

	(void)offset;
	memcpy(&raw_size, data - 4, sizeof(raw_size));
	if (raw_size < sizeof(rec))
		return 0;
	memcpy(&rec, data, sizeof(rec));
	end = data + (rec.size < raw_size ? rec.size : raw_size);
	p = data + sizeof(rec);
	memset(&ev, 0, sizeof(ev));
	ev.kind = rec.kind == SC_REC_ENTER ? LUPE_SC_ENTER :
		  rec.kind == SC_REC_PROC_EXIT ? LUPE_SC_PROC_EXIT : LUPE_SC_EXIT;
	ev.pid = rec.pid;
	ev.tid = rec.tid;
	ev.time = rec.time;
	ev.nr = rec.nr;
	if (ev.kind == LUPE_SC_ENTER)
		memcpy(ev.args, rec.args, sizeof(ev.args));
	else
		ev.ret = (long)rec.args[0];
	for (int i = 0; i < rec.nitems && ev.nbufs < 6; i++) {
		struct sc_item it;

		if (p + sizeof(it) > end)
			break;
		memcpy(&it, p, sizeof(it));
		if (p + sizeof(it) + it.len > end)
			break;
		if (it.arg == SC_ITEM_COMM)
			ev.comm = (const char *)(p + sizeof(it));
		else
			ev.bufs[ev.nbufs++] = (struct lupe_sc_buf){
				.arg = it.arg, .len = it.len, .truncated = it.truncated,
				.data = p + sizeof(it),
			};
		p += sizeof(it) + ((it.len + 7) & ~7);
	}
	bt->count++;
	return bt->fn(&ev, bt->arg);
}

static int bpf_add_pid(struct lupe_trace *t, pid_t pid, bool at_exec)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;
	__u32 key = pid;
	__u8 val = at_exec ? 0 : 1;

	return libc_err(bpf_map__update_elem(bt->skel->maps.pids, &key, sizeof(key), &val,
					     sizeof(val), BPF_ANY));
}

/*
 * The engine's opener: CPU index c's BPF output event, into the program's
 * events map at its CPU. It wakes the reader only when a quarter of its
 * ring is full: a busy workload does not pay a wakeup per call.
 */
static int open_output(void *arg, int c, int t, int e)
{
	struct bpf_trace *bt = arg;
	int cpu = lupe_cpu_map_cpu(bt->r.cpus, c);
	/* RAW only: the record holds its tid and time (trace_rings.raw_time) */
	int fd = lupe_live_bpf_output_open(cpu, bt->r.pages * 4096 / 4), err;
	__u32 key = cpu;

	(void)t, (void)e;
	if (fd < 0) /* or LUPE_LIVE_SKIP */
		return fd;
	err = lupe_trace_rings_keep_fd(&bt->r, fd);
	if (!err)
		err = libc_err(bpf_map__update_elem(bt->skel->maps.events, &key, sizeof(key), &fd,
						    sizeof(fd), BPF_ANY));
	return err ? err : fd;
}

static int bpf_start(struct lupe_trace *t)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;
	int err = lupe_trace_rings_open(&bt->r, bt->ring_bytes);

	if (!err)
		err = lupe_live_rings_open(bt->r.rings, &(struct lupe_live_open){
			bt->r.cpus, 1, 1, 0, open_output, bt });
	if (err)
		return err;
	err = lupe_sc__attach(bt->skel);
	return err ? (err < 0 ? err : -errno) : 0;
}

static int bpf_poll(struct lupe_trace *t, int timeout_ms, bool final, lupe_sc_fn fn, void *arg)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;
	int err;

	bt->fn = fn;
	bt->arg = arg;
	bt->count = 0;
	err = lupe_trace_rings_poll(&bt->r, timeout_ms, final);
	return err ? err : bt->count;
}

/* What the rings had no room for, and what the program could not send. */
static unsigned long long bpf_lost(struct lupe_trace *t)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;
	int ncpu = libbpf_num_possible_cpus();
	unsigned long long sum = lupe_trace_rings_lost(&bt->r);
	__u32 zero = 0;
	__u64 *v;

	if (ncpu <= 0)
		return 0;
	v = calloc(ncpu, sizeof(*v));
	if (v && !bpf_map__lookup_elem(bt->skel->maps.lost, &zero, sizeof(zero), v,
				       ncpu * sizeof(*v), 0))
		for (int i = 0; i < ncpu; i++)
			sum += v[i];
	free(v);
	return sum;
}

static void bpf_del(struct lupe_trace *t)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;

	lupe_sc__destroy(bt->skel);
	lupe_trace_rings_fini(&bt->r);
	free(bt);
}

static const struct trace_ops bpf_ops = {
	bpf_add_pid, bpf_start, bpf_poll, bpf_lost, bpf_del,
};

/* The argument kinds whose memory the program copies, and how (a length from another argument: lenarg). */
static const struct {
	enum sc_kind kind;
	enum sc_cap cap;
	bool lenarg;
} captured[] = {
	{ K_PATH, SC_CAP_PATH, false },
	{ K_STR, SC_CAP_STR, false },
	{ K_BUF_IN, SC_CAP_BUF_IN, true },
	{ K_BUF_OUT, SC_CAP_BUF_OUT, false },
	{ K_ARGV, SC_CAP_ARGV, false },
	{ K_ENVP, SC_CAP_ENVP, false },
	{ K_SOCKADDR, SC_CAP_STRUCT, true },
};

static void set_caps(struct sc_cap_spec *spec, const struct sc_info *info)
{
	memset(spec, 0, sizeof(*spec));
	for (int i = 0; i < 6; i++)
		spec->lenarg[i] = -1;
	for (int i = 0; i < info->nargs; i++) {
		const struct sc_arg *a = &info->args[i];
		bool out;
		int size = sc_kind_struct(a->kind, &out);

		/* structures of a fixed size, read at entry or at exit */
		if (size) {
			spec->cap[i] = out ? SC_CAP_OUT_FIXED : SC_CAP_IN_FIXED;
			spec->size[i] = size;
		}
		for (size_t k = 0; k < sizeof(captured) / sizeof(captured[0]); k++) {
			if (captured[k].kind != a->kind)
				continue;
			spec->cap[i] = captured[k].cap;
			if (captured[k].lenarg)
				spec->lenarg[i] = a->lenarg;
		}
	}
}

struct lupe_trace *lupe_trace_bpf_new(const struct lupe_trace_opts *o)
{
	struct bpf_trace *bt = calloc(1, sizeof(*bt));
	struct lupe_sc__rodata *ro;
	int err, ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (!bt)
		return NULL;
	lupe_trace_init(&bt->t, &bpf_ops, o);
	err = lupe_trace_rings_init(&bt->r, decode, bt);
	if (err)
		goto fail;
	bt->r.raw_time = offsetof(struct sc_rec, time);
	bt->t.strings = !bt->t.o.no_strings;
	libbpf_set_print(lupe_libbpf_log);
	bt->skel = lupe_sc__open();
	if (!bt->skel) {
		err = -errno;
		goto fail;
	}
	ro = bt->skel->rodata;
	ro->trace_all = bt->t.o.system_wide;
	ro->self_pid = getpid();
	ro->max_strlen = bt->t.o.max_strlen > SC_BUF_MAX - 2 ? SC_BUF_MAX - 2 : bt->t.o.max_strlen;
	ro->filter_syscalls = bt->t.filter;
	for (int nr = 0; nr < SC_MAX_NR && nr < LUPE_SC_MAX; nr++) {
		ro->sys_on[nr] = bt->t.set[nr];
		if ((!bt->t.filter || bt->t.set[nr]) && lupe_syscall_name(nr) && bt->t.strings)
			set_caps((struct sc_cap_spec *)&ro->caps[nr], lupe_sc_info(nr));
	}
	/* --buffer-size is shared out among the CPUs' rings */
	bt->ring_bytes = (bt->t.o.buf_bytes ? bt->t.o.buf_bytes : 16 << 20) / (ncpu > 0 ? ncpu : 1);
	err = lupe_sc__load(bt->skel);
	if (err)
		goto fail;
	return &bt->t;
fail:
	lupe_sc__destroy(bt->skel);
	lupe_trace_rings_fini(&bt->r);
	free(bt);
	return err_ptr(err < 0 ? err : -EINVAL);
}
