// SPDX-License-Identifier: GPL-2.0
/*
 * Sums, deltas, multiplex scaling and run statistics of counter values,
 * and stat's accumulation of them per event and aggregate over runs (-r)
 * or within one interval (-I).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/counts.h>

void lupe_counts_add(struct lupe_counts *a, const struct lupe_counts *b)
{
	a->val += b->val;
	a->ena += b->ena;
	a->run += b->run;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

struct lupe_counts lupe_counts_delta(const struct lupe_counts *now,
				     const struct lupe_counts *prev)
{
	struct lupe_counts d = {
		.val = sub0(now->val, prev->val),
		.ena = sub0(now->ena, prev->ena),
		.run = sub0(now->run, prev->run),
	};

	return d;
}

int lupe_counts_scale(struct lupe_counts *c)
{
	if (c->run == 0) {
		c->val = 0;
		return -1;
	}
	if (c->run < c->ena) {
		/* through double, as perf does: the product can overflow 64 bits */
		c->val = (uint64_t)((double)c->val * c->ena / c->run);
		return 1;
	}
	return 0;
}

void lupe_stats_update(struct lupe_stats *s, double val)
{
	double delta;

	s->n++;
	delta = val - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (val - s->mean);
}

double lupe_stats_mean(const struct lupe_stats *s)
{
	return s->mean;
}

double lupe_stats_stddev(const struct lupe_stats *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double lupe_stats_rel_stddev(double stddev, double mean)
{
	return mean ? 100.0 * stddev / mean : 0.0;
}

int lupe_counts_runs_init(struct lupe_counts_runs *r, int nevsel, int naggr)
{
	size_t n = (size_t)nevsel * naggr + 1;

	memset(r, 0, sizeof(*r));
	r->nevsel = nevsel;
	r->naggr = naggr;
	r->val = calloc(n, sizeof(*r->val));
	r->ena = calloc(n, sizeof(*r->ena));
	r->run = calloc(n, sizeof(*r->run));
	if (!r->val || !r->ena || !r->run) {
		lupe_counts_runs_clear(r);
		return -ENOMEM;
	}
	return 0;
}

void lupe_counts_runs_reset(struct lupe_counts_runs *r)
{
	size_t n = (size_t)r->nevsel * r->naggr + 1;

	memset(r->val, 0, n * sizeof(*r->val));
	memset(r->ena, 0, n * sizeof(*r->ena));
	memset(r->run, 0, n * sizeof(*r->run));
	memset(&r->wall, 0, sizeof(r->wall));
}

void lupe_counts_runs_clear(struct lupe_counts_runs *r)
{
	free(r->val);
	free(r->ena);
	free(r->run);
	r->val = r->ena = r->run = NULL;
}

void lupe_counts_runs_add(struct lupe_counts_runs *r, const struct lupe_counts_table *now,
			  const struct lupe_counts_table *prev, double wall_ns)
{
	for (int i = 0; i < r->nevsel * r->naggr; i++) {
		struct lupe_counts c = prev ? lupe_counts_delta(&now->c[i], &prev->c[i]) : now->c[i];

		lupe_counts_scale(&c);
		lupe_stats_update(&r->val[i], c.val);
		lupe_stats_update(&r->ena[i], c.ena);
		lupe_stats_update(&r->run[i], c.run);
	}
	lupe_stats_update(&r->wall, wall_ns);
}

int lupe_counts_runs_counted(const struct lupe_counts_runs *r, int e, int g)
{
	int i = e * r->naggr + g;

	return lupe_stats_mean(&r->run[i]) > 0 && lupe_stats_mean(&r->ena[i]) > 0;
}
