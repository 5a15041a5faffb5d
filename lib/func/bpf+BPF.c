// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of func.bpf.c (embedded through its bpftool skeleton): opens the
 * CPU-wide counters into its perf event array, attaches its entry and
 * return programs to the probes' tracepoint events (once per probe: the
 * programs hang on the probe, not on one event, and run for every thread
 * the probe's events filter in) and its switch program to sched_switch,
 * and reads their ring buffer as a live source (bpf/ring.h): each record
 * (one per finished or unfinished call) a sample of TID, TIME (the
 * call's return) and RAW (the struct func_rec), which the session counts
 * as it reads it (a whole call: no time order to wait for); the programs'
 * count of records the ring had no room for comes as PERF_RECORD_LOST.
 * The kernel side stays bpf_ringbuf_output: perf samples written by the
 * programs (bpf_perf_event_output, tried on branch s9-bpfsrc, commit
 * dcafaab) cost the probed program more (scripts/bench/func's lupe/perf
 * CPU per call for tiny() 1.00 -> 1.37, target <= 1.25).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <lupe/cpumap.h>
#include <lupe/evsel.h>
#include "bpf/prog.h"
#include "bpf/ring.h"
#include "func/func.h"
#include "func/func-rec.h"
#include "func.skel.h"
#include "util/util.h"

struct lupe_func_bpf {
	struct lupe_bpf_prog *prog;
	struct lupe_fc *skel;    /* prog's */
	struct lupe_source *src; /* the ring */
	int *cfds;             /* counters: [cpu][counter] */
	int nr_cfds;
	struct bpf_link **links;
	int nr_links;
	int nt, nc;
};

/* The sample's stamp: the thread (its process is not in the record) and the call's return. */
static int stamp(const void *data, size_t size, struct lupe_bpf_ring_stamp *st)
{
	const struct func_rec *r = data;

	if (size < sizeof(*r))
		return -1;
	*st = (struct lupe_bpf_ring_stamp){ r->tid, r->tid,
					    r->unfinished ? r->time : r->time + r->v[FUNC_MAX_CTR] };
	return 0;
}

static uint64_t program_lost(void *arg)
{
	return ((struct lupe_func_bpf *)arg)->skel->bss->lost;
}

/* task-clock and cpu-clock: a thread's time on a CPU, which the programs read off the clock */
static int is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_TASK_CLOCK ||
						 a->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The counters, CPU-wide on each online CPU: what the programs read. */
static int open_counters(struct lupe_func_bpf *b, const struct lupe_func_bpf_setup *su,
			 struct lupe_open_failure *fail)
{
	struct lupe_cpu_map *cpus = lupe_cpu_map_new(NULL);
	int ncpu = libbpf_num_possible_cpus(), mfd = bpf_map__fd(b->skel->maps.counters), err = 0;

	if (!cpus)
		return -errno;
	b->nr_cfds = ncpu * FUNC_MAX_CTR;
	b->cfds = malloc(b->nr_cfds * sizeof(int));
	if (!b->cfds) {
		err = -ENOMEM;
		goto out;
	}
	memset(b->cfds, -1, b->nr_cfds * sizeof(int));
	for (int ci = 0; ci < lupe_cpu_map_nr(cpus); ci++) {
		int cpu = lupe_cpu_map_cpu(cpus, ci);

		for (int i = 0; i < su->nc && cpu < ncpu; i++) {
			struct perf_event_attr a = *su->attrs[i];
			__u32 key = cpu * FUNC_MAX_CTR + i;
			int fd;

			if (!su->supported[i] || is_clock(su->attrs[i]))
				continue; /* a clock is read as bpf_ktime_get_ns() */
			a.inherit = 0;
			a.disabled = 0;
			a.enable_on_exec = 0;
			a.read_format = 0;
			a.sample_period = 0;
			a.sample_type = 0;
			a.freq = 0;
			fd = lupe_perf_event_open(&a, -1, cpu, -1, 0);
			if (fd < 0) {
				if (lupe_open_verdict(fd) == LUPE_OPEN_UNSUPPORTED && !ci) {
					su->supported[i] = 0;
					continue;
				}
				*fail = (struct lupe_open_failure){ fd, i, cpu, -1 };
				err = fd;
				goto out;
			}
			b->cfds[key] = fd;
			if (bpf_map_update_elem(mfd, &key, &fd, BPF_ANY)) {
				err = -errno;
				goto out;
			}
		}
	}
out:
	lupe_cpu_map_put(cpus);
	return err;
}

/* Before the load: the counters the programs read, which of them are clocks, the return's slot. */
static int func_setup(void *skel, const void *arg)
{
	struct lupe_fc *fc = skel;
	const struct lupe_func_bpf_setup *su = arg;

	fc->rodata->nc = su->nc;
	for (int i = 0; i < su->nc; i++)
		if (is_clock(su->attrs[i]))
			fc->rodata->clocks |= 1u << i;
	fc->rodata->ret_slot = su->ret_slot;
	return bpf_map__set_max_entries(fc->maps.counters, libbpf_num_possible_cpus() * FUNC_MAX_CTR);
}

/* no what: stat --func falls back to sample records, and says why when it cannot */
LUPE_BPF_PROG(func_prog, lupe_fc, NULL, func_setup);

static int attach(struct lupe_func_bpf *b, struct bpf_program *prog, pid_t pid, const char *path,
		  uint64_t off, int ret, __u64 cookie)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .bpf_cookie = cookie, .retprobe = ret);
	struct bpf_link *link = bpf_program__attach_uprobe_opts(prog, pid, path, off, &opts);

	if (!link)
		return -errno;
	b->links[b->nr_links++] = link;
	return 0;
}

struct lupe_func_bpf *lupe_func_bpf_open(const struct lupe_func_bpf_setup *su,
					 struct lupe_open_failure *fail)
{
	struct lupe_func_bpf *b = calloc(1, sizeof(*b));
	int err;

	if (!b)
		return NULL;
	if (su->nc > FUNC_MAX_CTR || su->nt > FUNC_MAX_TGT) {
		err = -E2BIG;
		goto fail;
	}
	b->nt = su->nt;
	b->nc = su->nc;
	b->prog = lupe_bpf_prog_load(&func_prog, su);
	if (!b->prog) {
		err = -errno;
		goto fail;
	}
	b->skel = b->prog->skel;
	err = open_counters(b, su, fail);
	if (err)
		goto fail;
	b->skel->bss->enabled = su->enabled;
	b->links = calloc(2 * su->nt * su->nr_pids + 1, sizeof(*b->links));
	if (!b->links) {
		err = -ENOMEM;
		goto fail;
	}
	b->links[b->nr_links] = bpf_program__attach(b->skel->progs.func_switch);
	if (!b->links[b->nr_links]) {
		err = -errno;
		goto fail;
	}
	b->nr_links++;
	for (int i = 0; i < su->nr_pids; i++)
		for (int t = 0; t < su->nt; t++) {
			const struct lupe_func_target *g = &su->t[t];
			__u64 cookie = t | (g->exit ? FUNC_COOKIE_RANGE : 0);

			err = attach(b, b->skel->progs.func_entry, su->pids[i], g->path, g->entry, 0,
				     cookie);
			if (!err)
				err = attach(b, b->skel->progs.func_return, su->pids[i], g->path,
					     g->exit ? g->exit : g->entry, !g->exit, cookie);
			if (err)
				goto fail;
		}
	b->src = lupe_bpf_ring_source_new(bpf_map__fd(b->skel->maps.rb), stamp, program_lost, b);
	if (!b->src) {
		err = -errno;
		goto fail;
	}
	return b;
fail:
	lupe_func_bpf_close(b);
	return err_ptr(err < 0 ? err : -EINVAL);
}

void lupe_func_bpf_enable(struct lupe_func_bpf *b)
{
	b->skel->bss->enabled = 1;
}

int lupe_func_bpf_read(struct lupe_func_bpf *b, lupe_emit_fn emit, void *arg)
{
	return lupe_bpf_ring_read(b->src, emit, arg);
}

void lupe_func_bpf_stop(struct lupe_func_bpf *b)
{
	if (!b || !b->links)
		return;
	for (int i = 0; b->skel && i < 3; i++) {
		struct bpf_program *p = i == 0 ? b->skel->progs.func_entry :
					i == 1 ? b->skel->progs.func_return : b->skel->progs.func_switch;
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len) && info.recursion_misses)
			pr_debug("%s: %llu runs missed (the kernel ran another BPF program on the CPU)",
				 bpf_program__name(p), (unsigned long long)info.recursion_misses);
	}
	if (b->skel && b->skel->bss && b->skel->bss->missed)
		pr_debug("%llu switch-ins of threads inside functions were not seen: their counts since then are lost",
			 (unsigned long long)b->skel->bss->missed);
	/*
	 * Detach without cutting calls: no call opens from here, the entry
	 * probes go before the return probes (calls in flight still return),
	 * the switch program last (links: switch, then entry and return of
	 * each target). Attached to a running program (-p), a return probe
	 * that left first made every call of the next milliseconds unfinished.
	 */
	if (b->skel && b->skel->bss)
		b->skel->bss->enabled = 0;
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < b->nr_links; i++)
			if ((pass == 0 && i % 2 == 1) || (pass == 1 && i && i % 2 == 0) ||
			    (pass == 2 && !i))
				bpf_link__destroy(b->links[i]);
	free(b->links);
	b->links = NULL;
	b->nr_links = 0;
}

/*
 * Calls still open (left by a thread's or the program's exit, or still
 * inside at a detach): the programs' count, of no thread in particular.
 */
uint64_t lupe_func_bpf_open_calls(const struct lupe_func_bpf *b, int t)
{
	int ncpu = libbpf_num_possible_cpus();
	__s64 *o = calloc(ncpu > 0 ? ncpu : 1, sizeof(*o)), n = 0;
	__u32 key = t;

	if (o && !bpf_map__lookup_elem(b->skel->maps.opened, &key, sizeof(key), o,
				       ncpu * sizeof(*o), 0))
		for (int c = 0; c < ncpu; c++)
			n += o[c];
	free(o);
	return n > 0 ? (uint64_t)n : 0;
}

void lupe_func_bpf_close(struct lupe_func_bpf *b)
{
	if (!b)
		return;
	lupe_func_bpf_stop(b);
	lupe_source_delete(b->src);
	for (int i = 0; b->cfds && i < b->nr_cfds; i++)
		if (b->cfds[i] >= 0)
			close(b->cfds[i]);
	free(b->cfds);
	lupe_bpf_prog_delete(b->prog);
	free(b);
}
