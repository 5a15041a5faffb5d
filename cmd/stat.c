// SPDX-License-Identifier: GPL-2.0
/*
 * lupe stat: count events for a workload, for threads (-p, -t) or for CPUs
 * (-a, -C), once or -r times, at the end or every -I ms, and print what
 * perf stat prints.
 */
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>
#include <lupe/evlist.h>
#include <lupe/evsel.h>
#include <lupe/statfile.h>
#include <lupe/workload.h>
#include "builtin.h"
#include "export-out.h"
#include "filter-error.h"
#include "options.h"
#include "parse-error.h"
#include "stat-display.h"
#include "stat-func.h"
#include "stat-metric.h"


struct stat_opts {
	CMD_TARGET;
	enum lupe_aggr aggr;
	int no_inherit;
	int repeat;
	unsigned interval;
	const char *sep;
	int json;
	const char *output;
	int append;
	int big_num;
	char **funcs;      /* --func SPEC: count inside these only (ui/stat-func.c) */
	int nr_funcs;
	int per_call;
	int detailed; /* -d given this many times */
	int no_merge;      /* an event on several PMUs prints a line per PMU, named "ev [pmu]" */
	int null_run;      /* -n: no counters, the elapsed time only */
	unsigned timeout;  /* --timeout MS: stop the workload (or the count) after it */
	unsigned interval_count; /* --interval-count N: stop after N intervals of -I */
	int metric_only;
	int summary;       /* -I: a report of the whole run at the end too */
	int no_csv_summary; /* --summary in CSV without perf's "summary" column */
	int all_user, all_kernel;
	int record;        /* stat record: the counts go to a perf.data (-o, perf.data) too */
	int cmd_argc;      /* the words after "lupe", for the file's CMDLINE */
	char **cmd_argv;
	int argc;
	char **argv;
};

/* -A and --per-*: stat's and stat report's */
#define OPT_AGGR(field)                                                                                    \
	OPT_SET_INT('A', "no-aggr", field, LUPE_AGGR_CPU, "disable CPU count aggregation"),                \
	OPT_SET_INT(0, "per-core", field, LUPE_AGGR_CORE, "aggregate counts per physical processor core"), \
	OPT_SET_INT(0, "per-socket", field, LUPE_AGGR_SOCKET, "aggregate counts per processor socket"),    \
	OPT_SET_INT(0, "per-die", field, LUPE_AGGR_DIE, "aggregate counts per processor die"),             \
	OPT_SET_INT(0, "per-node", field, LUPE_AGGR_NODE, "aggregate counts per numa node")

#define CMD_OPTS struct stat_opts
static const struct cmd_option options[] = {
	OPT_EVENT("event selector; use 'lupe list' to list available events"),
	OPT_FILTER("event filter (tracepoints: 'prev_pid > 0'), for the -e before it"),
	OPT_CGROUP("monitor event in cgroup name only (the names pair with the -e events in order)"),
	OPT_PID(pids, "stat events on existing process id"),
	OPT_TID(tids, "stat events on existing thread id"),
	OPT_ALL_CPUS(system_wide, "system-wide collection from all CPUs"),
	OPT_CPU("CPU", cpu_list, "list of cpus to monitor in system-wide"),
	OPT_AGGR(aggr),
	OPT_SET_INT(0, "per-thread", aggr, LUPE_AGGR_THREAD, "aggregate counts per thread"),
	OPT_BOOL(0, "no-merge", no_merge, "do not merge identical named events"),
	OPT_BOOL('n', "null", null_run, "null run - dont start any counters"),
	OPT_INT(0, "timeout", "MS", timeout, 10, INT32_MAX, "stop workload and print counts after a timeout period in ms (>= 10ms)"),
	OPT_INT(0, "interval-count", "N", interval_count, 1, INT32_MAX, "print counts for fixed number of times"),
	OPT_BOOL(0, "metric-only", metric_only, "only print computed metrics. no raw values"),
	OPT_BOOL(0, "summary", summary, "print summary for interval mode"),
	OPT_BOOL(0, "no-csv-summary", no_csv_summary, "don't print 'summary' for CSV summary output"),
	OPT_BOOL(0, "all-user", all_user, "configure all used events to run in user space"),
	OPT_BOOL(0, "all-kernel", all_kernel, "configure all used events to run in kernel space"),
	OPT_BOOL('i', "no-inherit", no_inherit, "child tasks do not inherit counters"),
	OPT_INT('r', "repeat", "N", repeat, 0, 100, "repeat command and print average + stddev (max: 100, forever: 0)"),
	OPT_INT('I', "interval-print", "MS", interval, 10, INT32_MAX, "print counts at regular interval in ms (overhead is possible for values <= 100ms)"),
	OPT_STRING('x', "field-separator", "SEP", sep, "print counts with custom separator"),
	OPT_BOOL('j', "json-output", json, "print counts in JSON format"),
	OPT_STRING('o', "output", "FILE", output, "output file name"),
	OPT_BOOL(0, "append", append, "append to the output file"),
	OPT_BOOL('B', "big-num", big_num, "print large numbers with thousands' separators"),
	OPT_SET_INT(0, "no-big-num", big_num, 0, "print large numbers without thousands' separators"),
	OPT_LIST(0, "func", "SPEC", funcs, nr_funcs, "count only inside a function: NAME, 'Glob::*', DSO:NAME or FILE:LINE-LINE (repeatable)"),
	OPT_BOOL(0, "per-call", per_call, "with --func, also print one line per call"),
	OPT_COUNTUP('d', "detailed", detailed, "detailed run - start a lot of events (-d, -dd or -ddd)"),
	OPT_END()
};
#undef CMD_OPTS

static const struct cmd_argp argp = {
	.options = options,
	.args_doc = "[<command>]",
	.doc = "Count events of a command, of threads or of CPUs.",
};

#define DEFAULT_EVENTS_TASK \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"
/* counting CPUs rather than tasks, perf counts cpu-clock */
#define DEFAULT_EVENTS_CPU \
	"cpu-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"

/* -d, -dd, -ddd: perf's detailed sets (L1 and LLC; L1i and TLBs; prefetches) */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

struct stat_ctx {
	struct stat_opts *o;
	struct lupe_event_list events;
	struct lupe_evlist *evlist;
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads; /* -p/-t/-a/-C; a workload gets its own per run */
	struct stat_print print;
	struct lupe_counts_runs accum;
	struct lupe_counts_table now, prev;
	char **comms;
	int *merge_into;   /* merge_aliases() */
	char **names;
	char what[512];
	int timed_out;     /* --timeout ended the count */
	int intervals_done; /* --interval-count intervals printed */
	unsigned intervals_printed; /* --metric-only -I: the header's rhythm */
	uint64_t wall_ns;  /* -I: the whole count took, for --summary */
	struct lupe_stat_writer *writer; /* stat record */
	struct lupe_stat_reader *rd;     /* stat report */
	int report_aggr;                 /* stat report -A, --per-*: the mode; -1: the file's */
	struct lupe_stats *clock_means;  /* stat report -I: see struct stat_display */
	int write_err;
	sigset_t sigs;
	int interrupted;
	int exit_code;
	struct rusage ru;  /* the workload's, last run */
};

static int has_cpu_target(const struct stat_opts *o)
{
	return o->system_wide || o->cpu_list;
}

static int has_task_target(const struct stat_opts *o)
{
	return o->pids || o->tids;
}

static int parse_events(struct stat_ctx *ctx)
{
	struct stat_opts *o = ctx->o;
	const char *dflt = has_cpu_target(o) ? DEFAULT_EVENTS_CPU : DEFAULT_EVENTS_TASK;
	int n = o->nr_events ? o->nr_events : !o->null_run; /* -n alone counts nothing */

	for (int i = 0; i < n; i++) {
		size_t from = ctx->events.nr;
		int err = ui_parse_events(&ctx->events, o->nr_events ? o->events[i] : dflt);

		if (err)
			return err == -LUPE_ERR_PARSE ? EXIT_USAGE : 1;
		if (o->nr_events && o->filters[i] &&
		    ui_events_set_filter(&ctx->events, from, o->events[i], o->filters[i]))
			return EXIT_USAGE;
	}
	/* perf 6.1 adds -d's sets after the events, given or default, in this order */
	for (int i = 0; i < o->detailed && i < (int)(sizeof(detailed_events) / sizeof(*detailed_events)); i++) {
		int err = ui_parse_events(&ctx->events, detailed_events[i]);

		if (err)
			return 1;
	}
	/* --all-user, --all-kernel: every event, the names unchanged (perf's) */
	for (size_t i = 0; i < ctx->events.nr; i++) {
		struct perf_event_attr *attr = &ctx->events.events[i].attr;

		if (ctx->events.events[i].tool)
			continue;
		if (o->all_user) /* perf leaves exclude_hv as the spec had it */
			attr->exclude_kernel = 1;
		if (o->all_kernel)
			attr->exclude_user = 1;
	}
	return 0;
}

/* An event perf names after its PMU: one a sysfs PMU counts ("tsc" of msr, "uncore_imc/x/"). */
static int pmu_event(const struct lupe_event *ev)
{
	return ev->pmu_name && (ev->attr.type >= PERF_TYPE_MAX || strchr(ev->name, '/'));
}

/*
 * perf's aliases: one spec the parser added on several PMUs (uncore_imc_0,
 * uncore_imc_1...) prints as one line, their counts summed, unless
 * --no-merge; then each line says its PMU: "tsc [msr]", "uncore_imc_0/x/".
 */
static int merge_aliases(struct stat_ctx *ctx)
{
	struct lupe_event_list *l = &ctx->events;

	ctx->merge_into = calloc(l->nr + 1, sizeof(*ctx->merge_into));
	ctx->names = calloc(l->nr + 1, sizeof(*ctx->names));
	if (!ctx->merge_into || !ctx->names)
		return -ENOMEM;
	for (size_t i = 0; i < l->nr; i++) {
		const struct lupe_event *ev = &l->events[i], *first;
		const char *slash;

		ctx->merge_into[i] = i;
		if (!pmu_event(ev))
			continue;
		if (ctx->o->no_merge) {
			if (!strncmp(ev->name, ev->pmu_name, strlen(ev->pmu_name)))
				continue;
			slash = strchr(ev->name, '/');
			if (slash ? asprintf(&ctx->names[i], "%s%s", ev->pmu_name, slash) < 0 :
				    asprintf(&ctx->names[i], "%s [%s]", ev->name, ev->pmu_name) < 0) {
				ctx->names[i] = NULL;
				return -ENOMEM;
			}
			continue;
		}
		/* the run of aliases right before it, as perf collects them */
		if (!i)
			continue;
		first = &l->events[ctx->merge_into[i - 1]];
		if (pmu_event(&l->events[i - 1]) && pmu_event(first) && !strcmp(first->name, ev->name) &&
		    strcmp(l->events[i - 1].pmu_name, ev->pmu_name))
			ctx->merge_into[i] = ctx->merge_into[i - 1];
	}
	return 0;
}

static void describe_target(struct stat_ctx *ctx)
{
	struct stat_opts *o = ctx->o;
	size_t len = 0;

	if (o->system_wide)
		snprintf(ctx->what, sizeof(ctx->what), "'system wide'");
	else if (o->cpu_list)
		snprintf(ctx->what, sizeof(ctx->what), "'CPU(s) %s'", o->cpu_list);
	else if (o->pids)
		snprintf(ctx->what, sizeof(ctx->what), "process id '%s'", o->pids);
	else if (o->tids)
		snprintf(ctx->what, sizeof(ctx->what), "thread id '%s'", o->tids);
	else {
		len = snprintf(ctx->what, sizeof(ctx->what), "'");
		for (int i = 0; i < o->argc && len < sizeof(ctx->what); i++)
			len += snprintf(ctx->what + len, sizeof(ctx->what) - len, "%s%s",
					i ? " " : "", o->argv[i]);
		if (len < sizeof(ctx->what) - 1)
			strcat(ctx->what, "'");
	}
}

/* The targets that stay the same over runs: CPUs, and threads given by -p/-t/-a/-C. */
static int make_maps(struct stat_ctx *ctx)
{
	struct stat_opts *o = ctx->o;

	ctx->cpus = has_cpu_target(o) ? cmd_target_cpus(&o->target, "count") : lupe_cpu_map_any();
	if (!ctx->cpus)
		return 1;
	if (o->aggr == LUPE_AGGR_THREAD && o->system_wide && !has_task_target(o)) {
		/* --per-thread -a: every thread of the system, each on any CPU */
		lupe_cpu_map_put(ctx->cpus);
		ctx->cpus = lupe_cpu_map_any();
		ctx->threads = lupe_thread_map_new_all();
	} else if (has_task_target(o) || has_cpu_target(o)) {
		ctx->threads = cmd_target_threads(&o->target, "count");
		if (!ctx->threads && has_task_target(o))
			return 1;
	}
	if (!ctx->cpus || (has_cpu_target(o) && !ctx->threads))
		return error("cannot count: %s", strerror(errno)), 1;
	return 0;
}

static void read_comms(struct stat_ctx *ctx, struct lupe_thread_map *threads)
{
	int n = lupe_thread_map_nr(threads);

	if (ctx->o->aggr != LUPE_AGGR_THREAD || ctx->comms)
		return;
	ctx->comms = calloc(n, sizeof(*ctx->comms));
	for (int i = 0; ctx->comms && i < n; i++) {
		char path[64], buf[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)lupe_thread_map_pid(threads, i));
		f = fopen(path, "r");
		if (f) {
			if (fgets(buf, sizeof(buf), f))
				buf[strcspn(buf, "\n")] = 0;
			fclose(f);
		}
		ctx->comms[i] = strdup(buf);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + tv->tv_usec * 1000ULL;
}

static int alive(struct lupe_thread_map *threads)
{
	for (int i = 0; i < lupe_thread_map_nr(threads); i++)
		if (kill(lupe_thread_map_pid(threads, i), 0) == 0 || errno == EPERM)
			return 1;
	return 0;
}

/* Read and keep this moment's sums; tool events get the times since t0. */
static int take(struct stat_ctx *ctx, uint64_t t0, const struct rusage *ru0)
{
	struct rusage ru;
	uint64_t user = 0, sys = 0;
	int err;

	if (ctx->o->argc && !getrusage(RUSAGE_CHILDREN, &ru)) {
		user = tv_ns(&ru.ru_utime) - tv_ns(&ru0->ru_utime);
		sys = tv_ns(&ru.ru_stime) - tv_ns(&ru0->ru_stime);
	}
	lupe_evlist_set_tool_times(ctx->evlist, now_ns() - t0, user, sys);
	err = lupe_evlist_read(ctx->evlist);
	if (!err)
		err = lupe_evlist_counts_table(ctx->evlist, ctx->o->aggr, ctx->merge_into, &ctx->now);
	if (err)
		error("cannot read the counters: %s", lupe_strerror(err));
	return err;
}

/* stat record: the counts just read, and the round they end */
static void record_counts(struct stat_ctx *ctx, int final, uint64_t t)
{
	if (!ctx->writer || ctx->write_err)
		return;
	ctx->write_err = lupe_stat_writer_counts(ctx->writer);
	if (!ctx->write_err)
		ctx->write_err = lupe_stat_writer_round(ctx->writer, final, t);
	if (ctx->write_err)
		error("cannot write the counts to '%s': %s", ctx->o->output, lupe_strerror(ctx->write_err));
}

/* --per-thread -a: perf leaves out the many threads that counted nothing */
static int skip_zero_threads(const struct stat_opts *o)
{
	return o->aggr == LUPE_AGGR_THREAD && o->system_wide && !has_task_target(o);
}

/* Print the interval ending t ns after the start, from ctx->now and ctx->prev. */
static void print_interval_at(struct stat_ctx *ctx, uint64_t t)
{
	struct timespec ts = { t / 1000000000ULL, t % 1000000000ULL };
	struct lupe_counts_table tmp;
	char prefix[64];
	struct stat_display d = {
		.print = &ctx->print, .evlist = ctx->evlist, .mode = ctx->o->aggr,
		.accum = &ctx->accum, .prefix = prefix,
		/* perf divides by the nominal interval; its stat report knows no wall time there */
		.walltime_ns = ctx->rd ? 0 : ctx->o->interval * 1e6,
		.comms = (const char *const *)ctx->comms,
		.merge_into = ctx->merge_into, .names = (const char *const *)ctx->names,
		.skip_zero = skip_zero_threads(ctx->o),
		.clock_means = ctx->clock_means,
	};

	lupe_counts_runs_reset(&ctx->accum);
	lupe_counts_runs_add(&ctx->accum, &ctx->now, ctx->prev.c ? &ctx->prev : NULL, d.walltime_ns);
	stat_interval_prefix(&ctx->print, &ts, prefix, sizeof(prefix));
	if (ctx->o->metric_only) {
		/* the units again every 25 intervals, as perf repeats its header */
		stat_display_metric_only(&d, ctx->intervals_printed++ % 25 == 0);
	} else {
		stat_print_interval_header(&ctx->print);
		stat_display_counters(&d);
	}
	fflush(ctx->print.out);
	tmp = ctx->prev;
	ctx->prev = ctx->now;
	ctx->now = tmp;
}

static void print_interval(struct stat_ctx *ctx, uint64_t t0, const struct rusage *ru0)
{
	uint64_t t = now_ns() - t0;

	if (take(ctx, t0, ru0))
		return;
	record_counts(ctx, 0, t);
	print_interval_at(ctx, t);
}

/* Wait for the end of counting, printing intervals on the way. */
static void wait_loop(struct stat_ctx *ctx, struct lupe_workload *w, uint64_t t0,
		      const struct rusage *ru0)
{
	struct stat_opts *o = ctx->o;
	uint64_t next = t0 + (uint64_t)o->interval * 1000000ULL;
	uint64_t deadline = o->timeout ? t0 + (uint64_t)o->timeout * 1000000ULL : UINT64_MAX;
	unsigned intervals = 0;

	for (;;) {
		struct timespec ts, *timeout = NULL;
		uint64_t now = now_ns(), wait;
		int sig;

		if (o->interval && !ctx->intervals_done) {
			wait = next > now ? next - now : 0;
		} else if (!w && ctx->threads && has_task_target(o)) {
			wait = 250000000ULL; /* notice when the -p/-t threads are gone */
		} else {
			wait = UINT64_MAX;
		}
		if (deadline != UINT64_MAX && wait > (deadline > now ? deadline - now : 0))
			wait = deadline > now ? deadline - now : 0;
		if (wait != UINT64_MAX) {
			ts.tv_sec = wait / 1000000000ULL;
			ts.tv_nsec = wait % 1000000000ULL;
			timeout = &ts;
		}
		sig = sigtimedwait(&ctx->sigs, NULL, timeout);
		if (sig == SIGCHLD && w) {
			if (lupe_workload_poll(w))
				return;
		} else if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			ctx->interrupted = 1;
			if (!w)
				return;
			/* a terminal's Ctrl-C reaches the workload too; wait for it to end */
			if (sig != SIGINT)
				kill(w->pid, sig);
		} else if (sig < 0 && errno == EAGAIN) {
			if (o->interval && !ctx->intervals_done && now_ns() >= next) {
				print_interval(ctx, t0, ru0);
				next += (uint64_t)o->interval * 1000000ULL;
				/* --interval-count: the count stops; a workload runs on to its end, as in perf */
				if (o->interval_count && ++intervals >= o->interval_count) {
					ctx->intervals_done = 1;
					lupe_evlist_disable(ctx->evlist);
					if (!w)
						return;
				}
			}
			/* --timeout: the count ends; perf stops the workload with SIGTERM */
			if (now_ns() >= deadline) {
				ctx->timed_out = 1;
				if (!w)
					return;
				kill(w->pid, SIGTERM);
				deadline = UINT64_MAX;
			}
			if (!w && has_task_target(o) && !alive(ctx->threads))
				return;
		}
	}
}

static void open_failed(struct stat_ctx *ctx, int err, const struct lupe_open_failure *fail)
{
	char msg[512];
	struct lupe_evsel *evsel;

	if (err == -ENOMEM || fail->evsel < 0) {
		error("cannot open the events: %s", lupe_strerror(err));
		return;
	}
	evsel = lupe_evlist_evsel(ctx->evlist, fail->evsel);
	if (err == -LUPE_ERR_FILTER) {
		ui_filter_error(lupe_evsel_name(evsel), ctx->events.events[fail->evsel].filter);
		return;
	}
	error("%s", lupe_open_strerror(fail->err, lupe_evsel_attr(evsel), lupe_evsel_name(evsel),
				       fail->cpu, fail->pid, msg, sizeof(msg)));
}

/* Take pending signals so that unblocking them kills nothing. */
static void drain_signals(struct stat_ctx *ctx)
{
	struct timespec zero = { 0, 0 };
	int sig;

	while ((sig = sigtimedwait(&ctx->sigs, NULL, &zero)) > 0)
		if (sig != SIGCHLD)
			ctx->interrupted = 1;
}

/* stat record: the file starts once the counters are open (their maps are the file's) */
static int start_writer(struct stat_ctx *ctx, const struct lupe_evlist_opts *eo)
{
	struct stat_opts *o = ctx->o;
	LUPE_OPTS(lupe_stat_writer_opts, wo, .aggr = o->aggr, .interval_ms = o->interval,
		  .inherit = eo->inherit, .enable_on_exec = eo->enable_on_exec,
		  .version = "lupe " LUPE_VERSION, .argc = o->cmd_argc, .argv = o->cmd_argv);

	ctx->writer = lupe_stat_writer_new(o->output, ctx->evlist, &wo);
	if (!ctx->writer)
		return error("cannot write the counts to '%s': %s", o->output, lupe_strerror(-errno));
	for (int e = 0; e < lupe_evlist_nr(ctx->evlist); e++) {
		struct lupe_evsel *evsel = lupe_evlist_evsel(ctx->evlist, e);
		double scale;
		const char *unit = stat_unit_of(lupe_evsel_attr(evsel), lupe_evsel_tool(evsel), &scale);

		if (!lupe_evsel_tool(evsel))
			lupe_stat_writer_event(ctx->writer, e, unit, scale);
	}
	return 0;
}

/* The counters open on threads, the aggregates sized, stat record's file started: 0 or 1. */
static int open_counters(struct stat_ctx *ctx, struct lupe_thread_map *threads,
			 const struct lupe_evlist_opts *opts)
{
	struct lupe_open_failure fail = { .evsel = -1 };
	int err = lupe_evlist_open(ctx->evlist, ctx->cpus, threads, opts, &fail);

	if (err) {
		open_failed(ctx, err, &fail);
		return 1;
	}
	/* the aggregates are known once the maps are: one per CPU, thread, core... */
	if (!ctx->accum.val &&
	    lupe_counts_runs_init(&ctx->accum, lupe_evlist_nr(ctx->evlist),
			    lupe_evlist_aggr_nr(ctx->evlist, ctx->o->aggr)))
		return error("out of memory"), 1;
	if (ctx->o->record && !ctx->writer && start_writer(ctx, opts))
		return 1;
	return 0;
}

/* The count over: -I's last interval, or the run's counts taken. 0 or 1. */
static int end_count(struct stat_ctx *ctx, uint64_t t0, const struct rusage *ru0)
{
	if (ctx->o->interval) {
		if (!ctx->intervals_done)
			print_interval(ctx, t0, ru0);
		ctx->wall_ns = now_ns() - t0;
	} else if (!take(ctx, t0, ru0)) {
		uint64_t wall = now_ns() - t0;

		record_counts(ctx, 1, wall);
		lupe_counts_runs_add(&ctx->accum, &ctx->now, NULL, wall);
	} else {
		return 1;
	}
	return 0;
}

/* The workload's end: its exit status, and its times since ru0. */
static void reap_workload(struct stat_ctx *ctx, struct lupe_workload *wl, const struct rusage *ru0)
{
	struct rusage ru;

	lupe_workload_wait(wl);
	ctx->exit_code = lupe_workload_exit_code(wl);
	/* perf says how the workload it stopped ended, and that is no failure */
	if (ctx->timed_out && ctx->exit_code > 128) {
		fprintf(stderr, "%s: %s\n", ctx->o->argv[0], strsignal(ctx->exit_code - 128));
		ctx->exit_code = 0;
	}
	getrusage(RUSAGE_CHILDREN, &ru);
	timersub(&ru.ru_utime, &ru0->ru_utime, &ctx->ru.ru_utime);
	timersub(&ru.ru_stime, &ru0->ru_stime, &ctx->ru.ru_stime);
}

static int run_once(struct stat_ctx *ctx)
{
	struct stat_opts *o = ctx->o;
	struct lupe_workload w, *wl = NULL;
	struct lupe_thread_map *threads = ctx->threads;
	LUPE_OPTS(lupe_evlist_opts, opts, .inherit = !o->no_inherit);
	struct rusage ru0;
	sigset_t old;
	uint64_t t0;
	int ret;

	lupe_counts_table_clear(&ctx->prev); /* -I deltas start again with each run */
	if (o->argc) {
		if (cmd_workload_prepare(&w, o->argv))
			return 1;
		wl = &w;
		if (!threads) {
			threads = lupe_thread_map_new_one(w.pid);
			if (!threads) {
				lupe_workload_abort(&w);
				return error("cannot count: %s", strerror(errno)), 1;
			}
			opts.enable_on_exec = 1;
		} else {
			lupe_thread_map_get(threads);
		}
	} else {
		lupe_thread_map_get(threads);
	}
	/* after the fork: the workload must not inherit a blocked SIGINT */
	sigprocmask(SIG_BLOCK, &ctx->sigs, &old);
	ret = open_counters(ctx, threads, &opts);
	if (ret)
		goto out;
	if (!wl || !opts.enable_on_exec)
		read_comms(ctx, threads);
	getrusage(RUSAGE_CHILDREN, &ru0);
	t0 = now_ns();
	if (!opts.enable_on_exec)
		lupe_evlist_enable(ctx->evlist);
	if (wl) {
		ret = cmd_workload_start(wl, o->argv[0]);
		if (ret) {
			wl = NULL;
			goto out;
		}
		read_comms(ctx, threads);
	}
	wait_loop(ctx, wl, t0, &ru0);
	lupe_evlist_disable(ctx->evlist);
	ret = end_count(ctx, t0, &ru0);
	if (wl) {
		reap_workload(ctx, wl, &ru0);
		wl = NULL;
	}
out:
	if (wl)
		lupe_workload_abort(wl);
	lupe_evlist_close(ctx->evlist);
	lupe_thread_map_put(threads);
	drain_signals(ctx);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/*
 * The report of the whole count. --summary in CSV puts perf's "summary"
 * column before each counter (after the aggregate in --metric-only, as
 * perf 6.1 does); units_header: --metric-only's line of units first.
 */
static void print_report(struct stat_ctx *ctx, int units_header)
{
	struct stat_opts *o = ctx->o;
	double wall = lupe_stats_mean(&ctx->accum.wall);
	char summary[64] = "";
	struct stat_display d = {
		.print = &ctx->print, .evlist = ctx->evlist, .mode = o->aggr,
		.accum = &ctx->accum, .walltime_ns = wall,
		.comms = (const char *const *)ctx->comms,
		.merge_into = ctx->merge_into, .names = (const char *const *)ctx->names,
		.skip_zero = skip_zero_threads(o),
	};
	struct stat_footer f = {
		.elapsed = wall / 1e9,
		.elapsed_sd = lupe_stats_stddev(&ctx->accum.wall) / 1e9,
		/* perf shows the workload's own times only when it is the target */
		.rusage = o->argc && !has_cpu_target(o) && !has_task_target(o) &&
			  ctx->print.run_count == 1,
		.user = ctx->ru.ru_utime.tv_sec + ctx->ru.ru_utime.tv_usec / 1e6,
		.sys = ctx->ru.ru_stime.tv_sec + ctx->ru.ru_stime.tv_usec / 1e6,
		.null_run = o->null_run,
	};

	if (o->summary && !o->no_csv_summary && ctx->print.format == STAT_CSV) {
		snprintf(summary, sizeof(summary), "%16s%s", "summary", ctx->print.sep);
		if (o->metric_only)
			d.counter_prefix = summary;
		else
			d.prefix = summary;
	}
	stat_print_header(&ctx->print, ctx->what);
	if (o->metric_only)
		stat_display_metric_only(&d, units_header);
	else
		stat_display_counters(&d);
	stat_print_footer(&ctx->print, &f);
}

/*
 * -I --summary: after the intervals, the report of the whole count, as
 * perf prints it: the usual one, or in CSV each line after a "summary" column.
 */
static void print_summary(struct stat_ctx *ctx)
{
	/* print_interval() left the last read in prev */
	const struct lupe_counts_table *last = ctx->prev.c ? &ctx->prev : &ctx->now;

	if (!last->c)
		return;
	lupe_counts_runs_reset(&ctx->accum);
	lupe_counts_runs_add(&ctx->accum, last, NULL, ctx->wall_ns);
	ctx->print.interval = 0;
	/*
	 * --metric-only: perf prints the units again only where its count of
	 * reports (one an interval, back to 0 after 26) is at 0
	 */
	print_report(ctx, ctx->intervals_printed % 26 == 0);
}

static FILE *open_output(struct stat_opts *o)
{
	FILE *out;
	time_t now = time(NULL);

	if (!o->output || !strcmp(o->output, "-"))
		return stderr;
	out = output_fopen(o->output, o->append);
	if (!out)
		return NULL;
	fprintf(out, "# started on %s\n", ctime(&now));
	return out;
}

static enum stat_aggr print_aggr_of(enum lupe_aggr mode)
{
	switch (mode) {
	case LUPE_AGGR_CPU: return STAT_AGGR_CPU;
	case LUPE_AGGR_THREAD: return STAT_AGGR_THREAD;
	case LUPE_AGGR_CORE: return STAT_AGGR_CORE;
	case LUPE_AGGR_SOCKET: return STAT_AGGR_SOCKET;
	case LUPE_AGGR_DIE: return STAT_AGGR_DIE;
	case LUPE_AGGR_NODE: return STAT_AGGR_NODE;
	case LUPE_AGGR_GLOBAL: break;
	}
	return STAT_AGGR_GLOBAL;
}

static void no_op(int sig)
{
}

/* The events, their cgroups and maps, and the names the report gives them. 0 or the exit status. */
static int setup_events(struct stat_ctx *ctx)
{
	struct stat_opts *o = ctx->o;
	int ret = parse_events(ctx);

	if (ret)
		return ret;
	ctx->evlist = lupe_evlist_new(&ctx->events);
	if (!ctx->evlist)
		return error("cannot set up the events: %s", strerror(errno)), 1;
	if (o->nr_cgroups) {
		char bad[256];
		int err = lupe_evlist_set_cgroups(ctx->evlist, o->cgroups, o->nr_cgroups, bad, sizeof(bad));

		if (err == -E2BIG)
			return error("cgroup '%s' has no event to count: -G names pair with the -e events in order",
				     bad), 1;
		if (err)
			return error("cannot count cgroup '%s': %s (give its path under the cgroup2 or perf_event cgroup mount)",
				     bad, lupe_strerror(err)), 1;
	}
	if (make_maps(ctx))
		return 1;
	describe_target(ctx);
	if (merge_aliases(ctx))
		return error("out of memory"), 1;
	return 0;
}

/* How the report prints, and where: 0 or 1. */
static int setup_print(struct stat_ctx *ctx)
{
	struct stat_opts *o = ctx->o;

	ctx->print = (struct stat_print){
		.format = o->json ? STAT_JSON : o->sep ? STAT_CSV : STAT_STD,
		.sep = o->sep ? o->sep : " ",
		.aggr = print_aggr_of(o->aggr),
		.interval = o->interval,
		.run_count = o->repeat ? o->repeat : 1,
		.big_num = o->big_num,
		.unit_width = stat_unit_width(ctx->evlist),
		.cgroups = o->nr_cgroups > 0,
	};
	/* stat record: -o names the data file; the report goes to stderr as ever */
	ctx->print.out = o->record ? stderr : open_output(o);
	return ctx->print.out ? 0 : 1;
}

/* Count -r times (-r 0: until interrupted) and print the report; the exit status. */
static int run_all(struct stat_ctx *ctx)
{
	struct stat_opts *o = ctx->o;
	int ret = 1, runs = 0;

	sigemptyset(&ctx->sigs);
	sigaddset(&ctx->sigs, SIGCHLD);
	sigaddset(&ctx->sigs, SIGINT);
	sigaddset(&ctx->sigs, SIGTERM);
	sigaddset(&ctx->sigs, SIGHUP);
	/*
	 * The signals are taken with sigtimedwait(), but one that is ignored
	 * (a background job's SIGINT) never arrives: give them a handler, as
	 * perf does. The workload gets the defaults back at exec.
	 */
	signal(SIGINT, no_op);
	signal(SIGTERM, no_op);
	while (!o->repeat || runs < o->repeat) {
		ret = run_once(ctx);
		if (ret)
			break;
		runs++;
		if (ctx->interrupted)
			break;
	}
	if (!runs)
		return ret;
	if (!o->interval) {
		ctx->print.run_count = runs;
		print_report(ctx, 1);
	} else if (o->summary) {
		print_summary(ctx);
	}
	return ret ? ret : ctx->exit_code;
}

/* Close the outputs (a failed write fails a clean run) and free the rest. */
static int stat_teardown(struct stat_ctx *ctx, int ret)
{
	const char *output = ctx->o->output;

	if (ctx->writer) {
		int err = lupe_stat_writer_delete(ctx->writer);

		if (err && !ctx->write_err && !ret)
			ret = (error("cannot write the counts to '%s': %s", output, lupe_strerror(err)), 1);
		if (ctx->write_err && !ret)
			ret = 1;
	}
	if (ctx->print.out && ctx->print.out != stderr) {
		if (fclose(ctx->print.out) && !ret)
			ret = (error("cannot write '%s': %s", output, strerror(errno)), 1);
	} else {
		fflush(stderr);
	}
	lupe_counts_runs_clear(&ctx->accum);
	lupe_counts_table_clear(&ctx->now);
	lupe_counts_table_clear(&ctx->prev);
	for (int i = 0; ctx->comms && i < lupe_thread_map_nr(lupe_evlist_threads(ctx->evlist)); i++)
		free(ctx->comms[i]);
	free(ctx->comms);
	for (size_t i = 0; ctx->names && i < ctx->events.nr; i++)
		free(ctx->names[i]);
	free(ctx->names);
	free(ctx->merge_into);
	lupe_evlist_delete(ctx->evlist);
	lupe_event_list_clear(&ctx->events);
	lupe_cpu_map_put(ctx->cpus);
	lupe_thread_map_put(ctx->threads);
	return ret;
}

static int stat_run(struct stat_opts *o)
{
	struct stat_ctx ctx = { .o = o };
	struct rlimit nofile;
	int ret;

	/* a counter per event and thread of the system (--per-thread -a): perf lifts the fd limit too */
	if (skip_zero_threads(o) && !getrlimit(RLIMIT_NOFILE, &nofile) &&
	    nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	ret = setup_events(&ctx);
	if (!ret)
		ret = setup_print(&ctx);
	if (!ret)
		ret = run_all(&ctx);
	return stat_teardown(&ctx, ret);
}

/* --func: counting inside functions is ui/stat-func.c's; this hands over. */
static int stat_func(struct stat_opts *o)
{
	struct stat_ctx ctx = { .o = o };
	struct stat_func_opts f = {
		.specs = o->funcs, .nr_specs = o->nr_funcs, .events = &ctx.events,
		.pid = o->pids, .argv = o->argv, .argc = o->argc,
		.per_thread = o->aggr == LUPE_AGGR_THREAD, .per_call = o->per_call,
		.format = o->json ? STAT_JSON : o->sep ? STAT_CSV : STAT_STD,
		.sep = o->sep ? o->sep : " ", .big_num = o->big_num,
	};
	int ret = parse_events(&ctx);

	if (!ret) {
		f.out = open_output(o);
		ret = f.out ? stat_func_run(&f) : 1;
		if (f.out && f.out != stderr && fclose(f.out) && !ret)
			ret = (error("cannot write '%s': %s", o->output, strerror(errno)), 1);
	}
	lupe_event_list_clear(&ctx.events);
	return ret;
}

static int check_func_opts(const struct stat_opts *o)
{
	if (o->per_call && !o->nr_funcs)
		return error("--per-call prints the calls of --func: give a function");
	if (!o->nr_funcs)
		return 0;
	if (o->system_wide || o->cpu_list || o->tids)
		return error("--func counts inside a program's functions: use it with a command or -p PID, not -a, -C or -t");
	if (o->repeat != 1 || o->interval)
		return error("--func counts one run: drop -r and -I");
	if (o->pids && strpbrk(o->pids, ",-"))
		return error("--func attaches to one process: give one -p PID");
	if (o->aggr >= LUPE_AGGR_CORE || o->null_run || o->timeout || o->metric_only || o->summary ||
	    o->no_merge || o->record)
		return error("--func prints its own table: drop --per-core/socket/die/node, -n, --timeout, --metric-only, --summary, --no-merge and stat record");
	return 0;
}

static const char *aggr_option(enum lupe_aggr mode)
{
	switch (mode) {
	case LUPE_AGGR_CORE: return "--per-core";
	case LUPE_AGGR_SOCKET: return "--per-socket";
	case LUPE_AGGR_DIE: return "--per-die";
	case LUPE_AGGR_NODE: return "--per-node";
	default: return "-A";
	}
}

/* Combinations perf refuses too; a usage error (129) with a sentence. */
static int check_opts(const struct stat_opts *o)
{
	if (check_func_opts(o))
		return -1;
	if (!o->argc && !o->pids && !o->tids && !o->system_wide && !o->cpu_list)
		return error("give a command to run, or a target: -p PID, -t TID, -a or -C CPUS");
	if (o->sep && o->json)
		return error("-x and -j cannot be used together (pick one output format)");
	if (o->nr_cgroups && !o->system_wide && !o->cpu_list)
		return error("-G counts a cgroup on each CPU: use it with -a or -C CPUS (perf refuses it too)");
	if ((o->aggr == LUPE_AGGR_CPU || o->aggr >= LUPE_AGGR_CORE) && !o->system_wide && !o->cpu_list)
		return error("%s sums the CPUs of a system-wide count: use it with -a or -C CPUS",
			     aggr_option(o->aggr));
	if (o->aggr == LUPE_AGGR_THREAD && !o->pids && !o->tids && !o->nr_funcs &&
	    (!o->system_wide || o->cpu_list))
		return error("--per-thread shows the threads of -p PID, -t TID or of the whole system (-a, or --per-thread alone), not of a command or of -C");
	if (o->all_user && o->all_kernel)
		return error("--all-user and --all-kernel cannot be used together (pick one)");
	if (o->timeout && o->interval)
		return error("--timeout cannot be used with -I (perf refuses it too): pick one");
	if (o->interval_count && !o->interval)
		return error("--interval-count counts the intervals of -I: give -I MS too");
	if (o->metric_only && o->repeat != 1)
		return error("--metric-only cannot be used with -r (perf refuses it too)");
	if (o->metric_only && o->aggr == LUPE_AGGR_THREAD)
		return error("--metric-only cannot be used with --per-thread (perf refuses it too)");
	if (o->repeat != 1 && !o->argc)
		return error("-r repeats a command: give one after the options");
	if (o->append && !o->output)
		return error("--append needs an output file (-o FILE)");
	if (o->record && o->repeat != 1)
		return error("-r cannot be used with stat record (perf refuses it too): one run per file");
	if (o->record && (o->append || o->nr_funcs))
		return error("stat record writes the counts to -o FILE: drop --append and --func");
	return 0;
}

/* lupe stat report: the counts of a stat record file, printed as stat prints them */
struct report_opts {
	const char *input;
	int aggr; /* -A, --per-*: an enum lupe_aggr; -1: the file's */
};

#define CMD_OPTS struct report_opts
static const struct cmd_option report_options[] = {
	OPT_INPUT(input, "input file name"),
	OPT_AGGR(aggr),
	OPT_END()
};
#undef CMD_OPTS

static error_t parse_report_opt(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key == ARGP_KEY_ARG)
		argp_error(state, "stat report takes no command: the counts come from -i FILE");
	return ARGP_ERR_UNKNOWN;
}

static const struct cmd_argp report_argp = {
	.options = report_options,
	.parser = parse_report_opt,
	.doc = "Print the counts 'lupe stat record' (or 'perf stat record') wrote.",
};

static int report_round(void *arg, int final, uint64_t time_ns)
{
	struct stat_ctx *ctx = arg;
	int err;

	if (!ctx->evlist) {
		struct stat_opts *o = ctx->o;

		/* the mode the count was recorded with, unless -A or --per-* says otherwise */
		ctx->evlist = lupe_stat_reader_evlist(ctx->rd);
		o->aggr = ctx->report_aggr >= 0 ? (enum lupe_aggr)ctx->report_aggr
						: lupe_stat_reader_aggr(ctx->rd);
		o->interval = lupe_stat_reader_interval(ctx->rd);
		ctx->print.aggr = print_aggr_of(o->aggr);
		ctx->print.interval = o->interval;
		if (lupe_counts_runs_init(&ctx->accum, lupe_evlist_nr(ctx->evlist),
				    lupe_evlist_aggr_nr(ctx->evlist, ctx->o->aggr)))
			return -ENOMEM;
		ctx->print.unit_width = stat_unit_width(ctx->evlist);
		if (o->aggr == LUPE_AGGR_THREAD) {
			int n = lupe_thread_map_nr(lupe_evlist_threads(ctx->evlist));

			ctx->comms = calloc(n + 1, sizeof(*ctx->comms));
			for (int t = 0; ctx->comms && t < n; t++)
				ctx->comms[t] = strdup(lupe_stat_reader_comm(ctx->rd, t));
		}
		if (o->interval) {
			ctx->clock_means = calloc(ctx->accum.naggr + 1, sizeof(*ctx->clock_means));
			if (!ctx->clock_means)
				return -ENOMEM;
		}
	}
	err = lupe_evlist_counts_table(ctx->evlist, ctx->o->aggr, NULL, &ctx->now);
	if (err)
		return err;
	if (ctx->o->interval && !final) {
		print_interval_at(ctx, time_ns);
		return 0;
	}
	if (final && !ctx->o->interval) {
		lupe_counts_runs_reset(&ctx->accum);
		lupe_counts_runs_add(&ctx->accum, &ctx->now, NULL, time_ns);
		print_report(ctx, 1);
	}
	return 0;
}

static int stat_report(int argc, char **argv)
{
	struct report_opts r = { .input = "perf.data", .aggr = -1 };
	struct stat_opts o = { .repeat = 1, .big_num = 1 };
	struct stat_ctx ctx = { .o = &o };
	struct lupe_stat_reader *rd;
	const char *cmdline;
	int idx, err;

	if (cmd_parse_options(&report_argp, argc, argv, 0, &idx, &r))
		return EXIT_USAGE;
	rd = lupe_stat_reader_open(r.input);
	if (!rd) {
		err = -errno;
		return error("cannot read '%s': %s", r.input,
			     *lupe_last_error() ? lupe_last_error() : lupe_strerror(err)), 1;
	}
	setlocale(LC_NUMERIC, "");
	ctx.print = (struct stat_print){ .out = stderr, .format = STAT_STD, .sep = " ", .run_count = 1,
					 .big_num = 1, .unit_width = 4 };
	cmdline = lupe_stat_reader_cmdline(rd);
	snprintf(ctx.what, sizeof(ctx.what), "'%s'", cmdline ? cmdline : "pipe");
	ctx.rd = rd;
	ctx.report_aggr = r.aggr;
	err = lupe_stat_reader_read(rd, report_round, &ctx);
	if (err < 0)
		error("cannot read the counts of '%s': %s", r.input, lupe_last_error());
	else if (!ctx.evlist)
		err = error("'%s' holds no counts: write one with 'lupe stat record' (or perf stat record)",
			    r.input);
	lupe_counts_runs_clear(&ctx.accum);
	lupe_counts_table_clear(&ctx.now);
	lupe_counts_table_clear(&ctx.prev);
	for (int i = 0; ctx.comms && ctx.evlist && i < lupe_thread_map_nr(lupe_evlist_threads(ctx.evlist)); i++)
		free(ctx.comms[i]);
	free(ctx.comms);
	lupe_stat_reader_delete(rd); /* the evlist is the reader's */
	free(ctx.clock_means);
	return err ? 1 : 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { .repeat = 1, .big_num = 1, .aggr = LUPE_AGGR_GLOBAL };
	char **rec_argv = NULL;
	int idx, ret = EXIT_USAGE;

	o.cmd_argc = argc;
	o.cmd_argv = argv;
	/* "stat record ARGS", "stat report ARGS": parsed as "stat ARGS", so that
	 * usage says "lupe stat" and --help opens lupe-stat, which tells both */
	if (argc > 1 && !strcmp(argv[1], "report")) {
		argv[1] = argv[0];
		return stat_report(argc - 1, argv + 1);
	}
	if (argc > 1 && !strcmp(argv[1], "record")) {
		o.record = 1;
		/* a copy: the file's CMDLINE keeps the words as given */
		rec_argv = calloc(argc, sizeof(*rec_argv));
		if (!rec_argv)
			return error("out of memory"), 1;
		rec_argv[0] = argv[0];
		memcpy(rec_argv + 1, argv + 2, (argc - 2) * sizeof(*argv));
		argc--;
		argv = rec_argv;
	}
	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		goto out;
	if (o.record && !o.output)
		o.output = "perf.data";
	o.argv = argv + idx;
	o.argc = argc - idx;
	/* --per-thread alone is perf's system-wide per-thread count */
	if (o.aggr == LUPE_AGGR_THREAD && !o.pids && !o.tids && !o.argc && !o.cpu_list)
		o.system_wide = 1;
	if (check_opts(&o))
		goto out;
	/* perf uses the locale's thousands separator for counts */
	if (o.big_num)
		setlocale(LC_NUMERIC, "");
	ret = o.nr_funcs ? stat_func(&o) : stat_run(&o);
out:
	free(o.events);
	free(o.funcs);
	free(o.filters);
	free(o.cgroups);
	free(rec_argv);
	return ret;
}
