// SPDX-License-Identifier: GPL-2.0
/*
 * Counting inside functions, kernel side, no ptrace. Two mechanisms.
 *
 * BPF (bpf+BPF.c, func.bpf.c), tried first: an entry and a return uprobe
 * of the uprobe PMU per function and target process, each with a BPF
 * program; counters opened per CPU (not per thread) that the programs read
 * with bpf_perf_event_read_value(), and a sched_switch program that banks
 * and rebases a thread's counts as it leaves and takes a CPU. The kernel
 * writes one ring record per finished call and nothing per probe hit: no
 * sample record (about 1.5 us each here). The ring is read as a live
 * source (bpf/ring.h): each record a sample of one whole call, handed to
 * the figures as it is read. Not through the time queue the records
 * mechanism needs: the kernel paired the call's entry and return, so its
 * order among the others changes no figure, and the queue's copy (90 ns
 * a record in lupe) cost the probed program 2-5% more CPU a call at load
 * 6 (scripts/bench/func, tiny()). Why not
 * per-thread counters: bpf_perf_event_read_value() reads no inherited
 * counter, and a program's later threads have no other. Why uprobe PMU
 * events and not the tracefs probes of the fallback: a BPF program on
 * tracefs probes opened on the threads with inherit ran for only part of
 * the hits on 6.18 (the probes' perf counts were all there; up to 3 in 4
 * runs of the program missing in a 4-thread program). A uprobe PMU event
 * bound to the process runs for all its threads (the kernel's uprobe
 * filter compares mm), not for the processes it forks.
 *
 * Records, the fallback (built without libbpf, or the BPF programs refused;
 * LUPE_FUNC_MECHANISM=records in lupe stat): per target thread one
 * group: the counters, then an entry and a return probe per function (an
 * entry and an exit probe per source range). The probes sample every hit
 * with PERF_SAMPLE_READ | PERF_FORMAT_GROUP, so each record holds the
 * thread's counters at that instant; a call is its return minus its entry.
 *
 * Why tracefs uprobes there and not the uprobe PMU: a uprobe PMU event carries
 * its path as a user pointer in the attr, which the kernel reads again when
 * a thread inherits the event, in the new thread's address space: inherited
 * copies fail and threads are never counted (measured on 6.18). A probe
 * made in uprobe_events is a tracepoint and inherits.
 *
 * Inherited events count per thread (since 6.12 a sample's READ gives the
 * thread's own values), but a ring shared by threads running on several
 * CPUs loses records (its writers are only safe on one CPU; measured: up
 * to 80% of samples gone without a LOST record), so the groups are per CPU
 * with a ring per CPU, as perf record's (opened, polled and drained by the
 * live engine, record/engine.h). A group on CPU c counts a thread
 * only while it runs there; a context-switch event in the group samples the
 * group at every switch-out, so the thread's totals at any record are the
 * values just read on this CPU plus the last ones seen on every other.
 * That needs the records of all rings in time order: each drain queues what
 * it read in the session's time order (session/ordered.c) and keeps back
 * the last millisecond for the next one.
 *
 * The two sit behind one table (struct func_mech: open, enable, poll,
 * lost, close), as trace's captures sit behind trace_ops: the session
 * does not ask which one runs.
 *
 * Both tell the outermost call of a recursion by the stack pointer: a nested
 * entry has a lower sp, and the outermost return has the entry's sp plus
 * the return address. An entry at or above an open call's sp means that
 * call was left without returning (longjmp, exception): it is unfinished.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include <lupe/cpumap.h>
#include <lupe/evsel.h>
#include <lupe/func.h>
#include <lupe/probe.h>
#include "bpf/ring.h"
#include "func/func.h"
#include "func/func-rec.h"
#include "events/internal.h"
#include "record/engine.h"
#include "session/ordered.h"
#include "util/util.h"
#include "arch/arch.h"

#define SP_REG LUPE_ARCH_PERF_REG_SP /* -1: recursion by depth only */
#define RET_SLOT LUPE_ARCH_RET_SLOT

#define RING_PAGES 1024 /* 4 MiB a CPU: a few hundred thousand hits a second between drains */

enum { ID_COUNTER, ID_ENTRY, ID_RETURN, ID_SWITCH };

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
	uint64_t *oncpu;               /* [cpu][counter]: last values read on each CPU */
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
	int *fds;                  /* [tid][cpu][nc + 2 nt + 1], -1 when not open */
	struct lupe_live_rings *rings; /* per CPU */
	/* the open in progress */
	const pid_t *open_tids;
	int open_enable;
	struct lupe_open_failure *open_fail;
	struct lupe_cpu_map *cpus;
	int nr_cpus;
	int nr_tids;
	struct lupe_ordered *ord;  /* records copied out of their rings, in time order */
	size_t delivered;          /* by the drain in progress */
	struct idmap *ids;
	int nr_ids;
	struct thread *threads;
	int nr_threads, alloc_threads, last_thread;
	struct lupe_func_stats *total; /* per target */
	uint64_t lost;
	uint64_t lost_calls;       /* calls not counted: no memory for their thread */
	int fault_threads;         /* a test's LUPE_FUNC_FAULT_THREADS: no memory past this many */
	uint64_t *scratch;         /* values of one record, by counter */
	uint64_t *delta;
	lupe_func_call_fn call_fn;
	void *call_arg;
	int closed;
	int records_only;          /* never BPF */
	const struct func_mech *mech; /* the mechanism counting, NULL before the open */
	struct lupe_func_bpf *bpf; /* the BPF mechanism's programs */
};

/* A way of counting inside functions: the records mechanism, or BPF. */
struct func_mech {
	const char *name;
	/* Open the counting of tids; undo what it did on failure. */
	int (*open)(struct lupe_func_session *s, const pid_t *tids, int enable_on_exec,
		    struct lupe_open_failure *fail);
	int (*enable)(struct lupe_func_session *s);
	/* Hand what the kernel wrote to the figures: how many records, or a negative errno. */
	int (*poll)(struct lupe_func_session *s);
	/* Records the kernel had no room for, besides those in s->lost. */
	uint64_t (*lost)(const struct lupe_func_session *s);
	/* Stop counting, hand over the last records and the calls left open, close. */
	void (*close)(struct lupe_func_session *s);
};

static const struct func_mech records_mech, bpf_mech;

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

static int deliver(void *arg, const struct perf_event_header *h, uint64_t ci);

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
	s->ord = lupe_ordered_new(deliver, s);
	if (!s->ev || !s->supported || !s->t || !s->total || !s->probe_id || !s->ord)
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
	if (getenv("LUPE_FUNC_FAULT_THREADS"))
		s->fault_threads = atoi(getenv("LUPE_FUNC_FAULT_THREADS"));
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

static void probe_name(const struct lupe_func_session *s, int k, char *buf, size_t size)
{
	snprintf(buf, size, "f%d_%s", k / 2, k % 2 ? (s->t[k / 2].exit ? "exit" : "return") : "entry");
}

/* The session's probes go with their group (lib/probe owns uprobe_events). */
static void remove_probes(struct lupe_func_session *s)
{
	char glob[64];

	if (!s->probes_made)
		return;
	snprintf(glob, sizeof(glob), "%s:*", s->group);
	lupe_probe_del(glob, NULL, NULL);
	s->probes_made = 0;
}

/*
 * Probes of a lupe that was killed before it could remove them (SIGKILL)
 * stay in tracefs, and in the program's text while it runs: remove those
 * whose lupe is gone.
 */
static void remove_stale_probes(void)
{
	struct lupe_probe_event *evs;
	int nr = lupe_probe_events(&evs, "lupe_*:*");

	for (int i = 0; i < nr; i++) {
		char glob[64];
		int pid;

		if (sscanf(evs[i].group, "lupe_%d", &pid) != 1 || pid <= 0 ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(glob, sizeof(glob), "lupe_%d:*", pid);
		pr_debug("removing the stale uprobes %s", glob);
		lupe_probe_del(glob, NULL, NULL);
	}
	if (nr > 0)
		lupe_probe_events_delete(evs, nr);
}

static int make_probes(struct lupe_func_session *s)
{
	if (!lupe_tracefs_dir())
		return errno == EACCES || errno == EPERM ? -EACCES : -LUPE_ERR_NO_TRACEFS;
	for (int k = 0; k < 2 * s->nt; k++) {
		const struct lupe_func_target *t = &s->t[k / 2];
		char name[64];
		/* the probe's strings stay the session's: no lupe_probe_clear() */
		struct lupe_probe p = {
			.group = s->group, .event = name, .target = t->path,
			.retprobe = k % 2 && !t->exit,
			.file_off = k % 2 && t->exit ? t->exit : t->entry,
		};
		int err;

		probe_name(s, k, name, sizeof(name));
		err = lupe_probe_add(&p);
		if (err) {
			pr_debug("uprobe %s/%s: %s", s->group, name, p.why);
			return err;
		}
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

static int per_group(const struct lupe_func_session *s)
{
	return s->nc + 2 * s->nt + 1;
}

static void close_fds(struct lupe_func_session *s)
{
	int n = s->nr_tids * s->nr_cpus * per_group(s);

	for (int i = 0; s->fds && i < n; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	free(s->fds);
	s->fds = NULL;
}

static int *group_fds(struct lupe_func_session *s, int ti, int ci)
{
	return s->fds + (ti * s->nr_cpus + ci) * per_group(s);
}

/* A probe or the context-switch event: samples each hit with the group's values. */
static void sampling_attr(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->sample_period = 1;
	a->inherit = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC; /* comparable with the drain's cut-off */
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_READ;
	if (SP_REG >= 0) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user = 1ULL << SP_REG;
	}
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
}

/* A probe or the switch event, in the group of leader: its samples go to the CPU's ring. */
static int open_member(struct lupe_func_session *s, int *fd, struct perf_event_attr *a, pid_t tid,
		       int cpu, int leader, int kind, int idx)
{
	int err;

	*fd = lupe_perf_event_open(a, tid, cpu, leader, 0);
	if (*fd < 0) {
		err = *fd;
		*fd = -1;
		*s->open_fail = (struct lupe_open_failure){ err, -1, cpu, tid };
		return err;
	}
	err = add_id(s, *fd, kind, idx);
	return err ? err : *fd;
}

/* Counter i of a thread's group on one CPU (the first supported leads); not read from a ring. */
static int open_counter(struct lupe_func_session *s, int *fds, int i, int ti, int ci, pid_t tid,
			int cpu, int leader)
{
	struct perf_event_attr a;
	int err;

	if (!s->supported[i] && (ti || ci))
		return LUPE_LIVE_SKIP;
	a = s->ev[i].attr;
	a.inherit = 1;
	a.disabled = leader < 0;
	a.enable_on_exec = leader < 0 && s->open_enable;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a.sample_period = 0;
	a.sample_type = 0;
	a.freq = 0;
	a.use_clockid = 1; /* a group has one clock */
	a.clockid = CLOCK_MONOTONIC;
	fds[i] = lupe_perf_event_open(&a, tid, cpu, leader, 0);
	if (fds[i] < 0) {
		err = fds[i];
		fds[i] = -1;
		if (lupe_open_verdict(err) == LUPE_OPEN_UNSUPPORTED && !ti && !ci) {
			s->supported[i] = 0;
			return LUPE_LIVE_SKIP;
		}
		*s->open_fail = (struct lupe_open_failure){ err, i, cpu, tid };
		return err;
	}
	s->supported[i] = 1;
	err = add_id(s, fds[i], ID_COUNTER, i);
	return err ? err : LUPE_LIVE_SKIP;
}

/*
 * The engine's opener: member e of thread ti's group on CPU ci: the
 * counters, then the probes, then the context switches.
 */
static int open_slot(void *arg, int ci, int ti, int e)
{
	struct lupe_func_session *s = arg;
	int *fds = group_fds(s, ti, ci), leader = -1, cpu = lupe_cpu_map_cpu(s->cpus, ci);
	pid_t tid = s->open_tids[ti];
	struct perf_event_attr a;

	for (int i = 0; i < s->nc && leader < 0 && i < e; i++)
		leader = fds[i];
	if (e < s->nc)
		return open_counter(s, fds, e, ti, ci, tid, cpu, leader);
	if (leader < 0) {
		*s->open_fail = (struct lupe_open_failure){ -LUPE_ERR_NOT_SUPPORTED, 0, cpu, tid };
		return -LUPE_ERR_NOT_SUPPORTED;
	}
	if (e < s->nc + 2 * s->nt) {
		int k = e - s->nc;

		sampling_attr(&a, PERF_TYPE_TRACEPOINT, s->probe_id[k]);
		return open_member(s, &fds[e], &a, tid, cpu, leader, k % 2 ? ID_RETURN : ID_ENTRY,
				   k / 2);
	}
	if (s->nr_cpus == 1)
		return LUPE_LIVE_SKIP; /* nowhere to migrate to */
	sampling_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	return open_member(s, &fds[e], &a, tid, cpu, leader, ID_SWITCH, 0);
}

/* The process of thread tid (its Tgid), or tid itself if it cannot be read. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], *buf, *p;
	size_t len;
	pid_t tgid = tid;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	buf = lupe_read_whole_file(path, &len);
	p = buf ? strstr(buf, "\nTgid:") : NULL;
	if (p)
		tgid = (pid_t)atoi(p + 6);
	free(buf);
	return tgid;
}

/* Count in the kernel: uprobes with BPF programs on each target process. */
static int open_bpf(struct lupe_func_session *s, const pid_t *tids, int enable_on_exec,
		    struct lupe_open_failure *fail)
{
	const struct perf_event_attr *attrs[16];
	pid_t *pids = calloc(s->nr_tids, sizeof(pid_t));
	struct lupe_func_bpf_setup su = {
		.attrs = attrs, .nc = s->nc, .supported = s->supported, .t = s->t, .nt = s->nt,
		.pids = pids, .ret_slot = RET_SLOT, .enabled = enable_on_exec,
	};

	if (!pids || s->nc > 16) {
		free(pids);
		return s->nc > 16 ? -E2BIG : -ENOMEM;
	}
	for (int i = 0; i < s->nc; i++)
		attrs[i] = &s->ev[i].attr;
	for (int i = 0; i < s->nr_tids; i++) {
		pid_t tgid = enable_on_exec ? tids[i] : tgid_of(tids[i]);
		int k = 0;

		while (k < su.nr_pids && pids[k] != tgid)
			k++;
		if (k == su.nr_pids)
			pids[su.nr_pids++] = tgid;
	}
	s->bpf = lupe_func_bpf_open(&su, fail);
	free(pids);
	if (!s->bpf)
		return -errno;
	pr_debug("counting inside functions: bpf (uprobes with BPF programs, counted in the kernel)");
	return 0;
}

void lupe_func_session_set_records(struct lupe_func_session *s, int records_only)
{
	s->records_only = records_only;
}

const char *lupe_func_session_mechanism(const struct lupe_func_session *s)
{
	return s->mech ? s->mech->name : "records";
}

/* The records mechanism: tracefs probes sampling the groups' counters. */
static int open_records(struct lupe_func_session *s, const pid_t *tids, int enable_on_exec,
			struct lupe_open_failure *fail)
{
	size_t n = (size_t)s->nr_tids * s->nr_cpus * per_group(s);
	int err;

	s->fds = malloc(n * sizeof(int));
	s->rings = lupe_live_rings_new(s->nr_cpus, RING_PAGES);
	if (!s->fds || !s->rings) {
		err = -ENOMEM;
		goto fail;
	}
	memset(s->fds, -1, n * sizeof(int));
	err = make_probes(s);
	if (err) {
		fail->err = err;
		goto fail;
	}
	s->open_tids = tids;
	s->open_enable = enable_on_exec;
	s->open_fail = fail;
	err = lupe_live_rings_open(s->rings, &(struct lupe_live_open){
		s->cpus, s->nr_tids, per_group(s), 0, open_slot, s });
	if (err)
		goto fail;
	qsort(s->ids, s->nr_ids, sizeof(*s->ids), cmp_id);
	pr_debug("counting inside functions: records (tracefs uprobes sampling the counters)");
	return 0;
fail:
	close_fds(s);
	lupe_live_rings_delete(s->rings);
	s->rings = NULL;
	remove_probes(s);
	s->nr_ids = 0;
	return err;
}

int lupe_func_session_open(struct lupe_func_session *s, const pid_t *tids, int nr_tids,
			   int enable_on_exec, struct lupe_open_failure *fail)
{
	struct lupe_open_failure dummy_fail;
	int err = -EINVAL;

	if (!fail)
		fail = &dummy_fail;
	*fail = (struct lupe_open_failure){ .evsel = -1, .cpu = -1, .pid = -1 };
	s->closed = 0;
	s->nr_tids = nr_tids;
	if (!s->cpus) {
		s->cpus = lupe_cpu_map_new(NULL);
		if (!s->cpus)
			return -errno;
		s->nr_cpus = lupe_cpu_map_nr(s->cpus);
	}
	remove_stale_probes();
	/* a workload or a running program (-p): the detach keeps calls whole (bpf+BPF.c) */
	for (int m = s->records_only; m < 2; m++) {
		s->mech = m ? &records_mech : &bpf_mech;
		for (int i = 0; i < s->nc; i++)
			s->supported[i] = 1;
		err = s->mech->open(s, tids, enable_on_exec, fail);
		if (!err)
			return 0;
		if (m)
			break;
		pr_debug("cannot count inside functions with BPF (%s): counting with sample records",
			 strerror(-err));
		*fail = (struct lupe_open_failure){ .evsel = -1, .cpu = -1, .pid = -1 };
	}
	s->mech = NULL;
	s->closed = 1;
	return err;
}

/* The leaders: the first open counter of each group. */
static int each_leader(struct lupe_func_session *s, unsigned long request)
{
	for (int g = 0; s->fds && g < s->nr_tids * s->nr_cpus; g++)
		for (int k = 0; k < s->nc; k++)
			if (s->fds[g * per_group(s) + k] >= 0) {
				if (ioctl(s->fds[g * per_group(s) + k], request, 0) < 0)
					return -errno;
				break;
			}
	return 0;
}

int lupe_func_session_enable(struct lupe_func_session *s)
{
	return s->mech ? s->mech->enable(s) : -EINVAL;
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
	if (s->fault_threads > 0 && s->nr_threads >= s->fault_threads)
		return NULL; /* as out of memory, for the test of lost calls */
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
	t->oncpu = calloc((size_t)s->nr_cpus * (s->nc ? s->nc : 1), sizeof(uint64_t));
	if (!t->stats || !t->calls || !t->oncpu) {
		free(t->stats);
		free(t->calls);
		free(t->oncpu);
		return NULL;
	}
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

static void finish_call(struct lupe_func_session *s, struct thread *th, int t, uint64_t time,
			const uint64_t *values)
{
	stats_add(&th->stats[t], values, nv(s));
	stats_add(&s->total[t], values, nv(s));
	if (s->call_fn) {
		struct lupe_func_call call = { t, th->tid, time, values };

		s->call_fn(s->call_arg, &call);
	}
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
			/* the outermost return leaves sp where the call found it */
			if (sp < c->sp + RET_SLOT)
				return; /* a nested call returned */
			if (sp != c->sp + RET_SLOT) {
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
	finish_call(s, th, t, c->time, s->delta);
}

/* A call counted in the kernel (BPF): values are its counters, then time inside. */
static void on_bpf_call(struct lupe_func_session *s, pid_t tid, int t, int left, uint64_t time,
			const uint64_t *values)
{
	struct thread *th;

	if (!tid) { /* open at the end, of a thread gone: only in the total */
		s->total[t].unfinished++;
		return;
	}
	th = get_thread(s, tid);
	if (!th) {
		s->lost_calls++; /* said with the figures */
		return;
	}
	if (left)
		unfinished(s, th, t);
	else
		finish_call(s, th, t, time, values);
}

/* A sample of the BPF ring (bpf/ring.h): its RAW is one call's struct func_rec. */
static int process_bpf(struct lupe_func_session *s, const struct perf_event_header *h)
{
	const struct lupe_bpf_ring_sample *smp = (const void *)(h + 1);
	uint64_t v[FUNC_MAX_CTR + 1];
	struct func_rec r;

	if (smp->raw_size < sizeof(r))
		return 0;
	/* the RAW bytes sit at 20 in the sample: read them by copy */
	memcpy(&r, smp + 1, sizeof(r));
	if (r.target >= (unsigned)s->nt)
		return 0;
	memcpy(v, r.v, s->nc * sizeof(*v));
	v[s->nc] = r.v[FUNC_MAX_CTR];
	on_bpf_call(s, (pid_t)r.tid, (int)r.target, r.unfinished, r.time, v);
	return 0;
}

/* One sample, in time order: update the thread's per-CPU values, then its calls. */
static int process_records(struct lupe_func_session *s, const struct perf_event_header *h, int ci)
{
	const uint64_t *p = (const void *)(h + 1), *end = (const void *)((const char *)h + h->size);
	const struct idmap *ev, *m;
	uint64_t time, nr, sp = 0, *vals;
	struct thread *th;
	pid_t tid;

	if (h->size < sizeof(*h) + 5 * 8)
		return 0;
	ev = find_id(s, p[0]);
	tid = (pid_t)(p[1] >> 32);
	time = p[2];
	nr = p[3];
	p += 4;
	if (!ev || ev->kind == ID_COUNTER || p + 2 * nr > end)
		return 0;
	th = get_thread(s, tid);
	if (!th) {
		/* the thread's calls are lost, each said at its return (nested ones too) */
		s->lost_calls += ev->kind == ID_RETURN;
		return 0;
	}
	vals = th->oncpu + (size_t)ci * s->nc;
	for (uint64_t i = 0; i < nr; i++, p += 2) {
		m = find_id(s, p[1]);
		if (m && m->kind == ID_COUNTER)
			vals[m->idx] = p[0];
	}
	if (ev->kind == ID_SWITCH)
		return 0;
	memset(s->scratch, 0, s->nc * sizeof(uint64_t));
	for (int c = 0; c < s->nr_cpus; c++)
		for (int k = 0; k < s->nc; k++)
			s->scratch[k] += th->oncpu[(size_t)c * s->nc + k];
	if (SP_REG >= 0 && p + 1 < end && *p)
		sp = p[1];
	if (ev->kind == ID_ENTRY)
		on_entry(s, th, ev->idx, sp, time);
	else
		on_return(s, th, ev->idx, sp, time);
	return 0;
}

/* A record of ring ci (CPU index), queued in time order. */
static int take(const struct perf_event_header *h, int ci, void *arg)
{
	struct lupe_func_session *s = arg;

	if (h->type == PERF_RECORD_LOST) {
		s->lost += ((const uint64_t *)(h + 1))[1];
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + 3 * 8)
		return 0;
	/* the ring's bytes are reused once the read returns: the queue copies them */
	return lupe_ordered_queue(s->ord, h, 0, ((const uint64_t *)(h + 1))[2], (uint64_t)ci);
}

/* The BPF ring's record (a lupe_emit_fn): a whole call, counted at once; a LOST's count. */
static int take_bpf(void *arg, const struct perf_event_header *h, int stable)
{
	struct lupe_func_session *s = arg;
	const struct lupe_bpf_ring_sample *smp = (const void *)(h + 1);

	(void)stable;
	if (h->type == PERF_RECORD_LOST) {
		s->lost += ((const uint64_t *)(h + 1))[1];
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + sizeof(*smp) ||
	    sizeof(*h) + sizeof(*smp) + smp->raw_size > h->size)
		return 0;
	s->delivered++;
	return process_bpf(s, h);
}

/* The queue's delivery: one record of ring ci (CPU index), in time order. */
static int deliver(void *arg, const struct perf_event_header *h, uint64_t ci)
{
	struct lupe_func_session *s = arg;

	s->delivered++;
	return process_records(s, h, (int)ci);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Read every ring, then process in time order what is older than the
 * cut-off (all of it when final). A record is stamped before it is
 * committed: one from just before the reads may not be visible yet, so
 * the last millisecond waits for the next drain. The BPF ring's calls
 * are counted as they are read.
 */
static int drain(struct lupe_func_session *s, int final)
{
	uint64_t cut = final ? UINT64_MAX : monotonic_ns() - 1000000ULL;
	int err;

	s->delivered = 0;
	if (s->bpf) {
		/* the BPF ring's calls, a slice at a time (1: more to read) */
		while ((err = lupe_func_bpf_read(s->bpf, take_bpf, s)) == 1)
			;
	} else {
		err = s->rings ? lupe_live_rings_read(s->rings, take, s) : 0;
		if (!err)
			err = lupe_ordered_flush_upto(s->ord, cut);
	}
	return err ? err : (int)(s->delivered > INT32_MAX ? INT32_MAX : s->delivered);
}

int lupe_func_session_poll(struct lupe_func_session *s)
{
	return s->mech ? s->mech->poll(s) : 0;
}

static int enable_records(struct lupe_func_session *s)
{
	return each_leader(s, PERF_EVENT_IOC_ENABLE);
}

static int poll_records(struct lupe_func_session *s)
{
	return drain(s, 0);
}

static uint64_t lost_records(const struct lupe_func_session *s)
{
	(void)s;
	return 0; /* the rings' PERF_RECORD_LOST, in s->lost */
}

static void close_records(struct lupe_func_session *s)
{
	each_leader(s, PERF_EVENT_IOC_DISABLE);
	drain(s, 1);
	close_fds(s);
	lupe_live_rings_delete(s->rings);
	s->rings = NULL;
	remove_probes(s);
}

static const struct func_mech records_mech = {
	"records", open_records, enable_records, poll_records, lost_records, close_records,
};

static int enable_bpf(struct lupe_func_session *s)
{
	lupe_func_bpf_enable(s->bpf);
	return 0;
}

static int poll_bpf(struct lupe_func_session *s)
{
	return drain(s, 0);
}

static uint64_t lost_bpf(const struct lupe_func_session *s)
{
	(void)s;
	return 0; /* the ring's PERF_RECORD_LOST, in s->lost */
}

/* Detach, the last records, the calls the programs still hold open (unfinished). */
static void close_bpf(struct lupe_func_session *s)
{
	lupe_func_bpf_stop(s->bpf);
	drain(s, 1);
	for (int t = 0; t < s->nt; t++)
		for (uint64_t n = lupe_func_bpf_open_calls(s->bpf, t); n; n--)
			on_bpf_call(s, 0, t, 1, 0, NULL);
	lupe_func_bpf_close(s->bpf);
	s->bpf = NULL;
}

static const struct func_mech bpf_mech = {
	"bpf", open_bpf, enable_bpf, poll_bpf, lost_bpf, close_bpf,
};

void lupe_func_session_close(struct lupe_func_session *s)
{
	if (!s || s->closed)
		return;
	s->closed = 1;
	if (!s->mech)
		return; /* never opened */
	s->mech->close(s);
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
		free(s->threads[i].oncpu);
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
	lupe_ordered_delete(s->ord);
	lupe_cpu_map_put(s->cpus);
	lupe_func_targets_delete(s->t, s->nt);
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
	return s->lost + (s->mech ? s->mech->lost(s) : 0);
}

uint64_t lupe_func_session_lost_calls(const struct lupe_func_session *s)
{
	return s->lost_calls;
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
