/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report --hierarchy's grouping: the finished entries of a histogram
 * folded into a tree with one level per sort key. With the keys
 * comm,dso,sym, the first level holds one node per command, each command
 * one node per shared object it ran in, and each of those the entries
 * (its symbols), the leaves. A node's period is the sum of the self
 * periods of the leaves below it; the children of each node are sorted
 * the way perf sorts a level: by period, largest first, then by the sort
 * keys' values in the keys' order (names ascending, unresolved last).
 *
 *   n = number of entries; v[i] = lupe_hists_entry(h, i);
 *   hier = lupe_hierarchy_new(v, n, view->keys, view->nr_keys);
 *   for (c = lupe_hierarchy_root(hier)->child; c; c = c->next) ...
 *   lupe_hierarchy_delete(hier);
 *
 * Building costs a sort of the entries and one node per entry and level.
 * With report filters (entries whose filtered field is set), the nodes
 * to hide are marked (lupe_hierarchy_new_opts()).
 * Thread-safety: a hierarchy is read by one thread at a time; it points
 * into its histogram's entries, which must outlive it (no new
 * lupe_hists_finish() in between).
 */
#ifndef LUPE_HIERARCHY_H
#define LUPE_HIERARCHY_H

#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>
#include <lupe/hist.h>

struct lupe_hier_node {
	/*
	 * A leaf: its entry. Above: the leaf below it that perf builds the
	 * group from (the first by the keys' values, perf's collapse
	 * order), whose values of the keys 0..depth are the node's (a
	 * printer shows key `depth` of it); perf breaks ties of a level by
	 * its deeper keys.
	 */
	const struct lupe_hist_entry *entry;
	int depth;                 /* the index of the key it groups by; -1: the root */
	int leaf;                  /* an entry: no children */
	uint64_t period;           /* the self periods of the leaves below (of the entry for a leaf) */
	uint64_t nr_samples;       /* their samples */
	/*
	 * The LUPE_FILTER_* bits that hide it (lupe_hierarchy_opts.filters):
	 * a printer shows the nodes without any, and still looks below
	 * those it hides, as perf does.
	 */
	unsigned filtered;
	struct lupe_hier_node *parent;       /* the root for the first level; NULL: the root */
	struct lupe_hier_node *child, *next; /* the children, in perf's order */
};

struct lupe_hierarchy;

/*
 * The tree of entries[0..nr) (a finished histogram's, e.g. each
 * lupe_hists_entry()) grouped by keys[0..nr_keys) (1 to 8; the keys the
 * histogram was made with). The entries' self periods are summed. Returns
 * NULL + errno (EINVAL: no key or too many, ENOMEM). The array may be
 * freed after the call; the entries must stay.
 */
LUPE_API struct lupe_hierarchy *lupe_hierarchy_new(struct lupe_hist_entry *const *entries, long nr,
						   const enum lupe_sort_key *keys, int nr_keys);
struct lupe_hierarchy_opts {
	size_t sz;          /* sizeof(struct lupe_hierarchy_opts) */
	int long_dso_names; /* DSOs group and sort by their paths, as perf's -v (else by short name) */
	/*
	 * The report filters given (LUPE_FILTER_* bits; the entries'
	 * filtered fields say which left each out): mark the nodes perf
	 * hides (lupe_hier_node.filtered). Periods stay the sums of every
	 * leaf below, filtered or not, as perf's: a level above the
	 * filter's key shows the entries it left out too. A node at a level
	 * of the filter's key (comm, pid or tid for the thread filters,
	 * dso, sym) is hidden when its entry was filtered out; above it a
	 * node shows when a node below it at that level does; below it a
	 * node is hidden with its parent. Without a level of the filter's
	 * key every node is hidden (perf prints no entry).
	 */
	unsigned filters;
};

/* lupe_hierarchy_new() with options (NULL: none, as lupe_hierarchy_new()). */
LUPE_API struct lupe_hierarchy *lupe_hierarchy_new_opts(struct lupe_hist_entry *const *entries, long nr,
							const enum lupe_sort_key *keys, int nr_keys,
							const struct lupe_hierarchy_opts *opts);
/* NULL is ok. */
LUPE_API void lupe_hierarchy_delete(struct lupe_hierarchy *hier);
/* The root (depth -1, all the entries below it); its children are the first level. */
LUPE_API const struct lupe_hier_node *lupe_hierarchy_root(const struct lupe_hierarchy *hier);

#endif
