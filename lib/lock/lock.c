// SPDX-License-Identifier: GPL-2.0
/*
 * The lock contention model: lock:contention_begin/end paired per thread
 * and lock address, and the waits summed per key, with perf 6.1's rules so
 * `lupe lock contention` prints perf's numbers for the same file:
 *
 * - a begin while the thread already waits on that lock (mutex spinning,
 *   then sleeping) is ignored: the first begin times the wait;
 * - an end finds its entry by its own key (for the caller key: its own
 *   callchain), so an end whose key no begin made counts nothing;
 * - the average is the total over the acquisitions (ends), not over the
 *   contentions.
 *
 * Entries live in one hash table by key, perf's hash (hash_long, 12 bits),
 * so that entries with equal sort values come out in perf's order. A thread's pending waits are a short list per
 * thread (a thread waits on one lock at a time, nesting aside).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/lock.h>
#include "util/util.h"

enum seq_state { SEQ_UNINIT, SEQ_CONTENDED, SEQ_ACQUIRED };

struct seq {
	uint32_t tid;
	uint64_t addr;
	int state;
	uint64_t since;
	struct seq *next;
};

#define HASH_BITS 12
#define NR_HASH (1U << HASH_BITS)

struct entry {
	struct lupe_lock_stat st;
	size_t order;          /* in perf's walk of its hash, for ties */
	struct entry *next;
};

struct lupe_lock {
	enum lupe_lock_aggr aggr;
	struct entry *hash[NR_HASH];
	size_t nr;
	struct seq *seqs[NR_HASH];
	unsigned int bad_hist[4];
};

static unsigned int hash64(uint64_t v)
{
	return (unsigned int)((v * 0x61C8864680B583EBULL) >> (64 - HASH_BITS));
}

struct lupe_lock *lupe_lock_new(enum lupe_lock_aggr aggr)
{
	struct lupe_lock *l = calloc(1, sizeof(*l));

	if (!l)
		return err_ptr(-ENOMEM);
	l->aggr = aggr;
	return l;
}

void lupe_lock_delete(struct lupe_lock *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < NR_HASH; i++) {
		for (struct entry *e = l->hash[i], *n; e; e = n) {
			n = e->next;
			free(e->st.name);
			free(e);
		}
		for (struct seq *s = l->seqs[i], *n; s; s = n) {
			n = s->next;
			free(s);
		}
	}
	free(l);
}

enum lupe_lock_aggr lupe_lock_aggr(const struct lupe_lock *l)
{
	return l->aggr;
}

static struct entry *find(struct lupe_lock *l, uint64_t key)
{
	for (struct entry *e = l->hash[hash64(key)]; e; e = e->next)
		if (e->st.key == key)
			return e;
	return NULL;
}

static struct entry *findnew(struct lupe_lock *l, uint64_t key, const char *name,
			     unsigned int flags)
{
	struct entry *e = find(l, key);
	unsigned int h = hash64(key);

	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->st.name = strdup(name ? name : "");
	if (!e->st.name) {
		free(e);
		return NULL;
	}
	e->st.key = key;
	e->st.flags = flags;
	e->st.wait_min = UINT64_MAX;
	l->nr++;
	e->next = l->hash[h];
	l->hash[h] = e;
	return e;
}

static struct seq *get_seq(struct lupe_lock *l, uint32_t tid, uint64_t addr, int create)
{
	unsigned int h = hash64((uint64_t)tid << 32 ^ addr);
	struct seq *s;

	for (s = l->seqs[h]; s; s = s->next)
		if (s->tid == tid && s->addr == addr)
			return s;
	if (!create)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->tid = tid;
	s->addr = addr;
	s->next = l->seqs[h];
	l->seqs[h] = s;
	return s;
}

int lupe_lock_begin(struct lupe_lock *l, uint32_t tid, uint64_t time, uint64_t addr,
		    unsigned int flags, uint64_t key, const char *name)
{
	struct entry *e = findnew(l, key, name, flags);
	struct seq *s;

	if (!e)
		return -ENOMEM;
	s = get_seq(l, tid, addr, 1);
	if (!s)
		return -ENOMEM;
	if (s->state == SEQ_CONTENDED)
		return 0; /* nested: the first begin times the wait */
	s->state = SEQ_CONTENDED;
	s->since = time;
	e->st.nr_contended++;
	return 0;
}

int lupe_lock_end(struct lupe_lock *l, uint32_t tid, uint64_t time, uint64_t addr, uint64_t key)
{
	struct entry *e = find(l, key);
	struct seq *s;
	uint64_t d;

	if (!e)
		return 0;
	s = get_seq(l, tid, addr, 0);
	if (!s || s->state != SEQ_CONTENDED) {
		if (s && s->state != SEQ_UNINIT && !e->st.broken) {
			e->st.broken = 1;
			l->bad_hist[1]++; /* perf's BROKEN_ACQUIRED */
		}
		return 0;
	}
	d = time - s->since;
	e->st.wait_total += d;
	if (d < e->st.wait_min)
		e->st.wait_min = d;
	if (d > e->st.wait_max)
		e->st.wait_max = d;
	s->state = SEQ_ACQUIRED;
	e->st.nr_acquired++;
	e->st.avg_wait = e->st.wait_total / e->st.nr_acquired;
	return 0;
}

int lupe_lock_add(struct lupe_lock *l, uint64_t key, const char *name, unsigned int flags,
		  unsigned int count, uint64_t total, uint64_t max, uint64_t min)
{
	struct entry *e = findnew(l, key, name, flags);

	if (!e)
		return -ENOMEM;
	e->st.nr_contended += count;
	e->st.nr_acquired += count;
	e->st.wait_total += total;
	if (max > e->st.wait_max)
		e->st.wait_max = max;
	if (min < e->st.wait_min)
		e->st.wait_min = min;
	e->st.avg_wait = e->st.nr_acquired ? e->st.wait_total / e->st.nr_acquired : 0;
	return 0;
}

unsigned int lupe_lock_nr_bad(const struct lupe_lock *l, unsigned int hist[4])
{
	unsigned int n = 0;

	for (int i = 0; i < 4; i++) {
		if (hist)
			hist[i] = l->bad_hist[i];
		n += l->bad_hist[i];
	}
	return n;
}

int lupe_lock_set_name(struct lupe_lock_stat *st, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(st->name);
	st->name = n;
	return 0;
}

static uint64_t sort_value(const struct lupe_lock_stat *st, int k)
{
	switch (k) {
	case 0: return st->nr_contended;
	case 1: return st->wait_total;
	case 2: return st->wait_max;
	case 3: return st->wait_min == UINT64_MAX ? 0 : st->wait_min;
	case 4: return st->avg_wait;
	default: return st->nr_acquired;
	}
}

static int sort_key_nr;

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;
	uint64_t vx = sort_value(&x->st, sort_key_nr), vy = sort_value(&y->st, sort_key_nr);

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int lupe_lock_sorted(struct lupe_lock *l, const char *sort_key, struct lupe_lock_stat ***out,
		     size_t *nr)
{
	static const char *const keys[] = { "contended", "wait_total", "wait_max", "wait_min",
					    "avg_wait", "acquired" };
	struct entry **v;
	size_t n = 0;
	int k = -1;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(sort_key, keys[i]))
			k = (int)i;
	if (k < 0)
		return -EINVAL;
	v = malloc((l->nr ? l->nr : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* ties keep perf's order: its hash buckets in turn, newest first in each */
	for (size_t i = 0; i < NR_HASH; i++)
		for (struct entry *e = l->hash[i]; e; e = e->next) {
			e->order = n;
			v[n++] = e;
		}
	sort_key_nr = k;
	qsort(v, n, sizeof(*v), cmp_entry);
	/* the stat is the entry's first member: the array is one of stats too */
	*out = (struct lupe_lock_stat **)v;
	*nr = n;
	return 0;
}

const char *lupe_lock_type_str(unsigned int flags)
{
	static const struct { unsigned int flags; const char *name; } table[] = {
		{ 0, "semaphore" },
		{ LUPE_LCB_F_SPIN, "spinlock" },
		{ LUPE_LCB_F_SPIN | LUPE_LCB_F_READ, "rwlock:R" },
		{ LUPE_LCB_F_SPIN | LUPE_LCB_F_WRITE, "rwlock:W" },
		{ LUPE_LCB_F_READ, "rwsem:R" },
		{ LUPE_LCB_F_WRITE, "rwsem:W" },
		{ LUPE_LCB_F_RT, "rtmutex" },
		{ LUPE_LCB_F_RT | LUPE_LCB_F_READ, "rwlock-rt:R" },
		{ LUPE_LCB_F_RT | LUPE_LCB_F_WRITE, "rwlock-rt:W" },
		{ LUPE_LCB_F_PERCPU | LUPE_LCB_F_READ, "pcpu-sem:R" },
		{ LUPE_LCB_F_PERCPU | LUPE_LCB_F_WRITE, "pcpu-sem:W" },
		{ LUPE_LCB_F_MUTEX, "mutex" },
		{ LUPE_LCB_F_MUTEX | LUPE_LCB_F_SPIN, "mutex" },
		{ LUPE_LCB_F_FUTEX, "futex" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].flags == flags)
			return table[i].name;
	return "unknown";
}
