// SPDX-License-Identifier: GPL-2.0
/*
 * Counting inside functions, kernel side, no ptrace. Per target thread one
 * group: the counters, then an entry and a return probe per function (an
 * entry and an exit probe per source range). The probes sample every hit
 * with PERF_SAMPLE_READ | PERF_FORMAT_GROUP, so each record holds the
 * thread's counters at that instant; a call is its return minus its entry.
 *
 * Why tracefs uprobes and not the uprobe PMU: a uprobe PMU event carries
 * its path as a user pointer in the attr, which the kernel reads again when
 * a thread inherits the event, in the new thread's address space: inherited
 * copies fail and threads are never counted (measured on 6.18). A probe
 * made in uprobe_events is a tracepoint and inherits. Why not BPF:
 * bpf_perf_event_read_value() reads only counters of the current CPU or of
 * a task that has one in the map, so the threads a program starts later
 * need counters lupe never opened; and the kernel's trap (about 20 us per
 * entry here) dwarfs the cost of one sample record (see scripts/bench/func).
 *
 * Inherited probes cannot be mmapped (per-task inherit rings are refused),
 * so each group's records go through SET_OUTPUT to the ring of a dummy
 * event on the same thread; inherited copies write to their parent's ring.
 *
 * The outermost call of a recursion is told by the stack pointer: a nested
 * entry has a lower sp, and the outermost return has the entry's sp plus
 * the return address. An entry at or above an open call's sp means that
 * call was left without returning (longjmp, exception): it is unfinished.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include <lupe/evsel.h>
#include <lupe/func.h>
#include "func/func.h"
#include "events/internal.h"
#include "sampling/ring.h"
#include "util/util.h"

#if defined(__x86_64__)
#define SP_REG 7   /* PERF_REG_X86_SP */
#define RET_SLOT 8 /* the return address the call pushed */
#elif defined(__aarch64__)
#define SP_REG 31  /* PERF_REG_ARM64_SP */
#define RET_SLOT 0 /* the return address is in a register */
#else
#define SP_REG -1  /* NEEDSWORK: other architectures; recursion by depth only */
#define RET_SLOT 0
#endif

#define RING_PAGES 256

enum { ID_COUNTER, ID_ENTRY, ID_RETURN };

struct idmap {
	uint64_t id;
	int kind, idx;
};

struct open_call {
	int open;
	int depth;          /* without a stack pointer: nesting */
	uint64_t sp, time;
	uint64_t *values;   /* counters at entry */
};

struct thread {
	pid_t tid;
	struct lupe_func_stats *stats; /* per target */
	struct open_call *calls;       /* per target */
};

struct lupe_func_session {
	struct lupe_event *ev;     /* counting events (copies of attrs and names) */
	int nc;                    /* how many */
	int *supported;
	struct lupe_func_target *t;
	int nt;
	char group[32];
	uint64_t *probe_id;        /* tracepoint ids: [2 * t + (0 entry, 1 return/exit)] */
	int probes_made;           /* how many probe definitions were written */
	int *fds;                  /* [tid][nc + 2 nt], -1 when not open */
	int *dummy;
	struct ring *rings;
	int nr_tids;
	struct idmap *ids;
	int nr_ids;
	struct thread *threads;
	int nr_threads, alloc_threads, last_thread;
	struct lupe_func_stats *total; /* per target */
	uint64_t lost;
	uint64_t *scratch;         /* values of one record, by counter */
	uint64_t *delta;
	lupe_func_call_fn call_fn;
	void *call_arg;
	int closed;
};

static int nv(const struct lupe_func_session *s)
{
	return s->nc + 1;
}

static int stats_init(struct lupe_func_stats *st, int n)
{
	st->sum = calloc(4 * n, sizeof(double));
	if (!st->sum)
		return -ENOMEM;
	st->sumsq = st->sum + n;
	st->min = st->sum + 2 * n;
	st->max = st->sum + 3 * n;
	return 0;
}

static void stats_add(struct lupe_func_stats *st, const uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		double x = (double)v[i];

		st->sum[i] += x;
		st->sumsq[i] += x * x;
		if (!st->calls || x < st->min[i])
			st->min[i] = x;
		if (!st->calls || x > st->max[i])
			st->max[i] = x;
	}
	st->calls++;
}

struct lupe_func_session *lupe_func_session_new(const struct lupe_event_list *events,
						const struct lupe_func_target *targets,
						int nr_targets)
{
	struct lupe_func_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ev = calloc(events->nr + 1, sizeof(*s->ev));
	s->supported = calloc(events->nr + 1, sizeof(int));
	s->t = calloc(nr_targets, sizeof(*s->t));
	s->total = calloc(nr_targets, sizeof(*s->total));
	s->probe_id = calloc(2 * nr_targets, sizeof(uint64_t));
	if (!s->ev || !s->supported || !s->t || !s->total || !s->probe_id)
		goto fail;
	for (size_t i = 0; i < events->nr; i++) {
		if (events->events[i].tool)
			continue; /* duration_time and friends have no fd: nothing to snapshot */
		s->ev[s->nc] = events->events[i];
		s->ev[s->nc].name = strdup(events->events[i].name);
		s->ev[s->nc].pmu_name = NULL;
		s->ev[s->nc].group_name = NULL;
		s->ev[s->nc].config_terms = NULL;
		s->ev[s->nc].cpus = NULL;
		if (!s->ev[s->nc++].name)
			goto fail;
	}
	for (int i = 0; i < nr_targets; i++) {
		s->t[i].name = strdup(targets[i].name);
		s->t[i].path = strdup(targets[i].path);
		s->t[i].entry = targets[i].entry;
		s->t[i].exit = targets[i].exit;
		s->nt++;
		if (!s->t[i].name || !s->t[i].path || stats_init(&s->total[i], nv(s)))
			goto fail;
	}
	s->scratch = calloc(2 * nv(s), sizeof(uint64_t));
	if (!s->scratch)
		goto fail;
	s->delta = s->scratch + nv(s);
	snprintf(s->group, sizeof(s->group), "lupe_%d", (int)getpid());
	return s;
fail:
	lupe_func_session_delete(s);
	return err_ptr(-ENOMEM);
}

void lupe_func_session_set_call_fn(struct lupe_func_session *s, lupe_func_call_fn fn, void *arg)
{
	s->call_fn = fn;
	s->call_arg = arg;
}

/* Write one line to tracefs' uprobe_events. */
static int uprobe_events(const char *line)
{
	const char *dir = lupe_tracefs_dir();
	char path[512];
	int fd, ret = 0;

	if (!dir)
		return -LUPE_ERR_NO_TRACEFS;
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, line, strlen(line)) < 0)
		ret = -errno;
	close(fd);
	if (ret)
		pr_debug("uprobe_events: '%s': %s", line, strerror(-ret));
	return ret;
}

static void probe_name(const struct lupe_func_session *s, int k, char *buf, size_t size)
{
	snprintf(buf, size, "f%d_%s", k / 2, k % 2 ? (s->t[k / 2].exit ? "exit" : "return") : "entry");
}

static void remove_probes(struct lupe_func_session *s)
{
	for (int k = 0; k < s->probes_made; k++) {
		char name[64], line[128];

		probe_name(s, k, name, sizeof(name));
		snprintf(line, sizeof(line), "-:%s/%s\n", s->group, name);
		uprobe_events(line);
	}
	s->probes_made = 0;
}

static int make_probes(struct lupe_func_session *s)
{
	for (int k = 0; k < 2 * s->nt; k++) {
		const struct lupe_func_target *t = &s->t[k / 2];
		char name[64], line[4200];
		uint64_t off = k % 2 && t->exit ? t->exit : t->entry;
		int err;

		probe_name(s, k, name, sizeof(name));
		snprintf(line, sizeof(line), "%c:%s/%s %s:0x%llx\n", k % 2 && !t->exit ? 'r' : 'p',
			 s->group, name, t->path, (unsigned long long)off);
		err = uprobe_events(line);
		if (err)
			return err;
		s->probes_made++;
		err = lupe_tracepoint_id(s->group, name, (__u64 *)&s->probe_id[k]);
		if (err)
			return err;
	}
	return 0;
}

static int add_id(struct lupe_func_session *s, int fd, int kind, int idx)
{
	uint64_t id;
	struct idmap *n;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -errno;
	n = realloc(s->ids, (s->nr_ids + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	s->ids = n;
	n[s->nr_ids++] = (struct idmap){ id, kind, idx };
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static const struct idmap *find_id(const struct lupe_func_session *s, uint64_t id)
{
	struct idmap key = { .id = id };

	return bsearch(&key, s->ids, s->nr_ids, sizeof(key), cmp_id);
}

static void close_fds(struct lupe_func_session *s)
{
	int per = s->nc + 2 * s->nt;

	for (int i = 0; s->fds && i < s->nr_tids * per; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	for (int i = 0; s->dummy && i < s->nr_tids; i++) {
		if (s->rings[i].base)
			lupe_ring_unmap(&s->rings[i]);
		if (s->dummy[i] >= 0)
			close(s->dummy[i]);
	}
	free(s->fds);
	free(s->dummy);
	free(s->rings);
	s->fds = s->dummy = NULL;
	s->rings = NULL;
}

/* One thread's group: counters (the first supported leads), then the probes. */
static int open_group(struct lupe_func_session *s, int ti, pid_t tid, int enable_on_exec,
		      struct lupe_open_failure *fail)
{
	int per = s->nc + 2 * s->nt, *fds = s->fds + ti * per, leader = -1, err;
	struct perf_event_attr a;

	for (int i = 0; i < s->nc; i++) {
		a = s->ev[i].attr;
		a.inherit = 1;
		a.disabled = leader < 0;
		a.enable_on_exec = leader < 0 && enable_on_exec;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		a.sample_period = 0;
		a.sample_type = 0;
		a.freq = 0;
		fds[i] = lupe_perf_event_open(&a, tid, -1, leader, 0);
		if (fds[i] < 0) {
			err = fds[i];
			fds[i] = -1;
			if (lupe_open_verdict(err) == LUPE_OPEN_UNSUPPORTED && ti == 0) {
				s->supported[i] = 0;
				continue;
			}
			*fail = (struct lupe_open_failure){ err, i, -1, tid };
			return err;
		}
		s->supported[i] = 1;
		if (leader < 0)
			leader = fds[i];
		err = add_id(s, fds[i], ID_COUNTER, i);
		if (err)
			return err;
	}
	if (leader < 0) {
		*fail = (struct lupe_open_failure){ -LUPE_ERR_NOT_SUPPORTED, 0, -1, tid };
		return -LUPE_ERR_NOT_SUPPORTED;
	}
	s->dummy[ti] = lupe_perf_event_open(&(struct perf_event_attr){
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(a), .exclude_kernel = 1 }, tid, -1, -1, 0);
	if (s->dummy[ti] < 0) {
		err = s->dummy[ti];
		s->dummy[ti] = -1;
		*fail = (struct lupe_open_failure){ err, -1, -1, tid };
		return err;
	}
	err = lupe_ring_mmap(&s->rings[ti], s->dummy[ti], -1, RING_PAGES);
	if (err)
		return err;
	for (int k = 0; k < 2 * s->nt; k++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = s->probe_id[k];
		a.sample_period = 1;
		a.inherit = 1;
		a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_READ;
		if (SP_REG >= 0) {
			a.sample_type |= PERF_SAMPLE_REGS_USER;
			a.sample_regs_user = 1ULL << SP_REG;
		}
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		fds[s->nc + k] = lupe_perf_event_open(&a, tid, -1, leader, 0);
		if (fds[s->nc + k] < 0) {
			err = fds[s->nc + k];
			fds[s->nc + k] = -1;
			*fail = (struct lupe_open_failure){ err, -1, -1, tid };
			return err;
		}
		if (ioctl(fds[s->nc + k], PERF_EVENT_IOC_SET_OUTPUT, s->dummy[ti]) < 0)
			return -errno;
		err = add_id(s, fds[s->nc + k], k % 2 ? ID_RETURN : ID_ENTRY, k / 2);
		if (err)
			return err;
	}
	return 0;
}

int lupe_func_session_open(struct lupe_func_session *s, const pid_t *tids, int nr_tids,
			   int enable_on_exec, struct lupe_open_failure *fail)
{
	int per = s->nc + 2 * s->nt, err;
	struct lupe_open_failure dummy_fail;

	if (!fail)
		fail = &dummy_fail;
	*fail = (struct lupe_open_failure){ .evsel = -1, .cpu = -1, .pid = -1 };
	s->closed = 0;
	s->nr_tids = nr_tids;
	s->fds = malloc(nr_tids * per * sizeof(int));
	s->dummy = malloc(nr_tids * sizeof(int));
	s->rings = calloc(nr_tids, sizeof(*s->rings));
	if (!s->fds || !s->dummy || !s->rings) {
		err = -ENOMEM;
		goto fail;
	}
	memset(s->fds, -1, nr_tids * per * sizeof(int));
	memset(s->dummy, -1, nr_tids * sizeof(int));
	err = make_probes(s);
	if (err) {
		fail->err = err;
		goto fail;
	}
	for (int i = 0; i < nr_tids; i++) {
		err = open_group(s, i, tids[i], enable_on_exec, fail);
		if (err)
			goto fail;
	}
	qsort(s->ids, s->nr_ids, sizeof(*s->ids), cmp_id);
	return 0;
fail:
	close_fds(s);
	remove_probes(s);
	s->nr_ids = 0;
	s->closed = 1;
	return err;
}

int lupe_func_session_enable(struct lupe_func_session *s)
{
	int per = s->nc + 2 * s->nt;

	for (int i = 0; i < s->nr_tids; i++)
		for (int k = 0; k < s->nc; k++)
			if (s->fds[i * per + k] >= 0) {
				if (ioctl(s->fds[i * per + k], PERF_EVENT_IOC_ENABLE, 0) < 0)
					return -errno;
				break;
			}
	return 0;
}

static struct thread *get_thread(struct lupe_func_session *s, pid_t tid)
{
	int last = s->last_thread;
	struct thread *t;

	if (last < s->nr_threads && s->threads[last].tid == tid)
		return &s->threads[last];
	/* NEEDSWORK: a hash for programs with thousands of threads */
	for (int i = 0; i < s->nr_threads; i++)
		if (s->threads[i].tid == tid)
			return &s->threads[s->last_thread = i];
	if (s->nr_threads == s->alloc_threads) {
		int n = s->alloc_threads ? 2 * s->alloc_threads : 8;
		struct thread *v = realloc(s->threads, n * sizeof(*v));

		if (!v)
			return NULL;
		s->threads = v;
		s->alloc_threads = n;
	}
	t = &s->threads[s->nr_threads];
	t->tid = tid;
	t->stats = calloc(s->nt, sizeof(*t->stats));
	t->calls = calloc(s->nt, sizeof(*t->calls));
	if (!t->stats || !t->calls)
		return NULL;
	for (int i = 0; i < s->nt; i++) {
		if (stats_init(&t->stats[i], nv(s)))
			return NULL;
		t->calls[i].values = calloc(nv(s), sizeof(uint64_t));
		if (!t->calls[i].values)
			return NULL;
	}
	s->last_thread = s->nr_threads;
	return &s->threads[s->nr_threads++];
}

static void unfinished(struct lupe_func_session *s, struct thread *th, int t)
{
	th->calls[t].open = 0;
	th->calls[t].depth = 0;
	th->stats[t].unfinished++;
	s->total[t].unfinished++;
}

static void on_entry(struct lupe_func_session *s, struct thread *th, int t, uint64_t sp,
		     uint64_t time)
{
	struct open_call *c = &th->calls[t];

	if (c->open) {
		if (!s->t[t].exit && (SP_REG < 0 || sp < c->sp)) {
			c->depth++;
			return; /* a nested call: only the outermost counts */
		}
		unfinished(s, th, t); /* the open one was left without returning */
	}
	c->open = 1;
	c->depth = 1;
	c->sp = sp;
	c->time = time;
	memcpy(c->values, s->scratch, s->nc * sizeof(uint64_t));
}

static void on_return(struct lupe_func_session *s, struct thread *th, int t, uint64_t sp,
		      uint64_t time)
{
	struct open_call *c = &th->calls[t];

	if (!c->open)
		return;
	if (!s->t[t].exit) {
		if (SP_REG >= 0) {
			if (sp <= c->sp)
				return; /* a nested call returned */
			if (sp != c->sp + RET_SLOT && RET_SLOT) {
				unfinished(s, th, t);
				return;
			}
		} else if (--c->depth > 0) {
			return;
		}
	}
	for (int i = 0; i < s->nc; i++)
		s->delta[i] = s->scratch[i] - c->values[i];
	s->delta[s->nc] = time - c->time;
	c->open = 0;
	stats_add(&th->stats[t], s->delta, nv(s));
	stats_add(&s->total[t], s->delta, nv(s));
	if (s->call_fn) {
		struct lupe_func_call call = { t, th->tid, c->time, s->delta };

		s->call_fn(s->call_arg, &call);
	}
}

static int on_record(const struct perf_event_header *h, void *arg)
{
	struct lupe_func_session *s = arg;
	const uint64_t *p = (const void *)(h + 1), *end = (const void *)((const char *)h + h->size);
	const struct idmap *probe, *m;
	uint64_t time, nr, sp = 0;
	struct thread *th;
	pid_t tid;

	if (h->type == PERF_RECORD_LOST) {
		s->lost += p[1];
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + 4 * 8)
		return 0;
	probe = find_id(s, p[0]);
	tid = (pid_t)(p[1] >> 32);
	time = p[2];
	nr = p[3];
	p += 4;
	if (!probe || probe->kind == ID_COUNTER || p + 2 * nr > end)
		return 0;
	memset(s->scratch, 0, s->nc * sizeof(uint64_t));
	for (uint64_t i = 0; i < nr; i++, p += 2) {
		m = find_id(s, p[1]);
		if (m && m->kind == ID_COUNTER)
			s->scratch[m->idx] = p[0];
	}
	if (SP_REG >= 0 && p < end && *p && p + 1 < end)
		sp = p[1];
	th = get_thread(s, tid);
	if (!th)
		return -ENOMEM;
	if (probe->kind == ID_ENTRY)
		on_entry(s, th, probe->idx, sp, time);
	else
		on_return(s, th, probe->idx, sp, time);
	return 0;
}

int lupe_func_session_poll(struct lupe_func_session *s)
{
	long n = 0;

	for (int i = 0; s->rings && i < s->nr_tids; i++) {
		long r;

		if (!s->rings[i].base)
			continue;
		r = lupe_ring_read(&s->rings[i], on_record, s);
		if (r < 0)
			return (int)r;
		n += r;
	}
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

int lupe_func_session_fd(const struct lupe_func_session *s, int idx)
{
	return s->dummy && idx < s->nr_tids ? s->dummy[idx] : -1;
}

void lupe_func_session_close(struct lupe_func_session *s)
{
	int per = s->nc + 2 * s->nt;

	if (!s || s->closed)
		return;
	for (int i = 0; s->fds && i < s->nr_tids; i++)
		for (int k = 0; k < s->nc; k++)
			if (s->fds[i * per + k] >= 0) {
				ioctl(s->fds[i * per + k], PERF_EVENT_IOC_DISABLE, 0);
				break;
			}
	lupe_func_session_poll(s);
	close_fds(s);
	remove_probes(s);
	for (int i = 0; i < s->nr_threads; i++)
		for (int t = 0; t < s->nt; t++)
			if (s->threads[i].calls[t].open)
				unfinished(s, &s->threads[i], t);
	s->closed = 1;
}

void lupe_func_session_delete(struct lupe_func_session *s)
{
	if (!s)
		return;
	lupe_func_session_close(s);
	for (int i = 0; i < s->nc; i++)
		free(s->ev[i].name);
	for (int i = 0; i < s->nr_threads; i++) {
		for (int t = 0; t < s->nt; t++) {
			free(s->threads[i].stats[t].sum);
			free(s->threads[i].calls[t].values);
		}
		free(s->threads[i].stats);
		free(s->threads[i].calls);
	}
	for (int t = 0; s->total && t < s->nt; t++)
		free(s->total[t].sum);
	free(s->threads);
	free(s->total);
	free(s->ev);
	free(s->supported);
	free(s->probe_id);
	free(s->ids);
	free(s->scratch);
	lupe_func_targets_free(s->t, s->nt);
	free(s);
}

const char *lupe_func_session_target_name(const struct lupe_func_session *s, int t)
{
	return t >= 0 && t < s->nt ? s->t[t].name : NULL;
}

int lupe_func_session_nr_values(const struct lupe_func_session *s)
{
	return nv(s);
}

const char *lupe_func_session_value_name(const struct lupe_func_session *s, int idx)
{
	return idx < s->nc ? s->ev[idx].name : "time";
}

int lupe_func_session_value_supported(const struct lupe_func_session *s, int idx)
{
	return idx < s->nc ? s->supported[idx] : 1;
}

const struct lupe_event *lupe_func_session_value_event(const struct lupe_func_session *s, int idx)
{
	return idx < s->nc ? &s->ev[idx] : NULL;
}

uint64_t lupe_func_session_lost(const struct lupe_func_session *s)
{
	return s->lost;
}

const struct lupe_func_stats *lupe_func_session_stats(const struct lupe_func_session *s, int t,
						      pid_t tid)
{
	if (t < 0 || t >= s->nt)
		return NULL;
	if (!tid)
		return &s->total[t];
	for (int i = 0; i < s->nr_threads; i++)
		if (s->threads[i].tid == tid)
			return &s->threads[i].stats[t];
	return NULL;
}

pid_t lupe_func_session_tid(const struct lupe_func_session *s, int idx)
{
	return idx >= 0 && idx < s->nr_threads ? s->threads[idx].tid : 0;
}

int lupe_func_session_nr_tids(const struct lupe_func_session *s)
{
	return s->nr_threads;
}
