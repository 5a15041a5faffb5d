/* SPDX-License-Identifier: GPL-2.0 */
/* Private helpers of the measure/counter/sampler/reader API. */
#ifndef LUPE_API_API_H
#define LUPE_API_API_H

#include <lupe/measure.h>

/* One value from raw counts: scaled, with its status. */
void lupe_value_set(struct lupe_value *v, const char *name, const struct lupe_counts *c,
		    int supported);

/*
 * The values last read from evlist (summed over its CPUs and threads) into
 * vals[0..max). Returns how many, or -ENOSPC/-E2BIG when max is too small.
 */
int lupe_values_from_evlist(struct lupe_evlist *evlist, struct lupe_value *vals, int max);

#endif
