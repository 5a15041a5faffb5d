// SPDX-License-Identifier: GPL-2.0
/*
 * lupe stat --func: resolve the specs, run (or attach to) the program with
 * a func session, drain its records while it runs, print the figures.
 * Ctrl-C with -p detaches: the session closes, the probes go, the program
 * runs on with its text as it was.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lupe/cpumap.h>
#include <lupe/evsel.h>
#include <lupe/workload.h>
#include "stat-func.h"

/* "lupe: " and a sentence to stderr; returns 1, the exit code of a failure. */
static int __attribute__((format(printf, 1, 2))) pr_error(const char *fmt, ...)
{
	va_list ap;

	fputs("lupe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

struct run {
	const struct stat_func_opts *o;
	struct lupe_func_session *s;
	struct lupe_func_target *t;
	int nt;
	int header_done;
};

static int is_time(const struct lupe_event *ev)
{
	return !ev || (ev->attr.type == PERF_TYPE_SOFTWARE &&
		       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
			ev->attr.config == PERF_COUNT_SW_CPU_CLOCK));
}

static void resolve_failed(const char *spec, const struct lupe_func_error *e)
{
	switch (e->why) {
	case LUPE_FUNC_NO_DSO:
		pr_error("cannot count '%s': no file '%s' (give a path, or a library the program loads)",
			 spec, e->subject);
		break;
	case LUPE_FUNC_UNKNOWN:
		if (e->hint[0])
			pr_error("no function '%s' in '%s' (did you mean: %s?)", spec, e->subject, e->hint);
		else
			pr_error("no function '%s' in '%s' (list them with nm or readelf -s)", spec, e->subject);
		break;
	case LUPE_FUNC_INLINE_ONLY:
		pr_error("function '%s' exists only inlined in '%s': count its source lines instead, --func %s",
			 spec, e->subject, e->hint);
		break;
	case LUPE_FUNC_STRIPPED:
		pr_error("cannot find '%s': '%s' is stripped (no symbol table, no debuglink); rebuild it with symbols or install its debug info",
			 spec, e->subject);
		break;
	case LUPE_FUNC_NO_LINES:
		pr_error("no code for lines '%s' in '%s' (check the file name and lines; build with -g)",
			 spec, e->subject);
		break;
	case LUPE_FUNC_NO_DWARF:
		pr_error("cannot count lines '%s': no DWARF line table in '%s' (build with -g)", spec,
			 e->subject);
		break;
	case LUPE_FUNC_OK:
		break;
	}
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

static void per_call_header(const struct stat_func_opts *o, struct lupe_func_session *s)
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

static void on_call(void *arg, const struct lupe_func_call *call)
{
	struct run *r = arg;

	if (!r->header_done) {
		per_call_header(r->o, r->s);
		r->header_done = 1;
	}
	stat_func_print_call(r->o, r->s, &r->t[call->target], call);
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
		if (lupe_func_session_lost(s))
			fprintf(o->out, "\n %llu records lost (ring full): their calls are unfinished\n",
				(unsigned long long)lupe_func_session_lost(s));
		if (lupe_func_session_lost_calls(s))
			fprintf(o->out, "\n %llu calls lost (out of memory): not in the figures\n",
				(unsigned long long)lupe_func_session_lost_calls(s));
		fprintf(o->out, "\n %17.9f seconds time elapsed\n\n", elapsed_s);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void no_op(int sig)
{
}

static int open_failed(int err, const struct lupe_open_failure *fail, struct lupe_func_session *s)
{
	char msg[512];

	if (err == -EACCES || err == -EPERM)
		return pr_error("no permission to probe functions: uprobes and tracefs need root or CAP_PERFMON with CAP_SYS_ADMIN (perf_event_paranoid is %d)",
				lupe_perf_event_paranoid());
	if (err == -LUPE_ERR_NO_TRACEFS)
		return pr_error("cannot create uprobes: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	if (fail->evsel >= 0) {
		const struct lupe_event *ev = lupe_func_session_value_event(s, fail->evsel);

		if (ev)
			return pr_error("%s", lupe_open_strerror(err, &ev->attr, ev->name, -1, fail->pid,
								msg, sizeof(msg)));
	}
	if (err == -EINVAL)
		return pr_error("cannot open the function probes: %s (counting inside functions of threads needs Linux 6.12 or later)",
				lupe_strerror(err));
	return pr_error("cannot open the function probes: %s", lupe_strerror(err));
}

int stat_func_run(const struct stat_func_opts *o)
{
	struct run r = { .o = o };
	struct lupe_workload w;
	struct lupe_thread_map *threads = NULL;
	struct lupe_open_failure fail;
	struct lupe_func_error ferr;
	pid_t *tids = NULL;
	int nr_tids = 0, ret = 1, err, started = 0;
	sigset_t sigs, old;
	char what[512];
	double t0;

	for (int i = 0; i < o->nr_specs; i++) {
		err = lupe_func_resolve(o->specs[i], o->argc ? o->argv[0] : NULL,
					o->pid ? atoi(o->pid) : 0, &r.t, &r.nt, &ferr);
		if (err == -LUPE_ERR_PARSE) {
			pr_error("cannot parse --func '%s': give FUNCTION, DSO:FUNCTION or FILE:LINE-LINE",
				 o->specs[i]);
			ret = 129;
			goto out;
		}
		if (err == -ENOENT && ferr.why != LUPE_FUNC_OK) {
			resolve_failed(o->specs[i], &ferr);
			goto out;
		}
		if (err) {
			pr_error("cannot resolve --func '%s': %s", o->specs[i], lupe_strerror(err));
			goto out;
		}
	}
	r.s = lupe_func_session_new(o->events, r.t, r.nt);
	if (!r.s) {
		pr_error("cannot set up the counting: %s", strerror(errno));
		goto out;
	}
	if (o->per_call)
		lupe_func_session_set_call_fn(r.s, on_call, &r);
	/* LUPE_FUNC_MECHANISM=records: sample records even where BPF works (tests, comparisons) */
	if (getenv("LUPE_FUNC_MECHANISM") && !strcmp(getenv("LUPE_FUNC_MECHANISM"), "records"))
		lupe_func_session_set_records(r.s, 1);
	if (o->pid) {
		threads = lupe_thread_map_new_pids(o->pid);
		if (!threads) {
			pr_error("cannot count process '%s': %s", o->pid,
				 errno == ESRCH ? "no such process" : "not a process id");
			goto out;
		}
		nr_tids = lupe_thread_map_nr(threads);
		snprintf(what, sizeof(what), "process id '%s'", o->pid);
	} else {
		size_t len = snprintf(what, sizeof(what), "'");

		for (int i = 0; i < o->argc && len < sizeof(what); i++)
			len += snprintf(what + len, sizeof(what) - len, "%s%s", i ? " " : "", o->argv[i]);
		if (len < sizeof(what) - 1)
			strcat(what, "'");
		err = lupe_workload_prepare(&w, o->argv);
		if (err) {
			pr_error("cannot start '%s': %s", o->argv[0], lupe_strerror(err));
			goto out;
		}
		started = 1;
		nr_tids = 1;
	}
	tids = calloc(nr_tids, sizeof(*tids));
	if (!tids)
		goto out;
	for (int i = 0; i < nr_tids; i++)
		tids[i] = threads ? lupe_thread_map_pid(threads, i) : w.pid;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGCHLD);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	signal(SIGINT, no_op);
	signal(SIGTERM, no_op);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	err = lupe_func_session_open(r.s, tids, nr_tids, !o->pid, &fail);
	if (err) {
		open_failed(err, &fail, r.s);
		goto unblock;
	}
	t0 = now_s();
	if (o->pid) {
		lupe_func_session_enable(r.s);
	} else {
		err = lupe_workload_start(&w);
		if (err) {
			started = 0;
			pr_error("cannot run '%s': %s", o->argv[0], strerror(-err));
			ret = err == -ENOENT ? 127 : 126;
			goto unblock;
		}
	}
	for (int busy = 0;;) {
		/* drain every 10 ms, every 1 ms while records flow */
		struct timespec ts = { 0, (busy ? 1 : 10) * 1000000 };
		int sig = sigtimedwait(&sigs, NULL, &ts);

		busy = lupe_func_session_poll(r.s) > 0;
		if (sig == SIGCHLD && started) {
			if (waitpid(w.pid, &w.status, WNOHANG) == w.pid) {
				w.reaped = 1;
				break;
			}
		} else if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			if (o->pid)
				break;
			if (sig != SIGINT)
				kill(w.pid, sig);
		} else if (sig < 0 && o->pid && kill(tids[0], 0) && errno == ESRCH) {
			break;
		}
	}
	lupe_func_session_close(r.s);
	stat_func_print(o, r.s, what, now_s() - t0);
	ret = 0;
	if (started) {
		ret = lupe_workload_exit_code(&w);
		started = 0;
	}
unblock:
	if (started)
		lupe_workload_abort(&w);
	lupe_func_session_close(r.s);
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	free(tids);
	lupe_thread_map_put(threads);
	lupe_func_session_delete(r.s);
	lupe_func_targets_free(r.t, r.nt);
	return ret;
}
