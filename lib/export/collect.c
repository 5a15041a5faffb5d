// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a perf.data into the export model: the one file of lib/export
 * that knows the session. Samples come in time order, as lupe script sees
 * them, and their frames are those script prints (lupe_session_resolve).
 *
 * Cost: like the histogram, each sample's raw stack (its thread's maps and
 * their generation, its addresses) is hashed into a table of distinct
 * stacks; only a stack seen for the first time is resolved and walked into
 * the tree, while the maps are those of the sample's time. A million
 * samples of a program with a few thousand distinct stacks cost a million
 * hash lookups.
 */
#include <stdlib.h>
#include <string.h>
#include <lupe/export.h>
#include <lupe/evlist.h>
#include <lupe/session.h>
#include <lupe/unwind.h>
#include "export/profile.h"
#include "symbols/symbols.h"
#include "util/phash.h"
#include "util/util.h"

#define mix lupe_phash_mix

struct rstack {
	const void *maps;
	uint32_t gen, nr;
	uint8_t cpumode;
	size_t ips;    /* offset in the ips pool */
	uint32_t leaf; /* node, or LUPE_PROF_NONE */
};

struct tcache {
	const char *comm; /* the thread's comm when thread was set */
	uint32_t thread;
	struct tcache *next;
};

struct ptr_ent {
	const void *a, *b;
	uint64_t addr;
	uint32_t idx;
};

struct collect {
	struct lupe_tool tool;
	struct lupe_profile *p;
	struct lupe_collect_opts o;
	struct rstack *stacks;
	size_t nr_stacks, cap_stacks;
	uint64_t *ips;
	size_t nr_ips, cap_ips;
	struct phash stack_hash; /* of indexes into stacks */
	struct ptr_ent *funcs, *dsos; /* (dso, sym or addr) -> func; dso -> index */
	size_t nr_funcs, cap_funcs, nr_dsos, cap_dsos;
	struct phash func_hash, dso_hash; /* of indexes into funcs, dsos */
	uint32_t *ev_map;  /* evsel idx -> event + 1 */
	size_t nr_ev, cap_ev;
	struct tcache *tcaches;
	const void *key_maps;       /* the key being looked up */
	uint32_t key_gen, key_nr;
	uint8_t key_cpumode;
	const uint64_t *key_ips;
	struct lupe_frame frames[512];
	int err;
};

static int ptr_eq_dso(const void *arg, uint32_t idx)
{
	const struct collect *c = arg;

	return c->dsos[idx].a == c->dsos[c->nr_dsos].a;
}

static int ptr_eq_func(const void *arg, uint32_t idx)
{
	const struct collect *c = arg;
	const struct ptr_ent *e = &c->funcs[idx], *k = &c->funcs[c->nr_funcs];

	return e->a == k->a && e->b == k->b && e->addr == k->addr;
}

/* The model's DSO for a session DSO, by pointer first. */
static long dso_index(struct collect *c, const struct lupe_map *map)
{
	const struct lupe_dso *d = map->dso;
	uint64_t hash = (uintptr_t)d * 0x9e3779b97f4a7c15ULL;
	void **slot;
	long idx;

	if (lupe_grow(&c->dsos, &c->cap_dsos, c->nr_dsos + 1, sizeof(*c->dsos)))
		return -ENOMEM;
	c->dsos[c->nr_dsos].a = d;
	if (!(slot = lupe_ihash_find(&c->dso_hash, hash, ptr_eq_dso, c)))
		return -ENOMEM;
	if (*slot)
		return c->dsos[lupe_ihash_idx(slot)].idx;
	idx = lupe_profile_add_dso(c->p, d->long_name, d->kernel, d->build_id, d->build_id_size,
				   map->start, map->end, map->pgoff);
	if (idx < 0)
		return idx;
	c->dsos[c->nr_dsos].idx = (uint32_t)idx;
	lupe_ihash_fill(&c->dso_hash, slot, hash, (uint32_t)c->nr_dsos++);
	return idx;
}

static int is_jit(const struct lupe_dso *d)
{
	size_t n = strlen(d->long_name);

	return !strncmp(d->long_name, "/tmp/perf-", 10) && n > 4 && !strcmp(d->long_name + n - 4, ".map");
}

/* The model's function for a frame: (dso, symbol), or (dso, address) unresolved. */
static long func_index(struct collect *c, const struct lupe_frame *f, uint8_t cpumode)
{
	const struct lupe_dso *d = f->map ? f->map->dso : NULL;
	/* as report: a frame outside any map is at the sample's own level */
	int kernel = f->map ? f->kernel : cpumode == PERF_RECORD_MISC_KERNEL;
	uint64_t addr = f->sym ? 0 : f->map ? f->addr : f->ip;
	uint64_t hash = mix(mix((uintptr_t)d, (uintptr_t)f->sym), addr ^ kernel);
	struct ptr_ent *k;
	void **slot;
	long idx, dso = LUPE_PROF_NONE;

	if (lupe_grow(&c->funcs, &c->cap_funcs, c->nr_funcs + 1, sizeof(*c->funcs)))
		return -ENOMEM;
	k = &c->funcs[c->nr_funcs];
	*k = (struct ptr_ent){ d, f->sym, addr ^ ((uint64_t)kernel << 63), 0 };
	if (!(slot = lupe_ihash_find(&c->func_hash, hash, ptr_eq_func, c)))
		return -ENOMEM;
	if (*slot)
		return c->funcs[lupe_ihash_idx(slot)].idx;
	if (f->map && (dso = dso_index(c, f->map)) < 0)
		return dso;
	idx = lupe_profile_add_func(c->p, f->sym ? f->sym->name : NULL, (uint32_t)dso,
				    kernel ? LUPE_PROF_KERNEL : d && is_jit(d) ? LUPE_PROF_JIT : LUPE_PROF_USER,
				    f->sym ? f->vaddr : addr, f->ip);
	if (idx < 0)
		return idx;
	c->funcs[c->nr_funcs].idx = (uint32_t)idx;
	lupe_ihash_fill(&c->func_hash, slot, hash, (uint32_t)c->nr_funcs++);
	return idx;
}

static int stack_eq(const void *arg, uint32_t idx)
{
	const struct collect *c = arg;
	const struct rstack *st = &c->stacks[idx];

	return st->maps == c->key_maps && st->gen == c->key_gen && st->cpumode == c->key_cpumode &&
	       st->nr == c->key_nr && !memcmp(c->ips + st->ips, c->key_ips, c->key_nr * sizeof(uint64_t));
}

/* A stack seen for the first time: resolve its frames into the tree. */
static long new_stack(struct collect *c, struct lupe_session *s, struct lupe_thread *t,
		      const struct lupe_sample *sample, uint8_t cpumode)
{
	int n = lupe_session_resolve(s, t, sample, cpumode, c->frames, (int)ARRAY_SIZE(c->frames));
	long node = LUPE_PROF_NONE;

	for (int i = n - 1; i >= 0; i--) {
		long func = func_index(c, &c->frames[i], cpumode);

		if (func < 0)
			return func;
		node = lupe_profile_add_node(c->p, (uint32_t)node, (uint32_t)func);
		if (node < 0)
			return node;
	}
	return node;
}

static long stack_leaf(struct collect *c, struct lupe_session *s, struct lupe_thread *t,
		       const struct lupe_sample *sample, uint8_t cpumode)
{
	const uint64_t *ips = sample->callchain;
	uint32_t nr = (uint32_t)sample->nr_callchain;
	void **slot;
	uint64_t hash;
	long leaf;

	/* no chain, or an empty one (--call-graph dwarf in user mode): the ip says it */
	if (!ips || !nr) {
		ips = &sample->ip;
		nr = 1;
	}
	c->key_maps = t->maps;
	c->key_gen = lupe_thread_maps_gen(t);
	c->key_cpumode = cpumode;
	c->key_nr = nr;
	c->key_ips = ips;
	/* once per sample: a cheap multiply-xor over the addresses, mixed once */
	hash = (uintptr_t)t->maps ^ ((uint64_t)c->key_gen << 8) ^ cpumode;
	for (uint32_t i = 0; i < nr; i++)
		hash = (hash ^ ips[i]) * 0x100000001b3ULL;
	hash = mix(hash, nr);
	if (!(slot = lupe_ihash_find(&c->stack_hash, hash, stack_eq, c)))
		return -ENOMEM;
	if (*slot)
		return c->stacks[lupe_ihash_idx(slot)].leaf;
	leaf = new_stack(c, s, t, sample, cpumode);
	if (leaf < 0)
		return leaf;
	if (lupe_grow(&c->stacks, &c->cap_stacks, c->nr_stacks + 1, sizeof(*c->stacks)) ||
	    lupe_grow(&c->ips, &c->cap_ips, c->nr_ips + nr, sizeof(*c->ips)))
		return -ENOMEM;
	/* the slot may have moved while the tree grew: find it again */
	if (!(slot = lupe_ihash_find(&c->stack_hash, hash, stack_eq, c)))
		return -ENOMEM;
	memcpy(c->ips + c->nr_ips, ips, nr * sizeof(*ips));
	c->stacks[c->nr_stacks] = (struct rstack){ t->maps, c->key_gen, nr, cpumode, c->nr_ips,
						   (uint32_t)leaf };
	c->nr_ips += nr;
	lupe_ihash_fill(&c->stack_hash, slot, hash, (uint32_t)c->nr_stacks++);
	return leaf;
}

/* The model's thread for t under its current comm, cached in t->priv. */
static long thread_index(struct collect *c, struct lupe_thread *t)
{
	struct tcache *tc = t->priv;
	long idx;

	if (tc && tc->comm == t->comm)
		return tc->thread;
	if (!tc) {
		if (!(tc = calloc(1, sizeof(*tc))))
			return -ENOMEM;
		tc->next = c->tcaches;
		c->tcaches = tc;
		t->priv = tc;
	}
	idx = lupe_profile_add_thread(c->p, t->pid, t->tid, t->comm);
	if (idx < 0)
		return idx;
	tc->comm = t->comm;
	tc->thread = (uint32_t)idx;
	return idx;
}

static long event_index(struct collect *c, const struct lupe_evsel *evsel)
{
	const struct perf_event_attr *a = lupe_evsel_attr(evsel);
	size_t ei = (size_t)lupe_evsel_idx(evsel);
	long idx;

	if (ei >= c->nr_ev) {
		if (lupe_grow(&c->ev_map, &c->cap_ev, ei + 1, sizeof(*c->ev_map)))
			return -ENOMEM;
		memset(c->ev_map + c->nr_ev, 0, (ei + 1 - c->nr_ev) * sizeof(*c->ev_map));
		c->nr_ev = ei + 1;
	}
	if (!c->ev_map[ei]) {
		idx = lupe_profile_add_event(c->p, lupe_evsel_name(evsel), a->type == PERF_TYPE_TRACEPOINT,
					     !!(a->sample_type & PERF_SAMPLE_PERIOD),
					     a->type == PERF_TYPE_SOFTWARE &&
					     (a->config == PERF_COUNT_SW_CPU_CLOCK ||
					      a->config == PERF_COUNT_SW_TASK_CLOCK));
		if (idx < 0)
			return idx;
		c->ev_map[ei] = (uint32_t)idx + 1;
	}
	return c->ev_map[ei] - 1;
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct collect *c = (struct collect *)tool;
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	long th, leaf, event;

	if (c->o.pids && !lupe_list_has_id(c->o.pids, (int)sample->pid))
		return 0;
	if (c->o.tids && !lupe_list_has_id(c->o.tids, (int)sample->tid))
		return 0;
	if (c->o.comms && !lupe_list_has(c->o.comms, thread->comm ? thread->comm : ""))
		return 0;
	if ((event = event_index(c, evsel)) < 0 || (th = thread_index(c, thread)) < 0 ||
	    (leaf = stack_leaf(c, s, thread, sample, cpumode)) < 0) {
		c->err = -ENOMEM;
		return 1;
	}
	if (lupe_profile_add_sample(c->p, (uint32_t)th, (uint32_t)leaf, (uint32_t)event, sample->cpu,
				    sample->time, sample->period, c->o.keep_samples)) {
		c->err = -ENOMEM;
		return 1;
	}
	return 0;
}

static void collect_free(struct collect *c)
{
	while (c->tcaches) {
		struct tcache *tc = c->tcaches;

		c->tcaches = tc->next;
		free(tc);
	}
	free(c->stacks);
	free(c->ips);
	free(c->funcs);
	free(c->dsos);
	free(c->ev_map);
	lupe_phash_free(&c->stack_hash);
	lupe_phash_free(&c->func_hash);
	lupe_phash_free(&c->dso_hash);
	free(c);
}

struct lupe_profile *lupe_profile_collect(const char *path, const struct lupe_collect_opts *opts)
{
	struct collect *c = calloc(1, sizeof(*c));
	struct lupe_session *s;
	struct lupe_profile *p;
	const struct lupe_session_stats *st;
	int err;

	if (!c)
		return NULL;
	if (lupe_opts_load(&c->o, opts)) {
		free(c);
		return err_ptr(-EINVAL);
	}
	c->tool.sample = on_sample;
	c->tool.ordered = 1;
	if (!(p = c->p = lupe_profile_new())) {
		free(c);
		return err_ptr(-ENOMEM);
	}
	s = lupe_session_open(path, c->o.force);
	if (!s) {
		err = -errno;
		lupe_profile_delete(p);
		collect_free(c);
		return err_ptr(err);
	}
	/* --call-graph dwarf: stacks are keyed and resolved on the unwound chains */
	err = lupe_unwind_install(s);
	if (!err || err == -ENOTSUP)
		err = lupe_session_process(s, &c->tool);
	if (!err)
		err = c->err;
	st = lupe_session_stats(s);
	p->nr_lost = st->nr_lost + st->nr_lost_samples;
	if (err == -ENOMEM) {
		lupe_session_delete(s);
		lupe_profile_delete(p);
		collect_free(c);
		return err_ptr(err);
	}
	if (err) {
		const char *why = lupe_perf_file_error(lupe_session_file(s));

		pr_warn("'%s' is broken part way (%s): the profile holds the samples before that",
			path, why[0] ? why : lupe_strerror(err));
	}
	lupe_session_delete(s);
	collect_free(c);
	return p;
}
