// SPDX-License-Identifier: GPL-2.0
/*
 * lupe ftrace: the kernel's function tracer on a command, a process or the
 * whole system, perf ftrace's options (-T, -N, -G, -t, -p, -a, --inherit,
 * -m) plus --duration. The tracer runs in lupe's own tracefs instance
 * (lib/ftrace); its trace_pipe is copied to stdout as it fills, as perf
 * copies the global one.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <lupe/ftrace.h>
#include <lupe/workload.h>
#include "builtin.h"

#define MAX_FUNCS 64

struct ftrace_opts {
	const char *funcs[MAX_FUNCS + 1], *notrace[MAX_FUNCS + 1], *graph[MAX_FUNCS + 1];
	int nfuncs, nnotrace, ngraph;
	const char *tracer, *pid;
	int all, inherit;
	size_t buffer_kb;
	double duration_ms;
};

enum { OPT_INHERIT = 0x100, OPT_DURATION };

static const struct argp_option options[] = {
	{ "trace-funcs", 'T', "FUNC", 0, "trace FUNC (a glob) with the function tracer; repeatable", 0 },
	{ "notrace-funcs", 'N', "FUNC", 0, "do not trace FUNC", 0 },
	{ "graph-funcs", 'G', "FUNC", 0, "trace FUNC with the function_graph tracer (when the kernel has it)", 0 },
	{ "tracer", 't', "TRACER", 0, "function or function_graph (perf's default; needs -T on this kernel)", 0 },
	{ "pid", 'p', "PID", 0, "trace these processes (comma-separated)", 0 },
	{ "all-cpus", 'a', NULL, 0, "trace every task", 0 },
	{ "inherit", OPT_INHERIT, NULL, 0, "trace the children of traced tasks too", 0 },
	{ "buffer-size", 'm', "SIZE", 0, "per-CPU buffer, with a B, K, M or G suffix", 0 },
	{ "duration", OPT_DURATION, "MS", 0, "stop after MS milliseconds (without a command)", 0 },
	{ 0 }
};

static int add(const char **v, int *n, const char *arg, struct argp_state *state)
{
	if (*n >= MAX_FUNCS) {
		argp_error(state, "too many functions (at most %d)", MAX_FUNCS);
		return EINVAL;
	}
	v[(*n)++] = arg;
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct ftrace_opts *o = state->input;
	char *end;

	switch (key) {
	case 'T': return add(o->funcs, &o->nfuncs, arg, state);
	case 'N': return add(o->notrace, &o->nnotrace, arg, state);
	case 'G': return add(o->graph, &o->ngraph, arg, state);
	case 't': o->tracer = arg; return 0;
	case 'p': o->pid = arg; return 0;
	case 'a': o->all = 1; return 0;
	case OPT_INHERIT: o->inherit = 1; return 0;
	case 'm': {
		unsigned long long v = strtoull(arg, &end, 10);

		switch (*end) {
		case 'B': case 'b': v = (v + 1023) / 1024; break;
		case 'K': case 'k': break;
		case 'M': case 'm': v *= 1024; break;
		case 'G': case 'g': v *= 1024 * 1024; break;
		default:
			argp_error(state, "invalid buffer size '%s' (a number with a B, K, M or G suffix)", arg);
			return EINVAL;
		}
		if (end == arg || end[1] || !v) {
			argp_error(state, "invalid buffer size '%s' (a number with a B, K, M or G suffix)", arg);
			return EINVAL;
		}
		o->buffer_kb = (size_t)v;
		return 0;
	}
	case OPT_DURATION:
		o->duration_ms = strtod(arg, &end);
		if (end == arg || *end || o->duration_ms <= 0) {
			argp_error(state, "invalid duration '%s' (milliseconds, e.g. 500)", arg);
			return EINVAL;
		}
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[-- COMMAND [ARGS]]",
	.doc = "Trace kernel functions with the kernel's function tracer.",
};

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

static int copy_out(struct lupe_ftrace *f)
{
	char buf[65536];
	ssize_t n;

	while ((n = lupe_ftrace_read(f, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
			return -EIO;
	return n < 0 ? (int)n : 0;
}

static int add_pid(void *f, pid_t pid)
{
	return lupe_ftrace_add_pid(f, pid);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The tracer known, the target given; fo filled. 0 or the exit status. */
static int ftrace_check_args(struct ftrace_opts *o, int has_cmd, struct lupe_ftrace_opts *fo)
{
	if (!o->tracer)
		o->tracer = o->ngraph || !o->nfuncs ? "function_graph" : "function";
	if (strcmp(o->tracer, "function") && strcmp(o->tracer, "function_graph"))
		return error("unknown tracer '%s' (function or function_graph)", o->tracer), EXIT_USAGE;
	if (!strcmp(o->tracer, "function_graph") && !lupe_ftrace_has_tracer("function_graph"))
		return error("the function_graph tracer is not available: this kernel was built without it "
			     "(CONFIG_FUNCTION_GRAPH_TRACER); trace with the function tracer instead: "
			     "lupe ftrace -T FUNC"), 1;
	if (!has_cmd && !o->pid && !o->all)
		return error("say what to trace: a command (-- COMMAND), -p PID or -a"), EXIT_USAGE;
	o->funcs[o->nfuncs] = NULL;
	o->notrace[o->nnotrace] = NULL;
	o->graph[o->ngraph] = NULL;
	fo->tracer = o->tracer;
	fo->funcs = !strcmp(o->tracer, "function_graph") && o->ngraph ? o->graph : o->funcs;
	fo->notrace = o->notrace;
	fo->inherit = o->inherit;
	fo->buffer_kb = o->buffer_kb;
	return 0;
}

/* The tracer on the command or -p's tasks, started: 0, or 1 with f deleted and the command gone. */
static int ftrace_attach(struct lupe_ftrace *f, struct lupe_workload *w, const struct ftrace_opts *o)
{
	int err = 0;

	if (w->pid > 0) {
		err = lupe_ftrace_add_pid(f, w->pid);
	} else if (o->pid && !o->all) {
		err = cmd_for_each_pid(o->pid, add_pid, f);
		if (err == -ESRCH) {
			lupe_ftrace_delete(f);
			return 1;
		}
	}
	if (!err)
		err = lupe_ftrace_start(f);
	if (err) {
		error("cannot start the function tracer: %s", strerror(-err));
		if (w->pid > 0)
			lupe_workload_abort(w);
		lupe_ftrace_delete(f);
		return 1;
	}
	return 0;
}

/* Copy the trace out until the command ends, --duration passes or a signal comes. */
static void ftrace_copy_until_done(struct lupe_ftrace *f, struct lupe_workload *w, double until)
{
	while (!done) {
		struct pollfd p = { .fd = lupe_ftrace_fd(f), .events = POLLIN };

		poll(&p, 1, 100);
		if (copy_out(f) < 0)
			break;
		if (w->pid > 0 && lupe_workload_poll(w))
			break;
		if (until && now_ms() >= until)
			break;
	}
}

/* Stop, copy out the rest and end the command: the exit status. */
static int ftrace_finish(struct lupe_ftrace *f, struct lupe_workload *w)
{
	int rc = 0;

	lupe_ftrace_stop(f);
	if (copy_out(f) < 0)
		rc = error("cannot write the trace: %s", strerror(errno));
	lupe_ftrace_delete(f);
	if (w->pid > 0) {
		if (!w->reaped) {
			kill(w->pid, SIGTERM);
			while (lupe_workload_wait(w) == -EINTR)
				;
		}
		if (!rc)
			rc = lupe_workload_exit_code(w);
	}
	return rc;
}

int cmd_ftrace(int argc, char **argv)
{
	struct ftrace_opts o = { 0 };
	LUPE_OPTS(lupe_ftrace_opts, fo);
	struct lupe_workload w = { .pid = -1 };
	struct lupe_ftrace *f;
	const char *bad = NULL;
	double until = 0;
	int idx, err;

	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		return EXIT_USAGE;
	err = ftrace_check_args(&o, idx < argc, &fo);
	if (err)
		return err;
	if (idx < argc) {
		err = lupe_workload_prepare(&w, argv + idx);
		if (err)
			return error("cannot start '%s': %s", argv[idx], strerror(-err));
	}
	f = lupe_ftrace_new(&fo, &bad);
	if (!f) {
		err = errno;
		if (w.pid > 0)
			lupe_workload_abort(&w);
		return err == EINVAL && bad ? EXIT_USAGE : 1;
	}
	if (ftrace_attach(f, &w, &o))
		return 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (w.pid > 0) {
		err = lupe_workload_start(&w);
		if (err) {
			error("cannot run '%s': %s", argv[idx], strerror(-err));
			lupe_ftrace_delete(f);
			return 127;
		}
	} else if (o.duration_ms > 0) {
		until = now_ms() + o.duration_ms;
	}
	ftrace_copy_until_done(f, &w, until);
	return ftrace_finish(f, &w);
}
