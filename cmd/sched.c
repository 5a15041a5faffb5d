// SPDX-License-Identifier: GPL-2.0
/*
 * lupe sched record|latency|map|timehist|script: scheduler analysis, perf
 * 6.1's command. record is lupe record with perf sched record's events on
 * every CPU; latency, map and timehist read the file through lib/sched's
 * models and print perf's table and lines (ui/sched-print.c); script is lupe
 * script on the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/events.h>
#include <lupe/sched.h>
#include "builtin.h"
#include "options.h"
#include "sched-print.h"

struct sched_opts {
	const char *input, *sort;
	int force, pids;
	int wakeups, cpu_visual, summary;
};

#define CMD_OPTS struct sched_opts
static const struct cmd_option options[] = {
	OPT_INPUT(input, "input file name (default: perf.data)"),
	OPT_FORCE(force, "read a file not owned by you"),
	OPT_STRING('s', "sort", "KEYS", sort, "latency: sort by avg, max, switch, runtime, pid (default: avg, max, switch, runtime)"),
	OPT_BOOL('p', "pids", pids, "latency: one line a task, not one a name"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL,
	"{record|latency|map|timehist|script} [OPTIONS] [-- COMMAND [ARGS]]",
	"Scheduler analysis from the sched tracepoints." };

static const struct cmd_option th_options[] = {
	OPT_INPUT(input, "input file name (default: perf.data)"),
	OPT_FORCE(force, "read a file not owned by you"),
	OPT_BOOL('w', "wakeups", wakeups, "show wakeup events"),
	OPT_BOOL('V', "cpu-visual", cpu_visual, "add a column per CPU"),
	OPT_BOOL('s', "summary", summary, "only the per-task summary (not implemented)"),
	OPT_BOOL('S', "with-summary", summary, "the lines and the summary (not implemented)"),
	OPT_END()
};

static const struct cmd_argp th_argp = { th_options, NULL, "",
	"Per-switch lines: wait, scheduling delay and run time of the task switched out." };

static int sched_timehist(int argc, char **argv)
{
	struct sched_opts o = { 0 };
	LUPE_OPTS(lupe_sched_th_opts, to);
	struct timehist_printer p = { .out = stdout, .comm_width = 30 };
	int idx, max_cpu = 0, err;

	if (cmd_parse_options(&th_argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	/* NEEDSWORK: -s/-S, perf's per-task runtime summary (with its stddev and idle stats) */
	if (o.summary)
		return error("sched timehist -s/-S (the summary) is not implemented yet"), 1;
	to.force = o.force;
	to.wakeups = o.wakeups;
	p.wakeups = o.wakeups;
	p.cpu_visual = o.cpu_visual;
	err = lupe_sched_timehist(o.input ? o.input : "perf.data", &to, sched_print_timehist_line, &p,
				  &max_cpu);
	if (err)
		return 1;
	sched_print_timehist_end(&p, max_cpu);
	return 0;
}

static int sched_map(struct sched_opts *o)
{
	LUPE_OPTS(lupe_sched_map_opts, mo, .force = o->force,
		  .nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF));

	struct lupe_sched_lost lost;

	if (lupe_sched_map(o->input ? o->input : "perf.data", &mo, sched_print_map_line, stdout, &lost))
		return 1;
	sched_print_map_end(stdout, &lost);
	return 0;
}

static int have_tp(const char *name)
{
	char sys_name[64];

	snprintf(sys_name, sizeof(sys_name), "sched:%s", name);
	return lupe_tracepoint_lookup(sys_name) >= 0;
}

/* lupe sched record [RECORD OPTIONS] [-- COMMAND]: perf sched record's events, every CPU. */
static int sched_record(int argc, char **argv)
{
	static const char *const base[] = {
		"sched_switch", "sched_stat_runtime", "sched_process_fork", "sched_wakeup_new",
		"sched_migrate_task",
	};
	static const char *const optional[] = { "sched_stat_wait", "sched_stat_sleep", "sched_stat_iowait" };
	char ev[32][64];
	char **args = calloc(64 + (size_t)argc, sizeof(*args));
	int n = 0, ne = 0, rc;

	if (!args)
		return error("out of memory");
	args[n++] = "record";
	args[n++] = "-a";
	args[n++] = "-m";
	args[n++] = "1024";
	args[n++] = "-c";
	args[n++] = "1";
	for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
		snprintf(ev[ne], sizeof(ev[ne]), "sched:%s", base[i]);
		args[n++] = "-e";
		args[n++] = ev[ne++];
	}
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (have_tp(optional[i])) {
			snprintf(ev[ne], sizeof(ev[ne]), "sched:%s", optional[i]);
			args[n++] = "-e";
			args[n++] = ev[ne++];
		}
	/* perf: sched_waking where the kernel has it, else sched_wakeup */
	snprintf(ev[ne], sizeof(ev[ne]), "sched:%s", have_tp("sched_waking") ? "sched_waking" : "sched_wakeup");
	args[n++] = "-e";
	args[n++] = ev[ne++];
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	rc = cmd_record(n, args);
	free(args);
	return rc;
}

static int sched_latency(struct sched_opts *o)
{
	LUPE_OPTS(lupe_sched_lat_opts, lo, .sort = o->sort, .no_merge = o->pids, .force = o->force);
	struct lupe_sched_lat_result res;
	int err = lupe_sched_latency(o->input ? o->input : "perf.data", &lo, &res);

	if (err == -EINVAL)
		return EXIT_USAGE;
	if (err)
		return 1;
	sched_print_latency(stdout, &res);
	lupe_sched_lat_result_clear(&res);
	return 0;
}

static int sched_script(struct sched_opts *o, int argc, char **argv)
{
	char **args = calloc((size_t)argc + 6, sizeof(*args));
	int n = 0, rc;

	if (!args)
		return error("out of memory");
	args[n++] = "script";
	if (o->input) {
		args[n++] = "-i";
		args[n++] = (char *)o->input;
	}
	if (o->force)
		args[n++] = "-f";
	for (int i = 0; i < argc; i++)
		args[n++] = argv[i];
	rc = cmd_script(n, args);
	free(args);
	return rc;
}

int cmd_sched(int argc, char **argv)
{
	struct sched_opts o = { 0 };
	const char *sub;
	int idx, sidx;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return sched_record(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "script"))
		return sched_script(&o, argc - 2, argv + 2);
	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		return EXIT_USAGE;
	if (idx >= argc)
		return error("usage: lupe sched {record|latency|script} [OPTIONS] (see lupe sched -h)"),
		       EXIT_USAGE;
	sub = argv[idx];
	if (!strcmp(sub, "record"))
		return sched_record(argc - idx, argv + idx);
	if (!strcmp(sub, "script"))
		return sched_script(&o, argc - idx - 1, argv + idx + 1);
	if (!strcmp(sub, "timehist"))
		return sched_timehist(argc - idx, argv + idx);
	if (!strcmp(sub, "map")) {
		if (cmd_parse_options(&argp, argc - idx, argv + idx, 1, &sidx, &o))
			return EXIT_USAGE;
		return sched_map(&o);
	}
	if (!strcmp(sub, "replay"))
		/* NEEDSWORK: replay, perf's re-enactment of the recorded tasks */
		return error("lupe sched %s is not implemented yet (latency, map, timehist, record and script are)", sub), 1;
	if (strncmp(sub, "lat", 3) || strncmp(sub, "latency", strlen(sub)))
		return error("unknown sched subcommand '%s' (record, latency or script)", sub), EXIT_USAGE;
	if (cmd_parse_options(&argp, argc - idx, argv + idx, 1, &sidx, &o))
		return EXIT_USAGE;
	if (sidx < argc - idx)
		return error("sched latency takes no command (record one with lupe sched record)"), EXIT_USAGE;
	return sched_latency(&o);
}
