// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --tasks: threads from COMM and FORK records, the way perf's
 * machine keeps them (a FORK replaces a thread whose tid came back, a
 * parent is made when first named, a thread makes its group's leader),
 * then the tree perf's tasks_print()
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
	int comm_set, listed, dead;
	long first_child, last_child, next; /* indices, -1: none */
};

struct lupe_tasks {
	struct lupe_tool tool; /* first: the session hands it back */
	struct task *v;        /* every thread made, removed ones included */
	long nr, cap;
	struct phash by_tid;   /* tid -> index + 1 of the last thread made for it */
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
static long lookup(struct lupe_tasks *ts, int tid, void ***slotp)
{
	void **slot = lupe_phash_find(&ts->by_tid, (uint64_t)(uint32_t)tid + 1, tid_eq, NULL);
	long i;

	*slotp = slot;
	if (!slot)
		return -2;
	if (!*slot)
		return -1;
	i = (long)(uintptr_t)*slot - 1;
	return ts->v[i].dead ? -1 : i;
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

static long findnew(struct lupe_tasks *ts, int pid, int tid, int create);

/*
 * perf's machine__update_thread_pid(): a thread met with pid -1 takes the
 * first pid it is named with, and a thread that is not its group's leader
 * makes the leader (pid/pid) exist.
 */
static int update_pid(struct lupe_tasks *ts, long i, int pid)
{
	struct lupe_task *t = &ts->v[i].t;

	if (pid == t->pid || pid == -1 || t->pid != -1)
		return 0;
	t->pid = pid;
	if (pid == t->tid)
		return 0;
	return findnew(ts, pid, pid, 1) == -2 ? -ENOMEM : 0;
}

/*
 * perf's machine__findnew_thread() (create) and machine__find_thread():
 * the live thread of tid, its pid updated; a new one made (with its group
 * leader) when create. Index, -1 when none, -2 when out of memory.
 */
static long findnew(struct lupe_tasks *ts, int pid, int tid, int create)
{
	void **slot;
	long i = lookup(ts, tid, &slot);

	if (i == -2)
		return -2;
	if (i >= 0)
		return update_pid(ts, i, pid) ? -2 : i;
	if (!create)
		return -1;
	if ((i = add(ts, pid, tid, slot)) < 0)
		return i;
	if (pid != -1 && pid != tid && findnew(ts, pid, pid, 1) == -2)
		return -2;
	return i;
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

/* perf's machine__process_fork_event(), its thread part. */
static int fork_task(struct lupe_tasks *ts, const struct perf_record_fork *f)
{
	long c = findnew(ts, (int)f->pid, (int)f->tid, 0);
	long p = c == -2 ? -2 : findnew(ts, (int)f->ppid, (int)f->ptid, 1);

	if (p >= 0 && ts->v[p].t.pid != (int)f->ppid) {
		/* perf: an existing thread that is not the parent it should be was a stale one */
		ts->v[p].dead = 1;
		p = findnew(ts, (int)f->ppid, (int)f->ptid, 1);
	}
	if (p < 0)
		return -ENOMEM;
	/* a thread already there for the tid is replaced (the parent itself when tid == ptid) */
	if (c >= 0)
		ts->v[c].dead = 1;
	if ((c = findnew(ts, (int)f->pid, (int)f->tid, 1)) < 0)
		return -ENOMEM;
	if (ts->v[p].comm_set && set_comm(&ts->v[c], ts->v[p].comm))
		return -ENOMEM;
	ts->v[c].t.ppid = ts->v[p].t.tid;
	return 0;
}

static int on_other(struct lupe_tool *tool, struct lupe_session *s, const struct perf_event_header *ev)
{
	struct lupe_tasks *ts = (struct lupe_tasks *)tool;

	(void)s;
	if (ev->type == PERF_RECORD_COMM && ev->size > sizeof(struct perf_record_comm)) {
		const struct perf_record_comm *c = (const void *)ev;
		size_t max = ev->size - sizeof(*c);
		long i;

		if (!memchr(c->comm, 0, max))
			return 0;
		if ((i = findnew(ts, (int)c->pid, (int)c->tid, 1)) < 0)
			return -ENOMEM;
		return set_comm(&ts->v[i], c->comm);
	}
	if (ev->type == PERF_RECORD_FORK && ev->size >= sizeof(struct perf_record_fork))
		return fork_task(ts, (const void *)ev);
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
	if ((i = findnew(ts, 0, 0, 1)) < 0 || set_comm(&ts->v[i], "swapper")) {
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
		struct task *t = &ts->v[i];

		t->first_child = t->last_child = t->next = -1;
		t->listed = 0;
		if (!t->dead)
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
			if ((p = lookup(ts, ts->v[i].t.ppid, &slot)) < 0) {
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
