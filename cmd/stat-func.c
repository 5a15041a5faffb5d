// SPDX-License-Identifier: GPL-2.0
/*
 * lupe stat --func's driver: resolve the specs, run (or attach to) the
 * program with a func session, drain its records while it runs, hand the
 * figures to ui/stat-func.c. Ctrl-C with -p detaches: the session closes,
 * the probes go, the program runs on with its text as it was.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lupe/cpumap.h>
#include <lupe/evsel.h>
#include <lupe/workload.h>
#include "builtin.h"
#include "stat-func.h"

/* error()'s sentence, and 1: the exit code of a failure */
#define error1(...) (error(__VA_ARGS__), 1)

/*
 * One count, phase by phase: each phase returns 0 to go on, or the exit
 * status; run_teardown frees what they built.
 */
struct run {
	const struct stat_func_opts *o;
	struct lupe_func_session *s;
	struct lupe_func_target *t;
	int nt;
	int header_done;
	struct lupe_thread_map *threads;	/* -p */
	struct lupe_workload w;			/* the program, when started */
	int started;
	pid_t *tids;
	int nr_tids;
	char what[512];				/* the counted, as the summary names it */
	sigset_t sigs, old;			/* held while counting (blocked), and before */
	int blocked;
	double t0;
};

static void resolve_failed(const char *spec, const struct lupe_func_error *e)
{
	switch (e->why) {
	case LUPE_FUNC_NO_DSO:
		error("cannot count '%s': no file '%s' (give a path, or a library the program loads)",
			 spec, e->subject);
		break;
	case LUPE_FUNC_UNKNOWN:
		if (e->hint[0])
			error("no function '%s' in '%s' (did you mean: %s?)", spec, e->subject, e->hint);
		else
			error("no function '%s' in '%s' (list them with nm or readelf -s)", spec, e->subject);
		break;
	case LUPE_FUNC_INLINE_ONLY:
		error("function '%s' exists only inlined in '%s': count its source lines instead, --func %s",
			 spec, e->subject, e->hint);
		break;
	case LUPE_FUNC_STRIPPED:
		error("cannot find '%s': '%s' is stripped (no symbol table, no debuglink); rebuild it with symbols or install its debug info",
			 spec, e->subject);
		break;
	case LUPE_FUNC_NO_LINES:
		error("no code for lines '%s' in '%s' (check the file name and lines; build with -g)",
			 spec, e->subject);
		break;
	case LUPE_FUNC_NO_DWARF:
		error("cannot count lines '%s': no DWARF line table in '%s' (build with -g)", spec,
			 e->subject);
		break;
	case LUPE_FUNC_OK:
		break;
	}
}

static void on_call(void *arg, const struct lupe_func_call *call)
{
	struct run *r = arg;

	if (!r->header_done) {
		stat_func_print_call_header(r->o, r->s);
		r->header_done = 1;
	}
	stat_func_print_call(r->o, r->s, &r->t[call->target], call);
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
		return error1("no permission to probe functions: uprobes and tracefs need root or CAP_PERFMON with CAP_SYS_ADMIN (perf_event_paranoid is %d)",
				lupe_perf_event_paranoid());
	if (err == -LUPE_ERR_NO_TRACEFS)
		return error1("cannot create uprobes: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	if (fail->evsel >= 0) {
		const struct lupe_event *ev = lupe_func_session_value_event(s, fail->evsel);

		if (ev)
			return error1("%s", lupe_open_strerror(err, &ev->attr, ev->name, -1, fail->pid,
								msg, sizeof(msg)));
	}
	if (err == -EINVAL)
		return error1("cannot open the function probes: %s (counting inside functions of threads needs Linux 6.12 or later)",
				lupe_strerror(err));
	return error1("cannot open the function probes: %s", lupe_strerror(err));
}

/* --func's specs resolved into r->t; 0 or the exit status. */
static int resolve_specs(struct run *r)
{
	const struct stat_func_opts *o = r->o;
	struct lupe_func_error ferr;

	for (int i = 0; i < o->nr_specs; i++) {
		int err = lupe_func_resolve(o->specs[i], o->argc ? o->argv[0] : NULL,
					    o->pid ? atoi(o->pid) : 0, &r->t, &r->nt, &ferr);

		if (err == -LUPE_ERR_PARSE) {
			error("cannot parse --func '%s': give FUNCTION, DSO:FUNCTION or FILE:LINE-LINE",
				 o->specs[i]);
			return 129;
		}
		if (err == -ENOENT && ferr.why != LUPE_FUNC_OK) {
			resolve_failed(o->specs[i], &ferr);
			return 1;
		}
		if (err)
			return error1("cannot resolve --func '%s': %s", o->specs[i], lupe_strerror(err));
	}
	r->s = lupe_func_session_new(o->events, r->t, r->nt);
	if (!r->s)
		return error1("cannot set up the counting: %s", strerror(errno));
	if (o->per_call)
		lupe_func_session_set_call_fn(r->s, on_call, r);
	/* LUPE_FUNC_MECHANISM=records: sample records even where BPF works (tests, comparisons) */
	if (getenv("LUPE_FUNC_MECHANISM") && !strcmp(getenv("LUPE_FUNC_MECHANISM"), "records"))
		lupe_func_session_set_records(r->s, 1);
	return 0;
}

/* The threads to count: -p's, or the program's, forked and waiting to run. */
static int find_tasks(struct run *r)
{
	const struct stat_func_opts *o = r->o;

	if (o->pid) {
		r->threads = lupe_thread_map_new_pids(o->pid);
		if (!r->threads)
			return error1("cannot count process '%s': %s", o->pid,
				      errno == ESRCH ? "no such process" : "not a process id");
		r->nr_tids = lupe_thread_map_nr(r->threads);
		snprintf(r->what, sizeof(r->what), "process id '%s'", o->pid);
	} else {
		size_t len = snprintf(r->what, sizeof(r->what), "'");
		int err;

		for (int i = 0; i < o->argc && len < sizeof(r->what); i++)
			len += snprintf(r->what + len, sizeof(r->what) - len, "%s%s", i ? " " : "", o->argv[i]);
		if (len < sizeof(r->what) - 1)
			strcat(r->what, "'");
		err = cmd_workload_prepare(&r->w, o->argv);
		if (err)
			return err;
		r->started = 1;
		r->nr_tids = 1;
	}
	r->tids = calloc(r->nr_tids, sizeof(*r->tids));
	if (!r->tids)
		return 1;
	for (int i = 0; i < r->nr_tids; i++)
		r->tids[i] = r->threads ? lupe_thread_map_pid(r->threads, i) : r->w.pid;
	return 0;
}

/* With the signals held for sigtimedwait: the probes on, the program run. */
static int start_counting(struct run *r)
{
	const struct stat_func_opts *o = r->o;
	struct lupe_open_failure fail;
	int err;

	sigemptyset(&r->sigs);
	sigaddset(&r->sigs, SIGCHLD);
	sigaddset(&r->sigs, SIGINT);
	sigaddset(&r->sigs, SIGTERM);
	sigaddset(&r->sigs, SIGHUP);
	signal(SIGINT, no_op);
	signal(SIGTERM, no_op);
	sigprocmask(SIG_BLOCK, &r->sigs, &r->old);
	r->blocked = 1;
	err = lupe_func_session_open(r->s, r->tids, r->nr_tids, !o->pid, &fail);
	if (err)
		return open_failed(err, &fail, r->s);
	r->t0 = now_s();
	if (o->pid) {
		lupe_func_session_enable(r->s);
	} else {
		err = cmd_workload_start(&r->w, o->argv[0]);
		if (err) {
			r->started = 0;
			return err;
		}
	}
	return 0;
}

/* Drain the records until the program ends, or -p's process does or a signal detaches. */
static void count_until_done(struct run *r)
{
	struct lupe_workload *w = &r->w;

	for (int busy = 0;;) {
		/* drain every 10 ms, every 1 ms while records flow */
		struct timespec ts = { 0, (busy ? 1 : 10) * 1000000 };
		int sig = sigtimedwait(&r->sigs, NULL, &ts);

		busy = lupe_func_session_poll(r->s) > 0;
		if (sig == SIGCHLD && r->started) {
			if (waitpid(w->pid, &w->status, WNOHANG) == w->pid) {
				w->reaped = 1;
				return;
			}
		} else if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			if (r->o->pid)
				return;
			if (sig != SIGINT)
				kill(w->pid, sig);
		} else if (sig < 0 && r->o->pid && kill(r->tids[0], 0) && errno == ESRCH) {
			return;
		}
	}
}

/* Free what the phases built: a program not run to its end is killed. */
static int run_teardown(struct run *r, int ret)
{
	if (r->blocked) {
		if (r->started)
			lupe_workload_abort(&r->w);
		lupe_func_session_close(r->s);
		sigprocmask(SIG_SETMASK, &r->old, NULL);
	}
	free(r->tids);
	lupe_thread_map_put(r->threads);
	lupe_func_session_delete(r->s);
	lupe_func_targets_delete(r->t, r->nt);
	return ret;
}

int stat_func_run(const struct stat_func_opts *o)
{
	struct run r = { .o = o };
	int ret;

	ret = resolve_specs(&r);
	if (!ret)
		ret = find_tasks(&r);
	if (!ret)
		ret = start_counting(&r);
	if (ret)
		return run_teardown(&r, ret);
	count_until_done(&r);
	lupe_func_session_close(r.s);
	stat_func_print(o, r.s, r.what, now_s() - r.t0);
	if (r.started) {
		ret = lupe_workload_exit_code(&r.w);
		r.started = 0;
	}
	return run_teardown(&r, ret);
}
