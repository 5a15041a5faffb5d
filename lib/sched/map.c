// SPDX-License-Identifier: GPL-2.0
/*
 * sched map: at each sched_switch, the task each CPU runs, by short names
 * given in order of first appearance (A0..Z0, A1..Z9, then round again),
 * the idle task ". ". perf 6.1's rules: a task is known by its thread
 * object, so a FORK that replaces a tid's object gives it a new name; a
 * COMM record makes the task's next switch-in name it again; the CPUs
 * shown are this machine's configured ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/sched.h>
#include "sched/internal.h"
#include "util/util.h"

#define MAX_CPUS 4096

struct shortname {
	char s[3];
};

struct map {
	struct lupe_sched_map_opts o;
	lupe_sched_map_fn fn;
	void *arg;
	char next1, next2;
	int max_cpu;
	struct sthread *curr[MAX_CPUS];
	const char **cells;
};

static struct shortname *short_of(struct sthread *t)
{
	if (!t->priv)
		t->priv = calloc(1, sizeof(struct shortname));
	return t->priv;
}

static int map_event(struct sched_reader *rd, const struct sched_event *ev, void *arg)
{
	struct map *m = arg;
	struct lupe_sched_map_line line = { .time = ev->time, .cpu = ev->cpu };
	struct shortname *sn;
	struct sthread *in;
	int named = 0;

	if (ev->kind != SEV_SWITCH)
		return 0;
	if (ev->cpu < 0 || ev->cpu >= MAX_CPUS)
		return -EINVAL;
	if (ev->cpu > m->max_cpu)
		m->max_cpu = ev->cpu;
	in = lupe_sched_thread_pid(rd, -1, ev->next_pid);
	sn = in ? short_of(in) : NULL;
	if (!sn)
		return -ENOMEM;
	m->curr[ev->cpu] = in;
	if (!sn->s[0]) {
		if (!strcmp(in->comm, "swapper")) {
			strcpy(sn->s, ". ");
		} else {
			sn->s[0] = m->next1;
			sn->s[1] = m->next2;
			if (m->next1 < 'Z') {
				m->next1++;
			} else {
				m->next1 = 'A';
				m->next2 = m->next2 < '9' ? m->next2 + 1 : '0';
			}
		}
		named = 1;
	}
	/* perf shows CPUs 0 .. max - 1, max starting at the configured count */
	line.nr_cpus = m->max_cpu;
	for (int i = 0; i < line.nr_cpus; i++) {
		struct shortname *c = m->curr[i] ? short_of(m->curr[i]) : NULL;

		if (m->curr[i] && !c)
			return -ENOMEM;
		m->cells[i] = c ? c->s : NULL;
	}
	line.cells = m->cells;
	line.shortname = sn->s;
	if (named || in->comm_changed) {
		line.comm = in->comm;
		line.tid = in->tid;
		in->comm_changed = 0;
	}
	return m->fn(&line, m->arg);
}

int lupe_sched_map(const char *path, const struct lupe_sched_map_opts *o, lupe_sched_map_fn fn,
		   void *arg, struct lupe_sched_lost *lost)
{
	struct sched_read_stats st = { 0 };
	struct map *m = calloc(1, sizeof(*m));
	struct sched_reader *r = NULL;
	int err;

	if (!m)
		return -ENOMEM;
	if (lupe_opts_load(&m->o, o)) {
		free(m);
		return -EINVAL;
	}
	m->fn = fn;
	m->arg = arg;
	m->next1 = 'A';
	m->next2 = '0';
	m->max_cpu = m->o.nr_cpus > 0 ? m->o.nr_cpus : 1;
	if (m->max_cpu > MAX_CPUS)
		m->max_cpu = MAX_CPUS;
	m->cells = calloc(MAX_CPUS, sizeof(*m->cells));
	if (!m->cells) {
		free(m);
		return -ENOMEM;
	}
	err = lupe_sched_read(path, m->o.force, map_event, m, &st, &r);
	if (lost) {
		lost->nr_events = st.nr_events;
		lost->nr_lost_events = st.nr_lost_events;
		lost->nr_lost_chunks = st.nr_lost_chunks;
	}
	lupe_sched_reader_free(r);
	free(m->cells);
	free(m);
	return err;
}
