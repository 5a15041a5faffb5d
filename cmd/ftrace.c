// SPDX-License-Identifier: GPL-2.0
/*
 * lupe ftrace: the kernel's function tracer on a command, a process or the
 * whole system, perf ftrace's options (-T, -N, -G, -t, -p, -a, --inherit,
 * -m) plus --duration. The tracer runs in lupe's own tracefs instance
 * (lib/ftrace); its trace_pipe is copied to stdout as it fills, as perf
 * copies the global one.
 */
#include <errno.h>
#include <math.h>
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
#include "options.h"

#define MAX_FUNCS 64

struct ftrace_opts {
	const char *funcs[MAX_FUNCS + 1], *notrace[MAX_FUNCS + 1], *graph[MAX_FUNCS + 1];
	int nfuncs, nnotrace, ngraph;
	const char *tracer, *pid;
	int all, inherit;
	size_t buffer_kb;
	double duration_ms;
};

/* -T, -N, -G: one more function for the list the row names */
static error_t add_func(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct ftrace_opts *o = state->input;
	const char **v = cmd_opt_field(state, opt);
	int *n = v == o->funcs ? &o->nfuncs : v == o->notrace ? &o->nnotrace : &o->ngraph;

	if (*n >= MAX_FUNCS)
		argp_error(state, "too many functions (at most %d)", MAX_FUNCS);
	v[(*n)++] = arg;
	return 0;
}

/* -m: kilobytes, from a number with a B, K, M or G suffix */
static error_t set_buffer_size(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);

	(void)opt;
	switch (end == arg || (*end && end[1]) ? 0 : *end) {
	case 'B': case 'b': v = (v + 1023) / 1024; break;
	case 'K': case 'k': break;
	case 'M': case 'm': v *= 1024; break;
	case 'G': case 'g': v *= 1024 * 1024; break;
	default: v = 0;
	}
	if (!v)
		argp_error(state, "invalid buffer size '%s' (a number with a B, K, M or G suffix)", arg);
	((struct ftrace_opts *)state->input)->buffer_kb = (size_t)v;
	return 0;
}

#define CMD_OPTS struct ftrace_opts
static const struct cmd_option options[] = {
	OPT_CALLBACK_FIELD('T', "trace-funcs", "FUNC", 0, funcs, add_func, "trace FUNC (a glob) with the function tracer; repeatable"),
	OPT_CALLBACK_FIELD('N', "notrace-funcs", "FUNC", 0, notrace, add_func, "do not trace FUNC"),
	OPT_CALLBACK_FIELD('G', "graph-funcs", "FUNC", 0, graph, add_func, "trace FUNC with the function_graph tracer (when the kernel has it)"),
	OPT_STRING('t', "tracer", "TRACER", tracer, "function or function_graph (perf's default; needs -T on this kernel)"),
	OPT_PID(pid, "trace these processes (comma-separated)"),
	OPT_ALL_CPUS(all, "trace every task"),
	OPT_BOOL(0, "inherit", inherit, "trace the children of traced tasks too"),
	OPT_CALLBACK('m', "buffer-size", "SIZE", 0, set_buffer_size, "per-CPU buffer, with a B, K, M or G suffix"),
	OPT_DOUBLE(0, "duration", "MS", duration_ms, 0.001, HUGE_VAL, "stop after MS milliseconds (without a command)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, "[-- COMMAND [ARGS]]",
	"Trace kernel functions with the kernel's function tracer." };

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
		err = cmd_workload_prepare(&w, argv + idx);
		if (err)
			return err;
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
		err = cmd_workload_start(&w, argv[idx]);
		if (err) {
			lupe_ftrace_delete(f);
			return err;
		}
	} else if (o.duration_ms > 0) {
		until = now_ms() + o.duration_ms;
	}
	ftrace_copy_until_done(f, &w, until);
	return ftrace_finish(f, &w);
}
