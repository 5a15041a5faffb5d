// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --hierarchy's tree (see lupe/hierarchy.h), made from the
 * entries the histogram already has rather than from the samples: an entry
 * is one distinct value of all the sort keys, so a level's node is a run
 * of entries that agree on the keys down to that level. The entries are
 * sorted once by the keys (a total order whose equal runs are perf's
 * groups: DSOs by short name, symbols by address range, as the histogram
 * tells entries apart), the runs become nodes, and each node's children
 * are sorted as perf sorts a level. One sort of n entries, then sorts of
 * each level's children: O(n log n) for n entries, n * keys nodes.
 * Report filters: the entries they left out are given too (their periods
 * count in every level above), and each node is marked as perf marks its
 * level's entry when it makes one (mark_filtered()).
 */
#include <stdlib.h>
#include <string.h>
#include <lupe/hierarchy.h>
#include <lupe/symbols.h>
#include "util/util.h"

struct lupe_hierarchy {
	enum lupe_sort_key keys[8];
	int nr_keys;
	int long_dso_names;
	struct lupe_hier_node root;
	struct lupe_hier_node *nodes; /* every node, in the order the runs were found */
	long nr_nodes;
};

/* An entry and where it was given (the last tie-break, to be stable). */
struct slot {
	const struct lupe_hist_entry *e;
	long idx;
};

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_int(long long a, long long b)
{
	return a < b ? -1 : a > b;
}

static const char *dso_of(const struct lupe_hierarchy *h, const struct lupe_hist_entry *e)
{
	return h->long_dso_names ? lupe_dso_long_name(e->dso) : lupe_dso_short_name(e->dso);
}

/* Entries without a DSO after those with one, then by name (perf's -v: the path). */
static int cmp_dso(const struct lupe_hierarchy *h, const struct lupe_hist_entry *a,
		   const struct lupe_hist_entry *b)
{
	if (!a->dso || !b->dso)
		return cmp_int(!a->dso, !b->dso);
	return strcmp(dso_of(h, a), dso_of(h, b));
}

/*
 * Whether two entries fall in one group at key k, and if not, which
 * first: perf's collapse order, whose first entry of a group is the one
 * perf makes the group from. A symbol is told by its DSO first, then by
 * its address range (an inlined one by its name, descending, and overlap),
 * an unresolved one by its address; unresolved and no-DSO entries last.
 * (perf compares two unresolved entries by address alone, whatever their
 * DSOs: not a total order, which sorting into runs needs.)
 */
static int group_cmp(const struct lupe_hierarchy *h, const struct lupe_hist_entry *a,
		     const struct lupe_hist_entry *b, enum lupe_sort_key k)
{
	int c;

	switch (k) {
	case LUPE_SORT_COMM: return cmp_str(a->comm, b->comm);
	case LUPE_SORT_PID:
	case LUPE_SORT_TID: return cmp_int(a->tid, b->tid);
	case LUPE_SORT_CPU: return cmp_int(a->cpu, b->cpu);
	case LUPE_SORT_TRACE: return cmp_str(a->trace, b->trace);
	case LUPE_SORT_SRCLINE: return cmp_str(a->srcline, b->srcline);
	case LUPE_SORT_CGROUP: return cmp_int(b->cgroup, a->cgroup);
	case LUPE_SORT_DSO: return cmp_dso(h, a, b);
	case LUPE_SORT_SYM:
		if ((c = cmp_dso(h, a, b)))
			return c;
		if (!a->sym || !b->sym)
			return a->sym || b->sym ? cmp_int(!a->sym, !b->sym) :
			       cmp_int((long long)a->addr, (long long)b->addr);
		if (a->sym == b->sym)
			return 0;
		if (lupe_symbol_inlined(a->sym) || lupe_symbol_inlined(b->sym)) {
			if ((c = cmp_str(b->sym->name, a->sym->name)))
				return c;
			if (a->sym->start <= b->sym->end && a->sym->end >= b->sym->start)
				return 0;
		}
		if ((c = cmp_int((long long)a->sym->start, (long long)b->sym->start)))
			return c;
		return cmp_int((long long)a->sym->end, (long long)b->sym->end);
	}
	return 0;
}

/*
 * The order of a level at key k, as perf's output sort compares two
 * entries by it: names ascending, numbers ascending, an entry without a
 * DSO or symbol after those with one.
 */
static int out_cmp(const struct lupe_hierarchy *h, const struct lupe_hist_entry *a,
		   const struct lupe_hist_entry *b, enum lupe_sort_key k)
{
	switch (k) {
	case LUPE_SORT_SYM:
		if (!a->sym || !b->sym)
			return cmp_int(!a->sym, !b->sym);
		return cmp_str(a->sym->name, b->sym->name);
	default:
		return group_cmp(h, a, b, k);
	}
}

static int cmp_slots(const void *pa, const void *pb, void *arg)
{
	const struct slot *a = pa, *b = pb;
	const struct lupe_hierarchy *h = arg;
	int c;

	for (int k = 0; k < h->nr_keys; k++)
		if ((c = group_cmp(h, a->e, b->e, h->keys[k])))
			return c;
	return cmp_int(a->idx, b->idx);
}

static int cmp_nodes(const void *pa, const void *pb, void *arg)
{
	const struct lupe_hier_node *a = *(const struct lupe_hier_node *const *)pa;
	const struct lupe_hier_node *b = *(const struct lupe_hier_node *const *)pb;
	const struct lupe_hierarchy *h = arg;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	/* perf compares every key, the deeper ones of the nodes' first entries */
	for (int k = 0; k < h->nr_keys; k++)
		if ((c = out_cmp(h, a->entry, b->entry, h->keys[k])))
			return c;
	/* equal to perf: in its order of the groups, unresolved symbols by address */
	if (h->keys[a->depth] == LUPE_SORT_SYM && !a->entry->sym && !b->entry->sym &&
	    a->entry->addr != b->entry->addr)
		return a->entry->addr < b->entry->addr ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The nodes of slots[lo, hi) at depth, under parent. */
static void build(struct lupe_hierarchy *h, const struct slot *slots, long lo, long hi, int depth,
		  struct lupe_hier_node *parent)
{
	struct lupe_hier_node **tail = &parent->child;
	int leaf = depth == h->nr_keys - 1;

	for (long i = lo, j; i < hi; i = j) {
		struct lupe_hier_node *n = &h->nodes[h->nr_nodes++];
		for (j = i + 1; !leaf && j < hi && !group_cmp(h, slots[i].e, slots[j].e, h->keys[depth]); j++)
			;
		*n = (struct lupe_hier_node){ .entry = slots[i].e, .depth = depth, .leaf = leaf,
					      .parent = parent };
		if (leaf) {
			n->period = n->entry->self;
			n->nr_samples = n->entry->nr_samples;
		} else {
			build(h, slots, i, j, depth + 1, n);
		}
		parent->period += n->period;
		parent->nr_samples += n->nr_samples;
		*tail = n;
		tail = &n->next;
	}
}

/* Each node's children in perf's order; scratch holds as many pointers as there are entries. */
static void sort_children(const struct lupe_hierarchy *h, struct lupe_hier_node *parent,
			  struct lupe_hier_node **scratch)
{
	struct lupe_hier_node *c, **tail = &parent->child;
	long m = 0;

	for (c = parent->child; c; c = c->next)
		scratch[m++] = c;
	qsort_r(scratch, (size_t)m, sizeof(*scratch), cmp_nodes, (void *)h);
	for (long i = 0; i < m; i++) {
		*tail = scratch[i];
		tail = &scratch[i]->next;
	}
	*tail = NULL;
	for (c = parent->child; c; c = c->next)
		if (!c->leaf)
			sort_children(h, c, scratch);
}

/* Whether level key k shows what filter f looks at (perf's fmt check of a filter type). */
static int key_of_filter(enum lupe_sort_key k, unsigned f)
{
	switch (f) {
	case LUPE_FILTER_THREAD: return k == LUPE_SORT_COMM || k == LUPE_SORT_PID || k == LUPE_SORT_TID;
	case LUPE_FILTER_DSO: return k == LUPE_SORT_DSO;
	case LUPE_FILTER_SYMBOL: return k == LUPE_SORT_SYM;
	}
	return 0;
}

/*
 * perf marks a level's entry when it makes it, in the order it inserts
 * the entries (the nodes' array order: each node after its parent, as
 * build() made them): one of the filter's key takes its entry's mark and
 * clears it from every node above; one of another key takes the mark of
 * its parent, and the first level is marked. O(nodes * keys).
 */
static void mark_filtered(struct lupe_hierarchy *hier, unsigned filters)
{
	for (long i = 0; i < hier->nr_nodes; i++) {
		struct lupe_hier_node *n = &hier->nodes[i];

		n->filtered = (unsigned)n->entry->filtered & filters;
		for (unsigned f = 1; f <= filters; f <<= 1) {
			if (!(filters & f))
				continue;
			if (!key_of_filter(hier->keys[n->depth], f))
				n->filtered |= n->depth ? n->parent->filtered & f : f;
			else if (!(n->filtered & f))
				for (struct lupe_hier_node *p = n->parent; p && p->depth >= 0; p = p->parent)
					p->filtered &= ~f;
		}
	}
}

struct lupe_hierarchy *lupe_hierarchy_new(struct lupe_hist_entry *const *entries, long nr,
					  const enum lupe_sort_key *keys, int nr_keys)
{
	return lupe_hierarchy_new_opts(entries, nr, keys, nr_keys, NULL);
}

struct lupe_hierarchy *lupe_hierarchy_new_opts(struct lupe_hist_entry *const *entries, long nr,
					       const enum lupe_sort_key *keys, int nr_keys,
					       const struct lupe_hierarchy_opts *opts)
{
	struct lupe_hierarchy_opts o;
	struct lupe_hierarchy *h;
	struct slot *slots;
	struct lupe_hier_node **scratch;

	if (nr_keys < 1 || nr_keys > (int)ARRAY_SIZE(h->keys) || nr < 0 || (nr && !entries) ||
	    lupe_opts_load(&o, opts))
		return err_ptr(-EINVAL);
	h = calloc(1, sizeof(*h));
	if (!h)
		return err_ptr(-ENOMEM);
	memcpy(h->keys, keys, (size_t)nr_keys * sizeof(*keys));
	h->nr_keys = nr_keys;
	h->long_dso_names = o.long_dso_names;
	h->root.depth = -1;
	h->nodes = malloc(((size_t)nr * (size_t)nr_keys + 1) * sizeof(*h->nodes));
	slots = malloc(((size_t)nr + 1) * sizeof(*slots));
	scratch = malloc(((size_t)nr + 1) * sizeof(*scratch));
	if (!h->nodes || !slots || !scratch) {
		free(slots);
		free(scratch);
		lupe_hierarchy_delete(h);
		return err_ptr(-ENOMEM);
	}
	for (long i = 0; i < nr; i++)
		slots[i] = (struct slot){ entries[i], i };
	qsort_r(slots, (size_t)nr, sizeof(*slots), cmp_slots, h);
	build(h, slots, 0, nr, 0, &h->root);
	sort_children(h, &h->root, scratch);
	if (o.filters)
		mark_filtered(h, o.filters);
	free(slots);
	free(scratch);
	return h;
}

void lupe_hierarchy_delete(struct lupe_hierarchy *hier)
{
	if (!hier)
		return;
	free(hier->nodes);
	free(hier);
}

const struct lupe_hier_node *lupe_hierarchy_root(const struct lupe_hierarchy *hier)
{
	return &hier->root;
}
