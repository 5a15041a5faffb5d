// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of the syscall capture program (syscalls.bpf.c, embedded through
 * its bpftool skeleton), and its reader. Settings go in .rodata before
 * load, so the verifier prunes what a run does not use (the pid lookup
 * under -a, the syscall filter when there is none).
 *
 * The program writes its libbpf ring buffer (bpf_ringbuf_reserve/submit:
 * the cheapest output for the traced program), read as a live source
 * (bpf/ring.h): each record is a sample of TID, TIME and RAW, the shape
 * the fallback's rings give, taken by the same reader (trace_rings in
 * trace/internal.h): put in time order by the session's queue
 * (session/ordered.c), its last millisecond held back, and each RAW (a
 * struct sc_rec and its items) decoded into a struct lupe_sc_event that
 * points into the queued copy. Records the program had no room for (its
 * lost map) come as PERF_RECORD_LOST, counted as the fallback's are.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpf/prog.h"
#include "bpf/ring.h"
#include "bpf/syscall-rec.h"
#include "syscalls.skel.h"
#include "trace/internal.h"
#include "util/util.h"

struct bpf_trace {
	struct lupe_trace t;
	struct lupe_bpf_prog *prog;
	struct lupe_sc *skel;     /* prog's */
	struct lupe_source *src;  /* the ring, from the start */
	struct trace_rings r;     /* the time queue (no perf rings) */
	lupe_sc_fn fn;            /* of the poll in progress */
	void *arg;
	int count;
};

/* The sample's stamp, out of the record's header. */
static int stamp(const void *data, size_t size, struct lupe_bpf_ring_stamp *st)
{
	const struct sc_rec *rec = data;

	if (size < sizeof(*rec))
		return -1;
	*st = (struct lupe_bpf_ring_stamp){ rec->pid, rec->tid, rec->time };
	return 0;
}

/* A sample's RAW bytes, a struct sc_rec and its items, in time order: the one syscall event. */
static int decode(void *arg, const struct perf_event_header *h, uint64_t offset)
{
	struct bpf_trace *bt = arg;
	const struct trace_sample_hdr *s = (const void *)(h + 1);
	const unsigned char *data = (const unsigned char *)(s + 1), *p, *end;
	struct lupe_sc_event ev;
	struct sc_rec rec;

	(void)offset;
	if (h->type != PERF_RECORD_SAMPLE || s->raw_size < sizeof(rec))
		return 0;
	/* the RAW bytes sit at 20 in the sample: read the headers by copy */
	memcpy(&rec, data, sizeof(rec));
	end = data + (rec.size < s->raw_size ? rec.size : s->raw_size);
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

/* What the program had no room for, summed over the CPUs (the ring source's lost_fn). */
static uint64_t program_lost(void *arg)
{
	struct bpf_trace *bt = arg;
	int ncpu = libbpf_num_possible_cpus();
	uint64_t sum = 0;
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

static int bpf_start(struct lupe_trace *t)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;
	int err = lupe_bpf_prog_start(bt->prog);

	if (err)
		return err;
	bt->src = lupe_bpf_ring_source_new(bpf_map__fd(bt->skel->maps.rb), stamp, program_lost, bt);
	return bt->src ? 0 : -errno;
}

static int bpf_poll(struct lupe_trace *t, int timeout_ms, bool final, lupe_sc_fn fn, void *arg)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;
	int err, intr;

	bt->fn = fn;
	bt->arg = arg;
	bt->count = 0;
	if (!bt->src)
		return 0;
	err = timeout_ms ? lupe_bpf_ring_wait(bt->src, timeout_ms) : 0;
	if (err && err != -EINTR)
		return err;
	intr = err == -EINTR;
	do {
		uint64_t cut = lupe_trace_rings_cut();
		int ret;

		err = lupe_bpf_ring_read(bt->src, lupe_trace_rings_take, &bt->r);
		if (err < 0)
			break;
		/*
		 * A slice with more behind it (1): what the ring still holds is
		 * newer than what was read, but for a writer's millisecond
		 */
		if (err == 1 && bt->r.newest - 1000000 < cut)
			cut = bt->r.newest - 1000000;
		ret = lupe_trace_rings_flush(&bt->r, final && !err, cut);
		if (ret)
			err = ret;
	} while (err == 1);
	if (err)
		return err;
	return intr ? -EINTR : bt->count;
}

/* Said by the ring's LOST records, as the fallback's rings say theirs. */
static unsigned long long bpf_lost(struct lupe_trace *t)
{
	return ((struct bpf_trace *)t)->r.lost;
}

static void bpf_del(struct lupe_trace *t)
{
	struct bpf_trace *bt = (struct bpf_trace *)t;

	lupe_source_delete(bt->src);
	lupe_trace_rings_fini(&bt->r);
	lupe_bpf_prog_delete(bt->prog);
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

/* Before the load: what to capture, and the ring's size. */
static int capture_setup(void *skel, const void *arg)
{
	struct lupe_sc *sc = skel;
	const struct bpf_trace *bt = arg;
	struct lupe_sc__rodata *ro = sc->rodata;
	size_t rb_bytes;

	ro->trace_all = bt->t.o.system_wide;
	ro->self_pid = getpid();
	ro->max_strlen = bt->t.o.max_strlen > SC_BUF_MAX - 2 ? SC_BUF_MAX - 2 : bt->t.o.max_strlen;
	ro->filter_syscalls = bt->t.filter;
	for (int nr = 0; nr < SC_MAX_NR && nr < LUPE_SC_MAX; nr++) {
		ro->sys_on[nr] = bt->t.set[nr];
		if ((!bt->t.filter || bt->t.set[nr]) && lupe_syscall_name(nr) && bt->t.strings)
			set_caps((struct sc_cap_spec *)&ro->caps[nr], lupe_sc_info(nr));
	}
	rb_bytes = bt->t.o.buf_bytes ? bt->t.o.buf_bytes : 16 << 20;
	/* a power of two of pages */
	for (size_t s = 4096; ; s <<= 1) {
		if (s >= rb_bytes) {
			rb_bytes = s;
			break;
		}
	}
	ro->wake_bytes = rb_bytes / 4;
	return bpf_map__set_max_entries(sc->maps.rb, rb_bytes);
}

/* no what: trace falls back to tracepoints, and says why when it cannot */
LUPE_BPF_PROG(capture_prog, lupe_sc, NULL, capture_setup);

struct lupe_trace *lupe_trace_bpf_new(const struct lupe_trace_opts *o)
{
	struct bpf_trace *bt = calloc(1, sizeof(*bt));
	int err;

	if (!bt)
		return NULL;
	lupe_trace_init(&bt->t, &bpf_ops, o);
	if (lupe_trace_rings_init(&bt->r, decode, bt)) {
		free(bt);
		return err_ptr(-ENOMEM);
	}
	bt->t.strings = !bt->t.o.no_strings;
	bt->prog = lupe_bpf_prog_load(&capture_prog, bt);
	if (!bt->prog) {
		err = -errno;
		lupe_trace_rings_fini(&bt->r);
		free(bt);
		return err_ptr(err);
	}
	bt->skel = bt->prog->skel;
	return &bt->t;
}
