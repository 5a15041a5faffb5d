// SPDX-License-Identifier: GPL-2.0
/*
 * Time ordering (see ordered.h). The queue is an array sorted at flush
 * time; records from perf's per-CPU rings come nearly sorted, so the sort
 * is skipped when a pass finds them in order already. The cost is one
 * queue slot (40 bytes) per record in flight, plus the copies of records
 * that could move.
 */
#include <stdlib.h>
#include <string.h>
#include "session/ordered.h"
#include "util/util.h"

struct chunk {
	struct chunk *next;
	size_t used, size, live;
	uint8_t data[];
};

struct qev {
	uint64_t time, seq, offset;
	const struct perf_event_header *ev;
	struct chunk *chunk;
};

struct lupe_ordered {
	lupe_ordered_deliver_fn deliver;
	void *arg;
	struct qev *q;
	size_t nq, capq;
	uint64_t seq, max_time, next_flush, last_flush, window, nr_unordered;
	struct chunk *cur;
	struct chunk *spare; /* the last chunk emptied, kept for the next */
	size_t copied; /* bytes of the queued records that were copied */
	int stop; /* deliver said stop: later records are dropped */
};

/*
 * The queue waits for FINISHED_ROUND; a file without rounds (or a zstd
 * bomb of timestamped records, which must be copied out of the inflated
 * buffer) would queue all of it. Past QUEUE_MAX bytes the older half goes
 * out, as perf's ordered events flush half when they reach their limit: a
 * record older than that half is then delivered late (counted unordered).
 */
#define QUEUE_MAX (32u << 20)

struct lupe_ordered *lupe_ordered_new(lupe_ordered_deliver_fn deliver, void *arg)
{
	struct lupe_ordered *o = calloc(1, sizeof(*o));

	if (!o)
		return err_ptr(-ENOMEM);
	o->deliver = deliver;
	o->arg = arg;
	return o;
}

void lupe_ordered_delete(struct lupe_ordered *o)
{
	if (!o)
		return;
	while (o->cur) {
		struct chunk *c = o->cur;

		o->cur = c->next;
		free(c);
	}
	free(o->spare);
	free(o->q);
	free(o);
}

void lupe_ordered_set_window(struct lupe_ordered *o, uint64_t ns)
{
	o->window = ns;
}

uint64_t lupe_ordered_nr_unordered(const struct lupe_ordered *o)
{
	return o->nr_unordered;
}

/* A chunk holds one reference per queued record, plus one while it is current. */
static void chunk_release(struct lupe_ordered *o, struct chunk *c)
{
	struct chunk **pp;

	if (!c || --c->live)
		return;
	for (pp = &o->cur; *pp && *pp != c; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = c->next;
	/*
	 * A live reader empties a chunk every MiB it copies: freed, its pages
	 * went back to the kernel and the next chunk faulted them in again
	 */
	if (!o->spare) {
		o->spare = c;
		return;
	}
	free(c);
}

static const struct perf_event_header *copy_record(struct lupe_ordered *o,
						   const struct perf_event_header *ev,
						   struct chunk **out)
{
	struct chunk *c = o->cur;
	size_t need = ((size_t)ev->size + 7) & ~(size_t)7;
	void *p;

	if (!c || c->size - c->used < need) {
		size_t size = 1u << 20; /* records are at most 64 KiB */

		c = o->spare ? o->spare : malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		o->spare = NULL;
		c->used = 0;
		c->size = size;
		c->live = 1;
		c->next = o->cur;
		o->cur = c;
		chunk_release(o, c->next);
	}
	p = c->data + c->used;
	memcpy(p, ev, ev->size);
	c->used += need;
	o->copied += need;
	c->live++;
	*out = c;
	return p;
}

static int cmp_qev(const void *a, const void *b)
{
	const struct qev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

const void *lupe_ordered_lowest_stable(const struct lupe_ordered *o)
{
	const void *low = NULL;

	for (size_t i = 0; i < o->nq; i++)
		if (!o->q[i].chunk && o->q[i].ev && (!low || (const void *)o->q[i].ev < low))
			low = o->q[i].ev;
	return low;
}

static int flush_upto(struct lupe_ordered *o, uint64_t limit)
{
	size_t i, n = o->nq;
	int sorted = 1, err = 0;

	for (i = 1; i < n && sorted; i++)
		sorted = cmp_qev(&o->q[i - 1], &o->q[i]) <= 0;
	if (!sorted)
		qsort(o->q, n, sizeof(*o->q), cmp_qev);
	for (i = 0; i < n && o->q[i].time <= limit; i++) {
		if (!o->stop) {
			int ret = o->deliver(o->arg, o->q[i].ev, o->q[i].offset);

			if (ret) {
				o->stop = 1;
				err = ret;
			}
		}
		if (o->q[i].chunk)
			o->copied -= ((size_t)o->q[i].ev->size + 7) & ~(size_t)7;
		chunk_release(o, o->q[i].chunk);
	}
	if (i)
		o->last_flush = o->q[i - 1].time;
	if (n > i)
		memmove(o->q, o->q + i, (n - i) * sizeof(*o->q));
	o->nq = n - i;
	return err;
}

static int grow_queue(struct lupe_ordered *o)
{
	size_t cap = o->capq ? o->capq * 2 : 65536;
	struct qev *q;

	if (o->nq < o->capq)
		return 0;
	q = realloc(o->q, cap * sizeof(*q));
	if (!q)
		return -ENOMEM;
	o->q = q;
	o->capq = cap;
	return 0;
}

static void push(struct lupe_ordered *o, const struct perf_event_header *ev, uint64_t time,
		 uint64_t offset, struct chunk *c)
{
	if (time < o->last_flush)
		o->nr_unordered++;
	if (time > o->max_time)
		o->max_time = time;
	o->q[o->nq++] = (struct qev){ time, o->seq++, offset, ev, c };
}

int lupe_ordered_queue_item(struct lupe_ordered *o, uint64_t time, uint64_t handle)
{
	if (grow_queue(o))
		return -ENOMEM;
	push(o, NULL, time, handle, NULL);
	return 0;
}

int lupe_ordered_queue(struct lupe_ordered *o, const struct perf_event_header *ev, int stable,
		       uint64_t time, uint64_t offset)
{
	struct chunk *c = NULL;

	if (grow_queue(o))
		return -ENOMEM;
	if (!stable && !(ev = copy_record(o, ev, &c)))
		return -ENOMEM;
	push(o, ev, time, offset, c);
	if (o->nq * sizeof(*o->q) + o->copied > QUEUE_MAX) {
		qsort(o->q, o->nq, sizeof(*o->q), cmp_qev);
		return flush_upto(o, o->q[o->nq / 2].time);
	}
	/* a window: flush in steps of half of it, so that the sort is not per record */
	if (o->window && o->max_time > o->window &&
	    o->max_time - o->window > o->last_flush + o->window / 2) {
		uint64_t limit = o->max_time - o->window;
		int err = flush_upto(o, limit);

		/*
		 * Everything up to limit is out, even when nothing was that
		 * old (live data starts 1 s later than the window's first
		 * step): else each record flushed and sorted the queue again
		 * until the first second had passed.
		 */
		if (o->last_flush < limit)
			o->last_flush = limit;
		return err;
	}
	return 0;
}

int lupe_ordered_round(struct lupe_ordered *o)
{
	int err = flush_upto(o, o->next_flush);

	o->next_flush = o->max_time;
	return err;
}

/*
 * All is out: the queue's slots and the spare chunk go (2.6 MB and 1 MiB
 * of the many-process file's report, held while it built its entries)
 * and come again with the next record.
 */
int lupe_ordered_flush_all(struct lupe_ordered *o)
{
	int err = flush_upto(o, (uint64_t)-1);

	if (!o->nq) {
		free(o->q);
		o->q = NULL;
		o->capq = 0;
		free(o->spare);
		o->spare = NULL;
	}
	return err;
}

int lupe_ordered_flush_upto(struct lupe_ordered *o, uint64_t limit)
{
	return flush_upto(o, limit);
}
