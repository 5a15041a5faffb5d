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

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = { .max_strlen = 32 };
	struct lupe_trace_opts topts = { .sz = sizeof(topts) };
	struct trace_print_opts popts = { 0 };
	struct lupe_workload w = { .pid = -1 };
	struct trace_printer *printer = NULL;
	struct lupe_trace *t = NULL;
	static bool set[LUPE_SC_MAX];
	char *tps[17] = { NULL };
	int ntp = 0;
	pid_t *pids = NULL;
	int npids = 0, idx, ret = 1, err, final_passes = 0;
	unsigned long long lost;
	const char *env = getenv("LUPE_TRACE_NO_BPF");
	FILE *out = stderr;
	struct sigaction sa = { .sa_handler = on_signal };

	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		return EXIT_USAGE;
	if (env && *env && strcmp(env, "0"))
		o.no_bpf = true;
	if ((idx < argc) + !!o.pids + o.all + !!o.input != 1) {
		error("say what to trace: a command after '--', -p PID, -a or -i FILE (only one of them)");
		return EXIT_USAGE;
	}
	if (o.pids && (npids = parse_pids(o.pids, &pids)) <= 0) {
		error("invalid pid list '%s' (%s)", o.pids, pid_list_error(-npids));
		return EXIT_USAGE;
	}
	for (int i = 0; i < npids; i++) {
		if (kill(pids[i], 0) && errno == ESRCH) {
			error("no process '%d' to trace (see ps)", pids[i]);
			free(pids);
			return 1;
		}
	}
	if (o.events) {
		const char *bad;
		size_t badlen;
		char *spec = strdup(o.events), *sc = calloc(1, strlen(o.events) + 1), *save;
		int nsc = 0;

		/* sys:name words are tracepoints to interleave; the rest name syscalls */
		for (char *word = strtok_r(spec, ",", &save); word; word = strtok_r(NULL, ",", &save)) {
			if (strchr(word, ':')) {
				if (ntp < (int)(sizeof(tps) / sizeof(tps[0])) - 1)
					tps[ntp++] = strdup(word);
				continue;
			}
			sprintf(sc + strlen(sc), "%s%s", nsc++ ? "," : "", word);
		}
		free(spec);
		if (nsc && lupe_syscall_set_parse(sc, set, &bad, &badlen) < 0) {
			error("no syscall matches '%.*s' in -e (names are as in strace: openat, read...)",
			      (int)badlen, bad);
			free(sc);
			ret = EXIT_USAGE;
			goto out;
		}
		free(sc);
		/* only tracepoints: every syscall still shows, as perf trace -e does */
		if (nsc)
			topts.syscalls = set;
		topts.tracepoints = (const char *const *)tps;
	}
	if (o.output) {
		out = output_fopen(o.output, 0); /* close-on-exec: not the workload's fd 3 */
		if (!out)
			goto out;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 16);

	topts.system_wide = o.all;
	topts.max_strlen = o.max_strlen;
	topts.buf_bytes = o.buf_bytes;
	env = getenv("LUPE_TRACE_NO_STRINGS");
	topts.no_strings = env && *env && strcmp(env, "0");
	if (o.input) {
		t = lupe_trace_file_new(&topts, o.input);
	} else if (!o.no_bpf) {
		t = lupe_trace_new(&topts, true);
		if (!t)
			warning("BPF capture is not available (%s): tracing with the raw_syscalls tracepoints, strings and buffers are not shown",
				errno == LUPE_ERR_NOT_SUPPORTED ?
				"lupe was built without libbpf, clang or bpftool" : lupe_strerror(errno));
	} else {
		warning("BPF capture is off: tracing with the raw_syscalls tracepoints, strings and buffers are not shown");
	}
	if (!t && !o.input)
		t = lupe_trace_new(&topts, false);
	if (!t) {
		error("cannot trace: %s", lupe_strerror(errno));
		goto out;
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (idx < argc) {
		err = lupe_workload_prepare(&w, argv + idx);
		if (!err)
			err = lupe_trace_add_pid(t, w.pid, true);
	} else {
		err = 0;
		for (int i = 0; i < npids && !err; i++)
			err = lupe_trace_add_pid(t, pids[i], false);
	}
	if (!err)
		err = lupe_trace_start(t);
	if (err) {
		if (w.pid > 0)
			lupe_workload_abort(&w);
		if (o.input && !ntp)
			; /* the library said why it cannot read the file */
		else if (err == -EACCES || err == -EPERM)
			error("cannot open the raw_syscalls tracepoints: permission denied (run as root, or set /proc/sys/kernel/perf_event_paranoid to -1)");
		else if (err == -ESRCH)
			error("cannot trace '%s': no such process", o.pids);
		else if (ntp && (err == -ENOENT || err == -EINVAL))
			error("cannot open the tracepoints in -e '%s': %s (see 'lupe list tracepoint')",
			      o.events, lupe_strerror(err));
		else
			error("cannot trace: %s", lupe_strerror(err));
		goto out;
	}

	popts.out = out;
	popts.max_strlen = o.max_strlen;
	popts.events = !o.summary_only;
	popts.summary = o.summary_only || o.with_summary;
	popts.time = o.time;
	popts.failure = o.failure;
	popts.min_ms = o.duration;
	popts.main_pid = w.pid > 0 ? w.pid : (npids == 1 ? pids[0] : 0);
	popts.workload = w.pid > 0 || o.input;
	popts.first_is_main = o.input; /* the recorded workload's calls come first */
	popts.fd_paths = o.fd_paths;
	printer = trace_printer_new(&popts);
	if (!printer) {
		error("out of memory");
		goto out;
	}

	for (int i = 0; i < npids; i++)
		trace_printer_prime_fds(printer, pids[i]);
	if (w.pid > 0) {
		trace_printer_prime_fds(printer, w.pid);
		err = lupe_workload_start(&w);
		if (err) {
			error("cannot run '%s': %s", argv[idx], strerror(-err));
			ret = err == -ENOENT ? 127 : 126;
			goto out;
		}
	}
	for (;;) {
		bool done = false;

		if (w.pid > 0 && !w.reaped && waitpid(w.pid, &w.status, WNOHANG) == w.pid)
			w.reaped = 1;
		if (w.pid > 0 ? w.reaped : (interrupted || (npids && !any_alive(pids, npids))))
			done = true;
		if ((interrupted && w.pid <= 0) || o.input)
			done = true;
		err = lupe_trace_poll(t, done ? 0 : 100, trace_printer_event, printer);
		fflush(out);
		if (o.input && err == -ENODATA) {
			error("'%s' holds no raw_syscalls events (record them with lupe record -e 'raw_syscalls:*')",
			      o.input);
			goto out;
		}
		if (err < 0 && err != -EINTR) {
			error("reading the trace: %s", lupe_strerror(err));
			break;
		}
		/*
		 * drained after the end: what is left in the ring has been read;
		 * a machine (-a) or processes that keep calling fill it again as
		 * fast as it drains, so the end gets a few passes, not forever
		 */
		if (done && (err <= 0 || ++final_passes > 8))
			break;
	}
	trace_printer_finish(printer);
	if (w.pid > 0 && w.reaped)
		trace_printer_exited(printer, w.pid, w.status);
	if (popts.summary)
		trace_printer_summary(printer);
	fflush(out);
	lost = lupe_trace_lost(t);
	if (lost)
		warning("%llu events were lost: the ring buffer was full (try --buffer-size with more MB, or -e to trace fewer syscalls)",
			lost);
	ret = w.pid > 0 ? lupe_workload_exit_code(&w) : 0;
out:
	trace_printer_delete(printer);
	lupe_trace_delete(t);
	if (out != stderr && out && fclose(out) && ret == 0)
		ret = error("writing '%s': %s", o.output, strerror(errno)) ? 1 : 1;
	free(pids);
	for (int i = 0; i < ntp; i++)
		free(tps[i]);
	return ret;
}
