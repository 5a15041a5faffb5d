// SPDX-License-Identifier: GPL-2.0
/*
 * The histogram. lupe_hists_add() only hashes the sample's stack (its
 * thread state and raw addresses) into a table of distinct stacks,
 * resolving a stack's frames the first time it is seen, while the maps
 * are those of the sample's time. lupe_hists_finish() then builds the
 * entries and callchain trees once per distinct stack. A million samples
 * of a program with a few thousand distinct stacks cost a million hash
 * lookups and a few thousand tree walks.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/hist.h>
#include "symbols/symbols.h"
#include "util/phash.h"
#include "util/util.h"

struct arena {
	struct arena_chunk {
		struct arena_chunk *next;
		size_t used, size;
		char data[];
	} *head;
};

static void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->head;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > (1u << 20) ? n : (1u << 20);

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = a->head;
		c->used = 0;
		c->size = size;
		a->head = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

static void arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_chunk *c = a->head;

		a->head = c->next;
		free(c);
	}
}

struct rframe {
	const struct lupe_dso *dso;
	const struct lupe_symbol *sym;
	uint64_t addr; /* in its DSO (the ip outside any map) */
	uint64_t ip; /* as recorded: keys an unresolved callchain entry, as perf keys it */
	int kernel;
	const char *srcline; /* with LUPE_SORT_SRCLINE */
};

struct stack {
	uint64_t hash;
	const char *comm, *trace;
	const struct lupe_thread *thread;
	uint32_t placeholder; /* 1 + the thread's comm_epoch when comm was its ":TID", else 0 */
	int pid, tid, cpu;
	uint64_t cgroup; /* with LUPE_SORT_CGROUP: the sample's cgroup id */
	const char *cgroup_name;
	const void *maps;
	uint32_t gen, kgen;
	uint8_t cpumode;
	uint32_t nr_ips, nr_frames;
	uint64_t ip;  /* the sample's: its entry when --max-stack cut it off the chain */
	const uint64_t *ips;
	struct rframe *frames;
	struct rframe self; /* the entry itself when frames[0] is an inlined function or not the ip */
	uint8_t has_self;   /* self holds the entry */
	uint64_t period, count;
	uint8_t filtered;   /* its samples are ones report filters left out: their LUPE_FILTER_* bits */
	struct stack *next_made; /* in the order stacks were first seen */
};

struct lupe_hists {
	struct lupe_hist_opts opts;
	unsigned keymask;
	struct arena arena;       /* stacks: kept until a reset */
	struct arena out;         /* entries and chain nodes: rebuilt by each finish */
	struct phash stacks;
	struct stack *first_made, **last_made;
	struct phash strings; /* comms and trace texts, one copy each */
	struct lupe_hist_entry **entries;
	long nr_entries;
	struct lupe_hist_entry **made; /* by lupe_hists_finish(), in the order it made them */
	size_t nr_made, cap_made;
	uint64_t total_period, nr_samples;
	struct lupe_frame frames[1024];
	uint64_t cut[LUPE_SESSION_MAX_CHAIN]; /* a chain --max-stack cut */
};

#define mix lupe_phash_mix

struct lupe_hists *lupe_hists_new(const struct lupe_hist_opts *opts)
{
	struct lupe_hist_opts o;
	struct lupe_hists *h;

	if (!opts || lupe_opts_load(&o, opts) || o.nr_keys < 0 ||
	    o.nr_keys > (int)ARRAY_SIZE(o.keys))
		return err_ptr(-EINVAL);
	if (!(h = calloc(1, sizeof(*h))))
		return err_ptr(-ENOMEM);
	h->opts = o;
	for (int i = 0; i < o.nr_keys; i++)
		h->keymask |= 1u << o.keys[i];
	return h;
}

void lupe_hists_delete(struct lupe_hists *h)
{
	if (!h)
		return;
	lupe_hists_reset(h);
	lupe_phash_free_strings(&h->strings);
	free(h);
}

void lupe_hists_reset(struct lupe_hists *h)
{
	arena_free(&h->arena);
	arena_free(&h->out);
	lupe_phash_free(&h->stacks);
	memset(&h->stacks, 0, sizeof(h->stacks));
	free(h->entries);
	h->entries = NULL;
	h->nr_entries = 0;
	free(h->made);
	h->made = NULL;
	h->nr_made = h->cap_made = 0;
	h->first_made = NULL;
	h->last_made = NULL;
	h->total_period = 0;
	h->nr_samples = 0;
}

uint64_t lupe_hists_total_period(const struct lupe_hists *h)
{
	return h->total_period;
}

uint64_t lupe_hists_nr_samples(const struct lupe_hists *h)
{
	return h->nr_samples;
}

/* One copy of each string, so that entries can compare comms by pointer. */
static const char *intern(struct lupe_hists *h, const char *s)
{
	return lupe_phash_intern(&h->strings, s);
}

/*
 * The thread's comm, interned in this histogram. Not cached in the
 * thread: a thread outlives a reset (top -z) and is seen by several
 * histograms (one per event, two reports in top -z), and a cache in one
 * histogram's arena dangled after its reset. A comm is at most 16 bytes:
 * hashing it per sample costs little.
 */
static const char *thread_comm(struct lupe_hists *h, struct lupe_thread *t)
{
	return intern(h, t->comm ? t->comm : ":-1");
}

/* The key of a stack being looked up. */
struct skey {
	const char *comm, *trace;
	uint32_t placeholder;
	int pid, tid, cpu;
	uint64_t cgroup;
	const void *maps;
	uint32_t gen;
	uint8_t cpumode;
	uint64_t ip;
	uint32_t nr;
	const uint64_t *ips;
	int filtered;
};

static int stack_eq(const void *item, const void *key)
{
	const struct stack *st = item;
	const struct skey *k = key;

	return st->comm == k->comm && st->trace == k->trace && st->tid == k->tid &&
	       st->placeholder == k->placeholder &&
	       st->pid == k->pid && st->cpu == k->cpu && st->cgroup == k->cgroup && st->maps == k->maps &&
	       st->gen == k->gen &&
	       st->cpumode == k->cpumode && st->ip == k->ip && st->nr_ips == k->nr &&
	       st->filtered == k->filtered && !memcmp(st->ips, k->ips, k->nr * sizeof(*k->ips));
}

/* A resolved frame as the histogram keeps it. */
static int keep_frame(struct lupe_hists *h, struct lupe_session *s, const struct lupe_frame *f,
		      uint8_t cpumode, struct rframe *out)
{
	/* perf gives a frame outside any map the sample's own level */
	int kernel = f->map ? f->kernel : cpumode == PERF_RECORD_MISC_KERNEL;

	*out = (struct rframe){ f->map ? f->map->dso : NULL, f->sym,
				f->map ? f->addr : f->ip, f->ip, kernel, NULL };
	if (h->keymask & (1u << LUPE_SORT_SRCLINE)) {
		char buf[1024], *big = NULL;
		int n = lupe_session_srcline_text(s, f, buf, sizeof(buf));

		/* a kernel frame's is its symbol's name: whole, however long */
		if (n >= (int)sizeof(buf) && (big = malloc((size_t)n + 1)))
			lupe_session_srcline_text(s, f, big, (size_t)n + 1);
		out->srcline = intern(h, big ? big : buf);
		free(big);
		if (!out->srcline)
			return -ENOMEM;
	}
	return 0;
}

static int add_sample(struct lupe_hists *h, struct lupe_session *s, const struct lupe_sample *sample,
		      struct lupe_thread *t, uint8_t cpumode, const char *trace_text, int filtered)
{
	const char *trace = trace_text && (h->keymask & (1u << LUPE_SORT_TRACE)) ? intern(h, trace_text) : NULL;
	const uint64_t *ips = sample->callchain;
	uint32_t nr = (uint32_t)sample->nr_callchain; /* completed by the session's callchain step */
	const char *comm = thread_comm(h, t);
	uint32_t placeholder = t->comm_set ? 0 : t->comm_epoch + 1;
	int cpu = (h->keymask & (1u << LUPE_SORT_CPU)) ? (int)sample->cpu : -1;
	uint64_t cgroup = (h->keymask & (1u << LUPE_SORT_CGROUP)) ? sample->cgroup : 0;
	uint32_t gen = lupe_thread_maps_gen(t);
	uint64_t hash;
	struct stack *st, **slot;
	int lost_ip = 0;

	if (!comm)
		return -ENOMEM;
	/* perf's --max-stack 0 (here below 0): no chain at all */
	if (!ips || (!h->opts.callchain && !h->opts.children) || h->opts.max_stack < 0) {
		ips = &sample->ip;
		nr = 1;
	} else if (nr > lupe_callchain_max(h->opts.max_stack) && nr <= ARRAY_SIZE(h->cut)) {
		/* fewer entries than max: nothing to cut (markers count, addresses alone could not be more) */
		nr = lupe_callchain_cut(ips, nr, lupe_callchain_max(h->opts.max_stack), h->opts.caller, h->cut,
					&lost_ip);
		ips = h->cut;
	}
	h->total_period += sample->period;
	h->nr_samples++;
	hash = mix((uint64_t)(uintptr_t)comm, ((uint64_t)(uint32_t)t->tid << 32) | (uint32_t)cpu);
	hash = mix(hash, (uint64_t)(uintptr_t)t->maps ^ ((uint64_t)gen << 32) ^ cpumode);
	hash = mix(hash, (uint64_t)(uintptr_t)trace ^ sample->ip ^ cgroup);
	for (uint32_t i = 0; i < nr; i++)
		hash = mix(hash, ips[i]);
	{
		struct skey key = { comm, trace, placeholder, t->pid, t->tid, cpu, cgroup, t->maps, gen, cpumode,
				    sample->ip, nr, ips, filtered };

		slot = (struct stack **)lupe_phash_find(&h->stacks, hash, stack_eq, &key);
	}
	if (!slot)
		return -ENOMEM;
	if ((st = *slot)) {
		st->period += sample->period;
		st->count++;
		return 0;
	}
	/* A new stack: resolve it now, while the maps are the sample's. */
	st = arena_alloc(&h->arena, sizeof(*st));
	if (!st)
		return -ENOMEM;
	*st = (struct stack){ .hash = hash, .comm = comm, .trace = trace, .thread = t, .placeholder = placeholder,
			      .pid = t->pid, .tid = t->tid, .cpu = cpu,
			      .cgroup = cgroup, .cgroup_name = cgroup ? intern(h, lupe_session_cgroup_name(s, cgroup)) : NULL,
			      .maps = t->maps, .gen = gen, .cpumode = cpumode, .ip = sample->ip, .nr_ips = nr,
			      .period = sample->period, .count = 1, .filtered = (uint8_t)filtered };
	st->ips = arena_alloc(&h->arena, nr * sizeof(*ips) + 1);
	if (!st->ips)
		return -ENOMEM;
	memcpy((void *)st->ips, ips, nr * sizeof(*ips));
	{
		struct lupe_sample one = *sample;
		int n;

		if (ips == &sample->ip) {
			one.callchain = NULL;
			one.nr_callchain = 0;
		} else {
			one.callchain = st->ips;
			one.nr_callchain = nr;
		}
		n = lupe_session_resolve(s, t, &one, cpumode, h->frames, (int)ARRAY_SIZE(h->frames));
		/*
		 * A chain perf cannot use (a context marker it does not know,
		 * 0xffffffffffffffc0 in a frame-pointer walk) is dropped whole,
		 * as script drops it: the sample counts at its ip (below), with
		 * no chain and no entry for any frame of it.
		 */
		if (!n && one.nr_callchain)
			lost_ip = 1;
		st->frames = arena_alloc(&h->arena, (size_t)n * sizeof(*st->frames) + 1);
		if (!st->frames)
			return -ENOMEM;
		for (int i = 0; i < n; i++)
			if (keep_frame(h, s, &h->frames[i], cpumode, &st->frames[i]))
				return -ENOMEM;
		st->nr_frames = (uint32_t)n;
		if (lost_ip) {
			/* perf's entry is the sample's ip, whatever the chain kept */
			struct lupe_frame f;

			lupe_session_resolve_ip(s, t, sample->ip, cpumode == PERF_RECORD_MISC_KERNEL ||
						cpumode == PERF_RECORD_MISC_GUEST_KERNEL, &f);
			if (keep_frame(h, s, &f, cpumode, &st->self))
				return -ENOMEM;
			st->has_self = 1;
		} else if (n && h->frames[0].inlined) {
			/* perf's entry is the sample's own symbol; its chain starts inlined */
			struct lupe_frame f;
			struct rframe kept = st->frames[0];

			lupe_session_resolve_ip(s, t, h->frames[0].ip, h->frames[0].kernel, &f);
			if (keep_frame(h, s, &f, cpumode, &st->self))
				return -ENOMEM;
			/* the inlined frame's place, its own symbol */
			st->self.dso = kept.dso;
			st->self.addr = kept.addr;
			st->self.ip = kept.ip;
			st->self.kernel = kept.kernel;
			st->has_self = 1;
		}
	}
	lupe_phash_fill(&h->stacks, (void **)slot, hash, st);
	if (!h->last_made)
		h->last_made = &h->first_made;
	*h->last_made = st;
	h->last_made = &st->next_made;
	return 0;
}

int lupe_hists_add(struct lupe_hists *h, struct lupe_session *s, const struct lupe_sample *sample,
		   struct lupe_thread *t, uint8_t cpumode, const char *trace)
{
	return add_sample(h, s, sample, t, cpumode, trace, 0);
}

int lupe_hists_add_filtered(struct lupe_hists *h, struct lupe_session *s, const struct lupe_sample *sample,
			    struct lupe_thread *t, uint8_t cpumode, const char *trace, unsigned filters)
{
	return add_sample(h, s, sample, t, cpumode, trace, filters ? (int)filters : LUPE_FILTER_ALL);
}

/* ---- entries ---- */

struct ekey {
	const char *comm, *trace, *srcline;
	int pid, tid, cpu;
	uint64_t cgroup;
	const struct lupe_dso *dso;
	const struct lupe_symbol *sym;
	uint64_t addr;
	unsigned keymask;
};

/*
 * chain: the key of a callchain (children) entry. perf keys an unresolved
 * one by the address as recorded (fill_callchain_info), the sample's own
 * entry by the address in its DSO: an unresolved ip makes two entries, and
 * the same offset in two processes stays two.
 */
static void make_key(const struct lupe_hists *h, const struct stack *st, const struct rframe *f,
		     int chain, struct ekey *k)
{
	unsigned m = h->keymask;

	memset(k, 0, sizeof(*k));
	k->keymask = m;
	k->comm = m & (1u << LUPE_SORT_COMM) ? st->comm : NULL;
	k->trace = m & (1u << LUPE_SORT_TRACE) ? st->trace : NULL;
	k->pid = m & (1u << LUPE_SORT_PID) ? st->tid : 0; /* perf's "pid" is the thread */
	k->tid = m & (1u << LUPE_SORT_TID) ? st->tid : 0;
	k->cpu = m & (1u << LUPE_SORT_CPU) ? st->cpu : 0;
	k->cgroup = m & (1u << LUPE_SORT_CGROUP) ? st->cgroup : 0;
	if (m & ((1u << LUPE_SORT_DSO) | (1u << LUPE_SORT_SYM)))
		k->dso = f ? f->dso : NULL;
	k->srcline = f && (m & (1u << LUPE_SORT_SRCLINE)) ? f->srcline : NULL;
	if (f && (m & (1u << LUPE_SORT_SYM))) {
		k->sym = f->sym;
		k->addr = f->sym ? 0 : chain ? f->ip : f->addr;
	}
}

static uint64_t key_hash(const struct ekey *k)
{
	uint64_t h = mix((uintptr_t)k->trace, (uintptr_t)k->comm);

	h = mix(h, ((uint64_t)(uint32_t)k->pid << 32) | (uint32_t)k->tid);
	h = mix(h, (uint64_t)(uint32_t)k->cpu ^ (uintptr_t)k->srcline ^ k->cgroup);
	/* perf compares DSOs by short name and symbols by address range */
	h = mix(h, k->dso ? lupe_phash_str(k->dso->short_name) : 0);
	h = mix(h, k->sym ? k->sym->start ^ (k->sym->end << 1) : 0);
	return mix(h, k->addr);
}

static int same_dso(const struct lupe_dso *a, const struct lupe_dso *b)
{
	return a == b || (a && b && !strcmp(a->short_name, b->short_name));
}

static int same_sym(const struct lupe_hist_entry *e, const struct ekey *k)
{
	if (!e->sym || !k->sym)
		return !e->sym && !k->sym && e->addr == k->addr;
	if (e->sym != k->sym && (lupe_symbol_inlined(e->sym) || lupe_symbol_inlined(k->sym)) &&
	    (strcmp(e->sym->name, k->sym->name) ||
	     !(e->sym->start <= k->sym->end && e->sym->end >= k->sym->start)))
		return 0;
	return e->sym == k->sym || (e->sym->start == k->sym->start && e->sym->end == k->sym->end);
}

static int entry_eq(const void *item, const void *key)
{
	const struct lupe_hist_entry *e = item;
	const struct ekey *k = key;
	unsigned m = k->keymask;

	return !((m & (1u << LUPE_SORT_COMM) && e->comm != k->comm) ||
		 (m & (1u << LUPE_SORT_TRACE) && e->trace != k->trace) ||
		 (m & (1u << LUPE_SORT_SRCLINE) && e->srcline != k->srcline) ||
		 (m & (1u << LUPE_SORT_PID) && e->tid != k->pid) ||
		 (m & (1u << LUPE_SORT_TID) && e->tid != k->tid) ||
		 (m & (1u << LUPE_SORT_CPU) && e->cpu != k->cpu) ||
		 (m & (1u << LUPE_SORT_CGROUP) && e->cgroup != k->cgroup) ||
		 (m & (1u << LUPE_SORT_DSO) && !same_dso(e->dso, k->dso)) ||
		 (m & (1u << LUPE_SORT_SYM) && !same_sym(e, k)));
}

/* chain: made by a callchain frame (children), whose address perf keeps as recorded */
static struct lupe_hist_entry *findnew_entry(struct lupe_hists *h, struct phash *t,
					     const struct ekey *k, const struct rframe *f,
					     const struct stack *st, int chain)
{
	uint64_t hash = key_hash(k);
	struct lupe_hist_entry *e, **slot = (struct lupe_hist_entry **)lupe_phash_find(t, hash, entry_eq, k);

	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	if (lupe_grow(&h->made, &h->cap_made, h->nr_made + 1, sizeof(*h->made)))
		return NULL;
	e = arena_alloc(&h->out, sizeof(*e));
	if (!e)
		return NULL;
	h->made[h->nr_made++] = e;
	memset(e, 0, sizeof(*e));
	/* perf's filter marks an entry when it is made; later samples only add to it */
	e->filtered = st->filtered;
	e->comm = st->comm;
	e->thread = st->thread;
	e->trace = st->trace;
	e->pid = st->pid;
	e->tid = st->tid;
	e->cpu = st->cpu;
	e->cgroup = st->cgroup;
	e->cgroup_name = st->cgroup_name;
	if (f) {
		e->dso = f->dso;
		e->sym = f->sym;
		if (f->sym)
			e->addr = chain ? f->ip : f->addr;
		else
			e->addr = k->keymask & (1u << LUPE_SORT_SYM) ? k->addr : f->addr;
		e->srcline = k->srcline;
		e->kernel = f->kernel;
	}
	lupe_phash_fill(t, (void **)slot, hash, e);
	return e;
}

static int same_node(const struct lupe_cc_node *n, const struct rframe *f)
{
	if (n->sym && f->sym && n->sym != f->sym &&
	    (lupe_symbol_inlined(n->sym) || lupe_symbol_inlined(f->sym)))
		return !strcmp(n->sym->name, f->sym->name); /* perf matches inlined frames by name */
	if (n->sym || f->sym)
		return n->sym == f->sym;
	return n->addr == f->ip && n->dso == f->dso;
}

/* Add frames[from] stepping by dir, count of them, to e's tree. */
static int chain_add(struct lupe_hists *h, struct lupe_hist_entry *e, const struct rframe *frames,
		     int from, int dir, int count, uint64_t period)
{
	struct lupe_cc_node *node = &e->chain;

	/* perf's max_depth of the entry's chains orders children ties */
	if (count > e->depth)
		e->depth = count;
	node->cumul += period;
	for (int i = 0, idx = from; i < count; i++, idx += dir) {
		const struct rframe *f = &frames[idx];
		struct lupe_cc_node *c, **last = &node->child;

		for (c = node->child; c && !same_node(c, f); c = c->next)
			last = &c->next;
		if (!c) {
			c = arena_alloc(&h->out, sizeof(*c));
			if (!c)
				return -ENOMEM;
			*c = (struct lupe_cc_node){ .dso = f->dso, .sym = f->sym, .addr = f->sym ? 0 : f->ip, .kernel = f->kernel };
			*last = c;
		}
		c->cumul += period;
		node = c;
	}
	node->hit += period;
	return 0;
}

static int add_stack(struct lupe_hists *h, struct phash *t, struct stack *st,
		     struct lupe_hist_entry **seen)
{
	int n = (int)st->nr_frames, nseen = 0, caller = h->opts.caller;
	int chains = h->opts.callchain && h->opts.max_stack >= 0; /* perf's --max-stack 0: none */
	const struct rframe *self;
	struct ekey k;
	struct lupe_hist_entry *e;

	if (!n && !st->has_self)
		return 0;
	self = st->has_self ? &st->self : &st->frames[0];
	make_key(h, st, self, 0, &k);
	e = findnew_entry(h, t, &k, self, st, 0);
	if (!e)
		return -ENOMEM;
	e->self += st->period;
	e->nr_samples += st->count;
	e->children += st->period;
	if (chains && n && chain_add(h, e, st->frames, caller ? n - 1 : 0, caller ? -1 : 1, n, st->period))
		return -ENOMEM;
	if (!h->opts.children)
		return 0;
	/*
	 * Children: every distinct entry on the stack gets the period once:
	 * the sample's own (above), then each frame's in perf's cursor
	 * order (the outermost first in caller order, the innermost first in
	 * callee order), so that a recursive entry's chain starts where
	 * perf's does; each gets the chain from its frame on in that order.
	 * Inlined frames at the sample's ip count too, as perf counts them.
	 */
	seen[nseen++] = e;
	/*
	 * perf fills one location from each callchain node in turn and
	 * leaves its level alone for a node outside any map: such an entry
	 * gets the level of the node before it (the sample's own first).
	 */
	int level = self->kernel;

	for (int r = 0; r < n; r++) {
		int at = caller ? n - 1 - r : r;
		const struct rframe *f = &st->frames[at];
		struct rframe unmapped;
		int dup = 0;

		if (!f->dso && !f->sym && f->kernel != level) {
			unmapped = *f;
			unmapped.kernel = level;
			f = &unmapped;
		}
		level = f->kernel;
		make_key(h, st, f, 1, &k);
		e = findnew_entry(h, t, &k, f, st, 1);
		if (!e)
			return -ENOMEM;
		for (int j = 0; j < nseen && !dup; j++)
			dup = seen[j] == e;
		if (dup)
			continue;
		seen[nseen++] = e;
		e->children += st->period;
		if (!chains)
			continue;
		if (chain_add(h, e, st->frames, at, caller ? -1 : 1, caller ? at + 1 : n - at, st->period))
			return -ENOMEM;
	}
	return 0;
}

/*
 * perf keeps a node's children in a tree ordered by DSO, then by address,
 * highest first (by name, highest first, when one is an inlined
 * function), and sorts them by value from there: equal branches come in
 * that order.
 */
static int key_before(const struct lupe_cc_node *a, const struct lupe_cc_node *b)
{
	if (a->sym && b->sym && (lupe_symbol_inlined(a->sym) || lupe_symbol_inlined(b->sym)))
		return strcmp(a->sym->name, b->sym->name) > 0;
	/* perf's DSOs by their place in memory: the kernel's made first, then in the order met */
	unsigned da = !a->dso ? 0 : a->dso->kernel ? 1 : a->dso->seq + 2;
	unsigned db = !b->dso ? 0 : b->dso->kernel ? 1 : b->dso->seq + 2;
	uint64_t xa = a->sym ? a->sym->start : a->addr, xb = b->sym ? b->sym->start : b->addr;

	if (da != db)
		return da > db;
	return xa > xb;
}

static int branch_before(const struct lupe_cc_node *a, const struct lupe_cc_node *b)
{
	if (a->cumul != b->cumul)
		return a->cumul > b->cumul;
	return key_before(a, b);
}

/* n's children in the order before says. */
static void sort_children(struct lupe_cc_node *n,
			  int (*before)(const struct lupe_cc_node *a, const struct lupe_cc_node *b))
{
	struct lupe_cc_node *sorted = NULL, *c, *next;

	for (c = n->child; c; c = next) {
		struct lupe_cc_node **p = &sorted;

		next = c->next;
		while (*p && before(*p, c))
			p = &(*p)->next;
		c->next = *p;
		*p = c;
	}
	n->child = sorted;
}

/* Children largest first, as perf orders them; each one's rank in perf's key order. */
static void sort_chain(struct lupe_cc_node *n)
{
	uint32_t rank = 0;

	sort_children(n, key_before);
	for (struct lupe_cc_node *c = n->child; c; c = c->next) {
		c->key_rank = rank++;
		sort_chain(c);
	}
	sort_children(n, branch_before);
}

static const char *dso_name(const struct lupe_hist_entry *e, int long_name)
{
	if (!e->dso)
		return "[unknown]";
	return long_name ? e->dso->long_name : e->dso->short_name;
}

/* A resolved entry's address is its first sample's: no part of its key. */
static uint64_t key_addr(const struct lupe_hist_entry *e)
{
	return e->sym ? 0 : e->addr;
}

static int cmp_str(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

/* perf's DSO key: by name, an entry outside any map after the others */
static int cmp_dso(const struct lupe_hist_entry *x, const struct lupe_hist_entry *y, int long_name)
{
	if (!x->dso || !y->dso)
		return (x->dso == NULL) - (y->dso == NULL);
	return strcmp(dso_name(x, long_name), dso_name(y, long_name));
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* A sort key other than the symbol, compared as perf's output and collapse sorts both do. */
static int cmp_key(const struct lupe_hist_entry *x, const struct lupe_hist_entry *y,
		   enum lupe_sort_key key, const struct lupe_hist_opts *o)
{
	switch (key) {
	case LUPE_SORT_COMM: return cmp_str(x->comm, y->comm);
	case LUPE_SORT_PID:
	case LUPE_SORT_TID: return x->tid < y->tid ? -1 : x->tid > y->tid;
	case LUPE_SORT_CPU: return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
	case LUPE_SORT_CGROUP: return x->cgroup < y->cgroup ? 1 : x->cgroup > y->cgroup ? -1 : 0; /* perf: right to left */
	case LUPE_SORT_TRACE: return cmp_str(x->trace, y->trace);
	case LUPE_SORT_SRCLINE: return cmp_str(x->srcline, y->srcline);
	case LUPE_SORT_DSO: return cmp_dso(x, y, o->long_dso_names);
	default: return 0;
	}
}

static int cmp_entry(const void *a, const void *b, void *arg)
{
	const struct lupe_hist_entry *x = *(const struct lupe_hist_entry *const *)a;
	const struct lupe_hist_entry *y = *(const struct lupe_hist_entry *const *)b;
	const struct lupe_hist_opts *o = arg;
	int sort_mode_children = o->children;
	int c;

	if (sort_mode_children && x->children != y->children)
		return x->children > y->children ? -1 : 1;
	/* source lines sort by name, as perf's srcline key compares them */
	if (sort_mode_children && x->srcline && y->srcline && (c = strcmp(x->srcline, y->srcline)))
		return c;
	/*
	 * perf puts callers first among equal children of one thread: by the
	 * longest chain added to each, the longer first in caller order
	 * (a caller's runs down to the callees), the shorter in callee order.
	 */
	if (sort_mode_children && o->callchain && o->max_stack >= 0 && x->thread == y->thread &&
	    x->depth != y->depth)
		return (x->depth > y->depth) == !!o->caller ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	/* then the sort keys in their order, each as perf's output sort compares it */
	for (int i = 0; i < o->nr_keys; i++) {
		/* perf sorts symbols by name alone, the unresolved after and equal */
		if (o->keys[i] == LUPE_SORT_SYM)
			c = x->sym && y->sym ? strcmp(x->sym->name, y->sym->name) :
					       (x->sym == NULL) - (y->sym == NULL);
		else
			c = cmp_key(x, y, o->keys[i], o);
		if (c)
			return c;
	}
	return 0;
}

/* perf's symbol collapse: by address range, an inlined function by name (overlapping: the same) */
static int cmp_sym(const struct lupe_symbol *a, const struct lupe_symbol *b)
{
	int c;

	if (!a || !b)
		return (a == NULL) - (b == NULL); /* resolved first */
	if (a == b)
		return 0;
	if (lupe_symbol_inlined(a) || lupe_symbol_inlined(b)) {
		if ((c = strcmp(a->name, b->name)))
			return c;
		if (a->start <= b->end && a->end >= b->start)
			return 0;
	}
	return a->start != b->start ? cmp_u64(a->start, b->start) : cmp_u64(a->end, b->end);
}

/*
 * The order of perf's collapsed entries: the sort keys in their order,
 * each as its collapse function compares it, all ascending. perf's
 * output sort takes the entries in this order (see lupe_hists_finish).
 */
static int cmp_collapsed(const void *a, const void *b, void *arg)
{
	const struct lupe_hist_entry *x = *(const struct lupe_hist_entry *const *)a;
	const struct lupe_hist_entry *y = *(const struct lupe_hist_entry *const *)b;
	const struct lupe_hist_opts *o = arg;
	int c = 0;

	for (int i = 0; i < o->nr_keys && !c; i++) {
		if (o->keys[i] != LUPE_SORT_SYM)
			c = cmp_key(x, y, o->keys[i], o);
		/* perf's symbol key: unresolved ones by address, else the DSO first */
		else if (!x->sym && !y->sym)
			c = cmp_u64(key_addr(x), key_addr(y));
		else if (!(c = cmp_dso(x, y, o->long_dso_names)))
			c = cmp_sym(x->sym, y->sym);
	}
	/* perf would have merged these: any fixed order */
	return c ? c : x < y ? -1 : x > y;
}

/*
 * perf's output sort: each entry, in collapsed order, goes into a
 * red-black tree, to the left of a node it sorts before, else to the
 * right. The comparison is no total order (callers before callees only
 * within one thread), so the result depends on the tree's shape: this is
 * a red-black insertion like Linux's lib/rbtree.c, whose rotations give
 * the same shapes.
 */
struct rbn {
	int left, right, parent; /* indexes, -1: none */
	int red;
};

static void rb_rotate(struct rbn *t, int *root, int x, int left)
{
	int y = left ? t[x].right : t[x].left, p = t[x].parent;
	int inner = left ? t[y].left : t[y].right;

	if (left)
		t[x].right = inner;
	else
		t[x].left = inner;
	if (inner >= 0)
		t[inner].parent = x;
	t[y].parent = p;
	if (p < 0)
		*root = y;
	else if (t[p].left == x)
		t[p].left = y;
	else
		t[p].right = y;
	if (left)
		t[y].left = x;
	else
		t[y].right = x;
	t[x].parent = y;
}

static void rb_fixup(struct rbn *t, int *root, int z)
{
	while (t[z].parent >= 0 && t[t[z].parent].red) {
		int p = t[z].parent, g = t[p].parent;
		int pleft = t[g].left == p, u = pleft ? t[g].right : t[g].left;

		if (u >= 0 && t[u].red) {
			t[p].red = t[u].red = 0;
			t[g].red = 1;
			z = g;
			continue;
		}
		if (z == (pleft ? t[p].right : t[p].left)) {
			rb_rotate(t, root, p, pleft);
			z = p;
			p = t[z].parent;
		}
		t[p].red = 0;
		t[g].red = 1;
		rb_rotate(t, root, g, !pleft);
	}
	t[*root].red = 0;
}

static int output_sort(struct lupe_hist_entry **v, long n, struct lupe_hist_opts *o)
{
	struct lupe_hist_entry **out;
	struct rbn *t;
	int root = -1, at;
	long k = 0;

	qsort_r(v, n, sizeof(*v), cmp_collapsed, o);
	t = malloc(n * sizeof(*t));
	out = malloc(n * sizeof(*out));
	if (!t || !out) {
		free(t);
		free(out);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		int p = -1, *link = &root, left = 0;

		while (*link >= 0) {
			p = *link;
			left = cmp_entry(&v[i], &v[p], o) < 0;
			link = left ? &t[p].left : &t[p].right;
		}
		t[i] = (struct rbn){ -1, -1, p, 1 };
		*link = i;
		rb_fixup(t, &root, i);
	}
	/* in order, without a stack: down the left, then up from each right end */
	for (at = root; at >= 0 && t[at].left >= 0; at = t[at].left)
		;
	while (at >= 0) {
		out[k++] = v[at];
		if (t[at].right >= 0) {
			for (at = t[at].right; t[at].left >= 0; at = t[at].left)
				;
		} else {
			while (t[at].parent >= 0 && t[t[at].parent].right == at)
				at = t[at].parent;
			at = t[at].parent;
		}
	}
	memcpy(v, out, n * sizeof(*v));
	free(out);
	free(t);
	return 0;
}

long lupe_hists_finish(struct lupe_hists *h, int (*keep)(const struct lupe_hist_entry *e, void *arg),
		       void *arg)
{
	struct phash t = { 0 };
	struct lupe_hist_entry **seen = malloc(sizeof(*seen) * (ARRAY_SIZE(h->frames) + 1)), **v; /* each frame, and the self entry */
	long n = 0;

	if (!seen)
		return -ENOMEM;
	/* a finish again (top's refresh) starts from the stacks: the last entries go */
	arena_free(&h->out);
	/*
	 * The pages of what reading freed (the DWARF of inlined frames, the
	 * unwinder's processes), given back before the entries and chains
	 * are made: malloc keeps them, and the 1 MiB chunks of the arena
	 * seldom fit in its freed holes. A many-process report's peak (in
	 * here) fell from 29.9 MB to 29.2 MB.
	 */
	malloc_trim(0);
	free(h->entries);
	h->entries = NULL;
	h->nr_entries = 0;
	h->nr_made = 0;
	/* in the order samples first made them: an entry keeps its first sample's level, as perf's */
	for (struct stack *st = h->first_made; st; st = st->next_made) {
		struct stack renamed, *use = st;

		/*
		 * perf's entry points at the thread's comm, which the thread's
		 * first name renames in place when it was the ":TID"
		 * placeholder: the samples before it show that name
		 */
		if (st->placeholder && st->placeholder == st->thread->comm_epoch + 1 &&
		    st->thread->comm_renamed) {
			renamed = *st;
			renamed.comm = intern(h, st->thread->comm_renamed);
			if (renamed.comm)
				use = &renamed;
		}
		if (add_stack(h, &t, use, seen)) {
			free(seen);
			lupe_phash_free(&t);
			return -ENOMEM;
		}
	}
	free(seen);
	lupe_phash_free(&t);
	/*
	 * The entries in the order they were made, the made list becoming the
	 * list of entries: the collapsed sort below compares inlined
	 * functions by name and others by address (perf's comparison, no
	 * total order), so its result depends on where it starts, and the
	 * table's order changed from run to run with the addresses of the
	 * keys' strings
	 */
	v = h->made;
	h->made = NULL;
	for (size_t i = 0; i < h->nr_made; i++) {
		struct lupe_hist_entry *e = v[i];

		if (!e || (e->filtered && !h->opts.keep_filtered) || (keep && !keep(e, arg)))
			continue;
		if (h->opts.callchain)
			sort_chain(&e->chain);
		v[n++] = e;
	}
	h->nr_made = h->cap_made = 0;
	if (n && output_sort(v, n, &h->opts)) {
		free(v);
		return -ENOMEM;
	}
	h->entries = v;
	h->nr_entries = n;
	return n;
}

struct sort_by {
	int (*cmp)(const void *a, const void *b, void *arg);
	void *arg;
	struct lupe_hist_opts *opts;
};

/*
 * The caller's order, its ties in perf's collapsed order (a total one):
 * perf's -F sort is a fresh insertion of the collapsed entries, so its
 * ties come so (two overloads of one name by address), not in the
 * default view's
 */
static int cmp_then_collapsed(const void *a, const void *b, void *arg)
{
	const struct sort_by *by = arg;
	int c = by->cmp(a, b, by->arg);

	return c ? c : cmp_collapsed(a, b, by->opts);
}

int lupe_hists_sort(struct lupe_hists *h, int (*cmp)(const void *a, const void *b, void *arg),
		    void *arg)
{
	struct sort_by by = { cmp, arg, &h->opts };

	if (h->nr_entries > 1)
		qsort_r(h->entries, (size_t)h->nr_entries, sizeof(*h->entries), cmp_then_collapsed, &by);
	return 0;
}

struct lupe_hist_entry *lupe_hists_entry(struct lupe_hists *h, long idx)
{
	return idx >= 0 && idx < h->nr_entries ? h->entries[idx] : NULL;
}
