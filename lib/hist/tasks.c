// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --tasks: threads from COMM and FORK records, the way perf's
 * machine keeps them (a FORK replaces a thread whose tid came back, a
 * parent is made when first named), then the tree perf's tasks_print()
 * builds: each thread linked under its parent's tid, the roots listed in
 * the order of perf's thread table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/tasks.h>
#include "data/format.h"
#include "util/phash.h"
#include "util/util.h"

struct task {
	struct lupe_task t;
	char *comm;
	int comm_set, listed;
	long first_child, last_child, next; /* indices, -1: none */
};

struct lupe_tasks {
	struct lupe_tool tool; /* first: the session hands it back */
	struct task *v;        /* every thread made, replaced ones included */
	long nr, cap;
	struct phash by_tid;   /* tid -> index + 1 of the live thread */
	struct lupe_task *out;
};

/* The hash is the tid (+ 1): equal hashes are the same tid. */
static int tid_eq(const void *item, const void *key)
{
	(void)item;
	(void)key;
	return 1;
}

/* The live thread of tid (index), -1 when none, -2 when out of memory; *slotp its table slot. */
static long find(struct lupe_tasks *ts, int tid, void ***slotp)
{
	void **slot = lupe_phash_find(&ts->by_tid, (uint64_t)(uint32_t)tid + 1, tid_eq, NULL);

	*slotp = slot;
	if (!slot)
		return -2;
	return *slot ? (long)(uintptr_t)*slot - 1 : -1;
}

static long add(struct lupe_tasks *ts, int pid, int tid, void **slot)
{
	struct task *t;

	if (ts->nr == ts->cap) {
		long cap = ts->cap ? ts->cap * 2 : 64;
		struct task *v = realloc(ts->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -2;
		ts->v = v;
		ts->cap = cap;
	}
	t = &ts->v[ts->nr];
	memset(t, 0, sizeof(*t));
	t->t = (struct lupe_task){ pid, tid, -1, NULL, 0 };
	if (asprintf(&t->comm, ":%d", tid) < 0)
		return -2;
	if (*slot)
		*slot = (void *)(uintptr_t)(ts->nr + 1); /* a tid come back: the new thread */
	else
		lupe_phash_fill(&ts->by_tid, slot, (uint64_t)(uint32_t)tid + 1, (void *)(uintptr_t)(ts->nr + 1));
	return ts->nr++;
}

static long findnew(struct lupe_tasks *ts, int pid, int tid)
{
	void **slot;
	long i = find(ts, tid, &slot);

	if (i == -2)
		return -2;
	if (i >= 0) {
		if (ts->v[i].t.pid == -1 && pid != -1)
			ts->v[i].t.pid = pid;
		return i;
	}
	return add(ts, pid, tid, slot);
}

/* A new thread in the place of tid's (perf removes the old one). */
static long replace(struct lupe_tasks *ts, int pid, int tid)
{
	void **slot;

	if (find(ts, tid, &slot) == -2)
		return -2;
	return add(ts, pid, tid, slot);
}

static int set_comm(struct task *t, const char *comm)
{
	char *dup = strdup(comm);

	if (!dup)
		return -ENOMEM;
	free(t->comm);
	t->comm = dup;
	t->comm_set = 1;
	return 0;
}

static int on_other(struct lupe_tool *tool, struct lupe_session *s, const struct perf_event_header *ev)
{
	struct lupe_tasks *ts = (struct lupe_tasks *)tool;
	long i, p;

	(void)s;
	if (ev->type == PERF_RECORD_COMM && ev->size > sizeof(struct perf_record_comm)) {
		const struct perf_record_comm *c = (const void *)ev;
		size_t max = ev->size - sizeof(*c);

		if (!memchr(c->comm, 0, max))
			return 0;
		if ((i = findnew(ts, (int)c->pid, (int)c->tid)) < 0)
			return -ENOMEM;
		return set_comm(&ts->v[i], c->comm);
	}
	if (ev->type == PERF_RECORD_FORK && ev->size >= sizeof(struct perf_record_fork)) {
		const struct perf_record_fork *f = (const void *)ev;
		void **slot;

		if ((p = findnew(ts, (int)f->ppid, (int)f->ptid)) < 0)
			return -ENOMEM;
		/* perf: an existing thread that is not the parent it should be was a stale one */
		if (ts->v[p].t.pid != (int)f->ppid && (p = replace(ts, (int)f->ppid, (int)f->ptid)) < 0)
			return -ENOMEM;
		if (f->tid == f->ptid)
			return 0;
		i = find(ts, (int)f->tid, &slot);
		i = i == -2 ? -2 : add(ts, (int)f->pid, (int)f->tid, slot);
		if (i < 0)
			return -ENOMEM;
		if (ts->v[p].comm_set && set_comm(&ts->v[i], ts->v[p].comm))
			return -ENOMEM;
		ts->v[i].t.ppid = ts->v[p].t.tid;
	}
	return 0;
}

struct lupe_tasks *lupe_tasks_new(void)
{
	struct lupe_tasks *ts = calloc(1, sizeof(*ts));
	long i;

	if (!ts)
		return err_ptr(-ENOMEM);
	ts->tool.other = on_other;
	ts->tool.ordered = 1;
	if ((i = findnew(ts, 0, 0)) < 0 || set_comm(&ts->v[i], "swapper")) {
		lupe_tasks_delete(ts);
		return err_ptr(-ENOMEM);
	}
	return ts;
}

void lupe_tasks_delete(struct lupe_tasks *ts)
{
	if (!ts)
		return;
	for (long i = 0; i < ts->nr; i++)
		free(ts->v[i].comm);
	free(ts->v);
	free(ts->out);
	lupe_phash_free(&ts->by_tid);
	free(ts);
}

struct lupe_tool *lupe_tasks_tool(struct lupe_tasks *ts)
{
	return &ts->tool;
}

/* perf's thread table: 256 trees by tid % 256, each in tid order. */
static int cmp_table(const void *a, const void *b)
{
	const struct task *x = *(struct task *const *)a, *y = *(struct task *const *)b;
	unsigned bx = (unsigned)x->t.tid % 256, by = (unsigned)y->t.tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->t.tid < y->t.tid ? -1 : x->t.tid > y->t.tid;
}

static void append_child(struct lupe_tasks *ts, long parent, long child)
{
	struct task *p = &ts->v[parent];

	if (p->last_child >= 0)
		ts->v[p->last_child].next = child;
	else
		p->first_child = child;
	p->last_child = child;
}

static long flatten(struct lupe_tasks *ts, long i, int level, long n)
{
	ts->out[n] = ts->v[i].t;
	ts->out[n].comm = ts->v[i].comm;
	ts->out[n++].level = level;
	for (long c = ts->v[i].first_child; c >= 0; c = ts->v[c].next)
		n = flatten(ts, c, level + 1, n);
	return n;
}

long lupe_tasks_finish(struct lupe_tasks *ts, const struct lupe_task **list)
{
	struct task **live = malloc((size_t)ts->nr * sizeof(*live));
	long nlive = 0, n = 0, first_root = -1, last_root = -1;

	free(ts->out);
	ts->out = malloc((size_t)ts->nr * sizeof(*ts->out) + 1);
	if (!live || !ts->out) {
		free(live);
		return -ENOMEM;
	}
	for (long i = 0; i < ts->nr; i++) {
		void **slot;
		struct task *t = &ts->v[i];

		t->first_child = t->last_child = t->next = -1;
		t->listed = 0;
		if (find(ts, t->t.tid, &slot) == i)
			live[nlive++] = t;
	}
	qsort(live, (size_t)nlive, sizeof(*live), cmp_table);
	/* perf's tasks_list(): up the parents until a listed one or a root */
	for (long k = 0; k < nlive; k++) {
		long i = live[k] - ts->v;

		while (!ts->v[i].listed) {
			void **slot;
			long p;

			ts->v[i].listed = 1;
			if (ts->v[i].t.ppid == -1) {
				if (last_root >= 0)
					ts->v[last_root].next = i;
				else
					first_root = i;
				last_root = i;
				break;
			}
			if ((p = find(ts, ts->v[i].t.ppid, &slot)) < 0) {
				free(live);
				return p == -2 ? -ENOMEM : -ENOENT;
			}
			append_child(ts, p, i);
			i = p;
		}
	}
	free(live);
	for (long r = first_root; r >= 0; r = ts->v[r].next)
		n = flatten(ts, r, 0, n);
	*list = ts->out;
	return n;
}
