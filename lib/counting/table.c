// SPDX-License-Identifier: GPL-2.0
/*
 * The counts of a whole evlist at one read, per event and aggregate: what
 * stat's report scales and averages (lupe_counts_runs in counts.c). Taken
 * after each read, so the table is kept and only resized when the list or
 * the aggregation changes.
 */
#include <errno.h>
#include <stdlib.h>
#include <lupe/evlist.h>

int lupe_evlist_counts_table(struct lupe_evlist *evlist, enum lupe_aggr mode,
			     const int *merge_into, struct lupe_counts_table *t)
{
	int nevsel = lupe_evlist_nr(evlist), naggr = lupe_evlist_aggr_nr(evlist, mode);

	if (!t->c || t->nevsel != nevsel || t->naggr != naggr) {
		free(t->c);
		t->c = calloc((size_t)nevsel * naggr + 1, sizeof(*t->c));
		if (!t->c)
			return -ENOMEM;
		t->nevsel = nevsel;
		t->naggr = naggr;
	}
	for (int e = 0; e < nevsel; e++)
		for (int a = 0; a < naggr; a++)
			t->c[e * naggr + a] = lupe_evsel_aggr_counts(lupe_evlist_evsel(evlist, e), mode, a);
	for (int e = 0; merge_into && e < nevsel; e++) {
		if (merge_into[e] == e)
			continue;
		for (int a = 0; a < naggr; a++) {
			lupe_counts_add(&t->c[merge_into[e] * naggr + a], &t->c[e * naggr + a]);
			t->c[e * naggr + a] = (struct lupe_counts){ 0, 0, 0 };
		}
	}
	return 0;
}

void lupe_counts_table_clear(struct lupe_counts_table *t)
{
	free(t->c);
	t->c = NULL;
}
