// SPDX-License-Identifier: GPL-2.0
/*
 * The export model: arrays of DSOs, functions, stack-tree nodes, threads
 * and events, each item found or added through a hash of indexes, and the
 * samples added up per (thread, node, event). The model holds no pointer
 * into a session, so writers and tests need none.
 */
#include <stdlib.h>
#include <string.h>
#include "export/profile.h"
#include "util/phash.h"
#include "util/util.h"

#define mix lupe_phash_mix

struct lupe_profile_priv {
	struct phash strings;
	struct phash dsos, funcs, nodes, threads, aggs; /* of indexes: lupe_ihash_* */
	size_t cap_dsos, cap_funcs, cap_nodes, cap_threads, cap_events, cap_aggs, cap_samples;
};

/*
 * Find or add an item of one of the model's arrays (items: its address,
 * nr items of size bytes, room for cap) through its table t: the index of
 * the item eq finds; else of a new one made room for at the end, counted
 * and hashed, for the caller to fill (*added set). -ENOMEM when out of memory.
 */
static long find_or_add(struct phash *t, uint64_t hash, int (*eq)(const void *arg, uint32_t idx),
			const void *key, void *items, size_t *nr, size_t *cap, size_t size, int *added)
{
	void **slot = lupe_ihash_find(t, hash, eq, key);

	*added = 0;
	if (!slot)
		return -ENOMEM;
	if (*slot)
		return lupe_ihash_idx(slot);
	if (lupe_grow(items, cap, *nr + 1, size))
		return -ENOMEM;
	lupe_ihash_fill(t, slot, hash, (uint32_t)(*nr)++);
	*added = 1;
	return (long)*nr - 1;
}

/* find_or_add() on the array p->NAME: its count p->nr_NAME, its table and room in p->priv */
#define FIND_OR_ADD(p, name, hash, eq, key, added)                                       \
	find_or_add(&(p)->priv->name, hash, eq, key, &(p)->name, &(p)->nr_##name,       \
		    &(p)->priv->cap_##name, sizeof(*(p)->name), added)

struct lupe_profile *lupe_profile_new(void)
{
	struct lupe_profile *p = calloc(1, sizeof(*p));

	if (!p)
		return err_ptr(-ENOMEM);
	p->priv = calloc(1, sizeof(*p->priv));
	if (!p->priv) {
		free(p);
		return err_ptr(-ENOMEM);
	}
	p->first_event = LUPE_PROF_NONE;
	return p;
}

void lupe_profile_delete(struct lupe_profile *p)
{
	struct lupe_profile_priv *q;

	if (!p)
		return;
	q = p->priv;
	lupe_phash_free_strings(&q->strings);
	lupe_phash_free(&q->dsos);
	lupe_phash_free(&q->funcs);
	lupe_phash_free(&q->nodes);
	lupe_phash_free(&q->threads);
	lupe_phash_free(&q->aggs);
	free(q);
	free(p->dsos);
	free(p->funcs);
	free(p->nodes);
	free(p->threads);
	free(p->events);
	free(p->aggs);
	free(p->samples);
	free(p);
}

const char *lupe_profile_intern(struct lupe_profile *p, const char *s)
{
	return lupe_phash_intern(&p->priv->strings, s);
}

long lupe_profile_add_event(struct lupe_profile *p, const char *name, int tracepoint,
			    int has_period, int time_based)
{
	struct lupe_prof_event *e;

	if (lupe_grow(&p->events, &p->priv->cap_events, p->nr_events + 1, sizeof(*p->events)))
		return -ENOMEM;
	e = &p->events[p->nr_events];
	memset(e, 0, sizeof(*e));
	if (!(e->name = lupe_profile_intern(p, name ? name : "[unknown]")))
		return -ENOMEM;
	e->tracepoint = tracepoint;
	e->has_period = has_period;
	e->time_based = time_based;
	return (long)p->nr_events++;
}

struct dso_key {
	const struct lupe_profile *p;
	const char *name; /* interned */
};

static int dso_eq(const void *arg, uint32_t idx)
{
	const struct dso_key *k = arg;

	return k->p->dsos[idx].name == k->name;
}

long lupe_profile_add_dso(struct lupe_profile *p, const char *name, int kernel,
			  const uint8_t *build_id, int build_id_size, uint64_t start,
			  uint64_t limit, uint64_t pgoff)
{
	struct dso_key k = { p, lupe_profile_intern(p, name) };
	uint64_t hash = (uintptr_t)k.name * 0x9e3779b97f4a7c15ULL;
	struct lupe_prof_dso *d;
	const char *slash;
	int added;
	long i;

	if (!k.name)
		return -ENOMEM;
	i = FIND_OR_ADD(p, dsos, hash, dso_eq, &k, &added);
	if (i < 0 || !added)
		return i;
	d = &p->dsos[i];
	memset(d, 0, sizeof(*d));
	d->name = k.name;
	slash = strrchr(k.name, '/');
	d->short_name = slash ? slash + 1 : k.name;
	d->kernel = kernel;
	if (build_id_size > 0) {
		d->build_id_size = build_id_size > 20 ? 20 : build_id_size;
		memcpy(d->build_id, build_id, d->build_id_size);
	}
	d->start = start;
	d->limit = limit;
	d->pgoff = pgoff;
	return i;
}

struct func_key {
	const struct lupe_profile *p;
	const char *name; /* interned or NULL */
	uint32_t dso;
	int kind;
	uint64_t addr;
};

static int func_eq(const void *arg, uint32_t idx)
{
	const struct func_key *k = arg;
	const struct lupe_prof_func *f = &k->p->funcs[idx];

	return f->name == k->name && f->dso == k->dso && f->kind == k->kind &&
	       (k->name || f->addr == k->addr);
}

long lupe_profile_add_func(struct lupe_profile *p, const char *name, uint32_t dso, int kind,
			   uint64_t addr, uint64_t ip)
{
	struct func_key k = { p, name ? lupe_profile_intern(p, name) : NULL, dso, kind, addr };
	uint64_t hash = mix(mix((uintptr_t)k.name, dso), ((uint64_t)kind << 56) ^ (name ? 0 : addr));
	int added;
	long i;

	if (name && !k.name)
		return -ENOMEM;
	i = FIND_OR_ADD(p, funcs, hash, func_eq, &k, &added);
	if (added)
		p->funcs[i] = (struct lupe_prof_func){ k.name, dso, (uint8_t)kind, addr, ip };
	return i;
}

struct node_key {
	const struct lupe_profile *p;
	uint32_t parent, func;
};

static int node_eq(const void *arg, uint32_t idx)
{
	const struct node_key *k = arg;

	return k->p->nodes[idx].parent == k->parent && k->p->nodes[idx].func == k->func;
}

long lupe_profile_add_node(struct lupe_profile *p, uint32_t parent, uint32_t func)
{
	struct node_key k = { p, parent, func };
	uint64_t hash = mix(parent, func);
	int added;
	long i = FIND_OR_ADD(p, nodes, hash, node_eq, &k, &added);

	if (added)
		p->nodes[i] = (struct lupe_prof_node){
			parent, func, parent == LUPE_PROF_NONE ? 0 : p->nodes[parent].depth + 1 };
	return i;
}

struct thread_key {
	const struct lupe_profile *p;
	int pid, tid;
	const char *comm;
};

static int thread_eq(const void *arg, uint32_t idx)
{
	const struct thread_key *k = arg;
	const struct lupe_prof_thread *t = &k->p->threads[idx];

	return t->pid == k->pid && t->tid == k->tid && t->comm == k->comm;
}

long lupe_profile_add_thread(struct lupe_profile *p, int pid, int tid, const char *comm)
{
	struct thread_key k = { p, pid, tid, lupe_profile_intern(p, comm ? comm : ":-1") };
	uint64_t hash = mix(((uint64_t)(uint32_t)pid << 32) | (uint32_t)tid, (uintptr_t)k.comm);
	int added;
	long i;

	if (!k.comm)
		return -ENOMEM;
	i = FIND_OR_ADD(p, threads, hash, thread_eq, &k, &added);
	if (added)
		p->threads[i] = (struct lupe_prof_thread){ pid, tid, k.comm };
	return i;
}

struct agg_key {
	const struct lupe_profile *p;
	uint32_t thread, node, event;
};

static int agg_eq(const void *arg, uint32_t idx)
{
	const struct agg_key *k = arg;
	const struct lupe_prof_agg *a = &k->p->aggs[idx];

	return a->node == k->node && a->thread == k->thread && a->event == k->event;
}

int lupe_profile_add_sample(struct lupe_profile *p, uint32_t thread, uint32_t node,
			    uint32_t event, uint32_t cpu, uint64_t time, uint64_t period, int keep)
{
	struct agg_key k = { p, thread, node, event };
	uint64_t hash = mix(((uint64_t)thread << 32) | event, node);
	struct lupe_prof_agg *a;
	int added;
	long i;

	if (event >= p->nr_events)
		return -EINVAL;
	i = FIND_OR_ADD(p, aggs, hash, agg_eq, &k, &added);
	if (i < 0)
		return (int)i;
	a = &p->aggs[i];
	if (added)
		*a = (struct lupe_prof_agg){ thread, node, event, 0, 0 };
	a->count++;
	a->period += period;
	p->events[event].nr_samples++;
	p->events[event].total_period += period;
	if (p->first_event == LUPE_PROF_NONE && !p->events[event].tracepoint)
		p->first_event = event;
	if (time > p->last_time)
		p->last_time = time;
	if (time && (time < p->first_time || !p->first_time))
		p->first_time = time;
	if (keep) {
		if (lupe_grow(&p->samples, &p->priv->cap_samples, p->nr_samples + 1, sizeof(*p->samples)))
			return -ENOMEM;
		p->samples[p->nr_samples++] = (struct lupe_prof_sample){ thread, node, event, cpu, time, period };
	}
	return 0;
}

const char *lupe_prof_func_name(const struct lupe_profile *p, uint32_t func, char *buf,
				size_t size)
{
	const struct lupe_prof_func *f = &p->funcs[func];

	if (f->name)
		return f->name;
	snprintf(buf, size, f->addr ? "%#018llx" : "%016llx", (unsigned long long)f->addr);
	return buf;
}

uint32_t *lupe_prof_tids(const struct lupe_profile *p, size_t *nr, uint32_t **thread_tid)
{
	uint32_t *tids = malloc((p->nr_threads + 1) * sizeof(*tids));
	uint32_t *map = malloc((p->nr_threads + 1) * sizeof(*map));
	size_t n = 0;

	if (!tids || !map) {
		free(tids);
		free(map);
		return err_ptr(-ENOMEM);
	}
	/* threads are few: a quadratic match by tid costs nothing */
	for (size_t i = 0; i < p->nr_threads; i++) {
		size_t j;

		for (j = 0; j < n; j++)
			if (p->threads[tids[j]].tid == p->threads[i].tid &&
			    p->threads[tids[j]].pid == p->threads[i].pid)
				break;
		if (j == n)
			n++;
		tids[j] = (uint32_t)i; /* the last comm names the thread */
		map[i] = (uint32_t)j;
	}
	*nr = n;
	*thread_tid = map;
	return tids;
}

void lupe_json_str(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
}

void lupe_xml_str(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if ((unsigned char)s[i] >= 0x20 || s[i] == '\t')
				fputc(s[i], out);
		}
	}
}
