// SPDX-License-Identifier: GPL-2.0
/*
 * sched timehist: perf 6.1's per-switch lines. At each sched_switch the
 * task switched out ran since the CPU's previous switch (run time); before
 * that it waited since it was last switched out (wait time), of which the
 * part since its wake-up is scheduling delay. The idle task is one per CPU
 * ("<idle>"). A wake-up (sched_wakeup, _waking, _wakeup_new) marks the
 * awakened task ready, once, until it is next switched out.
 *
 * perf's thread model quirks kept: the awakened task is looked up with pid
 * 0, so a task first seen being woken shows no [tid] later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/sched.h>
#include "sched/internal.h"
#include "util/util.h"

#define MAX_CPUS 4096

struct runtime {
	uint64_t last_time, ready_to_run;
	int64_t last_state;
	uint64_t dt_run, dt_delay, dt_wait;
};

struct th {
	struct lupe_sched_th_opts o;
	lupe_sched_th_fn fn;
	void *arg;
	int max_cpu, started;
	uint64_t last_switch[MAX_CPUS];
	struct runtime idle[MAX_CPUS];
	struct sthread idle_thread;
};

static struct runtime *runtime_of(struct sthread *t)
{
	if (!t->priv)
		t->priv = calloc(1, sizeof(struct runtime));
	return t->priv;
}

static void update(struct runtime *r, uint64_t t, uint64_t tprev)
{
	r->dt_run = r->dt_delay = r->dt_wait = 0;
	if (!tprev)
		return;
	r->dt_run = t - tprev;
	if (r->ready_to_run && r->ready_to_run <= tprev)
		r->dt_delay = tprev - r->ready_to_run;
	if (r->last_time && r->last_time <= tprev)
		r->dt_wait = tprev - r->last_time; /* sleep, iowait or preempted: one sum here */
}

/* The line's task: the one switched out, or the one that woke another. */
static void line_task(struct lupe_sched_th_line *line, const struct sthread *t)
{
	line->comm = t->comm;
	line->tid = t->tid;
	line->pid = t->pid;
}

static int th_event(struct sched_reader *rd, const struct sched_event *ev, void *arg)
{
	struct th *h = arg;
	struct lupe_sched_th_line line = { .time = ev->time, .cpu = ev->cpu };
	struct sthread *t;
	struct runtime *r;
	int err = 0;

	if (ev->kind == SEV_LOST) {
		/* perf prints these as they come (its process_lost) */
		line.lost = ev->runtime ? ev->runtime : 0;
		line.max_cpu = h->started ? h->max_cpu : lupe_sched_nr_cpus_online(rd);
		return ev->runtime ? h->fn(&line, h->arg) : 0;
	}
	if (ev->cpu < 0 || ev->cpu >= MAX_CPUS)
		return -EINVAL;
	if (!h->started) {
		h->started = 1;
		h->max_cpu = lupe_sched_nr_cpus_online(rd);
	}
	if (ev->cpu > h->max_cpu)
		h->max_cpu = ev->cpu;
	line.max_cpu = h->max_cpu;
	switch (ev->kind) {
	case SEV_SWITCH: {
		uint64_t tprev = h->last_switch[ev->cpu];

		if (ev->prev_pid == 0) {
			t = &h->idle_thread;
			r = &h->idle[ev->cpu];
		} else {
			t = lupe_sched_thread_pid(rd, ev->pid, ev->tid ? ev->tid : ev->pid);
			r = t ? runtime_of(t) : NULL;
			if (!r)
				return -ENOMEM;
		}
		update(r, ev->time, tprev);
		line_task(&line, t);
		line.wait = r->dt_wait;
		line.delay = r->dt_delay;
		line.run = r->dt_run;
		err = h->fn(&line, h->arg);
		r->last_time = ev->time;
		r->last_state = ev->prev_state;
		r->ready_to_run = 0;
		h->last_switch[ev->cpu] = ev->time;
		return err;
	}
	case SEV_WAKEUP:
	case SEV_WAKING:
	case SEV_WAKEUP_NEW: {
		struct sthread *w = lupe_sched_thread_pid(rd, 0, ev->wpid);

		r = w ? runtime_of(w) : NULL;
		if (!r)
			return -ENOMEM;
		if (!r->ready_to_run)
			r->ready_to_run = ev->time;
		if (!h->o.wakeups)
			return 0;
		t = lupe_sched_thread_pid(rd, ev->pid, ev->tid);
		if (!t)
			return -ENOMEM;
		line.wakeup = 1;
		line_task(&line, t);
		line.wcomm = w->comm;
		line.wtid = w->tid;
		line.wpid = w->pid;
		return h->fn(&line, h->arg);
	}
	default:
		return 0;
	}
}

int lupe_sched_timehist(const char *path, const struct lupe_sched_th_opts *o, lupe_sched_th_fn fn,
			void *arg, int *max_cpu)
{
	struct th *h = calloc(1, sizeof(*h));
	struct sched_reader *r = NULL;
	int err;

	if (!h)
		return -ENOMEM;
	if (lupe_opts_load(&h->o, o)) {
		free(h);
		return -EINVAL;
	}
	h->fn = fn;
	h->arg = arg;
	snprintf(h->idle_thread.comm, sizeof(h->idle_thread.comm), "<idle>");
	err = lupe_sched_read(path, h->o.force, th_event, h, NULL, &r);
	if (max_cpu)
		*max_cpu = h->started ? h->max_cpu : (r ? lupe_sched_nr_cpus_online(r) : 0);
	lupe_sched_reader_free(r);
	free(h);
	return err;
}
