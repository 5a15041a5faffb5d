// SPDX-License-Identifier: GPL-2.0
/*
 * sched latency: per task, how long it waited between being woken (or
 * preempted while runnable) and running, perf 6.1's way so that the table
 * is perf's for the same file:
 *
 * - each switch-out starts an "atom" of the task: runnable if it was
 *   preempted (prev_state 0), else sleeping; a wake-up (sched_wakeup,
 *   sched_wakeup_new; perf 6.1 ignores sched_waking, which its own sched
 *   record records instead of sched_wakeup) of a sleeping atom makes it
 *   wait from then; the
 *   switch-in of a waiting atom ends the wait: one "switch", its delay;
 * - a task first seen switching in starts runnable at that moment; first
 *   seen being woken, sleeping; first seen in sched_stat_runtime, runnable;
 * - runtime is the sum of sched_stat_runtime;
 * - tasks are keyed by tid, then merged by name ("comm:(N)") unless
 *   no_merge; entries are sorted by the sort keys, ties in perf's order
 *   (names from last to first; without merging, tids from last).
 *
 * Only an atom's last state matters, so a task keeps one atom, not a list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/sched.h>
#include "sched/internal.h"
#include "util/util.h"

#define MAX_CPUS 4096

enum { TS_SLEEPING, TS_WAIT_CPU, TS_SCHED_IN, TS_IGNORE };

struct atoms {
	struct sthread *thread;      /* the object the task had when first seen */
	int tid;
	int have_atom, state;
	uint64_t sched_out_time, wake_up_time;
	uint64_t total_runtime, nb_atoms, total_lat, max_lat, max_lat_start, max_lat_end;
	int num_merged;
	struct atoms *next;          /* by tid */
};

struct lat {
	struct atoms *hash[4096];
	size_t nr;
	uint64_t cpu_last_switched[MAX_CPUS];
	int curr_pid[MAX_CPUS];
	unsigned long nr_timestamps, nr_unordered, nr_switch_bugs;
};

static struct atoms *atoms_find(struct lat *l, int tid)
{
	for (struct atoms *a = l->hash[(unsigned)tid % 4096]; a; a = a->next)
		if (a->tid == tid)
			return a;
	return NULL;
}

static struct atoms *atoms_new(struct lat *l, struct sched_reader *r, int tid)
{
	struct atoms *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->thread = lupe_sched_thread(r, tid);
	if (!a->thread) {
		free(a);
		return NULL;
	}
	a->tid = tid;
	a->next = l->hash[(unsigned)tid % 4096];
	l->hash[(unsigned)tid % 4096] = a;
	l->nr++;
	return a;
}

static void sched_out(struct atoms *a, int runnable, uint64_t t)
{
	a->have_atom = 1;
	a->sched_out_time = t;
	a->wake_up_time = 0;
	a->state = runnable ? TS_WAIT_CPU : TS_SLEEPING;
	if (runnable)
		a->wake_up_time = t;
}

/*
 * The atoms of tid; a thread first seen here starts as switched out at t,
 * runnable or sleeping, as perf's latency adds it. NULL: out of memory.
 */
static struct atoms *atoms_get(struct lat *l, struct sched_reader *r, int tid, int runnable,
			       uint64_t t)
{
	struct atoms *a = atoms_find(l, tid);

	if (!a && (a = atoms_new(l, r, tid)))
		sched_out(a, runnable, t);
	return a;
}

static void sched_in(struct atoms *a, uint64_t t)
{
	uint64_t d;

	if (!a->have_atom || a->state != TS_WAIT_CPU)
		return;
	if (t < a->wake_up_time) {
		a->state = TS_IGNORE;
		return;
	}
	a->state = TS_SCHED_IN;
	d = t - a->wake_up_time;
	a->total_lat += d;
	if (d > a->max_lat) {
		a->max_lat = d;
		a->max_lat_start = a->wake_up_time;
		a->max_lat_end = t;
	}
	a->nb_atoms++;
}

static int lat_event(struct sched_reader *r, const struct sched_event *ev, void *arg)
{
	struct lat *l = arg;
	struct atoms *a;
	int cpu = ev->cpu;

	if (ev->kind == SEV_LOST)
		return 0;
	if (cpu < 0 || cpu >= MAX_CPUS)
		return -EINVAL;
	switch (ev->kind) {
	case SEV_SWITCH: {
		uint64_t t0 = l->cpu_last_switched[cpu];
		struct atoms *out, *in;

		if (l->curr_pid[cpu] != -1 && l->curr_pid[cpu] != ev->prev_pid)
			l->nr_switch_bugs++;
		l->curr_pid[cpu] = ev->next_pid;
		l->cpu_last_switched[cpu] = ev->time;
		if (t0 && ev->time < t0)
			return -EINVAL; /* perf: "hm, delta < 0 ?" */
		out = atoms_find(l, ev->prev_pid);
		if (!out && !(out = atoms_new(l, r, ev->prev_pid)))
			return -ENOMEM;
		sched_out(out, ev->prev_state == 0, ev->time);
		in = atoms_get(l, r, ev->next_pid, 1, ev->time);
		if (!in)
			return -ENOMEM;
		sched_in(in, ev->time);
		return 0;
	}
	case SEV_RUNTIME:
		a = atoms_get(l, r, ev->wpid, 1, ev->time);
		if (!a)
			return -ENOMEM;
		if (a->have_atom)
			a->total_runtime += ev->runtime;
		return 0;
	case SEV_WAKING:
		return 0; /* perf 6.1's latency ignores it (process_sched_wakeup_ignore) */
	case SEV_WAKEUP:
	case SEV_WAKEUP_NEW:
		a = atoms_get(l, r, ev->wpid, 0, ev->time);
		if (!a)
			return -ENOMEM;
		if (a->state != TS_SLEEPING)
			return 0;
		l->nr_timestamps++;
		if (a->sched_out_time > ev->time) {
			l->nr_unordered++;
			return 0;
		}
		a->state = TS_WAIT_CPU;
		a->wake_up_time = ev->time;
		return 0;
	default:
		return 0; /* migrations matter only to perf's -C, which lupe lacks */
	}
}

enum key { K_AVG, K_MAX, K_SWITCH, K_RUNTIME, K_PID };

static int cmp_key(const struct lupe_sched_lat *x, const struct lupe_sched_lat *y, enum key k)
{
	uint64_t a, b;

	switch (k) {
	case K_AVG:
		if (!x->switches)
			return -1;
		if (!y->switches)
			return 1;
		a = x->total_lat / x->switches;
		b = y->total_lat / y->switches;
		break;
	case K_MAX: a = x->max_lat; b = y->max_lat; break;
	case K_SWITCH: a = x->switches; b = y->switches; break;
	case K_RUNTIME: a = x->runtime; b = y->runtime; break;
	default: a = (uint64_t)x->tid; b = (uint64_t)y->tid; break;
	}
	return a < b ? -1 : a > b;
}

struct sorter {
	int keys[8]; /* enum key */
	int nkeys;
};

static int parse_sort(const char *s, struct sorter *so)
{
	static const char *const names[] = { "avg", "max", "switch", "runtime", "pid" };
	int n = lupe_parse_sort_keys(s, ", ", names, ARRAY_SIZE(names), so->keys,
				     ARRAY_SIZE(so->keys), "avg, max, switch, runtime, pid");

	so->nkeys = n > 0 ? n : 0;
	return n < 0 ? n : 0;
}

int lupe_sched_latency(const char *path, const struct lupe_sched_lat_opts *user_opts,
		       struct lupe_sched_lat_result *res)
{
	struct lupe_sched_lat_opts lo, *o = &lo;
	struct lat *l = calloc(1, sizeof(*l));
	struct sched_read_stats st = { 0 };
	struct sched_reader *r = NULL;
	struct atoms **v = NULL;
	struct lupe_sched_lat *out = NULL;
	struct sorter so;
	size_t n = 0, m = 0;
	int err;

	memset(res, 0, sizeof(*res));
	if (!l || lupe_opts_load(&lo, user_opts)) {
		free(l);
		return l ? -EINVAL : -ENOMEM;
	}
	err = parse_sort(o->sort ? o->sort : "avg, max, switch, runtime", &so);
	if (err)
		goto out;
	for (int i = 0; i < MAX_CPUS; i++)
		l->curr_pid[i] = -1;
	err = lupe_sched_read(path, o->force, lat_event, l, &st, &r);
	if (err)
		goto out;
	v = malloc((l->nr ? l->nr : 1) * sizeof(*v));
	out = calloc(l->nr ? l->nr : 1, sizeof(*out));
	if (!v || !out) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < 4096; i++)
		for (struct atoms *a = l->hash[i]; a; a = a->next)
			v[n++] = a;
	/* perf's atom tree: the largest tid first */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1]->tid < v[j]->tid; j--) {
			struct atoms *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	/*
	 * Merge by name in that order: the first task of a name holds the
	 * entry; perf's merged tree lists names from last to first.
	 */
	for (size_t i = 0; i < n; i++) {
		struct atoms *a = v[i];
		size_t k = m;

		if (!o->no_merge)
			for (k = 0; k < m && strcmp(out[k].comm, a->thread->comm); k++)
				;
		if (k == m) {
			out[m] = (struct lupe_sched_lat){ .comm = a->thread->comm, .tid = a->tid,
							  .num_merged = 1, .runtime = a->total_runtime,
							  .switches = a->nb_atoms, .total_lat = a->total_lat,
							  .max_lat = a->max_lat,
							  .max_lat_start = a->max_lat_start,
							  .max_lat_end = a->max_lat_end };
			m++;
			continue;
		}
		out[k].num_merged++;
		out[k].runtime += a->total_runtime;
		out[k].switches += a->nb_atoms;
		out[k].total_lat += a->total_lat;
		if (out[k].max_lat < a->max_lat) {
			out[k].max_lat = a->max_lat;
			out[k].max_lat_start = a->max_lat_start;
			out[k].max_lat_end = a->max_lat_end;
		}
	}
	/* perf's order before sorting: merged names from last to first, unmerged tids from last */
	if (!o->no_merge)
		for (size_t i = 1; i < m; i++)
			for (size_t j = i; j > 0 && strcmp(out[j - 1].comm, out[j].comm) < 0; j--) {
				struct lupe_sched_lat t = out[j];

				out[j] = out[j - 1];
				out[j - 1] = t;
			}
	/* stable: an insertion sort, largest first by the keys in turn */
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0; j--) {
			int c = 0;

			for (int k = 0; k < so.nkeys && !c; k++)
				c = cmp_key(&out[j], &out[j - 1], (enum key)so.keys[k]);
			if (c <= 0)
				break;
			struct lupe_sched_lat t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	res->v = out;
	res->nr = m;
	out = NULL;
	res->nr_timestamps = l->nr_timestamps;
	res->nr_unordered = l->nr_unordered;
	res->nr_switch_bugs = l->nr_switch_bugs;
	res->nr_events = st.nr_events;
	res->nr_lost_events = st.nr_lost_events;
	res->nr_lost_chunks = st.nr_lost_chunks;
	res->priv = r; /* the names live in the reader's threads */
	r = NULL;
out:
	for (size_t i = 0; i < 4096; i++)
		for (struct atoms *a = l->hash[i], *nx; a; a = nx) {
			nx = a->next;
			free(a);
		}
	free(v);
	free(out);
	free(l);
	lupe_sched_reader_free(r);
	return err;
}

void lupe_sched_lat_result_clear(struct lupe_sched_lat_result *res)
{
	if (!res)
		return;
	free(res->v);
	lupe_sched_reader_free(res->priv);
	memset(res, 0, sizeof(*res));
}
