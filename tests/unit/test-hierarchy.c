// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --hierarchy's grouping (lib/hist/hierarchy.c) on entries
 * made by hand: the levels, their sums, perf's order within a level
 * (period, then names ascending, unresolved last), the same tree
 * whatever order the entries come in, and the nodes perf hides under
 * report filters.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/hierarchy.h>
#include "symbols/symbols.h"
#include "util/util.h"

static struct lupe_dso libx = { .short_name = "libx.so" }, liby = { .short_name = "liby.so" };
static struct lupe_symbol f1 = { 0x100, 0x200, "f1" }, f2 = { 0x200, 0x300, "f2" },
			  g = { 0x100, 0x180, "g" }, f1_other = { 0x400, 0x480, "f1" };

static struct lupe_hist_entry entry(const char *comm, struct lupe_dso *dso,
				    struct lupe_symbol *sym, uint64_t addr, uint64_t self)
{
	return (struct lupe_hist_entry){ .comm = comm, .dso = dso, .sym = sym, .addr = addr,
					 .self = self, .nr_samples = self / 10 };
}

static const enum lupe_sort_key comm_dso_sym[] = { LUPE_SORT_COMM, LUPE_SORT_DSO, LUPE_SORT_SYM };

/* "comm dso sym period" of a node's key at its depth, for the checks. */
static const char *name_of(const struct lupe_hier_node *n, const enum lupe_sort_key *keys)
{
	static char buf[64];
	const struct lupe_hist_entry *e = n->entry;

	switch (keys[n->depth]) {
	case LUPE_SORT_COMM: snprintf(buf, sizeof(buf), "%s", e->comm); break;
	case LUPE_SORT_DSO: snprintf(buf, sizeof(buf), "%s", e->dso->short_name); break;
	case LUPE_SORT_SYM:
		if (e->sym)
			snprintf(buf, sizeof(buf), "%s", e->sym->name);
		else
			snprintf(buf, sizeof(buf), "%#llx", (unsigned long long)e->addr);
		break;
	default: buf[0] = 0;
	}
	return buf;
}

/* The tree as one line: "name:period(children) ...", depth first. */
static void flatten(const struct lupe_hier_node *parent, const enum lupe_sort_key *keys, char *out,
		    size_t size)
{
	for (const struct lupe_hier_node *n = parent->child; n; n = n->next) {
		size_t len = strlen(out);

		/* a node the filters hide: ~name */
		snprintf(out + len, size - len, "%s%s:%llu%s", n->filtered ? "~" : "", name_of(n, keys),
			 (unsigned long long)n->period, n->leaf ? " " : "(");
		if (!n->leaf) {
			flatten(n, keys, out, size);
			len = strlen(out);
			snprintf(out + len, size - len, ") ");
		}
	}
}

/* The tree of v[0..n) by keys, filtered by filters (LUPE_FILTER_* bits; 0: none), is want. */
static void check_filtered(struct lupe_hist_entry *v, long n, const enum lupe_sort_key *keys, int nr_keys,
			   unsigned filters, const char *want, uint64_t total)
{
	struct lupe_hist_entry *ptrs[16];
	LUPE_OPTS(lupe_hierarchy_opts, ho, .filters = filters);
	struct lupe_hierarchy *hier;
	char got[1024] = "";

	assert_true(n <= 16);
	for (long i = 0; i < n; i++)
		ptrs[i] = &v[i];
	hier = filters ? lupe_hierarchy_new_opts(ptrs, n, keys, nr_keys, &ho)
		       : lupe_hierarchy_new(ptrs, n, keys, nr_keys);
	assert_non_null(hier);
	assert_int_equal(lupe_hierarchy_root(hier)->depth, -1);
	assert_int_equal(lupe_hierarchy_root(hier)->period, total);
	flatten(lupe_hierarchy_root(hier), keys, got, sizeof(got));
	assert_string_equal(got, want);
	lupe_hierarchy_delete(hier);
}

static void check_tree(struct lupe_hist_entry *v, long n, const enum lupe_sort_key *keys, int nr_keys,
		       const char *want, uint64_t total)
{
	check_filtered(v, n, keys, nr_keys, 0, want, total);
}

static void test_levels_and_sums(void **state)
{
	struct lupe_hist_entry v[] = {
		entry("b", &libx, &f1, 0, 100), entry("a", &libx, &f1, 0, 50),
		entry("a", &liby, &g, 0, 40), entry("a", &libx, &f2, 0, 30),
		entry("b", &liby, NULL, 0x10, 5),
	};
	const char *want = "a:120(libx.so:80(f1:50 f2:30 ) liby.so:40(g:40 ) ) "
			   "b:105(libx.so:100(f1:100 ) liby.so:5(0x10:5 ) ) ";

	(void)state;
	check_tree(v, ARRAY_SIZE(v), comm_dso_sym, 3, want, 225);
	/* the input order does not matter */
	for (int round = 0; round < 5; round++) {
		for (size_t i = 0; i + 1 < ARRAY_SIZE(v); i++) {
			size_t j = i + (size_t)(round * 7 + 3) % (ARRAY_SIZE(v) - i);
			struct lupe_hist_entry t = v[i];

			v[i] = v[j];
			v[j] = t;
		}
		check_tree(v, ARRAY_SIZE(v), comm_dso_sym, 3, want, 225);
	}
}

/* Equal periods: names ascending, an unresolved symbol after the resolved ones, by address. */
static void test_ties(void **state)
{
	struct lupe_hist_entry v[] = {
		entry("x", &libx, NULL, 0x30, 10), entry("x", &libx, &f2, 0, 10),
		entry("x", &libx, NULL, 0x20, 10), entry("x", &libx, &f1, 0, 10),
		entry("x", &liby, &g, 0, 20), entry("w", &liby, &g, 0, 60),
	};
	static const enum lupe_sort_key sym_only[] = { LUPE_SORT_SYM };

	(void)state;
	check_tree(v, ARRAY_SIZE(v), comm_dso_sym, 3,
		   "w:60(liby.so:60(g:60 ) ) x:60(libx.so:40(f1:10 f2:10 0x20:10 0x30:10 ) liby.so:20(g:20 ) ) ",
		   120);
	/* one level: the same symbol of two commands is one node, leaves are entries */
	check_tree(v, ARRAY_SIZE(v), sym_only, 1, "g:60 g:20 f1:10 f2:10 0x20:10 0x30:10 ", 120);
}

/* A symbol level groups by DSO and address range: two functions named f1 stay two. */
static void test_symbol_groups(void **state)
{
	struct lupe_hist_entry v[] = {
		entry("a", &libx, &f1, 0, 10), entry("b", &libx, &f1, 0, 15),
		entry("a", &libx, &f1_other, 0, 30), entry("a", &liby, &f1, 0, 1),
	};
	static const enum lupe_sort_key sym_comm[] = { LUPE_SORT_SYM, LUPE_SORT_COMM };

	(void)state;
	check_tree(v, ARRAY_SIZE(v), sym_comm, 2, "f1:30(a:30 ) f1:25(b:15 a:10 ) f1:1(a:1 ) ", 56);
}

static struct lupe_hist_entry filtered(struct lupe_hist_entry e, int filters)
{
	e.filtered = filters;
	return e;
}

/*
 * perf's report filters: a level of the filter's key hides what it left
 * out, a level above shows when something below passes (and sums all),
 * a level below goes with its parent; without a level of the key, all
 * is hidden.
 */
static void test_filters(void **state)
{
	struct lupe_hist_entry v[] = {
		entry("a", &libx, &f1, 0, 100), filtered(entry("a", &liby, &g, 0, 40), LUPE_FILTER_DSO),
		filtered(entry("b", &liby, &g, 0, 30), LUPE_FILTER_DSO | LUPE_FILTER_THREAD),
		filtered(entry("b", &libx, &f2, 0, 20), LUPE_FILTER_THREAD),
	};
	/* (the leaves are the entries: those of two commands stay two) */
	static const enum lupe_sort_key sym_dso[] = { LUPE_SORT_SYM, LUPE_SORT_DSO };
	static const enum lupe_sort_key dso_sym[] = { LUPE_SORT_DSO, LUPE_SORT_SYM };

	(void)state;
	check_filtered(v, ARRAY_SIZE(v), comm_dso_sym, 3, LUPE_FILTER_DSO,
		       "a:140(libx.so:100(f1:100 ) ~liby.so:40(~g:40 ) ) b:50(~liby.so:30(~g:30 ) libx.so:20(f2:20 ) ) ", 190);
	check_filtered(v, ARRAY_SIZE(v), sym_dso, 2, LUPE_FILTER_DSO,
		       "f1:100(libx.so:100 ) ~g:70(~liby.so:40 ~liby.so:30 ) f2:20(libx.so:20 ) ", 190);
	check_filtered(v, ARRAY_SIZE(v), comm_dso_sym, 3, LUPE_FILTER_THREAD | LUPE_FILTER_DSO,
		       "a:140(libx.so:100(f1:100 ) ~liby.so:40(~g:40 ) ) ~b:50(~liby.so:30(~g:30 ) ~libx.so:20(~f2:20 ) ) ", 190);
	/* no level of the thread filter's key: nothing shows */
	check_filtered(v, ARRAY_SIZE(v), dso_sym, 2, LUPE_FILTER_THREAD,
		       "~libx.so:120(~f1:100 ~f2:20 ) ~liby.so:70(~g:40 ~g:30 ) ", 190);
}

static void test_errors(void **state)
{
	struct lupe_hist_entry e = entry("a", &libx, &f1, 0, 1), *p = &e;
	struct lupe_hierarchy *hier;
	enum lupe_sort_key nine[9] = { 0 };

	(void)state;
	errno = 0;
	assert_null(lupe_hierarchy_new(&p, 1, comm_dso_sym, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(lupe_hierarchy_new(&p, 1, nine, 9));
	assert_int_equal(errno, EINVAL);
	/* no entries: an empty root */
	hier = lupe_hierarchy_new(NULL, 0, comm_dso_sym, 3);
	assert_non_null(hier);
	assert_null(lupe_hierarchy_root(hier)->child);
	assert_int_equal(lupe_hierarchy_root(hier)->period, 0);
	lupe_hierarchy_delete(hier);
	lupe_hierarchy_delete(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels_and_sums),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_symbol_groups),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
