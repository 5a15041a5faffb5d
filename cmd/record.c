// SPDX-License-Identifier: GPL-2.0
/*
 * lupe record: sample events into a perf.data file (or pipe) that Linux
 * perf reads. The pipeline lives in liblupe (lupe/record.h); this file
 * turns options into it, runs the workload, handles signals and prints
 * perf's summary lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>
#include <lupe/evsel.h>
#include <lupe/number.h>
#include <lupe/record.h>
#include <lupe/workload.h>
#include "builtin.h"
#include <sys/stat.h>
#include "filter-error.h"
#include "parse-error.h"
#include "sample-opts.h"

enum {
	OPT_SWITCH_OUTPUT = 0x100,
	OPT_MAX_SIZE,
	OPT_AIO,
	OPT_CONTROL,
};

enum switch_mode { SWITCH_NONE, SWITCH_SIGNAL, SWITCH_SIZE, SWITCH_TIME };

struct record_args {
	struct lupe_record_opts o;
	CMD_TARGET; /* -a is o.system_wide, -G o.cgroups */
	int quiet;
	int freq_set, count_set;
	enum switch_mode switch_output;
	unsigned long long switch_size; /* bytes, SWITCH_SIZE */
	unsigned long long switch_secs; /* SWITCH_TIME */
	const char *control;		/* --control=fifo:CTL[,ACK] or fd:CTL[,ACK] */
};

static int parse_u64(const char *s, unsigned long long *v)
{
	uint64_t u = 0;
	int err = lupe_parse_u64(s, 0, 0, UINT64_MAX, &u);

	*v = u;
	return err ? -1 : 0;
}

/* perf's -m: a page count, or a size with a K/M/G suffix turned into pages. */
static int parse_pages(const char *s, unsigned int *pages)
{
	unsigned long long v, page = (unsigned long long)sysconf(_SC_PAGESIZE);
	char *end;
	size_t n = strlen(s);

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	if (*end) {
		int shift = 0;

		if (end != s + n - 1 && !(end == s + n - 2 && (end[1] == 'B' || end[1] == 'b')))
			return -1;
		switch (*end) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: return -1;
		}
		if (v > UINT64_MAX >> shift)
			return -1;
		v = (v << shift) / page;
	}
	if (!v || v > (1u << 24))
		return -1;
	if (v & (v - 1)) {
		/* the kernel wants a power of two: round up and say so, as perf does */
		unsigned long long p2 = 1;

		while (p2 < v)
			p2 <<= 1;
		v = p2;
		fprintf(stderr, "rounding mmap pages size to %lluK (%llu pages)\n", v * page >> 10, v);
	}
	*pages = (unsigned int)v;
	return 0;
}

/* A size with perf's B/K/M/G suffix (none: bytes), or -1. */
static int parse_size(const char *s, unsigned long long *v)
{
	char *end;
	int shift = 0;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case '\0': case 'b': case 'B': break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	default: return -1;
	}
	if ((*end && end[1]) || *v > UINT64_MAX >> shift)
		return -1;
	*v <<= shift;
	return 0;
}

/* A time with perf's s/m/h/d suffix into seconds, or -1. */
static int parse_time(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-' || !*end || end[1] || *v > UINT64_MAX / 86400)
		return -1;
	switch (*end) {
	case 's': break;
	case 'm': *v *= 60; break;
	case 'h': *v *= 3600; break;
	case 'd': *v *= 86400; break;
	default: return -1;
	}
	return 0;
}

/* perf's usage lines after an option error it reports itself. */
static __attribute__((noreturn)) void usage_exit(void)
{
	fprintf(stderr, "\n Usage: lupe record [<options>] [<command>]\n"
		"    or: lupe record [<options>] -- <command> [<options>]\n\n");
	exit(EXIT_USAGE);
}

/*
 * --user-regs / --intr-regs: perf's register names, comma-separated and
 * case-insensitive; none means all; '?' lists them (and exits as perf does).
 */
static error_t opt_regs(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	const char *list = opt->row.key == 'I' ? "-I?" : "--user-regs=?";
	uint64_t mask = 0, *regs = cmd_opt_field(state, opt);

	if (!arg) {
		*regs = lupe_perf_regs_all();
		return 0;
	}
	if (!strcmp(arg, "?")) {
		fprintf(stderr, "available registers: ");
		for (unsigned int i = 0; i < 64; i++)
			if (lupe_perf_regs_all() & (1ULL << i) && lupe_perf_reg_name(i))
				fprintf(stderr, "%s ", lupe_perf_reg_name(i));
		fputc('\n', stderr);
		usage_exit();
	}
	for (const char *p = arg;;) {
		size_t len = strcspn(p, ",");
		int bit = lupe_perf_reg_bit(p, len);

		if (bit < 0 || !(lupe_perf_regs_all() & (1ULL << bit))) {
			fprintf(stderr, "Warning:\nUnknown register \"%.*s\", check man page or run \"lupe record %s\"\n",
				(int)len, p, list);
			usage_exit();
		}
		mask |= 1ULL << bit;
		if (!p[len])
			break;
		p += len + 1;
	}
	*regs = mask;
	return 0;
}

/* -k: perf's clock names (a CLOCK_ prefix and case do not matter), or a number. */
static error_t opt_clockid(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct lupe_record_opts *o = cmd_opt_field(state, opt);
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME }, { "tai", CLOCK_TAI },
		{ "mono", CLOCK_MONOTONIC }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "real", CLOCK_REALTIME }, { "boot", CLOCK_BOOTTIME },
	};
	int64_t v;

	o->use_clockid = 1;
	if (!lupe_parse_i64(arg, 10, 0, INT32_MAX, &v)) {
		o->clockid = (int)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(arg + (strncasecmp(arg, "CLOCK_", 6) ? 0 : 6), clocks[i].name)) {
			o->clockid = clocks[i].id;
			return 0;
		}
	}
	fprintf(stderr, "Warning:\nunknown clockid %s, check man page\n", arg);
	usage_exit();
}

#define CMD_OPTS struct record_args
static const struct cmd_option options[] = {
	OPT_EVENT("event to sample (repeat or comma-separate); default cycles, or cpu-clock without a hardware PMU"),
	OPT_FILTER("event filter (tracepoints: 'prev_pid > 0'), for the -e before it"),
	OPT_SAMPLE_FREQ(o, "sample at this frequency (default " LUPE_STR(LUPE_RECORD_DEFAULT_FREQ) ")"),
	OPT_SAMPLE_COUNT(o, "sample every N events"),
	OPT_ROW('g', NULL, NULL, 0, "record frame-pointer call graphs"),
	OPT_SAMPLE_CALL_GRAPH(o, "fp, or dwarf[,SIZE]: user registers and SIZE bytes of stack (default 8192)"),
	OPT_BOOL(0, "no-online", o.dwarf_raw, "with --call-graph dwarf: keep the stack copies in the file, as perf does, instead of unwinding them while recording"),
	OPT_ALL_CPUS(o.system_wide, "system-wide: every CPU, every task"),
	OPT_CPU("LIST", cpu_list, "only these CPUs (system-wide on them)"),
	OPT_PID(pids, "record these existing processes (comma list)"),
	OPT_TID(tids, "record these existing threads (comma list)"),
	OPT_STRING('o', "output", "FILE", o.output, "write to FILE (default " LUPE_RECORD_DEFAULT_OUTPUT "; '-' for a pipe)"),
	OPT_BOOL(0, "no-inherit", o.no_inherit, "do not follow child tasks"),
	OPT_ROW('m', "mmap-pages", "PAGES", 0, "ring size per CPU in pages (rounded up to a power of two), or a size with a K/M suffix"),
	OPT_ROW('z', "compression-level", "N", OPTION_ARG_OPTIONAL, "compress records with zstd (level 1-22, default 1)"),
	OPT_QUIET(quiet, "print no summary"),
	/* tools16: build-ids */
	OPT_BOOL('B', "no-buildid", o.no_buildid, "do not collect build-ids (nor fill the build-id cache)"),
	OPT_BOOL('N', "no-buildid-cache", o.no_buildid_cache, "do not put the DSOs hit in the build-id cache"),
	OPT_BOOL(0, "buildid-all", o.buildid_all, "collect build-ids of all DSOs mapped, not only those hit"),
	OPT_BOOL(0, "per-thread", o.per_thread, "use per-thread mmaps (no inheritance; ignored with -a/-C)"),
	OPT_BOOL('T', "timestamp", o.timestamp, "record the sample timestamps (also per thread)"),
	OPT_BOOL('s', "stat", o.inherit_stat, "record per-thread event counts (READ records, see report -T)"),
	OPT_BOOL('d', "data", o.sample_addr, "record the sample virtual addresses (ADDR, DATA_SRC)"),
	OPT_BOOL(0, "switch-events", o.context_switch, "record context switch events"),
	OPT_CGROUP("monitor event in cgroup name only (the names pair with the -e events in order)"),
	OPT_BOOL(0, "all-cgroups", o.all_cgroups, "record cgroup events"),
	OPT_BOOL(0, "namespaces", o.namespaces, "record namespaces events"),
	OPT_BOOL(0, "no-bpf-event", o.no_bpf_event, "record no bpf events"),
	OPT_BOOL(0, "all-user", o.all_user, "configure all used events to run in user space"),
	OPT_BOOL(0, "all-kernel", o.all_kernel, "configure all used events to run in kernel space"),
	OPT_CALLBACK_FIELD(0, "user-regs", "REGS", OPTION_ARG_OPTIONAL, o.user_regs, opt_regs, "sample these user registers (comma list; '?' lists them; none: all)"),
	OPT_CALLBACK_FIELD('I', "intr-regs", "REGS", OPTION_ARG_OPTIONAL, o.intr_regs, opt_regs, "sample these registers at the interrupt (comma list; '?' lists them; none: all)"),
	OPT_CALLBACK_FIELD('k', "clockid", "CLOCK", 0, o, opt_clockid, "sample times from this clock: monotonic, monotonic_raw, realtime, boottime, tai, or a number"),
	OPT_ROW(OPT_SWITCH_OUTPUT, "switch-output", "MODE", OPTION_ARG_OPTIONAL, "rotate to timestamped files on SIGUSR2 (signal, the default), a data size (100M) or a time (30s)"),
	OPT_ROW(OPT_MAX_SIZE, "max-size", "SIZE", 0, "stop when the data reaches SIZE (B/K/M/G)"),
	OPT_BOOL(0, "off-cpu", o.off_cpu, "also record where tasks sleep: the offcpu-time event, from a BPF program on sched_switch"),
	OPT_ROW(OPT_AIO, "aio", "N", OPTION_ARG_OPTIONAL, "write with N asynchronous (POSIX AIO) control blocks (default 1, max 4)"),
	OPT_ROW(OPT_CONTROL, "control", "fifo:CTL[,ACK]|fd:CTL[,ACK]", 0, "take commands (stop, ping, snapshot) from a FIFO or fd, answer ack on ACK (perf daemon's sessions)"),
	OPT_END()
};
#undef CMD_OPTS

/* The options that need code; the table sets the rest. */
static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;
	unsigned long long v;

	switch (key) {
	case 'g': { /* perf's config call-graph.record-mode says what -g records (fp by default) */
		const char *mode = cmd_config_get("call-graph.record-mode");

		sample_parse_call_graph(state, mode ? mode : "fp", &a->o);
		return 0;
	}
	case 'm':
		if (parse_pages(arg, &a->o.mmap_pages))
			argp_error(state, "invalid mmap size '%s': give a number of pages, or a size like 64K", arg);
		return 0;
	case 'z':
		if (arg && (parse_u64(arg, &v) || !v || v > 22))
			argp_error(state, "invalid compression level '%s': give 1 to 22", arg);
		a->o.comp_level = arg ? (int)v : 1;
		return 0;
	case OPT_SWITCH_OUTPUT:
		if (!arg || !strcmp(arg, "signal"))
			a->switch_output = SWITCH_SIGNAL;
		else if (!parse_size(arg, &a->switch_size) && a->switch_size)
			a->switch_output = SWITCH_SIZE;
		else if (!parse_time(arg, &a->switch_secs) && a->switch_secs)
			a->switch_output = SWITCH_TIME;
		else
			argp_error(state, "invalid --switch-output '%s': give signal, a size (100M) or a time (30s)", arg);
		return 0;
	case OPT_MAX_SIZE:
		if (parse_size(arg, &v))
			argp_error(state, "invalid --max-size '%s': give a size with a B/K/M/G unit", arg);
		a->o.max_size = v;
		return 0;
	case OPT_CONTROL:
		if (strncmp(arg, "fifo:", 5) && strncmp(arg, "fd:", 3))
			argp_error(state, "invalid --control '%s': give fifo:CTL[,ACK] or fd:CTL[,ACK]", arg);
		a->control = arg;
		return 0;
	case OPT_AIO:
		/* as perf: 0 is the default of 1, more than 4 is 4 */
		if (arg && parse_u64(arg, &v))
			argp_error(state, "invalid --aio '%s': give 1 to 4 control blocks", arg);
		a->o.aio = !arg || !v ? 1 : v > 4 ? 4 : (int)v;
		return 0;
	case ARGP_KEY_END: /* -C is system-wide on its CPUs; -G pairs with the events */
		a->o.system_wide |= !!a->cpu_list;
		a->o.cgroups = a->cgroups;
		a->o.nr_cgroups = a->nr_cgroups;
		a->freq_set = !!a->o.freq;
		a->count_set = !!a->o.period;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct cmd_argp argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[-- COMMAND [ARGS...]]",
	.doc = "Sample events into perf.data, for a command or for existing tasks (-a, -p, -t).",
};

static volatile sig_atomic_t signr = -1, switch_req;
static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;

	signr = sig;
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], "s", 1) < 0) {
		/* the pipe is full: a wake-up is pending already */
	}
	errno = saved;
}

/* SIGUSR2 with --switch-output: rotate the output, keep recording. */
static void on_usr2(int sig)
{
	int saved = errno;

	(void)sig;
	switch_req = 1;
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], "u", 1) < 0) {
		/* a wake-up is pending already */
	}
	errno = saved;
}

static void catch_signals(int usr2)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction su = { .sa_handler = on_usr2 };

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		sig_pipe[0] = sig_pipe[1] = -1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (usr2) {
		sigemptyset(&su.sa_mask);
		sigaction(SIGUSR2, &su, NULL);
	}
	/* a reader of our pipe that went away is a write error, not a death */
	signal(SIGPIPE, SIG_IGN);
}

/* Whether fd is a pipe: perf writes pipe mode to a piped stdout. */
static int is_fifo(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISFIFO(st.st_mode);
}

/* A one-line sysctl as text, "?" if unreadable. */
static const char *sysctl_text(const char *path)
{
	static char buf[32];
	FILE *f = fopen(path, "re");

	strcpy(buf, "?");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}

/*
 * The kernel refuses frequencies above perf_event_max_sample_rate: an
 * explicit -F above it is an error, the default is lowered, as perf does.
 */
static int check_freq(struct record_args *a)
{
	unsigned long max = strtoul(sysctl_text("/proc/sys/kernel/perf_event_max_sample_rate"), NULL, 10);

	if (!max || a->count_set)
		return 0;
	if (a->freq_set && a->o.freq > max)
		return error("frequency %u Hz is above kernel.perf_event_max_sample_rate (%lu Hz): use a lower -F or raise the sysctl",
			     a->o.freq, max);
	if (!a->freq_set && max < LUPE_RECORD_DEFAULT_FREQ) {
		fprintf(stderr, "Lowering default frequency rate from %u to %lu.\n",
			LUPE_RECORD_DEFAULT_FREQ, max);
		a->o.freq = (unsigned int)max;
	}
	return 0;
}

static int output_error(const char *path, int err)
{
	if (err == -ENOSPC && !strcmp(path, "-"))
		return error("cannot write to stdout: no space left on device (the stream is cut short)");
	if (err == -ENOSPC)
		return error("cannot write '%s': no space left on device (the partial file was removed)", path);
	if (err == -EPIPE)
		return error("cannot write '%s': the reader of the pipe has gone", path);
	if (err == -EDQUOT)
		return error("cannot write '%s': %s (free some space or choose another -o)", path,
			     lupe_strerror(err));
	if (err == -ENOMEM) /* no disk matter: memory, for the kernel's write or lupe's buffers */
		return error("cannot write '%s': out of memory", path);
	return error("cannot write '%s': %s (check the path and its directory, or choose another -o)",
		     path, lupe_strerror(err));
}

static void summary(const struct lupe_record *rec, const struct record_args *a)
{
	struct lupe_record_stats st;
	const char *out = lupe_record_output(rec);
	int pipe = !strcmp(out, "-");
	double mb;

	lupe_record_get_stats(rec, &st);
	mb = (pipe ? st.bytes_written : st.file_size) / 1024.0 / 1024.0;
	if (st.lost)
		fprintf(stderr, "Warning:\nLost %llu samples (%llu chunks): the ring buffer was full; try a larger -m or a lower -F\n\n",
			(unsigned long long)st.lost, (unsigned long long)st.lost_chunks);
	if (a->quiet)
		return;
	fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
		(unsigned long long)st.wakeups);
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples%s)", mb,
		pipe ? "(pipe)" : out, (unsigned long long)st.samples,
		st.lost ? ", some lost" : "");
	/* perf's -z words, on the same line (perf 6.1 leaves the samples out there) */
	if (a->o.comp_level && st.bytes_written)
		fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
			st.bytes_in / 1024.0 / 1024.0, (double)st.bytes_in / st.bytes_written);
	fprintf(stderr, " ]\n");
	if (st.unwound)
		fprintf(stderr, "[ perf record: Unwound %llu dwarf samples while recording, %llu no further than the sampled ip ]\n",
			(unsigned long long)st.unwound, (unsigned long long)st.unwind_failed);
}

/* perf's name for a finished --switch-output file: OUTPUT.YYYYmmddHHMMSScc */
static char *timestamped(const char *output)
{
	struct timeval tv;
	struct tm tm;
	char ts[32], *name;

	for (;;) {
		gettimeofday(&tv, NULL);
		localtime_r(&tv.tv_sec, &tm);
		strftime(ts, sizeof(ts), "%Y%m%d%H%M%S", &tm);
		if (asprintf(&name, "%s.%s%02u", output, ts, (unsigned int)(tv.tv_usec / 10000)) < 0)
			return NULL;
		/* two switches within one hundredth of a second: the next name, not the same */
		if (access(name, F_OK))
			return name;
		free(name);
		usleep(2000);
	}
}

struct switcher {
	uint64_t wakeups;      /* at the last switch */
};

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/*
 * perf's warning when --switch-output's size is under half a ring: each
 * file then grows by what one wakeup brings, past the size asked for.
 */
static void switch_size_warn(const struct record_args *a)
{
	unsigned long long half = ((a->o.mmap_pages ? a->o.mmap_pages : LUPE_RECORD_DEFAULT_PAGES) + 1ULL) *
				  (unsigned long long)sysconf(_SC_PAGESIZE) / 2, n = half;
	static const char units[] = "BKMG";
	int i = 0;

	if (a->quiet || a->switch_output != SWITCH_SIZE || a->switch_size >= half)
		return;
	/* perf's unit_number__scnprintf: down a unit while two or more of the next are left */
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	fprintf(stderr, "WARNING: switch-output data size lower than wakeup kernel buffer size (%llu%c) "
		"expect bigger perf.data sizes\n", n, units[i]);
}

/* Rotate: the file so far becomes OUTPUT.<timestamp>, as perf names it. */
static int switch_output(struct lupe_record *rec, const struct record_args *a, struct switcher *sw,
			 int at_exit)
{
	struct lupe_record_stats st;
	struct stat sb;
	const char *out = lupe_record_output(rec);
	char *name = timestamped(out);
	int err;

	if (!name)
		return -ENOMEM;
	lupe_record_get_stats(rec, &st);
	if (at_exit) /* a device or FIFO output is never renamed */
		err = lstat(out, &sb) || !S_ISREG(sb.st_mode) || !rename(out, name) ? 0 : -errno;
	else
		err = lupe_record_switch_output(rec, name);
	if (!err && !a->quiet) {
		if (at_exit)
			fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
				(unsigned long long)(st.wakeups - sw->wakeups));
		else
			fprintf(stderr, "[ perf record: dump data: Woken up %llu times ]\n",
				(unsigned long long)(st.wakeups - sw->wakeups));
		fprintf(stderr, "[ perf record: Dump %s ]\n", name);
	}
	sw->wakeups = st.wakeups;
	free(name);
	return err;
}

/*
 * --control: perf's command channel, which perf daemon drives. Commands
 * come as words on CTL (a FIFO, or an inherited fd), each answered with
 * "ack\n" on ACK when there is one: "ping", "stop", "snapshot" (a switch
 * of the output with --switch-output). "enable" and "disable" are
 * acknowledged and said to be unsupported: lupe records from the start.
 */
enum control_cmd { CONTROL_NONE, CONTROL_STOP, CONTROL_SNAPSHOT };

/*
 * A --control FIFO, read-write: opening does not wait for the other end,
 * and CTL never sees EOF. Anything else (a regular file, a device, a
 * symlink to one) is refused, before it is opened and again once open:
 * the ack is written into it. -1 and errno (EINVAL: not a FIFO).
 */
static int control_open_fifo(const char *path, int nonblock)
{
	struct stat st;
	int fd;

	if (stat(path, &st))
		return -1;
	if (!S_ISFIFO(st.st_mode))
		return errno = EINVAL, -1;
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (!is_fifo(fd) || (!nonblock && fcntl(fd, F_SETFL, 0))) {
		close(fd);
		return errno = EINVAL, -1;
	}
	return fd;
}

static int control_open(const char *spec, int *ctl, int *ack)
{
	int fifo = !strncmp(spec, "fifo:", 5);
	char *copy = strdup(spec + (fifo ? 5 : 3)), *comma;

	*ctl = *ack = -1;
	if (!copy)
		return -ENOMEM;
	comma = strchr(copy, ',');
	if (comma)
		*comma++ = '\0';
	if (fifo) {
		*ctl = control_open_fifo(copy, 1);
		if (*ctl >= 0 && comma)
			*ack = control_open_fifo(comma, 0);
	} else {
		char *end;

		*ctl = (int)strtol(copy, &end, 10);
		if (*end || *ctl < 0 || fcntl(*ctl, F_GETFD) < 0)
			*ctl = -1, errno = EBADF;
		else if (comma) {
			*ack = (int)strtol(comma, &end, 10);
			if (*end || *ack < 0 || fcntl(*ack, F_GETFD) < 0)
				*ack = -1, errno = EBADF;
		}
		if (*ctl >= 0)
			fcntl(*ctl, F_SETFL, fcntl(*ctl, F_GETFL) | O_NONBLOCK);
	}
	free(copy);
	if (*ctl < 0 || (comma && *ack < 0)) {
		int err = -errno;

		if (*ctl >= 0 && fifo)
			close(*ctl);
		*ctl = *ack = -1;
		return err;
	}
	return 0;
}

/* Read what CTL holds and act on each command; the strongest wins (stop). */
static enum control_cmd control_read(int ctl, int ack, int switching)
{
	enum control_cmd ret = CONTROL_NONE;
	char buf[256];
	ssize_t n;

	while ((n = read(ctl, buf, sizeof(buf) - 1)) > 0) {
		char *save = NULL;

		buf[n] = '\0';
		/* perf daemon writes one word with no newline; others end each with one */
		for (char *w = strtok_r(buf, "\n \t", &save); w; w = strtok_r(NULL, "\n \t", &save)) {
			if (!strcmp(w, "stop"))
				ret = CONTROL_STOP;
			else if (!strcmp(w, "snapshot") && switching && ret == CONTROL_NONE)
				ret = CONTROL_SNAPSHOT;
			else if (!strcmp(w, "snapshot"))
				warning("--control snapshot: give --switch-output to take snapshots");
			else if (!strcmp(w, "enable") || !strcmp(w, "disable"))
				warning("--control %s: not supported, lupe records from the start", w);
			else if (strcmp(w, "ping"))
				warning("--control: unknown command '%s' (stop, ping, snapshot)", w);
			if (ack >= 0 && write(ack, "ack\n", 4) != 4)
				warning("--control: cannot write the ack: %s", strerror(errno));
		}
	}
	return ret;
}

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	return -1;
#endif
}

/*
 * One recording, phase by phase: each phase returns 0 to go on, or the exit
 * status of lupe record; record_teardown frees what the phases built,
 * whichever of them stopped.
 */
struct record_session {
	struct record_args *a;
	int argc;		/* lupe record's, for the file's cmdline */
	char **argv;
	char **cmd;		/* the workload's argv, when has_wl */
	int has_wl;
	struct lupe_event_list evs;
	struct lupe_workload wl;
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads;
	struct lupe_record *rec;
	int pidfd, ctl, ack;	/* -1: none */
	int stop;		/* --control stop */
	int completed;		/* the file is complete: re-raise a stopping signal */
	struct switcher sw;
	uint64_t next_switch;	/* --switch-output=TIME, in now_ms() */
};

/* The options that do not mix, and what they settle before the events. */
static int record_check_args(struct record_session *s)
{
	struct record_args *a = s->a;

	if (a->freq_set && a->count_set)
		return error("-F and -c both given: choose a frequency or a period"), EXIT_USAGE;
	if (!s->has_wl && !a->o.system_wide && !a->pids && !a->tids)
		return error("nothing to record: give a command, -a, -C, -p or -t (see 'lupe record -h')"), EXIT_USAGE;
	if ((a->pids || a->tids) && a->o.system_wide)
		return error("-p/-t and -a/-C do not mix: choose tasks or CPUs"), EXIT_USAGE;
	if (a->o.nr_cgroups && !a->o.system_wide)
		return error("-G samples a cgroup on each CPU: use it with -a or -C CPUS (perf refuses it too)"),
		       EXIT_USAGE;

	if (a->o.per_thread && a->o.system_wide) {
		fprintf(stderr, "Warning:\nSYSTEM/CPU switch overriding PER-THREAD\n");
		a->o.per_thread = 0;
	}
	if (check_freq(a))
		return EXIT_USAGE;
	a->o.output = a->o.output ? a->o.output : (isatty(STDOUT_FILENO) || !is_fifo(STDOUT_FILENO) ? NULL : "-");
	if (a->switch_output && a->o.output && !strcmp(a->o.output, "-"))
		return error("--switch-output and a pipe do not mix: give -o FILE"), EXIT_USAGE;
	switch_size_warn(a);
	a->o.version = "lupe " LUPE_VERSION;
	a->o.argc = s->argc;
	a->o.argv = s->argv;
	/* with -p/-t a command only times the recording, as perf's `-p PID -- sleep 1` */
	a->o.workload = s->has_wl && !a->pids && !a->tids;
	return 0;
}

/* The -e events with their --filter, or the default event. */
static int record_events(struct record_session *s)
{
	struct record_args *a = s->a;

	for (int i = 0; i < a->nr_events; i++) {
		size_t from = s->evs.nr;
		int err = ui_parse_events(&s->evs, a->events[i]);

		if (!err && a->filters[i])
			err = ui_events_set_filter(&s->evs, from, a->events[i], a->filters[i]);
		if (err)
			return EXIT_USAGE;
	}
	if (!s->evs.nr) {
		a->o.default_event = 1;
		if (lupe_record_default_event(&s->evs))
			return error("out of memory"), 1;
	}
	return 0;
}

/* Fork the workload, stopped before exec (lupe_workload_start runs it). */
static int record_prepare_workload(struct record_session *s)
{
	struct record_args *a = s->a;
	/* In pipe mode stdout carries the data: the workload gets stderr, as with perf. */
	int saved = a->o.output && !strcmp(a->o.output, "-") ? dup(STDOUT_FILENO) : -1;
	int err;

	if (saved >= 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	err = lupe_workload_prepare(&s->wl, s->cmd);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	if (err)
		return error("cannot start '%s': %s", s->cmd[0], lupe_strerror(err)), 1;
	if (a->o.workload)
		s->threads = lupe_thread_map_new_one(s->wl.pid);
	else
		a->o.timer_pid = s->wl.pid;
	return 0;
}

/* The CPUs and the tasks to record: -a/-C, -p/-t, or the workload. */
static int record_maps(struct record_session *s)
{
	struct record_args *a = s->a;

	/* without inherit a task's events need no CPU: one ring per thread */
	if ((a->o.no_inherit || a->o.per_thread) && !a->o.system_wide)
		s->cpus = lupe_cpu_map_any();
	else /* -C implies -a: a CPU list is only there system-wide */
		s->cpus = cmd_target_cpus(&a->target, "record");
	if (!s->cpus)
		return EXIT_USAGE;
	if (a->pids || a->tids) {
		s->threads = cmd_target_threads(&a->target, "record");
		if (!s->threads)
			return EXIT_USAGE;
	}
	if (s->has_wl) {
		if (record_prepare_workload(s))
			return 1;
	} else if (!s->threads) {
		s->threads = lupe_thread_map_new_one(-1);
	}
	return s->threads ? 0 : 1;
}

/* Why lupe_record_open failed, said for the user; failed is its index. */
static void record_open_error(struct record_session *s, int err, int failed)
{
	const struct lupe_event *ev = failed >= 0 ? &s->evs.events[failed] : NULL;
	const char *out = lupe_record_output(s->rec);

	if (ev && err == -LUPE_ERR_FILTER)
		ui_filter_error(ev->name, ev->filter);
	else if (failed == -2)
		error("cannot load the --off-cpu BPF program: %s (it needs root or CAP_BPF and CAP_PERFMON)",
		      lupe_strerror(err));
	else if (ev && err == -LUPE_ERR_NOT_SUPPORTED && ev->config_terms)
		error("'%s': %s", ev->name, lupe_last_error()); /* a term */
	else if (ev)
		/* the first task names the cause: another user's process, or a CPU (-1) */
		sample_open_error(ev, err, lupe_thread_map_pid(s->threads, 0));
	else if (err == -EPERM)
		error("cannot mmap %u pages per CPU: over kernel.perf_event_mlock_kb (try a smaller -m)",
		      s->a->o.mmap_pages ? s->a->o.mmap_pages : LUPE_RECORD_DEFAULT_PAGES);
	else if (err == -ENOMEM)
		error("cannot create '%s': out of memory", out);
	else
		error("cannot create '%s': %s (check the directory and its permissions)", out, lupe_strerror(err));
}

/* The events opened and the output created (the default event falls back inside). */
static int record_open(struct record_session *s)
{
	int err, failed;

	s->rec = lupe_record_new(&s->a->o, s->evs.events, s->evs.nr, s->cpus, s->threads);
	if (!s->rec && s->a->o.nr_cgroups && (errno == ENOENT || errno == E2BIG))
		return error(errno == E2BIG ? "-G names more cgroups than there are events: they pair with the -e events in order"
					    : "cannot record: a cgroup of -G does not exist (give its path under the cgroup2 or perf_event cgroup mount)"), 1;
	if (!s->rec)
		return error("cannot record: %s", strerror(errno)), 1;
	/* the default event falls back to cpu-clock inside (lupe_record_default_event) */
	err = lupe_record_open(s->rec, &failed);
	if (err) {
		record_open_error(s, err, failed);
		return 1;
	}
	return 0;
}

/* Signals and --control wake the poll; the recording and the workload start. */
static int record_start(struct record_session *s)
{
	struct record_args *a = s->a;
	int err;

	catch_signals(a->switch_output == SWITCH_SIGNAL);
	if (sig_pipe[0] >= 0)
		lupe_record_add_wake_fd(s->rec, sig_pipe[0]);
	if (a->control) {
		err = control_open(a->control, &s->ctl, &s->ack);
		if (err) {
			error("cannot open --control '%s': %s (a fifo: mkfifo it first)", a->control,
			      err == -EINVAL ? "not a FIFO" : lupe_strerror(err));
			lupe_record_abort(s->rec);
			return 1;
		}
		lupe_record_add_wake_fd(s->rec, s->ctl);
	}
	err = lupe_record_start(s->rec);
	if (err) {
		output_error(lupe_record_output(s->rec), err);
		lupe_record_abort(s->rec);
		return 1;
	}
	if (s->has_wl) {
		err = cmd_workload_start(&s->wl, s->cmd[0]);
		if (err) {
			lupe_record_abort(s->rec);
			return err;
		}
		s->pidfd = pidfd_of(s->wl.pid);
		if (s->pidfd >= 0)
			lupe_record_add_wake_fd(s->rec, s->pidfd);
	}
	s->next_switch = now_ms() + a->switch_secs * 1000;
	return 0;
}

/* How long a poll may sleep: for ever, or until the next timed switch or SIGCHLD check. */
static int record_poll_timeout(const struct record_session *s)
{
	/* without a pidfd, SIGCHLD interrupts poll and the timeout bounds a race */
	int timeout = s->pidfd >= 0 || !s->has_wl ? -1 : 100;

	if (s->a->switch_output == SWITCH_TIME) {
		uint64_t now = now_ms();
		int left = s->next_switch > now ? (int)(s->next_switch - now) : 0;

		timeout = timeout < 0 || left < timeout ? left : timeout;
	}
	return timeout;
}

/* Whether --switch-output is due: SIGUSR2 or a snapshot, the size or the time. */
static int record_switch_due(const struct record_session *s, const struct lupe_record_stats *st)
{
	enum switch_mode mode = s->a->switch_output;

	return mode && (switch_req || (mode == SWITCH_SIZE && st->bytes_written >= s->a->switch_size) ||
			(mode == SWITCH_TIME && now_ms() >= s->next_switch));
}

/*
 * Poll until the workload ends, a signal or --control stops us, or
 * --max-size is reached, rotating the output on the way. 0 or -errno.
 */
static int record_poll(struct record_session *s)
{
	for (;;) {
		struct lupe_record_stats st;
		int r = lupe_record_poll(s->rec, record_poll_timeout(s)), limit;

		if (r < 0)
			return r;
		if (s->ctl >= 0)
			switch (control_read(s->ctl, s->ack, s->a->switch_output != SWITCH_NONE)) {
			case CONTROL_STOP: s->stop = 1; break;
			case CONTROL_SNAPSHOT: switch_req = 1; break;
			case CONTROL_NONE: break;
			}
		lupe_record_get_stats(s->rec, &st);
		/* --max-size counts each file, as perf's: the write past it stops, then the switch it is due */
		limit = lupe_record_size_limit_reached(s->rec);
		if (limit)
			fprintf(stderr, "[ perf record: perf size limit reached (%llu KB), stopping session ]\n",
				(unsigned long long)(st.bytes_written >> 10));
		if (record_switch_due(s, &st)) {
			int err;

			switch_req = 0;
			s->next_switch = now_ms() + s->a->switch_secs * 1000;
			err = switch_output(s->rec, s->a, &s->sw, 0);
			if (err)
				return err;
		}
		if (limit || s->stop || signr != -1 || r == 1 || (s->has_wl && lupe_workload_poll(&s->wl)))
			return 0;
		if (sig_pipe[0] >= 0) {
			char buf[16];

			while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
				;
		}
	}
}

/*
 * Stop the workload if it still runs, complete the file and print perf's
 * summary. err is what the poll ended with. The workload's exit status.
 */
static int record_finalize(struct record_session *s, int err)
{
	struct record_args *a = s->a;
	const char *out = lupe_record_output(s->rec);
	struct lupe_record_stats st;

	if (s->has_wl && !lupe_workload_poll(&s->wl)) {
		kill(s->wl.pid, SIGTERM);
		while (lupe_workload_wait(&s->wl) == -EINTR)
			;
	}
	if (err && err != -ENOSPC) {
		lupe_record_stop(s->rec);
		lupe_record_abort(s->rec);
		return output_error(out, err), 1;
	}
	err = lupe_record_stop(s->rec);
	/* stop kept and finalized what reached the disk */
	lupe_record_get_stats(s->rec, &st);
	if (err == -ENOSPC && strcmp(a->o.output, "-"))
		return error("disk full after %llu samples; the file holds them ('%s': free some space for longer recordings)",
			     (unsigned long long)st.samples, a->o.output), 1;
	if (err)
		return output_error(out, err), 1;
	if (a->switch_output) {
		err = switch_output(s->rec, a, &s->sw, 1);
		if (err)
			return output_error(out, err), 1;
		if (!a->quiet)
			fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s.<timestamp> ]\n",
				st.bytes_written / 1024.0 / 1024.0, out);
	} else {
		summary(s->rec, a);
	}
	s->completed = 1;
	return s->has_wl ? lupe_workload_exit_code(&s->wl) : 0;
}

/* Free what the phases built and return ret, or die of the signal that stopped us. */
static int record_teardown(struct record_session *s, int ret)
{
	if (s->pidfd >= 0)
		close(s->pidfd);
	if (s->ctl >= 0 && !strncmp(s->a->control, "fifo:", 5)) { /* fd: ones are the caller's */
		close(s->ctl);
		if (s->ack >= 0)
			close(s->ack);
	}
	lupe_record_delete(s->rec);
	if (s->wl.pid > 0 && !lupe_workload_poll(&s->wl))
		lupe_workload_abort(&s->wl);
	lupe_thread_map_put(s->threads);
	lupe_cpu_map_put(s->cpus);
	lupe_event_list_clear(&s->evs);
	free(s->a->events);
	free(s->a->filters);
	free(s->a->cgroups);
	/*
	 * perf re-raises the signal that stopped it, once the file is complete,
	 * whatever the workload's status (our SIGTERM ended it)
	 */
	if (signr != -1 && s->completed) {
		fflush(stderr);
		signal(signr, SIG_DFL);
		raise(signr);
	}
	return ret;
}

/* Poll until the end, then complete the file: the exit status. */
static int record_run(struct record_session *s)
{
	return record_finalize(s, record_poll(s));
}

/* The phases in order; each returns 0 to go on, or lupe record's exit status. */
static int (*const record_phases[])(struct record_session *) = {
	record_check_args, record_events, record_maps, record_open, record_start, record_run,
};

int cmd_record(int argc, char **argv)
{
	struct record_args a = { .o = { .sz = sizeof(struct lupe_record_opts) } };
	struct record_session s = { .a = &a, .argc = argc, .argv = argv, .wl = { .pid = -1 },
				    .pidfd = -1, .ctl = -1, .ack = -1 };
	int idx, ret = 0;

	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &a))
		return EXIT_USAGE;
	s.has_wl = idx < argc;
	s.cmd = argv + idx;
	for (size_t i = 0; !ret && i < sizeof(record_phases) / sizeof(record_phases[0]); i++)
		ret = record_phases[i](&s);
	return record_teardown(&s, ret);
}
