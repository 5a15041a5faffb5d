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

struct run {
	const struct stat_func_opts *o;
	struct lupe_func_session *s;
	struct lupe_func_target *t;
	int nt;
	int header_done;
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
			error("cannot parse --func '%s': give FUNCTION, DSO:FUNCTION or FILE:LINE-LINE",
				 o->specs[i]);
			ret = 129;
			goto out;
		}
		if (err == -ENOENT && ferr.why != LUPE_FUNC_OK) {
			resolve_failed(o->specs[i], &ferr);
			goto out;
		}
		if (err) {
			error("cannot resolve --func '%s': %s", o->specs[i], lupe_strerror(err));
			goto out;
		}
	}
	r.s = lupe_func_session_new(o->events, r.t, r.nt);
	if (!r.s) {
		error("cannot set up the counting: %s", strerror(errno));
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
			error("cannot count process '%s': %s", o->pid,
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
			error("cannot start '%s': %s", o->argv[0], lupe_strerror(err));
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
			error("cannot run '%s': %s", o->argv[0], strerror(-err));
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
	lupe_func_targets_delete(r.t, r.nt);
	return ret;
}
