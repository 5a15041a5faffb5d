// SPDX-License-Identifier: GPL-2.0
/* Sums, deltas, multiplex scaling and run statistics of counter values. */
#include <math.h>
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
