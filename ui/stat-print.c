// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat's three output shapes. The widths are perf 6.1's: an 18-wide
 * count, the unit column, a 32-wide event name, and a 35-wide metric
 * column ("# value unit") after it; lines for <not counted> and
 * <not supported> pad the name to 25 only, which is what perf prints.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "stat-print.h"

#define COUNTS_LEN 18
#define EVNAME_LEN 32
#define BAD_EVNAME_LEN 25
#define METRIC_LEN 35
#define COMM_LEN 16
#define PID_LEN 8
#define CPU_LEN 7 /* "CPU%-7d" */

#define NOT_COUNTED "<not counted>"
#define NOT_SUPPORTED "<not supported>"

static const char *bad_count(const struct stat_row *r)
{
	return r->supported ? NOT_COUNTED : NOT_SUPPORTED;
}

/* perf's percentage of time running: integer arithmetic, as perf computes it. */
static double pcnt_running(const struct stat_row *r)
{
	if (r->run == r->ena || !r->ena)
		return 100.0;
	return (double)(100 * r->run / r->ena);
}

/* --per-core, --per-socket, --per-die, --per-node: "S0-D0-C1" and the CPUs it sums */
static void print_topo(const struct stat_print *p, const struct stat_row *r)
{
	static const char *const key[] = {
		[STAT_AGGR_CORE] = "core", [STAT_AGGR_SOCKET] = "socket",
		[STAT_AGGR_DIE] = "die", [STAT_AGGR_NODE] = "node",
	};
	char id[64], last[16];
	int width = p->aggr == STAT_AGGR_SOCKET || p->aggr == STAT_AGGR_NODE ? 5 : 8;

	/* perf pads the last number of the id: 5 for a socket or node, 8 otherwise */
	switch (p->aggr) {
	case STAT_AGGR_CORE:
		snprintf(id, sizeof(id), "S%d-D%d-C", r->socket, r->die);
		snprintf(last, sizeof(last), "%d", r->core);
		break;
	case STAT_AGGR_DIE:
		snprintf(id, sizeof(id), "S%d-D", r->socket);
		snprintf(last, sizeof(last), "%d", r->die);
		break;
	case STAT_AGGR_SOCKET:
		snprintf(id, sizeof(id), "S");
		snprintf(last, sizeof(last), "%d", r->socket);
		break;
	default:
		snprintf(id, sizeof(id), "N");
		snprintf(last, sizeof(last), "%d", r->node);
		break;
	}
	if (p->format == STAT_JSON)
		fprintf(p->out, "\"%s\" : \"%s%s\", \"aggregate-number\" : %d, ", key[p->aggr], id,
			last, r->aggr_nr);
	else if (p->format == STAT_CSV)
		fprintf(p->out, "%s%s%s%d%s", id, last, p->sep, r->aggr_nr, p->sep);
	else
		fprintf(p->out, "%s%-*s %4d ", id, width, last, r->aggr_nr);
}

void stat_print_aggr(const struct stat_print *p, const struct stat_row *r)
{
	FILE *out = p->out;

	switch (p->aggr) {
	case STAT_AGGR_CPU:
		if (r->cpu < 0) /* -A without CPUs to count on: perf prints no column */
			break;
		if (p->format == STAT_JSON)
			fprintf(out, "\"cpu\" : \"%d\", ", r->cpu);
		else if (p->format == STAT_CSV)
			fprintf(out, "CPU%d%s", r->cpu, p->sep);
		else
			fprintf(out, "CPU%-*d ", CPU_LEN, r->cpu);
		break;
	case STAT_AGGR_THREAD:
		if (p->format == STAT_JSON)
			fprintf(out, "\"thread\" : \"%s-%d\", ", r->comm, (int)r->pid);
		else if (p->format == STAT_CSV)
			fprintf(out, "%s-%d%s", r->comm, (int)r->pid, p->sep);
		else
			fprintf(out, "%*s-%-*d ", COMM_LEN, r->comm, PID_LEN, (int)r->pid);
		break;
	case STAT_AGGR_GLOBAL:
		break;
	default:
		print_topo(p, r);
		break;
	}
}

/* The number of a metric alone, as CSV wants it: "  12.34%" gives "12.34". */
static const char *metric_number(const struct stat_metric *m, char *buf, size_t size)
{
	char *s, *e;

	snprintf(buf, size, m->fmt, m->val);
	s = buf;
	while (isspace((unsigned char)*s))
		s++;
	for (e = s; isdigit((unsigned char)*e) || *e == '.'; e++)
		;
	*e = 0;
	return s;
}

static const char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static void print_std(const struct stat_print *p, const struct stat_row *r)
{
	FILE *out = p->out;

	if (!r->counted) {
		fprintf(out, "%*s %-*s %-*s", COUNTS_LEN, bad_count(r), p->unit_width, r->unit,
			BAD_EVNAME_LEN, r->name);
		if (p->cgroups)
			fprintf(out, " %s", r->cgroup ? r->cgroup : "");
		fprintf(out, "%*s", METRIC_LEN, "");
	} else {
		if (p->big_num)
			fprintf(out, r->fractional ? "%'*.2f " : "%'*.0f ", COUNTS_LEN, r->value);
		else
			fprintf(out, r->fractional ? "%*.2f " : "%*.0f ", COUNTS_LEN, r->value);
		fprintf(out, "%-*s %-*s", p->unit_width, r->unit, EVNAME_LEN, r->name);
		if (p->cgroups)
			fprintf(out, " %s", r->cgroup ? r->cgroup : "");
		if (r->metric.fmt) {
			char val[64];
			int n;

			snprintf(val, sizeof(val), r->metric.fmt, r->metric.val);
			n = fprintf(out, " # %s", val);
			fprintf(out, " %-*s", METRIC_LEN - n - 1, r->metric.unit);
		} else {
			fprintf(out, "%*s", METRIC_LEN, "");
		}
	}
	if (p->run_count > 1 && r->noise)
		fprintf(out, "  ( +-%6.2f%% )", r->noise);
	if (r->run != r->ena)
		fprintf(out, "  (%.2f%%)", 100.0 * r->run / r->ena);
}

static void print_csv(const struct stat_print *p, const struct stat_row *r)
{
	FILE *out = p->out;
	const char *sep = p->sep;

	if (r->counted)
		fprintf(out, r->fractional ? "%.2f%s" : "%.0f%s", r->value, sep);
	else
		fprintf(out, "%s%s", bad_count(r), sep);
	fprintf(out, "%s%s%s", r->unit, sep, r->name);
	if (p->cgroups)
		fprintf(out, "%s%s", sep, r->cgroup ? r->cgroup : "");
	if (p->run_count > 1)
		fprintf(out, "%s%.2f%%", sep, r->noise);
	fprintf(out, "%s%" PRIu64 "%s%.2f", sep, r->run, sep, pcnt_running(r));
	if (r->counted && r->metric.fmt) {
		char buf[64];

		fprintf(out, "%s%s%s%s", sep, metric_number(&r->metric, buf, sizeof(buf)), sep,
			skip_spaces(r->metric.unit));
	} else {
		fprintf(out, "%s%s", sep, sep);
	}
}

static void print_json(const struct stat_print *p, const struct stat_row *r)
{
	FILE *out = p->out;

	if (r->counted)
		fprintf(out, "\"counter-value\" : \"%f\", ", r->value);
	else
		fprintf(out, "\"counter-value\" : \"%s\", ", bad_count(r));
	fprintf(out, "\"unit\" : \"%s\", \"event\" : \"%s\", ", r->unit, r->name);
	if (r->cgroup)
		fprintf(out, "\"cgroup\" : \"%s\", ", r->cgroup);
	if (p->run_count > 1)
		fprintf(out, "\"variance\" : %.2f, ", r->noise);
	fprintf(out, "\"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", r->run,
		pcnt_running(r));
	if (!r->counted)
		fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : \"\"}", 0.0);
	else /* perf prints a NULL unit through printf: keep its "(null)" */
		fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}",
			r->metric.fmt ? r->metric.val : 0.0,
			r->metric.unit ? r->metric.unit : "(null)");
}

void stat_print_row(const struct stat_print *p, const struct stat_row *r)
{
	if (p->format == STAT_JSON && !r->prefix)
		fputc('{', p->out);
	if (r->prefix)
		fputs(r->prefix, p->out);
	stat_print_aggr(p, r);
	switch (p->format) {
	case STAT_STD:
		print_std(p, r);
		break;
	case STAT_CSV:
		print_csv(p, r);
		break;
	case STAT_JSON:
		print_json(p, r);
		break;
	}
	fputc('\n', p->out);
}

void stat_print_header(struct stat_print *p, const char *what)
{
	if (p->format != STAT_STD || p->interval)
		return;
	fprintf(p->out, "\n Performance counter stats for %s", what);
	if (p->run_count > 1)
		fprintf(p->out, " (%d runs)", p->run_count);
	fprintf(p->out, ":\n\n");
}

void stat_print_interval_header(struct stat_print *p)
{
	FILE *out = p->out;
	int first = p->headers_printed == 0;

	/* perf prints it before the first interval and again every 25 */
	if (++p->headers_printed == 25)
		p->headers_printed = 0;
	if (p->format != STAT_STD || !first)
		return;
	fprintf(out, "#%*s", 15, "time");
	switch (p->aggr) {
	case STAT_AGGR_CPU:
		fprintf(out, " %-*s", 3 + CPU_LEN, "CPU");
		break;
	case STAT_AGGR_THREAD:
		fprintf(out, " %*s-%-*s", COMM_LEN, "comm", PID_LEN, "pid");
		break;
	case STAT_AGGR_CORE:
		fprintf(out, " core            cpus");
		break;
	case STAT_AGGR_SOCKET:
		fprintf(out, " socket cpus");
		break;
	case STAT_AGGR_DIE:
		fprintf(out, " die          cpus");
		break;
	case STAT_AGGR_NODE:
		fprintf(out, " node   cpus");
		break;
	case STAT_AGGR_GLOBAL:
		break;
	}
	fprintf(out, " %*s %*s events\n", COUNTS_LEN, "counts", p->unit_width, "unit");
}

void stat_interval_prefix(const struct stat_print *p, const struct timespec *ts, char *buf,
			  size_t size)
{
	unsigned long s = ts->tv_sec, ns = ts->tv_nsec;

	if (p->format == STAT_CSV)
		snprintf(buf, size, "%6lu.%09lu%s", s, ns, p->sep);
	else if (p->format == STAT_JSON)
		snprintf(buf, size, "{\"interval\" : %lu.%09lu, ", s, ns);
	else
		snprintf(buf, size, "%6lu.%09lu ", s, ns);
}

/* Digits to show for a mean whose stddev is sd: two more than sd is sure of. */
static int precision(double sd)
{
	if (sd > 1)
		return 2;
	if (sd <= 0) /* perf's log10(0) ends in printf's default precision */
		return -1;
	return (int)lround(ceil(-log10(sd))) + 2;
}

void stat_print_footer(const struct stat_print *p, const struct stat_footer *f)
{
	FILE *out = p->out;

	if (p->interval || p->format != STAT_STD)
		return;
	if (!f->null_run)
		fputc('\n', out);
	if (p->run_count == 1) {
		fprintf(out, " %17.9f seconds time elapsed", f->elapsed);
		if (f->rusage) {
			fprintf(out, "\n\n");
			fprintf(out, " %17.9f seconds user\n", f->user);
			fprintf(out, " %17.9f seconds sys\n", f->sys);
		}
	} else {
		int prec = precision(f->elapsed_sd);
		double pct = f->elapsed ? 100.0 * f->elapsed_sd / f->elapsed : 0;

		fprintf(out, " %17.*f +- %.*f seconds time elapsed", prec, f->elapsed, prec,
			f->elapsed_sd);
		if (pct)
			fprintf(out, "  ( +-%6.2f%% )", pct);
	}
	fprintf(out, "\n\n");
}
