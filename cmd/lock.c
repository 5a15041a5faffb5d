// SPDX-License-Identifier: GPL-2.0
/*
 * lupe lock record|report|contention: kernel lock contention from the
 * lock:contention_begin/end tracepoints, perf 6.1's command. record is
 * lupe record with perf lock record's events (every sample, with a
 * callchain for the caller); report and contention read a perf.data into
 * the lock model (lib/lock) and print perf's tables (ui/lock.c) on stderr,
 * where perf prints them (perf's own shell test reads them there).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/lock.h>
#include <lupe/workload.h>
#include "builtin.h"
#include "lock.h"

struct lock_opts {
	const char *input, *sort_key;
	int force, quiet, verbose, threads, bpf, all, entries;
	int max_stack, stack_skip;
	unsigned int map_entries;
	const char *pid;
	int sub_idx;            /* argv index of the subcommand word */
};

enum { OPT_MAX_STACK = 0x100, OPT_STACK_SKIP, OPT_MAP_NR };

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "input file name (default: perf.data)", 0 },
	{ "force", 'f', NULL, 0, "read a file not owned by you", 0 },
	{ "quiet", 'q', NULL, 0, "no header, no warnings", 0 },
	{ "verbose", 'v', NULL, 0, "more messages (the counts of events out of sequence)", 0 },
	{ "key", 'k', "KEY", 0, "sort key: contended, wait_total, wait_max, wait_min, avg_wait (report: also acquired)", 0 },
	{ "threads", 't', NULL, 0, "per-thread stats", 0 },
	{ "entries", 'E', "N", 0, "print at most N entries", 0 },
	{ "use-bpf", 'b', NULL, 0, "collect with a BPF program (contention)", 0 },
	{ "all-cpus", 'a', NULL, 0, "system-wide (contention -b)", 0 },
	{ "pid", 'p', "PID", 0, "an existing process (contention -b)", 0 },
	{ "max-stack", OPT_MAX_STACK, "N", 0, "callchain entries looked at for the caller (default 8)", 0 },
	{ "stack-skip", OPT_STACK_SKIP, "N", 0, "callchain entries skipped before the caller (default 3)", 0 },
	{ "map-nr-entries", OPT_MAP_NR, "N", 0, "entries of the BPF maps", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct lock_opts *o = state->input;

	switch (key) {
	case 'i': o->input = arg; return 0;
	case 'f': o->force = 1; return 0;
	case 'q': o->quiet = 1; return 0;
	case 'v': o->verbose++; return 0;
	case 'k': o->sort_key = arg; return 0;
	case 't': o->threads = 1; return 0;
	case 'b': o->bpf = 1; return 0;
	case 'a': o->all = 1; return 0;
	case 'p': o->pid = arg; return 0;
	case 'E': o->entries = (int)opt_int(state, "-E", arg, 0, 1 << 30); return 0;
	case OPT_MAX_STACK: o->max_stack = (int)opt_int(state, "--max-stack", arg, 1, 1024); return 0;
	case OPT_STACK_SKIP: o->stack_skip = (int)opt_int(state, "--stack-skip", arg, 0, 1024); return 0;
	case OPT_MAP_NR: o->map_entries = (unsigned int)opt_int(state, "--map-nr-entries", arg, 1, 1 << 24); return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "{record|report|contention} [OPTIONS] [-- COMMAND [ARGS]]",
	.doc = "Kernel lock contention, from the lock:contention_begin/end tracepoints.",
};

/* lupe lock record [RECORD OPTIONS] [-- COMMAND]: lupe record with perf lock's events. */
static int lock_record(int argc, char **argv)
{
	static const char *const pre[] = {
		"record", "-m", "1024", "-c", "1", "-g",
		"-e", "lock:contention_begin", "-e", "lock:contention_end",
	};
	size_t n = sizeof(pre) / sizeof(pre[0]);
	char **args = calloc(n + (size_t)argc + 1, sizeof(*args));
	int rc;

	if (!args)
		return error("out of memory");
	for (size_t i = 0; i < n; i++)
		args[i] = (char *)pre[i];
	for (int i = 1; i < argc; i++)
		args[n + (size_t)i - 1] = argv[i];
	rc = cmd_record((int)n + argc - 1, args);
	free(args);
	return rc;
}

static int lock_show(struct lock_opts *o, int contention)
{
	LUPE_OPTS(lupe_lock_file_opts, fo, .force = o->force, .stack_skip = o->stack_skip,
		  .max_stack = o->max_stack);
	struct lock_print_opts po = { .out = stderr, .quiet = o->quiet, .threads = o->threads,
				      .entries = o->entries, .verbose = o->verbose };
	enum lupe_lock_aggr aggr = o->threads ? LUPE_LOCK_AGGR_TASK :
				   contention ? LUPE_LOCK_AGGR_CALLER : LUPE_LOCK_AGGR_ADDR;
	const char *key = o->sort_key ? o->sort_key : contention ? "wait_total" : "acquired";
	struct lupe_lock *l = lupe_lock_new(aggr);
	struct lupe_lock_stat **v = NULL;
	size_t nr = 0;
	int err;

	if (!l)
		return error("out of memory");
	err = lupe_lock_read_file(l, o->input ? o->input : "perf.data", &fo);
	if (!err) {
		err = lupe_lock_sorted(l, key, &v, &nr);
		if (err == -EINVAL) {
			lupe_lock_delete(l);
			return error("unknown sort key '%s' (contended, wait_total, wait_max, wait_min, avg_wait%s)",
				     key, contention ? "" : ", acquired"), EXIT_USAGE;
		}
	}
	if (!err) {
		if (contention)
			lock_print_contention(&po, v, nr, l);
		else
			lock_print_report(&po, v, nr, l);
	}
	free(v);
	lupe_lock_delete(l);
	return err ? 1 : 0;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int add_pid(void *b, pid_t pid)
{
	return lupe_lock_bpf_add_pid(b, pid);
}

/* lock contention -b [-a] [-p PID] [-- COMMAND]: sum in the kernel while it runs. */
static int lock_bpf(struct lock_opts *o, int argc, char **argv)
{
	LUPE_OPTS(lupe_lock_bpf_opts, bo, .system_wide = o->all, .aggr_task = o->threads,
		  .stack_skip = o->stack_skip, .max_stack = o->max_stack,
		  .map_entries = o->map_entries);
	struct lock_print_opts po = { .out = stderr, .quiet = o->quiet, .threads = o->threads,
				      .entries = o->entries, .verbose = o->verbose };
	const char *key = o->sort_key ? o->sort_key : "wait_total";
	struct lupe_workload w = { .pid = -1 };
	struct lupe_lock_stat **v = NULL;
	struct lupe_lock_bpf *b;
	struct lupe_lock *l;
	size_t nr = 0;
	int err = 0, rc = 0;

	if (!argc && !o->all && !o->pid)
		return error("say what to watch: a command (-- COMMAND), -p PID or -a"), EXIT_USAGE;
	l = lupe_lock_new(o->threads ? LUPE_LOCK_AGGR_TASK : LUPE_LOCK_AGGR_CALLER);
	if (!l)
		return error("out of memory");
	if (argc && (err = lupe_workload_prepare(&w, argv))) {
		lupe_lock_delete(l);
		return error("cannot start '%s': %s", argv[0], strerror(-err));
	}
	b = lupe_lock_bpf_new(&bo);
	if (!b) {
		if (w.pid > 0)
			lupe_workload_abort(&w);
		lupe_lock_delete(l);
		return 1;
	}
	if (w.pid > 0)
		err = lupe_lock_bpf_add_pid(b, w.pid);
	if (!err && o->pid && !o->all)
		err = cmd_for_each_pid(o->pid, add_pid, b);
	if (!err)
		err = lupe_lock_bpf_start(b);
	if (err) {
		if (w.pid > 0)
			lupe_workload_abort(&w);
		lupe_lock_bpf_delete(b);
		lupe_lock_delete(l);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (w.pid > 0) {
		err = lupe_workload_start(&w);
		if (err) {
			error("cannot run '%s': %s", argv[0], strerror(-err));
			rc = 127;
		}
		while (!err && lupe_workload_wait(&w) == -EINTR)
			;
		if (!err)
			rc = lupe_workload_exit_code(&w);
	} else {
		while (!stop)
			pause();
	}
	lupe_lock_bpf_stop(b);
	err = lupe_lock_bpf_read(b, l);
	if (!err)
		err = lupe_lock_sorted(l, key, &v, &nr);
	if (err == -EINVAL) {
		error("unknown sort key '%s' (contended, wait_total, wait_max, wait_min, avg_wait)", key);
		rc = EXIT_USAGE;
	} else if (err)
		rc = error("cannot read the BPF program's sums: %s", strerror(-err));
	else
		lock_print_contention(&po, v, nr, l);
	free(v);
	lupe_lock_bpf_delete(b);
	lupe_lock_delete(l);
	return rc;
}

int cmd_lock(int argc, char **argv)
{
	struct lock_opts o = { .stack_skip = -1 };
	const char *sub;
	int idx;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return lock_record(argc - 1, argv + 1);
	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		return EXIT_USAGE;
	if (idx >= argc)
		return error("usage: lupe lock {record|report|contention} [OPTIONS] (see lupe lock -h)"),
		       EXIT_USAGE;
	sub = argv[idx];
	if (!strcmp(sub, "record"))
		return lock_record(argc - idx, argv + idx);
	if (strcmp(sub, "report") && strcmp(sub, "contention") && strcmp(sub, "con"))
		return error("unknown lock subcommand '%s' (record, report or contention)", sub),
		       EXIT_USAGE;
	/* the subcommand's own options, perf's parent options among them */
	{
		int sidx;

		if (cmd_parse_options(&argp, argc - idx, argv + idx, 1, &sidx, &o))
			return EXIT_USAGE;
		if (o.bpf) {
			if (!strcmp(sub, "report"))
				return error("-b is for lock contention, not lock report"), EXIT_USAGE;
			return lock_bpf(&o, argc - idx - sidx, argv + idx + sidx);
		}
		if (sidx < argc - idx)
			return error("lock %s takes no command without -b (record one with lupe lock record)",
				     sub), EXIT_USAGE;
	}
	return lock_show(&o, strcmp(sub, "report") != 0);
}
