// SPDX-License-Identifier: GPL-2.0
/*
 * stat's report: the lines perf prints for the counts lib/counting summed
 * per aggregate, scaled by enabled/running time and averaged over runs
 * (lupe_counts_runs), events in list order and aggregates (CPUs, threads)
 * within each event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "stat-display.h"
#include "stat-metric.h"

int stat_unit_width(struct lupe_evlist *evlist)
{
	int width = 4;

	for (int e = 0; e < lupe_evlist_nr(evlist); e++) {
		struct lupe_evsel *evsel = lupe_evlist_evsel(evlist, e);
		double scale;
		int n = strlen(stat_unit_of(lupe_evsel_attr(evsel), lupe_evsel_tool(evsel), &scale));

		if (n > width)
			width = n;
	}
	return width;
}

/* The counts of aggregate aggr that other counters' metrics refer to. */
static void build_shadow(const struct stat_display *d, int aggr, struct stat_shadow *sh)
{
	const struct lupe_counts_runs *a = d->accum;

	memset(sh, 0, sizeof(*sh));
	for (int e = 0; e < a->nevsel; e++) {
		struct lupe_evsel *evsel = lupe_evlist_evsel(d->evlist, e);
		int i = e * a->naggr + aggr;

		if (!lupe_evsel_supported(evsel) || !lupe_counts_runs_counted(a, e, aggr))
			continue;
		stat_shadow_update(sh, stat_kind_of(lupe_evsel_attr(evsel), lupe_evsel_tool(evsel)),
				   lupe_stats_mean(&a->val[i]));
	}
	if (d->clock_means && sh->have[STAT_K_CLOCK]) {
		lupe_stats_update(&d->clock_means[aggr], sh->val[STAT_K_CLOCK]);
		sh->val[STAT_K_CLOCK] = lupe_stats_mean(&d->clock_means[aggr]);
	}
}

static const struct lupe_counts_runs *sort_accum;
static int sort_evsel;

/* --per-thread: busiest thread first, as perf sorts them */
static int by_value_desc(const void *pa, const void *pb)
{
	int x = *(const int *)pa, y = *(const int *)pb;
	double vx = lupe_stats_mean(&sort_accum->val[sort_evsel * sort_accum->naggr + x]);
	double vy = lupe_stats_mean(&sort_accum->val[sort_evsel * sort_accum->naggr + y]);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	return x - y;
}

static void print_one(const struct stat_display *d, int e, int aggr,
		      const struct stat_shadow *sh)
{
	const struct lupe_counts_runs *a = d->accum;
	struct lupe_evsel *evsel = lupe_evlist_evsel(d->evlist, e);
	const struct perf_event_attr *attr = lupe_evsel_attr(evsel);
	enum lupe_tool_event tool = lupe_evsel_tool(evsel);
	struct lupe_thread_map *threads = lupe_evlist_threads(d->evlist);
	struct lupe_cpu_map *cpus = lupe_evlist_cpus(d->evlist);
	int i = e * a->naggr + aggr;
	double scale, mean = lupe_stats_mean(&a->val[i]);
	char unitbuf[16];
	struct stat_row row = {
		.prefix = d->prefix,
		.name = d->names && d->names[e] ? d->names[e] : lupe_evsel_name(evsel),
		.cgroup = lupe_evsel_cgroup(evsel),
		.supported = lupe_evsel_supported(evsel),
		.run = (uint64_t)lupe_stats_mean(&a->run[i]),
		.ena = (uint64_t)lupe_stats_mean(&a->ena[i]),
	};

	row.unit = stat_unit_of(attr, tool, &scale);
	row.fractional = scale != (double)(long long)scale;
	row.counted = row.supported && lupe_counts_runs_counted(a, e, aggr);
	row.value = mean * scale;
	row.noise = lupe_stats_rel_stddev(lupe_stats_stddev(&a->val[i]), mean);
	if (d->mode == LUPE_AGGR_CPU && cpus)
		row.cpu = lupe_cpu_map_cpu(cpus, aggr);
	if (d->mode == LUPE_AGGR_THREAD && threads) {
		row.pid = lupe_thread_map_pid(threads, aggr);
		row.comm = d->comms && d->comms[aggr] ? d->comms[aggr] : "";
	}
	if (d->mode >= LUPE_AGGR_CORE) {
		struct lupe_aggr_id id;

		if (!lupe_evlist_aggr_id(d->evlist, d->mode, aggr, &id)) {
			row.socket = id.socket;
			row.die = id.die;
			row.core = id.core;
			row.node = id.node;
			/* perf stops at the first CPU without a count: it says 1 */
			row.aggr_nr = row.counted ? id.nr : 1;
		}
	}
	if (d->skip_zero && row.value == 0)
		return;
	if (row.counted)
		stat_metric_for(stat_kind_of(attr, tool), row.value, scale, sh, d->walltime_ns,
				&row.metric, unitbuf);
	stat_print_row(d->print, &row);
}

static int merged(const struct stat_display *d, int e)
{
	return d->merge_into && d->merge_into[e] != e;
}

void stat_display_counters(const struct stat_display *d)
{
	const struct lupe_counts_runs *a = d->accum;
	struct stat_shadow *shadows = calloc(a->naggr, sizeof(*shadows));
	int *order = calloc(a->naggr, sizeof(*order));

	if (!shadows || !order)
		goto out;
	for (int g = 0; g < a->naggr; g++)
		build_shadow(d, g, &shadows[g]);
	/* by core, socket, die, node: each aggregate's events together, as perf prints them */
	if (d->mode >= LUPE_AGGR_CORE) {
		for (int g = 0; g < a->naggr; g++)
			for (int e = 0; e < a->nevsel; e++)
				if (!merged(d, e) && !(g && lupe_evsel_tool(lupe_evlist_evsel(d->evlist, e))))
					print_one(d, e, g, &shadows[g]);
		goto out;
	}
	for (int e = 0; e < a->nevsel; e++) {
		int n = a->naggr;

		if (merged(d, e))
			continue;
		/* a tool event has one value, not one per CPU or thread */
		if (lupe_evsel_tool(lupe_evlist_evsel(d->evlist, e)))
			n = 1;
		for (int g = 0; g < n; g++)
			order[g] = g;
		if (d->mode == LUPE_AGGR_THREAD) {
			sort_accum = a;
			sort_evsel = e;
			qsort(order, n, sizeof(*order), by_value_desc);
		}
		for (int g = 0; g < n; g++)
			print_one(d, e, order[g], &shadows[order[g]]);
	}
out:
	free(shadows);
	free(order);
}

/* --metric-only leaves out what does not make a column: rates and CPUs utilized (perf's valid_only_metric) */
static int column_unit(const char *unit)
{
	return unit && !strstr(unit, "/sec") && !strstr(unit, "CPUs utilized");
}

#define METRIC_ONLY_LEN 20

/*
 * The metric of event e in aggregate g, with its unit as the column says it
 * ("branch-misses of all branches"); all_units: rates and CPUs utilized too.
 */
static int metric_of(const struct stat_display *d, int e, int g, const struct stat_shadow *sh,
		     struct stat_metric *m, char *unitbuf, char *colbuf, size_t colsize, int all_units)
{
	const struct lupe_counts_runs *a = d->accum;
	struct lupe_evsel *evsel = lupe_evlist_evsel(d->evlist, e);
	const struct perf_event_attr *attr = lupe_evsel_attr(evsel);
	enum lupe_tool_event tool = lupe_evsel_tool(evsel);
	int i = e * a->naggr + g;
	double scale;

	stat_unit_of(attr, tool, &scale);
	memset(m, 0, sizeof(*m));
	if (!lupe_evsel_supported(evsel) || !lupe_counts_runs_counted(a, e, g))
		return 0; /* an empty column, as perf leaves for a counter without a count */
	stat_metric_for(stat_kind_of(attr, tool), lupe_stats_mean(&a->val[i]) * scale, scale, sh,
			d->walltime_ns, m, unitbuf);
	if (!m->unit || (!all_units && !column_unit(m->unit)))
		return -1;
	if (!strncmp(m->unit, "of all", 6)) {
		snprintf(colbuf, colsize, "%s %s", lupe_evsel_name(evsel), m->unit);
		m->unit = colbuf;
	}
	return 1;
}

/*
 * The metric a counter without a count would show, from its aggregate's
 * other counters: perf's -A header names it ("GHz" beside a clock, "Ghz"
 * without one).
 */
static int unavailable_metric(const struct stat_display *d, int e, const struct stat_shadow *sh,
			      struct stat_metric *m, char *unitbuf, char *colbuf, size_t colsize, int all_units)
{
	struct lupe_evsel *evsel = lupe_evlist_evsel(d->evlist, e);
	double scale;

	stat_unit_of(lupe_evsel_attr(evsel), lupe_evsel_tool(evsel), &scale);
	stat_metric_for(stat_kind_of(lupe_evsel_attr(evsel), lupe_evsel_tool(evsel)), 0, scale, sh,
			d->walltime_ns, m, unitbuf);
	if (!m->unit || (!all_units && !column_unit(m->unit)))
		return 0;
	if (!strncmp(m->unit, "of all", 6)) {
		snprintf(colbuf, colsize, "%s %s", lupe_evsel_name(evsel), m->unit);
		m->unit = colbuf;
	}
	return 1;
}

static void metric_cell(const struct stat_display *d, const struct stat_metric *m, int header)
{
	struct stat_print *p = d->print;
	char val[64] = "";
	int len = METRIC_ONLY_LEN;

	if (m->unit && (int)strlen(m->unit) > len)
		len = strlen(m->unit) + 1;
	if (header) {
		if (p->format == STAT_JSON)
			fprintf(p->out, "\"unit\" : \"%s\"", m->unit ? m->unit : "");
		else if (p->format == STAT_CSV)
			fprintf(p->out, "%s%s", m->unit ? m->unit : "", p->sep);
		else
			fprintf(p->out, "%*s ", len, m->unit ? m->unit : "");
		return;
	}
	if (m->fmt)
		snprintf(val, sizeof(val), m->fmt, m->val);
	if (p->format == STAT_STD) {
		fprintf(p->out, "%*s ", len, val);
		return;
	}
	/* CSV and JSON want the number alone */
	{
		char *s = val, *e;

		while (*s == ' ')
			s++;
		for (e = s; (*e >= '0' && *e <= '9') || *e == '.'; e++)
			;
		*e = 0;
		if (p->format == STAT_CSV)
			fprintf(p->out, "%s%s", s, p->sep);
		else
			fprintf(p->out, "{\"metric-value\" : \"%s\"}", s);
	}
}

void stat_display_metric_only(const struct stat_display *d, int header)
{
	/* -I in JSON: the interval is an object of its own before the metrics */
	char json_prefix[64];
	const char *prefix = d->prefix;
	const struct lupe_counts_runs *a = d->accum;
	struct stat_print *p = d->print;
	struct stat_shadow *shadows = calloc(a->naggr, sizeof(*shadows));
	/* perf indents the header by the width of the aggregate column */
	static const int indent[] = {
		[LUPE_AGGR_GLOBAL] = 0, [LUPE_AGGR_CPU] = 6, [LUPE_AGGR_THREAD] = 24,
		[LUPE_AGGR_CORE] = 24, [LUPE_AGGR_SOCKET] = 12, [LUPE_AGGR_DIE] = 18,
		[LUPE_AGGR_NODE] = 6,
	};

	if (!shadows)
		return;
	for (int g = 0; g < a->naggr; g++)
		build_shadow(d, g, &shadows[g]);
	if (header) {
		/* -I: after perf's "#           time", a space, then the units */
		static const char *const csv_head[] = {
			[LUPE_AGGR_GLOBAL] = "", [LUPE_AGGR_CPU] = "cpu,", [LUPE_AGGR_THREAD] = "comm-pid,",
			[LUPE_AGGR_CORE] = "core,cpus,", [LUPE_AGGR_SOCKET] = "socket,cpus",
			[LUPE_AGGR_DIE] = "die,cpus", [LUPE_AGGR_NODE] = "node,",
		};

		/* -I: perf's interval header names the aggregate's columns too */
		static const char *const time_head[] = {
			[LUPE_AGGR_GLOBAL] = "", [LUPE_AGGR_CPU] = " CPU    ",
			[LUPE_AGGR_THREAD] = "             comm-pid", [LUPE_AGGR_CORE] = " core            cpus",
			[LUPE_AGGR_SOCKET] = " socket cpus", [LUPE_AGGR_DIE] = " die          cpus",
			[LUPE_AGGR_NODE] = " node   cpus",
		};
		/* perf's JSON -A header names every metric, rates and CPUs utilized too */
		int json_cpu = p->format == STAT_JSON && d->mode == LUPE_AGGR_CPU;

		if (p->format == STAT_JSON)
			fputc('{', p->out);
		if (d->prefix && p->format == STAT_STD)
			fprintf(p->out, "#           time%s ", time_head[d->mode]);
		else if (d->prefix && p->format == STAT_CSV)
			fputs(" time,", p->out);
		else if (p->format != STAT_CSV && !d->prefix)
			fprintf(p->out, "%*s", indent[d->mode], "");
		if (p->format == STAT_CSV)
			fputs(csv_head[d->mode], p->out);
		for (int e = 0, first = 1; e < a->nevsel; e++) {
			struct stat_metric m;
			char unitbuf[16], col[256];

			int got = merged(d, e) ? -1 : metric_of(d, e, 0, &shadows[0], &m, unitbuf, col, sizeof(col),
								  json_cpu);

			/* perf's -A header names the metric of a counter without a count too */
			if (!got && d->mode == LUPE_AGGR_CPU)
				got = unavailable_metric(d, e, &shadows[0], &m, unitbuf, col, sizeof(col), json_cpu);
			if (got <= 0)
				continue;
			/* perf names the columns from a zero count: a rate is "/sec", unscaled */
			if (json_cpu && strstr(m.unit, "/sec"))
				m.unit = "/sec";
			if (p->format == STAT_JSON && !first)
				fputs(", ", p->out);
			first = 0;
			metric_cell(d, &m, 1);
		}
		if (p->format == STAT_JSON)
			fputc('}', p->out);
		fputc('\n', p->out);
	}
	if (prefix && p->format == STAT_JSON) {
		/* "{"interval" : 1.000000000, " becomes "{"interval" : 1.000000000}" */
		snprintf(json_prefix, sizeof(json_prefix), "%s", prefix);
		json_prefix[strcspn(json_prefix, ",")] = 0;
		strncat(json_prefix, "}", sizeof(json_prefix) - strlen(json_prefix) - 1);
		prefix = json_prefix;
	}
	for (int g = 0; g < a->naggr; g++) {
		if (prefix)
			fputs(prefix, p->out);
		if (d->mode != LUPE_AGGR_GLOBAL) {
			struct stat_row row = { .cpu = -1 };
			struct lupe_aggr_id id;

			/* perf's -I JSON line has its "{" in the interval's object alone */
			if (p->format == STAT_JSON && !prefix)
				fputc('{', p->out);

			if (!lupe_evlist_aggr_id(d->evlist, d->mode, g, &id)) {
				row.cpu = id.cpu;
				row.socket = id.socket;
				row.die = id.die;
				row.core = id.core;
				row.node = id.node;
				/* perf takes the CPUs the first event counted on, 1 without a count */
				row.aggr_nr = a->nevsel && lupe_evsel_supported(lupe_evlist_evsel(d->evlist, 0)) &&
					      lupe_counts_runs_counted(a, 0, g) ? id.nr : 1;
			}
			stat_print_aggr(p, &row);
		}
		for (int e = 0; e < a->nevsel; e++) {
			struct stat_metric m;
			char unitbuf[16], col[256];

			if (merged(d, e))
				continue;
			if (d->counter_prefix)
				fputs(d->counter_prefix, p->out);
			if (metric_of(d, e, g, &shadows[g], &m, unitbuf, col, sizeof(col), 0) < 0)
				continue;
			metric_cell(d, &m, 0);
		}
		fputc('\n', p->out);
	}
	free(shadows);
}
