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
#include "options.h"
#include "lock.h"

struct lock_opts {
	const char *input, *sort_key;
	int force, quiet, verbose, threads, bpf, all, entries;
	int max_stack, stack_skip;
	unsigned int map_entries;
	const char *pid;
	int sub_idx;            /* argv index of the subcommand word */
};

#define CMD_OPTS struct lock_opts
static const struct cmd_option options[] = {
	OPT_INPUT(input, "input file name (default: perf.data)"),
	OPT_FORCE(force, "read a file not owned by you"),
	OPT_QUIET(quiet, "no header, no warnings"),
	OPT_VERBOSE(verbose, "more messages (the counts of events out of sequence)"),
	OPT_STRING('k', "key", "KEY", sort_key, "sort key: contended, wait_total, wait_max, wait_min, avg_wait (report: also acquired)"),
	OPT_BOOL('t', "threads", threads, "per-thread stats"),
	OPT_INT('E', "entries", "N", entries, 0, 1 << 30, "print at most N entries"),
	OPT_BOOL('b', "use-bpf", bpf, "collect with a BPF program (contention)"),
	OPT_ALL_CPUS(all, "system-wide (contention -b)"),
	OPT_PID(pid, "an existing process (contention -b)"),
	OPT_INT(0, "max-stack", "N", max_stack, 1, 1024, "callchain entries looked at for the caller (default 8)"),
	OPT_INT(0, "stack-skip", "N", stack_skip, 0, 1024, "callchain entries skipped before the caller (default 3)"),
	OPT_UINT(0, "map-nr-entries", "N", map_entries, 1, 1 << 24, "entries of the BPF maps"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL,
	"{record|report|contention} [OPTIONS] [-- COMMAND [ARGS]]",
	"Kernel lock contention, from the lock:contention_begin/end tracepoints." };

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
		return error("out of memory"), 1;
	if (argc && (err = cmd_workload_prepare(&w, argv))) {
		lupe_lock_delete(l);
		return err;
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
		rc = cmd_workload_start(&w, argv[0]);
		if (rc)
			goto done; /* no program ran: no table */
		while (lupe_workload_wait(&w) == -EINTR)
			;
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
		rc = (error("cannot read the BPF program's sums: %s", strerror(-err)), 1);
	else
		lock_print_contention(&po, v, nr, l);
done:
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
