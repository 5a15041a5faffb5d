// SPDX-License-Identifier: GPL-2.0
/*
 * The live source: events opened through the evlist (sampling mode, perf's
 * fallbacks), one ring per CPU (the other events of that CPU redirect into
 * it) or per thread, polled and drained into records. Each pass over the
 * rings ends with a FINISHED_ROUND, as perf record writes it, so that a
 * consumer can order by rounds. Records from the rings are not stable: the
 * kernel reuses their space once the pass returns.
 *
 * The rings are drained on wake-ups and on a timer: a pass at least every
 * DRAIN_MS however long the caller's poll, so that a recording killed with
 * SIGKILL has on disk all but its last quarter second (the kernel wakes a
 * reader only when a ring is a quarter full: about 3 s at the default rate
 * here).
 */
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <lupe/evlist.h>
#include <lupe/record.h>
#include "counting/evsel.h"
#include "data/format.h"
#include "data/maps-write.h"
#include "record/attr.h"
#include "record/engine.h"
#include "record/live.h"
#include "sampling/sample.h"
#include "record/bpf-synth.h"
#include "session/synthesize.h"
#include "util/util.h"

#define DRAIN_MS 250

/* Where the kernel's id of one fd was opened: perf's ID_INDEX entry. */
struct id_where {
	uint64_t id;
	int ev, ring, cpu, tid;
};

struct live {
	struct lupe_source src;
	struct lupe_record_opts opts;
	struct lupe_evlist *evlist;
	size_t nr_evs;
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads, *open_threads; /* open_threads: "any" system-wide */
	int nr_cpus, nr_threads;
	/* one ring per CPU, or per thread when the CPU map is "any" (the engine's) */
	struct lupe_live_rings *rings;
	int nr_rings, per_thread;
	int wake[4], nr_wake; /* until the rings exist */
	int stopped, synthesized;
	lupe_emit_fn emit; /* of the drain in progress */
	void *emit_arg;
	size_t emitted;
	int emit_ret;      /* what emit returned when it stopped a drain */
	struct id_where *where; /* one per id, in the order they were added */
	size_t nr_where;
};

static struct live *live_of(struct lupe_source *src)
{
	return (struct live *)src;
}

static struct lupe_evsel *ev_at(const struct live *l, size_t i)
{
	return lupe_evlist_evsel(l->evlist, (int)i);
}

static struct lupe_evlist *live_evlist(struct lupe_source *src)
{
	return live_of(src)->evlist;
}

static void live_destroy(struct lupe_source *src)
{
	struct live *l = live_of(src);

	lupe_live_rings_delete(l->rings);
	lupe_evlist_delete(l->evlist); /* closes the events */
	free(l->where);
	lupe_cpu_map_put(l->cpus);
	lupe_thread_map_put(l->threads);
	lupe_thread_map_put(l->open_threads);
	free(l);
}

static int live_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	struct live *l = live_of(src);
	int ret = 0;

	if (!l->synthesized && (ret = lupe_live_synthesize(src, emit, arg)))
		return ret;
	while (!l->stopped) {
		ret = lupe_live_poll(src, 100, emit, arg);
		if (ret == 1 && lupe_live_rings_all_hup(l->rings) && !l->emit_ret)
			break; /* every monitored thread exited */
		if (ret)
			return ret;
	}
	/* the end: what the rings still hold */
	return lupe_live_drain(src, emit, arg);
}

static const struct lupe_source_ops live_ops = {
	.evlist = live_evlist,
	.read = live_read,
	.destroy = live_destroy,
	.live = 1,
};

struct lupe_source *lupe_live_source_new(const struct lupe_record_opts *opts,
					 const struct lupe_event *events, size_t nr_events,
					 struct lupe_cpu_map *cpus, struct lupe_thread_map *threads)
{
	struct live *l;

	struct lupe_record_opts o;

	if (!opts || lupe_opts_load(&o, opts) || !nr_events || !cpus || !threads)
		return err_ptr(-EINVAL);
	opts = &o; /* the caller's struct is not read again */
	l = calloc(1, sizeof(*l));
	if (!l)
		return err_ptr(-ENOMEM);
	l->src.ops = &live_ops;
	l->opts = o;
	l->evlist = lupe_evlist_new_empty();
	if (!l->evlist)
		goto nomem;
	l->nr_evs = nr_events;
	for (size_t i = 0; i < nr_events; i++)
		if (!lupe_evlist_add_event(l->evlist, &events[i]))
			goto nomem;
	if (l->opts.nr_cgroups) {
		char bad[256];
		int err = lupe_evlist_set_cgroups(l->evlist, l->opts.cgroups, l->opts.nr_cgroups, bad,
						  sizeof(bad));

		if (err) {
			live_destroy(&l->src);
			return err_ptr(err);
		}
	}
	l->cpus = lupe_cpu_map_get(cpus);
	l->threads = lupe_thread_map_get(threads);
	l->nr_cpus = lupe_cpu_map_nr(cpus);
	/*
	 * Per-thread events (cpu -1) cannot share a ring across tasks, and the
	 * kernel refuses to mmap an inherited one: they get a ring each, and
	 * only without inherit. Otherwise one ring per CPU takes every thread.
	 */
	l->per_thread = !opts->system_wide && l->nr_cpus == 1 && lupe_cpu_map_cpu(cpus, 0) == -1;
	if (l->per_thread && !opts->no_inherit && !opts->per_thread) {
		live_destroy(&l->src);
		return err_ptr(-EINVAL);
	}
	l->nr_threads = opts->system_wide ? 1 : lupe_thread_map_nr(threads);
	l->open_threads = opts->system_wide ? lupe_thread_map_new_one(-1) : lupe_thread_map_get(threads);
	if (!l->open_threads)
		goto nomem;
	l->nr_rings = l->per_thread ? l->nr_threads : l->nr_cpus;
	if (!l->opts.mmap_pages)
		l->opts.mmap_pages = LUPE_RECORD_DEFAULT_PAGES;
	if (l->opts.mmap_pages & (l->opts.mmap_pages - 1)) {
		live_destroy(&l->src);
		return err_ptr(-EINVAL);
	}
	return &l->src;
nomem:
	live_destroy(&l->src);
	return err_ptr(-ENOMEM);
}

/* The engine's opener: event e's fd on CPU index c, thread index t, and its id noted. */
static int open_fd(void *arg, int c, int t, int e)
{
	struct live *l = arg;
	struct lupe_evsel *evsel = ev_at(l, e);
	int fd = lupe_evsel_fd(evsel, c, t), err;
	uint64_t id;

	if (fd < 0) /* a thread that exited meanwhile */
		return LUPE_LIVE_SKIP;
	err = ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0 ? -errno : lupe_evsel_add_id(evsel, id);
	if (err)
		return err;
	l->where[l->nr_where++] = (struct id_where){
		id, e, l->per_thread ? t : c, lupe_cpu_map_cpu(l->cpus, c),
		lupe_thread_map_pid(l->open_threads, t),
	};
	return fd;
}

int lupe_live_open(struct lupe_source *src, int *failed)
{
	struct live *l = live_of(src);
	LUPE_OPTS(lupe_evlist_opts, eo, .sampling = 1);
	struct lupe_open_failure fail = { .evsel = -1 };
	struct lupe_live_open lo = { l->cpus, l->nr_threads, (int)l->nr_evs, l->per_thread,
				     open_fd, l };
	size_t nfd = l->nr_evs * l->nr_cpus * l->nr_threads;
	int err;

	if (failed)
		*failed = -1;
	for (size_t i = 0; i < l->nr_evs; i++) {
		/* off-cpu samples are another event in the file: ids everywhere */
		lupe_record_attr_config(&ev_at(l, i)->attr, &l->opts, i == 0,
					l->nr_evs > 1 || l->opts.off_cpu);
		err = lupe_record_attr_terms(&ev_at(l, i)->attr, ev_at(l, i)->config_terms);
		if (err) {
			if (failed)
				*failed = i;
			return err;
		}
	}
	l->rings = lupe_live_rings_new(l->nr_rings, l->opts.mmap_pages);
	l->where = calloc(nfd, sizeof(*l->where));
	if (!l->rings || !l->where)
		return -ENOMEM;
	for (int i = 0; i < l->nr_wake; i++)
		lupe_live_rings_add_wake_fd(l->rings, l->wake[i]);
	/* the evlist opens with perf's fallbacks; the engine adds the rings */
	err = lupe_evlist_open(l->evlist, l->cpus, l->open_threads, &eo, &fail);
	/* perf's default event: cycles as precise as it goes, else cpu-clock */
	while (err && l->opts.default_event && fail.evsel == 0) {
		int again = lupe_record_default_fallback(ev_at(l, 0), err);

		if (again <= 0) {
			err = again < 0 ? again : err;
			break;
		}
		fail = (struct lupe_open_failure){ .evsel = -1 };
		err = lupe_evlist_open(l->evlist, l->cpus, l->open_threads, &eo, &fail);
	}
	if (err) {
		if (failed)
			*failed = fail.evsel;
		return err;
	}
	return lupe_live_rings_open(l->rings, &lo);
}

int lupe_live_add_wake_fd(struct lupe_source *src, int fd)
{
	struct live *l = live_of(src);

	if (l->rings)
		return lupe_live_rings_add_wake_fd(l->rings, fd);
	if (l->nr_wake == (int)(sizeof(l->wake) / sizeof(l->wake[0])))
		return -ENOSPC;
	l->wake[l->nr_wake++] = fd;
	return 0;
}

int lupe_live_start(struct lupe_source *src)
{
	struct live *l = live_of(src);

	if (l->opts.workload && !l->opts.system_wide)
		return 0; /* the workload's exec enables them */
	for (int i = 0; i < lupe_live_rings_nr_fds(l->rings); i++)
		if (ioctl(lupe_live_rings_fd(l->rings, i), PERF_EVENT_IOC_ENABLE, 0) < 0)
			return -errno;
	return 0;
}

void lupe_live_stop(struct lupe_source *src)
{
	struct live *l = live_of(src);

	l->stopped = 1;
	lupe_evlist_disable(l->evlist);
}

/* ---- records ---- */

static int on_ring_record(const struct perf_event_header *h, int ring, void *arg)
{
	struct live *l = arg;

	(void)ring;
	l->emitted++;
	l->emit_ret = l->emit(l->emit_arg, h, 0);
	return l->emit_ret;
}

static int on_synth(const struct perf_event_header *h, void *arg)
{
	return on_ring_record(h, 0, arg);
}

static int emit_buf(struct live *l, struct fbuf *b)
{
	int err = b->err;

	for (size_t at = 0; !err && at < b->len;) {
		const struct perf_event_header *h = (const void *)(b->data + at);

		err = on_ring_record(h, 0, l);
		at += h->size;
	}
	lupe_fbuf_free(b);
	return err;
}

/*
 * perf's ID_INDEX: where each id was opened (ring, CPU, thread), event by
 * event, in records of at most what a u16 size holds.
 */
static void id_index(struct live *l, struct fbuf *b)
{
	const size_t max = (UINT16_MAX - 16) / 32;
	size_t total = l->nr_where, in_rec = 0;

	for (size_t e = 0; e < l->nr_evs; e++) {
		for (size_t i = 0; i < l->nr_where; i++) {
			const struct id_where *w = &l->where[i];

			if (w->ev != (int)e)
				continue;
			if (!in_rec) {
				struct perf_event_header h = { PERF_RECORD_ID_INDEX, 0, 0 };
				size_t n = total < max ? total : max;

				h.size = (uint16_t)(16 + 32 * n);
				lupe_fbuf_add(b, &h, sizeof(h));
				lupe_fbuf_u64(b, n);
				in_rec = n;
				total -= n;
			}
			lupe_fbuf_u64(b, w->id);
			lupe_fbuf_u64(b, (uint64_t)w->ring);
			lupe_fbuf_u64(b, (uint64_t)(int64_t)w->cpu);
			lupe_fbuf_u64(b, (uint64_t)(int64_t)w->tid);
			in_rec--;
		}
	}
}

/*
 * One EVENT_UPDATE: perf's size is its struct (with a 16-byte union) plus
 * the data padded to 8 bytes, the data written over the union.
 */
static void event_update(struct fbuf *b, uint64_t type, uint64_t id, const void *data, size_t n)
{
	size_t padded = (n + 7) & ~(size_t)7;
	struct perf_event_header h = { PERF_RECORD_EVENT_UPDATE, 0, (uint16_t)(40 + padded) };

	lupe_fbuf_add(b, &h, sizeof(h));
	lupe_fbuf_u64(b, type);
	lupe_fbuf_u64(b, id);
	lupe_fbuf_add(b, data, n);
	lupe_fbuf_zero(b, padded - n + 16);
}

/*
 * perf's EVENT_UPDATEs of what an attr does not carry: a clock event's unit
 * and scale (as perf sets them for one named with -e), and in a pipe, which
 * has no EVENT_DESC feature, each event's name.
 * NEEDSWORK: perf also writes a PMU event's sysfs unit and scale, and the
 * CPUs of a PMU that counts on some only.
 */
static void event_updates(struct live *l, struct fbuf *b, int pipe)
{
	enum { UPDATE_UNIT, UPDATE_SCALE, UPDATE_NAME };
	static const double usec_scale = 1e-6;

	for (size_t e = 0; e < l->nr_evs; e++) {
		const struct lupe_evsel *ev = ev_at(l, e);
		const char *name = ev->name ? ev->name : "";
		int clock = ev->attr.type == PERF_TYPE_SOFTWARE &&
			    (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
			     ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);

		if (!ev->nr_ids)
			continue;
		if (clock && !l->opts.default_event) {
			event_update(b, UPDATE_UNIT, ev->ids[0], "msec", 5);
			event_update(b, UPDATE_SCALE, ev->ids[0], &usec_scale, sizeof(usec_scale));
		}
		if (pipe)
			event_update(b, UPDATE_NAME, ev->ids[0], name, strlen(name) + 1);
	}
}

static int synthesize(struct live *l, lupe_emit_fn emit, void *arg, int maps, int pipe)
{
	struct perf_event_header fin = { PERF_RECORD_FINISHED_INIT, 0, sizeof(fin) };
	struct synth s = { on_synth, l, lupe_sample_id_size(&ev_at(l, 0)->attr),
			   ev_at(l, 0)->attr.mmap_data, l->opts.namespaces };
	struct fbuf b = { 0 };
	int err = 0, kernel = 0;

	l->synthesized = 1;
	l->emit = emit;
	l->emit_arg = arg;
	if (maps) {
		id_index(l, &b);
		if ((err = emit_buf(l, &b)))
			return err;
	}
	for (size_t i = 0; i < l->nr_evs; i++)
		kernel |= !ev_at(l, i)->attr.exclude_kernel;
	if (kernel) {
		err = lupe_synth_kernel(&s);
		if (err == -EPERM) {
			pr_warn("kernel addresses are hidden (kernel.kptr_restrict): kernel samples will not resolve");
			err = 0;
		}
		if (err)
			return err;
	}
	if (maps) {
		event_updates(l, &b, pipe);
		lupe_thread_map_record(&b, l->open_threads, 0);
		lupe_cpu_map_record(&b, l->cpus);
		if ((err = emit_buf(l, &b)))
			return err;
	}
	if (!l->opts.no_bpf_event && (err = lupe_synth_bpf(&s)))
		return err;
	if (l->opts.all_cgroups && (err = lupe_synth_cgroups(&s)))
		return err;
	if (l->opts.system_wide)
		err = lupe_synth_all(&s);
	else if (!l->opts.workload)
		err = lupe_synth_thread_map(&s, l->threads);
	/* the workload waits for its exec: named as perf names it until then, even system-wide */
	for (int t = 0; l->opts.workload && t < lupe_thread_map_nr(l->threads) && !err; t++) {
		pid_t pid = lupe_thread_map_pid(l->threads, t);

		err = lupe_synth_comm(&s, pid, pid, "lupe-exec");
	}
	if (!err && !l->opts.workload && l->opts.timer_pid > 0)
		err = lupe_synth_comm(&s, l->opts.timer_pid, l->opts.timer_pid, "lupe-exec");
	return err ? err : emit(arg, &fin, 0);
}

int lupe_live_synthesize(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	return synthesize(live_of(src), emit, arg, 0, 0);
}

int lupe_live_synthesize_record(struct lupe_source *src, lupe_emit_fn emit, void *arg, int pipe)
{
	return synthesize(live_of(src), emit, arg, 1, pipe);
}

int lupe_live_drain(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	struct live *l = live_of(src);
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(round) };
	int err;

	l->emit = emit;
	l->emit_arg = arg;
	l->emitted = 0;
	l->emit_ret = 0;
	err = lupe_live_rings_read(l->rings, on_ring_record, l);
	if (err)
		return err;
	return l->emitted ? emit(arg, &round, 0) : 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int lupe_live_poll(struct lupe_source *src, int timeout_ms, lupe_emit_fn emit, void *arg)
{
	struct live *l = live_of(src);
	uint64_t end = timeout_ms < 0 ? UINT64_MAX : now_ms() + (uint64_t)timeout_ms;
	int ret, woken;

	for (;;) {
		uint64_t now = now_ms();
		/* the drain timer: no poll outlasts DRAIN_MS without a pass over the rings */
		int slice = end - now < DRAIN_MS ? (int)(end - now) : DRAIN_MS;

		ret = lupe_live_rings_poll(l->rings, end <= now ? 0 : slice);
		if (ret < 0 && ret != -EINTR)
			return ret;
		woken = ret != 0 || now_ms() >= end; /* woken, interrupted or out of time */
		ret = lupe_live_drain(src, emit, arg);
		if (ret)
			return ret;
		if (woken)
			break;
	}
	return !l->opts.system_wide && lupe_live_rings_all_hup(l->rings) ? 1 : 0;
}

uint64_t lupe_live_lost_samples(struct lupe_source *src, const struct lupe_evsel *evsel)
{
	struct live *l = live_of(src);
	uint64_t buf[8], lost = 0, rf = evsel->attr.read_format;
	/* value, [enabled], [running], [id], lost */
	int at = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) +
		 !!(rf & PERF_FORMAT_ID);

	if (!(rf & PERF_FORMAT_LOST) || (rf & PERF_FORMAT_GROUP))
		return 0;
	for (int c = 0; c < l->nr_cpus; c++) {
		for (int t = 0; t < l->nr_threads; t++) {
			int fd = lupe_evsel_fd(evsel, c, t);

			if (fd >= 0 && read(fd, buf, sizeof(buf)) >= (ssize_t)(8 * (at + 1)))
				lost += buf[at];
		}
	}
	return lost;
}

uint64_t lupe_live_wakeups(const struct lupe_source *src)
{
	const struct live *l = (const struct live *)src;

	return l->rings ? lupe_live_rings_wakeups(l->rings) : 0;
}
