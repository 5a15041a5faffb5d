// SPDX-License-Identifier: GPL-2.0
/*
 * lupe trace: strace -f's lines for a command, processes or the whole
 * machine, captured by a BPF program (with the strings and buffers the
 * arguments point to) or, where BPF is not available, by the raw_syscalls
 * tracepoints (numbers only, said once). LUPE_TRACE_NO_BPF=1 or the hidden
 * --no-bpf forces the fallback; LUPE_TRACE_NO_STRINGS=1 has BPF copy no
 * memory, so its lines are the fallback's (tests/shell/trace-same.sh). -i prints a perf.data file of those
 * tracepoints (lupe record -e 'raw_syscalls:*') as the fallback prints the
 * live calls.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lupe/number.h>
#include <lupe/trace.h>
#include <lupe/workload.h>
#include "builtin.h"
#include "options.h"
#include "export-out.h"
#include "trace.h"

struct trace_opts {
	const char *pids, *events, *output, *input;
	bool all, summary_only, with_summary, time, failure, no_bpf, fd_paths;
	double duration;
	unsigned int max_strlen;
	size_t buf_bytes;
};

/* --buffer-size: megabytes, or kilobytes with K */
static error_t parse_buffer_size(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct trace_opts *o = state->input;
	char *end;

	(void)opt;
	o->buf_bytes = strtoul(arg, &end, 10);
	if (o->buf_bytes > (1UL << 30) || *arg == '-')
		o->buf_bytes = 0; /* refused below, before a shift could wrap it into range */
	if (*end == 'K' || *end == 'k')
		o->buf_bytes <<= 10, end++;
	else if (*end == 'M' || *end == 'm' || !*end)
		o->buf_bytes <<= 20, end += !!*end;
	if (*end || o->buf_bytes < 4096 || o->buf_bytes > (1UL << 30))
		argp_error(state, "invalid --buffer-size '%s' (megabytes, or kilobytes with K: 4K to 1024M)", arg);
	return 0;
}

#define CMD_OPTS struct trace_opts
static const struct cmd_option options[] = {
	OPT_PID(pids, "trace existing processes (comma-separated ids); Ctrl-C detaches"),
	OPT_ALL_CPUS(all, "trace every process of the machine"),
	OPT_STRING('e', "expr", "SYSCALLS", events, "only these syscalls (names, globs, !negation, comma-separated); sys:name adds a tracepoint"),
	OPT_ALIAS("event", NULL),
	OPT_BOOL('s', "summary", summary_only, "print only a summary of calls, errors and times per thread"),
	OPT_BOOL('S', "with-summary", with_summary, "print the calls and the summary"),
	OPT_DOUBLE(0, "duration", "MS", duration, 0, HUGE_VAL, "only calls that took at least MS milliseconds"),
	OPT_BOOL(0, "failure", failure, "only calls that failed"),
	OPT_BOOL('T', "time", time, "print each call's duration (seconds) at the end of its line"),
	OPT_BOOL('y', "decode-fds", fd_paths, "print the paths behind file descriptors: 3</etc/hostname>"),
	OPT_STRING('o', "output", "FILE", output, "write the trace to FILE instead of stderr"),
	OPT_INPUT(input, "print the calls recorded in FILE (lupe record -e 'raw_syscalls:*')"),
	OPT_UINT(0, "max-strlen", "N", max_strlen, 1, 4000, "bytes of strings and buffers shown (default 32)"),
	OPT_CALLBACK(0, "buffer-size", "SIZE", 0, parse_buffer_size, "ring buffer size in MB (or KB with K): raise it if events are lost"),
	OPT_BOOL_F(0, "no-bpf", OPTION_HIDDEN, no_bpf, "use the tracepoint fallback"),
	OPT_END()
};
#undef CMD_OPTS

static const struct cmd_argp argp = {
	.options = options,
	.args_doc = "[<command>]",
	.doc = "Trace the syscalls of a command, of processes or of the machine, as strace does.",
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static int parse_pids(const char *s, pid_t **out)
{
	int n = 0;
	pid_t *pids = NULL;

	while (*s) {
		size_t len = strcspn(s, ",");
		int64_t v;
		pid_t *tmp;
		int err = lupe_parse_i64n(s, len, 10, 1, LUPE_PID_MAX, &v);

		if (err || (s[len] && !s[len + 1])) {
			free(pids);
			return err ? err : -EINVAL;
		}
		tmp = realloc(pids, (n + 1) * sizeof(*pids));
		if (!tmp) {
			free(pids);
			return -ENOMEM;
		}
		pids = tmp;
		pids[n++] = (pid_t)v;
		s += len + !!s[len];
	}
	*out = pids;
	return n;
}

static bool any_alive(const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		if (kill(pids[i], 0) == 0 || errno == EPERM)
			return true;
	return false;
}

/*
 * One trace, phase by phase: each phase returns 0 to go on, or the exit
 * status of lupe trace; trace_teardown frees what the phases built.
 */
struct trace_session {
	struct trace_opts *o;
	char **cmd;			/* the command to trace, or NULL */
	pid_t *pids;			/* -p */
	int npids;
	bool set[LUPE_SC_MAX];		/* -e's syscalls */
	char *tps[17];			/* -e's sys:name tracepoints, NULL-terminated */
	int ntp;
	struct lupe_trace_opts topts;
	struct lupe_trace *t;
	struct lupe_workload w;
	bool summary;			/* -s or -S */
	struct trace_printer *printer;
	FILE *out;
};

/* Exactly one target, and the -p processes exist. */
static int trace_check_args(struct trace_session *s)
{
	struct trace_opts *o = s->o;
	const char *env = getenv("LUPE_TRACE_NO_BPF");

	if (env && *env && strcmp(env, "0"))
		o->no_bpf = true;
	if (!!s->cmd + !!o->pids + o->all + !!o->input != 1) {
		error("say what to trace: a command after '--', -p PID, -a or -i FILE (only one of them)");
		return EXIT_USAGE;
	}
	if (o->pids && (s->npids = parse_pids(o->pids, &s->pids)) <= 0) {
		error("invalid pid list '%s' (%s)", o->pids, pid_list_error(-s->npids));
		return EXIT_USAGE;
	}
	for (int i = 0; i < s->npids; i++) {
		if (kill(s->pids[i], 0) && errno == ESRCH) {
			error("no process '%d' to trace (see ps)", s->pids[i]);
			return 1;
		}
	}
	return 0;
}

/* -e: sys:name words are tracepoints to interleave; the rest name syscalls. */
static int trace_events(struct trace_session *s)
{
	const char *events = s->o->events, *bad;
	size_t badlen;
	char *spec, *sc, *save;
	int nsc = 0;

	if (!events)
		return 0;
	spec = strdup(events);
	sc = calloc(1, strlen(events) + 1);
	for (char *word = strtok_r(spec, ",", &save); word; word = strtok_r(NULL, ",", &save)) {
		if (strchr(word, ':')) {
			if (s->ntp < (int)(sizeof(s->tps) / sizeof(s->tps[0])) - 1)
				s->tps[s->ntp++] = strdup(word);
			continue;
		}
		sprintf(sc + strlen(sc), "%s%s", nsc++ ? "," : "", word);
	}
	free(spec);
	if (nsc && lupe_syscall_set_parse(sc, s->set, &bad, &badlen) < 0) {
		error("no syscall matches '%.*s' in -e (names are as in strace: openat, read...)",
		      (int)badlen, bad);
		free(sc);
		return EXIT_USAGE;
	}
	free(sc);
	/* only tracepoints: every syscall still shows, as perf trace -e does */
	if (nsc)
		s->topts.syscalls = s->set;
	s->topts.tracepoints = (const char *const *)s->tps;
	return 0;
}

/* The output, and the capture: a file (-i), BPF, or the raw_syscalls tracepoints. */
static int trace_open(struct trace_session *s)
{
	struct trace_opts *o = s->o;
	const char *env = getenv("LUPE_TRACE_NO_STRINGS");

	if (o->output) {
		s->out = output_fopen(o->output, 0); /* close-on-exec: not the workload's fd 3 */
		if (!s->out)
			return 1;
	}
	setvbuf(s->out, NULL, _IOFBF, 1 << 16);

	s->topts.system_wide = o->all;
	s->topts.max_strlen = o->max_strlen;
	s->topts.buf_bytes = o->buf_bytes;
	s->topts.no_strings = env && *env && strcmp(env, "0");
	if (o->input) {
		s->t = lupe_trace_file_new(&s->topts, o->input);
	} else if (!o->no_bpf) {
		s->t = lupe_trace_new(&s->topts, true);
		if (!s->t)
			warning("BPF capture is not available (%s): tracing with the raw_syscalls tracepoints, strings and buffers are not shown",
				errno == LUPE_ERR_NOT_SUPPORTED ?
				"lupe was built without libbpf, clang or bpftool" : lupe_strerror(errno));
	} else {
		warning("BPF capture is off: tracing with the raw_syscalls tracepoints, strings and buffers are not shown");
	}
	if (!s->t && !o->input)
		s->t = lupe_trace_new(&s->topts, false);
	if (!s->t)
		return error("cannot trace: %s", lupe_strerror(errno)), 1;
	return 0;
}

/* The command (forked, not yet run) or the -p processes attached, and the capture started. */
static int trace_attach(struct trace_session *s)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int err = 0;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (s->cmd) {
		err = lupe_workload_prepare(&s->w, s->cmd);
		if (!err)
			err = lupe_trace_add_pid(s->t, s->w.pid, true);
	} else {
		for (int i = 0; i < s->npids && !err; i++)
			err = lupe_trace_add_pid(s->t, s->pids[i], false);
	}
	if (!err)
		err = lupe_trace_start(s->t);
	if (!err)
		return 0;
	if (s->w.pid > 0)
		lupe_workload_abort(&s->w);
	if (s->o->input && !s->ntp)
		; /* the library said why it cannot read the file */
	else if (err == -EACCES || err == -EPERM)
		error("cannot open the raw_syscalls tracepoints: permission denied (run as root, or set /proc/sys/kernel/perf_event_paranoid to -1)");
	else if (err == -ESRCH)
		error("cannot trace '%s': no such process", s->o->pids);
	else if (s->ntp && (err == -ENOENT || err == -EINVAL))
		error("cannot open the tracepoints in -e '%s': %s (see 'lupe list tracepoint')",
		      s->o->events, lupe_strerror(err));
	else
		error("cannot trace: %s", lupe_strerror(err));
	return 1;
}

/* The printer, told the traced tasks' open fds; then the command runs. */
static int trace_print_start(struct trace_session *s)
{
	struct trace_opts *o = s->o;
	struct trace_print_opts popts = {
		.out = s->out,
		.max_strlen = o->max_strlen,
		.events = !o->summary_only,
		.summary = o->summary_only || o->with_summary,
		.time = o->time,
		.failure = o->failure,
		.min_ms = o->duration,
		.main_pid = s->w.pid > 0 ? s->w.pid : (s->npids == 1 ? s->pids[0] : 0),
		.workload = s->w.pid > 0 || o->input,
		.first_is_main = o->input, /* the recorded workload's calls come first */
		.fd_paths = o->fd_paths,
	};
	int err;

	s->summary = popts.summary;
	s->printer = trace_printer_new(&popts);
	if (!s->printer)
		return error("out of memory"), 1;
	for (int i = 0; i < s->npids; i++)
		trace_printer_prime_fds(s->printer, s->pids[i]);
	if (s->w.pid > 0) {
		trace_printer_prime_fds(s->printer, s->w.pid);
		err = cmd_workload_start(&s->w, s->cmd[0]);
		if (err)
			return err;
	}
	return 0;
}

/* Print the calls until the command ends, the processes are gone or a signal comes. */
static int trace_loop(struct trace_session *s)
{
	struct lupe_workload *w = &s->w;
	int err, final_passes = 0;

	for (;;) {
		bool done = false;

		if (w->pid > 0 && !w->reaped && waitpid(w->pid, &w->status, WNOHANG) == w->pid)
			w->reaped = 1;
		if (w->pid > 0 ? w->reaped : (interrupted || (s->npids && !any_alive(s->pids, s->npids))))
			done = true;
		if ((interrupted && w->pid <= 0) || s->o->input)
			done = true;
		err = lupe_trace_poll(s->t, done ? 0 : 100, trace_printer_event, s->printer);
		fflush(s->out);
		if (s->o->input && err == -ENODATA)
			return error("'%s' holds no raw_syscalls events (record them with lupe record -e 'raw_syscalls:*')",
				     s->o->input), 1;
		if (err < 0 && err != -EINTR) {
			error("reading the trace: %s", lupe_strerror(err));
			return 0;
		}
		/*
		 * drained after the end: what is left in the ring has been read;
		 * a machine (-a) or processes that keep calling fill it again as
		 * fast as it drains, so the end gets a few passes, not forever
		 */
		if (done && (err <= 0 || ++final_passes > 8))
			return 0;
	}
}

/* The last lines, the summary and the lost count; the command's exit status. */
static int trace_finish(struct trace_session *s)
{
	unsigned long long lost;

	trace_printer_finish(s->printer);
	if (s->w.pid > 0 && s->w.reaped)
		trace_printer_exited(s->printer, s->w.pid, s->w.status);
	if (s->summary)
		trace_printer_summary(s->printer);
	fflush(s->out);
	lost = lupe_trace_lost(s->t);
	if (lost)
		warning("%llu events were lost: the ring buffer was full (try --buffer-size with more MB, or -e to trace fewer syscalls)",
			lost);
	return s->w.pid > 0 ? lupe_workload_exit_code(&s->w) : 0;
}

/* Free what the phases built; a failed write of the output fails a clean run. */
static int trace_teardown(struct trace_session *s, int ret)
{
	trace_printer_delete(s->printer);
	lupe_trace_delete(s->t);
	if (s->out != stderr && s->out && fclose(s->out) && ret == 0)
		ret = error("writing '%s': %s", s->o->output, strerror(errno)) ? 1 : 1;
	free(s->pids);
	for (int i = 0; i < s->ntp; i++)
		free(s->tps[i]);
	return ret;
}

/* The phases in order; each returns 0 to go on, or lupe trace's exit status. */
static int (*const trace_phases[])(struct trace_session *) = {
	trace_check_args, trace_events, trace_open, trace_attach, trace_print_start, trace_loop,
	trace_finish,
};

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = { .max_strlen = 32 };
	struct trace_session s = { .o = &o, .out = stderr, .topts = { .sz = sizeof(s.topts) }, .w = { .pid = -1 } };
	int idx, ret = 0;

	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		return EXIT_USAGE;
	s.cmd = idx < argc ? argv + idx : NULL;
	for (size_t i = 0; !ret && i < sizeof(trace_phases) / sizeof(trace_phases[0]); i++)
		ret = trace_phases[i](&s);
	return trace_teardown(&s, ret);
}
