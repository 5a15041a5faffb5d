// SPDX-License-Identifier: GPL-2.0
/*
 * lupe stat --func's figures: per function its calls and, per event, the
 * total, the mean per call with its spread, min and max, in stat's three
 * shapes, and the --per-call lines. The driver is cmd/stat-func.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/evsel.h>
#include "stat-func.h"

static int is_time(const struct lupe_event *ev)
{
	return !ev || (ev->attr.type == PERF_TYPE_SOFTWARE &&
		       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
			ev->attr.config == PERF_COUNT_SW_CPU_CLOCK));
}

static void print_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void stat_func_print_call(const struct stat_func_opts *o, struct lupe_func_session *s,
			  const struct lupe_func_target *t, const struct lupe_func_call *call)
{
	int n = lupe_func_session_nr_values(s);
	const char *sep = o->format == STAT_CSV ? o->sep : " ";
	FILE *f = o->out;

	if (o->format == STAT_JSON) {
		fprintf(f, "{\"function\" : ");
		print_json_str(f, t->name);
		fprintf(f, ", \"tid\" : %d, \"entry-ns\" : %llu", (int)call->tid,
			(unsigned long long)call->time);
		for (int i = 0; i < n; i++) {
			if (!lupe_func_session_value_supported(s, i))
				continue;
			fprintf(f, ", ");
			print_json_str(f, lupe_func_session_value_name(s, i));
			fprintf(f, " : %llu", (unsigned long long)call->values[i]);
		}
		fprintf(f, "}\n");
		return;
	}
	fprintf(f, "%s%s%d%s%llu", t->name, sep, (int)call->tid, sep, (unsigned long long)call->time);
	for (int i = 0; i < n; i++)
		if (lupe_func_session_value_supported(s, i))
			fprintf(f, "%s%llu", sep, (unsigned long long)call->values[i]);
	fputc('\n', f);
}

void stat_func_print_call_header(const struct stat_func_opts *o, struct lupe_func_session *s)
{
	const char *sep = o->format == STAT_CSV ? o->sep : " ";
	int n = lupe_func_session_nr_values(s);

	if (o->format == STAT_JSON)
		return;
	fprintf(o->out, "# function%stid%sentry-ns", sep, sep);
	for (int i = 0; i < n; i++)
		if (lupe_func_session_value_supported(s, i))
			fprintf(o->out, "%s%s%s", sep, lupe_func_session_value_name(s, i),
				i == n - 1 ? "-ns" : "");
	fputc('\n', o->out);
}

/* One line: a value of one function (and thread, tid > 0). */
static void print_value(const struct stat_func_opts *o, struct lupe_func_session *s,
			const char *fname, pid_t tid, const struct lupe_func_stats *st, int i)
{
	const struct lupe_event *ev = lupe_func_session_value_event(s, i);
	const char *name = lupe_func_session_value_name(s, i);
	int tm = is_time(ev), ok = lupe_func_session_value_supported(s, i);
	double n = st->calls ? (double)st->calls : 1, mean = st->sum[i] / n;
	double var = st->calls > 1 ? (st->sumsq[i] - st->sum[i] * mean) / (st->calls - 1) : 0;
	double pct = mean > 0 && var > 0 ? 100.0 * sqrt(var) / mean : 0;
	double total = tm ? st->sum[i] / 1e6 : st->sum[i], scale = tm ? 1e3 : 1;
	const char *unit = tm ? "msec" : "", *cunit = tm ? "us" : "";
	FILE *f = o->out;

	if (!strcmp(name, "time"))
		name = "time-inside";
	if (o->format == STAT_CSV) {
		const char *x = o->sep;

		fprintf(f, "%s%s", fname, x);
		if (tid)
			fprintf(f, "%d%s", (int)tid, x);
		if (!ok) {
			fprintf(f, "%llu%s<not supported>%s%s%s%s%s%s%s%s%s%s%s%llu\n",
				(unsigned long long)st->calls, x, x, name, x, x, x, x, x, x, x, x, x,
				(unsigned long long)st->unfinished);
			return;
		}
		fprintf(f, "%llu%s%.2f%s%s%s%s%s%.3f%s%.2f%s%.3f%s%.3f%s%llu\n",
			(unsigned long long)st->calls, x, total, x, unit, x, name, x, mean / scale, x, pct,
			x, st->min[i] / scale, x, st->max[i] / scale, x, (unsigned long long)st->unfinished);
		return;
	}
	if (o->format == STAT_JSON) {
		fprintf(f, "{\"function\" : ");
		print_json_str(f, fname);
		if (tid)
			fprintf(f, ", \"tid\" : %d", (int)tid);
		fprintf(f, ", \"calls\" : %llu, \"unfinished\" : %llu, \"event\" : ",
			(unsigned long long)st->calls, (unsigned long long)st->unfinished);
		print_json_str(f, name);
		if (!ok) {
			fprintf(f, ", \"counter-value\" : \"<not supported>\"}\n");
			return;
		}
		fprintf(f, ", \"counter-value\" : \"%f\", \"unit\" : \"%s\", \"mean\" : %f, "
			   "\"mean-unit\" : \"%s\", \"stddev-pct\" : %.2f, \"min\" : %f, \"max\" : %f}\n",
			total, unit, mean / scale, cunit, pct, st->min[i] / scale, st->max[i] / scale);
		return;
	}
	if (tid)
		fprintf(f, "  %7d ", (int)tid);
	if (!ok) {
		fprintf(f, "   %16s      %-24s\n", "<not supported>", name);
		return;
	}
	if (tm)
		fprintf(f, o->big_num ? "   %'16.2f %-4s %-22s" : "   %16.2f %-4s %-22s", total, unit, name);
	else
		fprintf(f, o->big_num ? "   %'16.0f %-4s %-22s" : "   %16.0f %-4s %-22s", total, unit, name);
	fprintf(f, tm ? " # %12.3f %s/call%s ( +- %6.2f%% )  min %.3f  max %.3f\n" :
			" # %12.3f %s/call%s ( +- %6.2f%% )  min %.0f  max %.0f\n",
		mean / scale, cunit, tm ? "" : "  ", pct, st->min[i] / scale, st->max[i] / scale);
}

static void print_block(const struct stat_func_opts *o, struct lupe_func_session *s,
			const char *fname, pid_t tid, const struct lupe_func_stats *st)
{
	int n = lupe_func_session_nr_values(s);

	if (o->format == STAT_STD) {
		if (tid)
			fprintf(o->out, "  %7d ", (int)tid);
		fprintf(o->out, o->big_num ? "   %'16llu      calls                  " :
				"   %16llu      calls                  ", (unsigned long long)st->calls);
		fprintf(o->out, " # %llu unfinished\n", (unsigned long long)st->unfinished);
	}
	for (int i = 0; i < n; i++)
		print_value(o, s, fname, tid, st, i);
}

void stat_func_print(const struct stat_func_opts *o, struct lupe_func_session *s,
		     const char *what, double elapsed_s)
{
	int nt = 0;

	while (lupe_func_session_stats(s, nt, 0))
		nt++;
	if (o->format == STAT_STD)
		fprintf(o->out, "\n Performance counter stats for %s, inside functions:\n", what);
	for (int k = 0; k < nt; k++) {
		const struct lupe_func_stats *st = lupe_func_session_stats(s, k, 0);

		if (o->format == STAT_STD)
			fprintf(o->out, "\n %s:\n\n", lupe_func_session_target_name(s, k));
		if (o->per_thread) {
			for (int i = 0; i < lupe_func_session_nr_tids(s); i++) {
				pid_t tid = lupe_func_session_tid(s, i);

				print_block(o, s, lupe_func_session_target_name(s, k), tid,
					    lupe_func_session_stats(s, k, tid));
			}
		} else {
			print_block(o, s, lupe_func_session_target_name(s, k), 0, st);
		}
	}
	if (o->format == STAT_STD) {
		/* a BPF record is a whole call; a probe's record is half of one */
		if (lupe_func_session_lost(s))
			fprintf(o->out, "\n %llu records lost (ring full): %s\n",
				(unsigned long long)lupe_func_session_lost(s),
				!strcmp(lupe_func_session_mechanism(s), "bpf") ?
					"their calls are not in the figures" : "their calls are unfinished");
		if (lupe_func_session_lost_calls(s))
			fprintf(o->out, "\n %llu calls lost (out of memory): not in the figures\n",
				(unsigned long long)lupe_func_session_lost_calls(s));
		fprintf(o->out, "\n %17.9f seconds time elapsed\n\n", elapsed_s);
	}
}
