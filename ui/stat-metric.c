// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's shadow metrics: which counter gets which derived value, in
 * which format. A miss ratio needs its base counter (branches for
 * branch-misses); without it perf leaves the column empty. Any other
 * counter shows a rate per second of task-clock when there is one.
 */
#include <stdio.h>
#include "stat-metric.h"

#define CACHE(id, op, res) \
	((PERF_COUNT_HW_CACHE_##id) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

static const struct {
	uint64_t config;
	enum stat_kind kind;
} cache_kinds[] = {
	{ CACHE(L1D, READ, ACCESS), STAT_K_L1D_LOADS },
	{ CACHE(L1D, READ, MISS), STAT_K_L1D_MISSES },
	{ CACHE(L1I, READ, ACCESS), STAT_K_L1I_LOADS },
	{ CACHE(L1I, READ, MISS), STAT_K_L1I_MISSES },
	{ CACHE(DTLB, READ, ACCESS), STAT_K_DTLB_LOADS },
	{ CACHE(DTLB, READ, MISS), STAT_K_DTLB_MISSES },
	{ CACHE(ITLB, READ, ACCESS), STAT_K_ITLB_LOADS },
	{ CACHE(ITLB, READ, MISS), STAT_K_ITLB_MISSES },
	{ CACHE(LL, READ, ACCESS), STAT_K_LL_LOADS },
	{ CACHE(LL, READ, MISS), STAT_K_LL_MISSES },
};

enum stat_kind stat_kind_of(const struct perf_event_attr *attr, enum lupe_tool_event tool)
{
	if (tool)
		return STAT_K_OTHER;
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		if (attr->config == PERF_COUNT_SW_TASK_CLOCK || attr->config == PERF_COUNT_SW_CPU_CLOCK)
			return STAT_K_CLOCK;
		break;
	case PERF_TYPE_HARDWARE:
		switch (attr->config) {
		case PERF_COUNT_HW_CPU_CYCLES: return STAT_K_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return STAT_K_INSTRUCTIONS;
		case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return STAT_K_BRANCHES;
		case PERF_COUNT_HW_BRANCH_MISSES: return STAT_K_BRANCH_MISSES;
		case PERF_COUNT_HW_CACHE_REFERENCES: return STAT_K_CACHE_REFS;
		case PERF_COUNT_HW_CACHE_MISSES: return STAT_K_CACHE_MISSES;
		}
		break;
	case PERF_TYPE_HW_CACHE:
		for (size_t i = 0; i < sizeof(cache_kinds) / sizeof(cache_kinds[0]); i++)
			if (cache_kinds[i].config == attr->config)
				return cache_kinds[i].kind;
		break;
	}
	return STAT_K_OTHER;
}

const char *stat_unit_of(const struct perf_event_attr *attr, enum lupe_tool_event tool,
			 double *scale)
{
	*scale = 1.0;
	if (tool)
		return "ns";
	if (stat_kind_of(attr, tool) == STAT_K_CLOCK) {
		*scale = 1e-6;
		return "msec";
	}
	/* NEEDSWORK: sysfs PMU events may carry .unit/.scale files (power/energy-pkg/) */
	return "";
}

void stat_shadow_update(struct stat_shadow *sh, enum stat_kind k, double count)
{
	sh->val[k] += count;
	sh->have[k] = 1;
}

static void set(struct stat_metric *m, const char *fmt, double val, const char *unit)
{
	m->fmt = fmt;
	m->val = val;
	m->unit = unit;
}

/* A miss ratio in percent of its base counter, or an empty column without one. */
static void ratio(struct stat_metric *m, const struct stat_shadow *sh, enum stat_kind base,
		  double uval, const char *fmt, const char *unit)
{
	if (!sh->have[base]) {
		set(m, NULL, 0, unit);
		return;
	}
	set(m, fmt, sh->val[base] ? 100.0 * uval / sh->val[base] : 0, unit);
}

/* Rates per second get K, M, G prefixes, perf's way: divide while above 1000. */
static double unit_prefix(double v, char *prefix)
{
	static const char prefixes[] = "KMG";

	*prefix = ' ';
	for (int i = 0; i < 3 && v > 1000.0; i++) {
		v /= 1000.0;
		*prefix = prefixes[i];
	}
	return v;
}

/* Miss counters and the base each is a percentage of. */
static const struct {
	enum stat_kind miss, base;
	const char *fmt, *unit;
} ratios[] = {
	{ STAT_K_BRANCH_MISSES, STAT_K_BRANCHES, "%7.2f%%", "of all branches" },
	{ STAT_K_L1D_MISSES, STAT_K_L1D_LOADS, "%7.2f%%", "of all L1-dcache accesses" },
	{ STAT_K_L1I_MISSES, STAT_K_L1I_LOADS, "%7.2f%%", "of all L1-icache accesses" },
	{ STAT_K_DTLB_MISSES, STAT_K_DTLB_LOADS, "%7.2f%%", "of all dTLB cache accesses" },
	{ STAT_K_ITLB_MISSES, STAT_K_ITLB_LOADS, "%7.2f%%", "of all iTLB cache accesses" },
	{ STAT_K_LL_MISSES, STAT_K_LL_LOADS, "%7.2f%%", "of all LL-cache accesses" },
	{ STAT_K_CACHE_MISSES, STAT_K_CACHE_REFS, "%8.3f %%", "of all cache refs" },
};

void stat_metric_for(enum stat_kind k, double uval, double scale, const struct stat_shadow *sh,
		     double walltime_ns, struct stat_metric *m, char *unitbuf)
{
	double ns = sh->val[STAT_K_CLOCK];

	set(m, NULL, 0, NULL);
	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		if (ratios[i].miss == k) {
			ratio(m, sh, ratios[i].base, uval, ratios[i].fmt, ratios[i].unit);
			return;
		}
	}
	switch (k) {
	case STAT_K_INSTRUCTIONS:
		if (sh->have[STAT_K_CYCLES] && sh->val[STAT_K_CYCLES])
			set(m, "%7.2f ", uval / sh->val[STAT_K_CYCLES], "insn per cycle");
		else
			set(m, NULL, 0, "insn per cycle");
		return;
	case STAT_K_CYCLES:
		if (sh->have[STAT_K_CLOCK] && ns)
			set(m, "%8.3f", uval / ns, "GHz");
		else
			set(m, NULL, 0, "Ghz"); /* sic: perf's spelling on this path */
		return;
	case STAT_K_CLOCK:
		if (walltime_ns)
			set(m, "%8.3f", uval / (walltime_ns * scale), "CPUs utilized");
		else
			set(m, NULL, 0, "CPUs utilized");
		return;
	default:
		break;
	}
	if (sh->have[STAT_K_CLOCK]) {
		char prefix;
		double rate = ns ? unit_prefix(1e9 * uval / ns, &prefix) : (prefix = ' ', 0);

		if (prefix != ' ')
			snprintf(unitbuf, 16, "%c/sec", prefix);
		else
			snprintf(unitbuf, 16, "/sec");
		set(m, "%8.3f", rate, unitbuf);
	}
}
