// SPDX-License-Identifier: GPL-2.0
/*
 * The fallback source: raw_syscalls:sys_enter/sys_exit through
 * perf_event_open, one ring per CPU, every target's events redirected to
 * it: opened, polled and drained by the live engine (record/engine.h). It sees numbers and
 * the six argument words, never the memory they point to. The records of a
 * poll go through the session's time order (session/ordered.c) before they
 * are decoded and handed out, because a call that sleeps may enter on one
 * CPU and exit on another.
 *
 * Targets: a workload held before exec (inherit + enable_on_exec, so its
 * calls count from exec), the threads of a running process (inherit from
 * each, so what they fork is followed), or every task (-a, per CPU).
 *
 * The same decoding reads a perf.data file of these tracepoints (lupe
 * record -e 'raw_syscalls:*', trace -i): the session hands its samples in
 * time order, with the threads' names from the file, and a process's end
 * (its EXIT record) carries the status its exit_group asked for.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>
#include <lupe/evlist.h>
#include <lupe/evsel.h>
#include <lupe/session.h>
#include "counting/evsel.h"
#include "events/internal.h"
#include "record/engine.h"
#include "session/ordered.h"
#include "trace/internal.h"
#include "util/util.h"

/* The fallback's rings, one per online CPU, of about bytes (a power of two of pages). */
static int trace_rings_open(struct trace_rings *tr, size_t bytes);
/* Keep fd (closed by lupe_trace_rings_fini); closes it and fails with -ENOMEM. */
static int trace_rings_keep_fd(struct trace_rings *tr, int fd);
/*
 * Wait up to timeout_ms, read every ring, deliver in time order what is
 * more than a millisecond old, everything when final. 0, -EINTR or a
 * negative errno.
 */
static int trace_rings_poll(struct trace_rings *tr, int timeout_ms, bool final);

struct target {
	pid_t pid;
	bool at_exec;
	bool execed;               /* at_exec: its execve has been entered */
};

#define MAX_TP 16

struct perf_trace {
	struct lupe_trace t;
	bool syscalls;             /* raw_syscalls (else only the tracepoints) */
	int ntp;
	__u64 tp_ids[MAX_TP];
	char *tp_names[MAX_TP];
	struct target *targets;
	int ntargets;
	struct trace_rings r;       /* one ring per CPU, the poll's records in time order */
	/* the target being opened */
	const pid_t *tids;
	bool at_exec, inherit;
	int opened, open_err;
	__u64 enter_id, exit_id;
	int off_id, off_args, off_ret;
	unsigned long long lost;   /* a file's (trace -i) */
	lupe_sc_fn fn;             /* of the poll in progress */
	void *fn_arg;
	int delivered;
	/* reading a file (trace -i) */
	char *path;
	struct lupe_session *session;
	struct lupe_tool tool;
	bool read;
	long nr_exit_group, nr_execve, nr_execveat;
	struct { pid_t pid; int status; } *exits; /* the processes that called exit_group */
	size_t nexits;
};

static int perf_add_pid(struct lupe_trace *t, pid_t pid, bool at_exec)
{
	struct perf_trace *pt = (struct perf_trace *)t;
	struct target *n = realloc(pt->targets, (pt->ntargets + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	pt->targets = n;
	n[pt->ntargets++] = (struct target){ pid, at_exec, false };
	return 0;
}

/* The offset of field name in a tracefs format, or dflt. */
static int field_offset(const char *text, const char *field, int dflt)
{
	const char *p = text ? strstr(text, field) : NULL;

	p = p ? strstr(p, "offset:") : NULL;
	return p ? atoi(p + 7) : dflt;
}

static int tp_setup(struct perf_trace *pt)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[512], *text;
	int err;

	if (!tracefs)
		return -errno;
	for (const char *const *tp = pt->t.o.tracepoints; tp && *tp; tp++) {
		char sys[128];
		const char *colon = strchr(*tp, ':');

		if (!colon || pt->ntp == MAX_TP || colon - *tp >= (long)sizeof(sys))
			return -EINVAL;
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - *tp), *tp);
		err = lupe_tracepoint_id(sys, colon + 1, &pt->tp_ids[pt->ntp]);
		if (err)
			return err;
		lupe_tp_load_format(sys, colon + 1);
		pt->tp_names[pt->ntp++] = strdup(*tp);
	}
	if (!pt->syscalls)
		return 0;
	err = lupe_tracepoint_id("raw_syscalls", "sys_enter", &pt->enter_id);
	if (!err)
		err = lupe_tracepoint_id("raw_syscalls", "sys_exit", &pt->exit_id);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/events/raw_syscalls/sys_enter/format", tracefs);
	text = lupe_read_whole_file(path, NULL);
	pt->off_id = field_offset(text, "long id;", 8);
	pt->off_args = field_offset(text, "args[6];", 16);
	free(text);
	snprintf(path, sizeof(path), "%s/events/raw_syscalls/sys_exit/format", tracefs);
	text = lupe_read_whole_file(path, NULL);
	pt->off_ret = field_offset(text, "long ret;", 16);
	free(text);
	return 0;
}

static int trace_rings_keep_fd(struct trace_rings *tr, int fd)
{
	int *n = realloc(tr->fds, (tr->nfds + 1) * sizeof(*n));

	if (!n) {
		close(fd);
		return -ENOMEM;
	}
	tr->fds = n;
	tr->fds[tr->nfds++] = fd;
	return 0;
}

/*
 * The engine's opener: tracepoint e (enter, exit, then -e's) of thread
 * index t on CPU index c. The first event also reports the tasks' ends
 * (EXIT records, in the event's clock), so a process's end is said in
 * time order, as the BPF capture says it. A CPU or thread the kernel
 * refuses (offline, exited) is skipped; the target fails when nothing
 * opened.
 */
static int open_tp(void *arg, int c, int t, int e)
{
	struct perf_trace *pt = arg;
	__u64 id = pt->syscalls ? (e == 0 ? pt->enter_id : e == 1 ? pt->exit_id : pt->tp_ids[e - 2]) :
		   pt->tp_ids[e];
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_TRACEPOINT, .config = id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
		.inherit = pt->inherit, .task = pt->syscalls && e == 0,
		/* the tracepoints beside BPF see no execve: they start at the exec */
		.disabled = pt->at_exec && !pt->syscalls,
		.enable_on_exec = pt->at_exec && !pt->syscalls,
		.watermark = 1, .wakeup_watermark = pt->r.pages * 4096 / 4,
		.use_clockid = 1, .clockid = CLOCK_MONOTONIC,
	};
	int fd = lupe_perf_event_open(&a, pt->tids[t], lupe_cpu_map_cpu(pt->r.cpus, c), -1, 0), err;

	if (fd == -ENODEV || fd == -EINVAL || (fd == -ESRCH && !pt->at_exec && pt->tids[t] >= 0)) {
		pt->open_err = fd;
		return LUPE_LIVE_SKIP;
	}
	if (fd < 0)
		return fd;
	err = trace_rings_keep_fd(&pt->r, fd);
	if (err)
		return err;
	pt->opened++;
	return fd;
}

/* The threads of target pid (its own pid when held or -1), opened on every CPU. */
static int open_target(struct perf_trace *pt, pid_t pid, bool at_exec)
{
	struct lupe_live_open o = { pt->r.cpus, 0, (pt->syscalls ? 2 : 0) + pt->ntp, 0, open_tp, pt };
	pid_t *tids = NULL;
	char path[64];
	DIR *d;
	struct dirent *de;
	int err;

	if (at_exec || pid < 0) {
		tids = malloc(sizeof(*tids));
		if (!tids)
			return -ENOMEM;
		tids[o.nr_threads++] = pid;
	} else {
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		d = opendir(path);
		if (!d)
			return -errno == -ENOENT ? -ESRCH : -errno;
		while ((de = readdir(d))) {
			pid_t tid = atoi(de->d_name);
			pid_t *n;

			if (tid <= 0)
				continue;
			n = realloc(tids, (o.nr_threads + 1) * sizeof(*n));
			if (!n) {
				closedir(d);
				free(tids);
				return -ENOMEM;
			}
			tids = n;
			tids[o.nr_threads++] = tid;
		}
		closedir(d);
	}
	pt->tids = tids;
	pt->at_exec = at_exec;
	pt->inherit = pid >= 0;
	pt->opened = 0;
	pt->open_err = -ESRCH;
	err = lupe_live_rings_open(pt->r.rings, &o);
	free(tids);
	pt->tids = NULL;
	if (err)
		return err;
	return pt->opened ? 0 : pt->open_err;
}

static int perf_start(struct lupe_trace *t)
{
	struct perf_trace *pt = (struct perf_trace *)t;
	int err = trace_rings_open(&pt->r, pt->t.o.buf_bytes ? pt->t.o.buf_bytes : 1 << 20);

	if (!err)
		err = tp_setup(pt);
	if (err)
		return err;
	if (pt->t.o.system_wide)
		return open_target(pt, -1, false);
	for (int i = 0; i < pt->ntargets; i++) {
		err = open_target(pt, pt->targets[i].pid, pt->targets[i].at_exec);
		if (err)
			return err;
	}
	return 0;
}

/* The status exit_group asked for, remembered until the process's EXIT record. */
static void note_exit(struct perf_trace *pt, pid_t pid, long code)
{
	void *n = realloc(pt->exits, (pt->nexits + 1) * sizeof(*pt->exits));

	if (!n)
		return; /* the end is then not said: the calls all are */
	pt->exits = n;
	pt->exits[pt->nexits].pid = pid;
	pt->exits[pt->nexits++].status = (int)(code & 0xff) << 8;
}

/*
 * A raw_syscalls or -e tracepoint sample's raw bytes, decoded into the one
 * syscall event; type is the tracepoint's id (the raw bytes' common_type).
 */
static int decode_raw(struct perf_trace *pt, struct lupe_sc_event *ev, const unsigned char *raw,
		      uint32_t raw_size, uint64_t type)
{
	long nr;

	for (int i = 0; i < pt->ntp; i++) {
		if (type != pt->tp_ids[i])
			continue;
		ev->kind = LUPE_SC_TRACEPOINT;
		ev->tp_name = pt->tp_names[i];
		ev->nbufs = 1;
		ev->bufs[0] = (struct lupe_sc_buf){ .arg = -1, .len = raw_size, .data = raw };
		pt->delivered++;
		return pt->fn(ev, pt->fn_arg);
	}
	if (!pt->syscalls || raw_size < (unsigned)pt->off_ret + 8 ||
	    (type != pt->enter_id && type != pt->exit_id) ||
	    (type == pt->enter_id && raw_size < (unsigned)pt->off_args + sizeof(ev->args)))
		return 0;
	memcpy(&nr, raw + pt->off_id, sizeof(nr));
	if (type == pt->enter_id) {
		memcpy(ev->args, raw + pt->off_args, sizeof(ev->args));
		/* the end is said even when -e leaves exit_group out */
		if (nr == pt->nr_exit_group)
			note_exit(pt, ev->pid, (long)ev->args[0]);
	}
	if (nr < 0 || nr >= LUPE_SC_MAX || (pt->t.filter && !pt->t.set[nr]))
		return 0;
	ev->nr = nr;
	if (type == pt->enter_id) {
		ev->kind = LUPE_SC_ENTER;
	} else {
		ev->kind = LUPE_SC_EXIT;
		memcpy(&ev->ret, raw + pt->off_ret, sizeof(ev->ret));
	}
	pt->delivered++;
	return pt->fn(ev, pt->fn_arg);
}

/*
 * Whether an event of process pid comes before its exec: a workload held
 * before exec is traced from its execve's entry, as the BPF capture does
 * (lupe's own PATH search then shows as failed execve calls, which the
 * printer leaves out), so both give the execve line whole.
 */
static bool before_exec(struct perf_trace *pt, pid_t pid, bool enter, long nr)
{
	for (int i = 0; i < pt->ntargets; i++) {
		struct target *tg = &pt->targets[i];

		if (tg->pid != pid || !tg->at_exec || tg->execed)
			continue;
		if (enter && (nr == pt->nr_execve || nr == pt->nr_execveat))
			tg->execed = true;
		return !tg->execed;
	}
	return false;
}

/* A process's end (its EXIT record) with the status its exit_group asked for. */
static int proc_exit(struct perf_trace *pt, pid_t pid)
{
	for (size_t i = 0; i < pt->nexits; i++) {
		struct lupe_sc_event ev = { .kind = LUPE_SC_PROC_EXIT, .pid = pid, .tid = pid,
					    .ret = pt->exits[i].status };

		if (pt->exits[i].pid != pid)
			continue;
		pt->exits[i] = pt->exits[--pt->nexits];
		pt->delivered++;
		return pt->fn(&ev, pt->fn_arg);
	}
	return 0;
}

/* A record from the rings, in time order: a sample (TID, TIME, RAW) or an EXIT. */
static int decode(void *arg, const struct perf_event_header *h, uint64_t offset)
{
	struct perf_trace *pt = arg;
	const struct trace_sample_hdr *s = (const void *)(h + 1);
	const unsigned char *raw = (const unsigned char *)(s + 1);
	struct lupe_sc_event ev = { .pid = s->pid, .tid = s->tid, .time = s->time };
	__u16 type;
	long nr = -1;

	(void)offset;
	if (h->type == PERF_RECORD_EXIT)
		return proc_exit(pt, ((const __u32 *)(h + 1))[0]);
	memcpy(&type, raw, sizeof(type));
	if (type == pt->enter_id && s->raw_size >= (unsigned)pt->off_id + sizeof(nr))
		memcpy(&nr, raw + pt->off_id, sizeof(nr));
	if (pt->syscalls && pt->ntargets && before_exec(pt, ev.pid, type == pt->enter_id, nr))
		return 0;
	return decode_raw(pt, &ev, raw, s->raw_size, type);
}

int lupe_trace_rings_take(void *arg, const struct perf_event_header *h, int stable)
{
	struct trace_rings *tr = arg;
	const struct trace_sample_hdr *s = (const void *)(h + 1);
	const __u32 *task = (const __u32 *)(h + 1);

	(void)stable; /* the queue copies it: a flush may come after the source moved on */
	if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16) {
		tr->lost += ((const __u64 *)(h + 1))[1];
		return 0;
	}
	/* exit: pid, ppid, tid, ptid, time (the event's clock); a process's, not a thread's */
	if (h->type == PERF_RECORD_EXIT && tr->exits && h->size >= sizeof(*h) + 24 &&
	    task[0] == task[2])
		return lupe_ordered_queue(tr->ord, h, 0, ((const __u64 *)(h + 1))[2], 0);
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + sizeof(*s) ||
	    s->raw_size < sizeof(__u16) || sizeof(*h) + sizeof(*s) + s->raw_size > h->size ||
	    (pid_t)s->pid == tr->self)
		return 0;
	if (s->time > tr->newest)
		tr->newest = s->time;
	return lupe_ordered_queue(tr->ord, h, 0, s->time, 0);
}

/* The engine's reader: a ring's record. */
static int on_rec(const struct perf_event_header *h, int ring, void *arg)
{
	(void)ring;
	return lupe_trace_rings_take(arg, h, 0);
}

uint64_t lupe_trace_rings_cut(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec - 1000000;
}

int lupe_trace_rings_init(struct trace_rings *tr, lupe_ordered_deliver_fn deliver, void *arg)
{
	tr->ord = lupe_ordered_new(deliver, arg);
	tr->self = getpid();
	return tr->ord ? 0 : -ENOMEM;
}

static int trace_rings_open(struct trace_rings *tr, size_t bytes)
{
	tr->pages = bytes / 4096;
	while (tr->pages & (tr->pages - 1))
		tr->pages &= tr->pages - 1;
	if (tr->pages < bytes / 4096.0) /* rounded up, as the manual says */
		tr->pages <<= 1;
	if (!tr->pages)
		tr->pages = 1;
	tr->cpus = lupe_cpu_map_new(NULL);
	if (!tr->cpus)
		return -errno;
	tr->rings = lupe_live_rings_new(lupe_cpu_map_nr(tr->cpus), tr->pages);
	return tr->rings ? 0 : -errno;
}

int lupe_trace_rings_flush(struct trace_rings *tr, bool final, uint64_t cut)
{
	return final ? lupe_ordered_flush_all(tr->ord) : lupe_ordered_flush_upto(tr->ord, cut);
}

static int trace_rings_poll(struct trace_rings *tr, int timeout_ms, bool final)
{
	int ret = 0, err;
	uint64_t cut;

	if (!tr->rings)
		return 0;
	ret = lupe_live_rings_poll(tr->rings, timeout_ms) == -EINTR ? -EINTR : 0;
	cut = lupe_trace_rings_cut();
	err = lupe_live_rings_read(tr->rings, on_rec, tr);
	if (err < 0)
		return err;
	err = lupe_trace_rings_flush(tr, final, cut);
	return err ? err : ret;
}

void lupe_trace_rings_fini(struct trace_rings *tr)
{
	lupe_live_rings_delete(tr->rings);
	for (int i = 0; i < tr->nfds; i++)
		close(tr->fds[i]);
	free(tr->fds);
	lupe_cpu_map_put(tr->cpus);
	lupe_ordered_delete(tr->ord);
	memset(tr, 0, sizeof(*tr));
}

static int perf_poll(struct lupe_trace *t, int timeout_ms, bool final, lupe_sc_fn fn,
		     void *arg)
{
	struct perf_trace *pt = (struct perf_trace *)t;
	int err;

	pt->fn = fn;
	pt->fn_arg = arg;
	pt->delivered = 0;
	err = trace_rings_poll(&pt->r, timeout_ms, final);
	return err ? err : pt->delivered;
}

static unsigned long long perf_lost(struct lupe_trace *t)
{
	struct perf_trace *pt = (struct perf_trace *)t;

	return pt->lost + pt->r.lost;
}

static void perf_del(struct lupe_trace *t)
{
	struct perf_trace *pt = (struct perf_trace *)t;

	lupe_trace_rings_fini(&pt->r);
	free(pt->targets);
	lupe_session_delete(pt->session); /* a file's (trace -i) */
	free(pt->path);
	free(pt->exits);
	for (int i = 0; i < pt->ntp; i++)
		free(pt->tp_names[i]);
	free(pt);
}

static const struct trace_ops perf_ops = {
	perf_add_pid, perf_start, perf_poll, perf_lost, perf_del,
};

/* ---- a perf.data file of the same tracepoints (trace -i) ---- */

static int file_add_pid(struct lupe_trace *t, pid_t pid, bool at_exec)
{
	(void)t, (void)pid, (void)at_exec;
	return -EINVAL; /* a file holds what it holds */
}

static int file_start(struct lupe_trace *t)
{
	struct perf_trace *pt = (struct perf_trace *)t;

	int err = tp_setup(pt);

	/* the field offsets and ids of this machine's tracefs, when it has one */
	if (err && pt->t.o.tracepoints && pt->t.o.tracepoints[0])
		return err;
	pt->session = lupe_session_open(pt->path, 0);
	return pt->session ? 0 : -errno;
}

static int file_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		       const struct lupe_sample *sample, struct lupe_thread *thread,
		       const struct perf_event_header *h)
{
	struct perf_trace *pt = (struct perf_trace *)((char *)tool - offsetof(struct perf_trace, tool));
	const char *name = lupe_evsel_name(evsel);
	struct lupe_sc_event ev = { .pid = sample->pid, .tid = sample->tid, .time = sample->time,
				    .comm = thread && thread->comm_set ? thread->comm : NULL };
	uint64_t type;
	__u16 common;

	(void)s, (void)h;
	if (!sample->raw || sample->raw_size < sizeof(common))
		return 0;
	/* the file's own ids may not be this machine's: the event's name says which */
	if (name && !strcmp(name, "raw_syscalls:sys_enter"))
		type = pt->enter_id;
	else if (name && !strcmp(name, "raw_syscalls:sys_exit"))
		type = pt->exit_id;
	else
		memcpy(&common, sample->raw, sizeof(common)), type = common;
	return decode_raw(pt, &ev, sample->raw, sample->raw_size, type);
}

static int file_other(struct lupe_tool *tool, struct lupe_session *s,
		      const struct perf_event_header *h)
{
	struct perf_trace *pt = (struct perf_trace *)((char *)tool - offsetof(struct perf_trace, tool));
	const __u32 *pid = (const __u32 *)(h + 1);

	(void)s;
	if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16) {
		pt->lost += ((const __u64 *)(h + 1))[1];
	} else if (h->type == PERF_RECORD_EXIT && h->size >= sizeof(*h) + 8 && pid[0] == pid[2]) {
		/* exit: pid, ppid, tid, ptid, time */
		return proc_exit(pt, pid[0]);
	}
	return 0;
}

static int file_poll(struct lupe_trace *t, int timeout_ms, bool final, lupe_sc_fn fn,
		     void *arg)
{
	struct perf_trace *pt = (struct perf_trace *)t;
	int err;

	(void)timeout_ms, (void)final;
	if (pt->read)
		return 0; /* the end of the file */
	pt->read = true;
	pt->fn = fn;
	pt->fn_arg = arg;
	pt->delivered = 0;
	pt->tool = (struct lupe_tool){ .sample = file_sample, .other = file_other, .ordered = 1 };
	err = lupe_session_process(pt->session, &pt->tool);
	if (err < 0)
		return err;
	if (!pt->delivered && !lupe_evlist_has_prefix(lupe_session_evlist(pt->session), "raw_syscalls:"))
		return -ENODATA;
	return pt->delivered;
}

static const struct trace_ops file_ops = {
	file_add_pid, file_start, file_poll, perf_lost, perf_del,
};

static struct lupe_trace *perf_new(const struct lupe_trace_opts *o, bool syscalls)
{
	struct perf_trace *pt = calloc(1, sizeof(*pt));

	if (!pt)
		return NULL;
	lupe_trace_init(&pt->t, &perf_ops, o);
	if (lupe_trace_rings_init(&pt->r, decode, pt)) {
		free(pt);
		return NULL;
	}
	pt->r.exits = syscalls;
	pt->syscalls = syscalls;
	pt->nr_exit_group = lupe_syscall_nr("exit_group");
	pt->nr_execve = lupe_syscall_nr("execve");
	pt->nr_execveat = lupe_syscall_nr("execveat");
	return &pt->t;
}

struct lupe_trace *lupe_trace_perf_new(const struct lupe_trace_opts *o)
{
	return perf_new(o, true);
}

struct lupe_trace *lupe_trace_tp_new(const struct lupe_trace_opts *o)
{
	return perf_new(o, false);
}

struct lupe_trace *lupe_trace_file_new(const struct lupe_trace_opts *opts, const char *path)
{
	struct lupe_trace_opts o;
	struct perf_trace *pt;

	if (!opts || lupe_opts_load(&o, opts) || !path)
		return err_ptr(-EINVAL);
	pt = (struct perf_trace *)perf_new(&o, true);
	if (!pt)
		return NULL;
	pt->t.ops = &file_ops;
	pt->r.self = -1;
	/* ids no tracepoint has, for a machine without tracefs: the names decide */
	pt->enter_id = (__u64)-2;
	pt->exit_id = (__u64)-3;
	pt->off_id = 8;
	pt->off_args = 16;
	pt->off_ret = 16;
	pt->path = strdup(path);
	if (!pt->path) {
		perf_del(&pt->t);
		return err_ptr(-ENOMEM);
	}
	return &pt->t;
}
