// SPDX-License-Identifier: GPL-2.0
/*
 * lupe trace's printer: strace -f's lines from paired entry/exit events.
 * A call is printed whole at its exit; when another thread prints while it
 * is pending, it is printed first as "name(args <unfinished ...>" and ends
 * later as "<... name resumed>rest) = ret", as strace -f shows it. The
 * summary's figures per thread and syscall (perf trace -s) and the fd
 * paths of -y are the model's (lib/trace/model.c); this file pairs and
 * prints.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace.h"

struct thread {
	pid_t tid, pid;
	char comm[16];
	bool pending, unfinished;
	bool execed;                /* the workload's exec has succeeded */
	struct lupe_sc_event enter; /* its bufs point into data */
	unsigned char data[6][4096 + 8];
	struct lupe_sc_stat *stats; /* LUPE_SC_MAX, for the summary */
	unsigned long events;
};

struct trace_printer {
	struct trace_print_opts o;
	struct lupe_sc_fmt fmt;
	struct lupe_trace_fds *fds; /* -y */
	long nr_clone, nr_clone3, nr_fork, nr_vfork, nr_exit, nr_exit_group;
	struct thread **threads;
	size_t nthreads, cap;
	struct thread *last;        /* the thread that printed last */
	bool multi;
	long execve_nr;
	pid_t exited[64];           /* processes whose end was printed (the last ones) */
	size_t nexited;
	char line[65536];
};

static const char *fd_path(pid_t pid, int fd, void *arg)
{
	struct trace_printer *p = arg;

	return lupe_trace_fds_path(p->fds, pid, fd);
}

void trace_printer_prime_fds(struct trace_printer *p, pid_t pid)
{
	if (p->fds)
		lupe_trace_fds_prime(p->fds, pid);
}

struct trace_printer *trace_printer_new(const struct trace_print_opts *o)
{
	struct trace_printer *p = calloc(1, sizeof(*p));

	if (p) {
		p->o = *o;
		p->execve_nr = lupe_syscall_nr("execve");
		p->fmt.max_strlen = o->max_strlen;
		if (o->fd_paths && (p->fds = lupe_trace_fds_new())) {
			p->fmt.fd_path = fd_path;
			p->fmt.arg = p;
		}
		p->nr_exit = lupe_syscall_nr("exit");
		p->nr_exit_group = lupe_syscall_nr("exit_group");
		p->nr_clone = lupe_syscall_nr("clone");
		p->nr_clone3 = lupe_syscall_nr("clone3");
		p->nr_fork = lupe_syscall_nr("fork");
		p->nr_vfork = lupe_syscall_nr("vfork");
	}
	return p;
}

static void read_comm(struct thread *t)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", t->pid, t->tid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(t->comm, sizeof(t->comm), f))
			t->comm[strcspn(t->comm, "\n")] = '\0';
		fclose(f);
	}
	if (!t->comm[0])
		snprintf(t->comm, sizeof(t->comm), "?");
}

static struct thread *thread(struct trace_printer *p, const struct lupe_sc_event *ev)
{
	struct thread *t;

	if (p->last && p->last->tid == ev->tid)
		return p->last;
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i]->tid == ev->tid)
			return p->threads[i];
	if (p->nthreads == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct thread **n = realloc(p->threads, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->threads = n;
		p->cap = cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = ev->tid;
	t->pid = ev->pid;
	if (!p->o.main_pid && p->o.first_is_main)
		p->o.main_pid = ev->pid;
	if (p->o.summary) {
		t->stats = calloc(LUPE_SC_MAX, sizeof(*t->stats));
		read_comm(t);
		/* a thread that is gone: its process's name */
		for (size_t i = 0; t->comm[0] == '?' && i < p->nthreads; i++)
			if (p->threads[i]->tid == t->pid)
				memcpy(t->comm, p->threads[i]->comm, sizeof(t->comm));
	}
	p->threads[p->nthreads++] = t;
	if (p->nthreads > 1 || (p->o.main_pid && ev->tid != p->o.main_pid))
		p->multi = true;
	return t;
}

static int prefix(struct trace_printer *p, const struct thread *t)
{
	if (p->multi || !p->o.main_pid)
		return fprintf(p->o.out, "[pid %5d] ", t->tid);
	return 0;
}

/* "head = ret": the result starts at column 40, as strace aligns it. */
static void emit(struct trace_printer *p, const struct thread *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void emit(struct trace_printer *p, const struct thread *t, const char *fmt, ...)
{
	va_list ap;
	int n = prefix(p, t);

	va_start(ap, fmt);
	n += vfprintf(p->o.out, fmt, ap);
	va_end(ap);
	if (n < 39)
		fprintf(p->o.out, "%*s", 39 - n, "");
}

static const char *name_of(long nr, char *buf, size_t size)
{
	const char *n = lupe_syscall_name(nr);

	if (n)
		return n;
	snprintf(buf, size, "syscall_%ld", nr);
	return buf;
}

/* Print thread t's pending call as unfinished, its line cut before the output. */
static void print_unfinished(struct trace_printer *p, struct thread *t)
{
	char nb[32];
	int out = lupe_syscall_output_arg(t->enter.nr);

	lupe_syscall_format_args(&t->enter, NULL, &p->fmt, 0, out, p->line, sizeof(p->line));
	prefix(p, t);
	fprintf(p->o.out, "%s(%s%s <unfinished ...>\n", name_of(t->enter.nr, nb, sizeof(nb)),
		p->line, out > 0 ? ", " : "");
	t->unfinished = true;
}

/* Other threads' pending calls are cut before t prints. */
static void cut_others(struct trace_printer *p, struct thread *t)
{
	if (!p->multi)
		return;
	for (size_t i = 0; i < p->nthreads; i++) {
		struct thread *o = p->threads[i];

		if (o != t && o->pending && !o->unfinished)
			print_unfinished(p, o);
	}
}

static bool shown(const struct trace_printer *p, long ret, double ms)
{
	if (!p->o.events)
		return false;
	if (p->o.failure && !(ret < 0 && ret >= -4095))
		return false;
	return ms >= p->o.min_ms;
}

static void account(struct trace_printer *p, struct thread *t, long nr, long ret, double ms,
		    bool timed)
{
	t->events++;
	if (t->stats && nr >= 0 && nr < LUPE_SC_MAX)
		lupe_sc_stat_add(&t->stats[nr], ret, ms, timed);
}

/* t's pending call that will never return: "name(args) = ?" */
static void print_noreturn(struct trace_printer *p, struct thread *t)
{
	char nb[32];

	account(p, t, t->enter.nr, 0, 0, false);
	t->pending = false;
	if (!shown(p, 0, 0) || p->o.failure)
		return;
	if (t->unfinished) {
		emit(p, t, "<... %s resumed>)", name_of(t->enter.nr, nb, sizeof(nb)));
	} else {
		cut_others(p, t);
		lupe_syscall_format_args(&t->enter, NULL, &p->fmt, 0, -1, p->line, sizeof(p->line));
		emit(p, t, "%s(%s)", name_of(t->enter.nr, nb, sizeof(nb)), p->line);
	}
	fprintf(p->o.out, " = ?\n");
}

static void on_sc_enter(struct trace_printer *p, struct thread *t, const struct lupe_sc_event *ev)
{
	/* the previous call never returned (exec replaced it, or an exit) */
	if (t->pending)
		print_noreturn(p, t);
	t->enter = *ev;
	for (int i = 0; i < ev->nbufs; i++) {
		int n = ev->bufs[i].len < 4096 ? ev->bufs[i].len : 4096;

		memcpy(t->data[i], ev->bufs[i].data, n);
		t->enter.bufs[i].data = t->data[i];
		t->enter.bufs[i].len = n;
	}
	t->pending = true;
	t->unfinished = false;
	/* exit and exit_group never return: printed now, as strace does */
	if (ev->nr == p->nr_exit || ev->nr == p->nr_exit_group)
		print_noreturn(p, t);
}

static bool is_fork(const struct trace_printer *p, long nr)
{
	return nr == p->nr_clone || nr == p->nr_clone3 || nr == p->nr_fork || nr == p->nr_vfork;
}

static void on_sc_exit(struct trace_printer *p, struct thread *t, const struct lupe_sc_event *ev)
{
	char nb[32], rb[128];
	bool matched = t->pending && t->enter.nr == ev->nr;
	double ms = matched ? (ev->time - t->enter.time) / 1e6 : 0;

	/* execvp's PATH search is lupe's doing, not the workload's: strace's own
	 * search does not show either */
	if (p->o.workload && t->tid == p->o.main_pid && !t->execed && ev->nr == p->execve_nr) {
		if (ev->ret < 0) {
			t->pending = false;
			return;
		}
		t->execed = true;
	}
	/* a new task's first event is its return from clone with 0: strace shows none */
	if (!matched && ev->ret == 0 && is_fork(p, ev->nr)) {
		t->pending = false;
		return;
	}
	account(p, t, ev->nr, ev->ret, ms, matched);
	if (shown(p, ev->ret, ms)) {
		lupe_syscall_format_result(matched ? &t->enter : NULL, ev->nr, ev->ret, rb, sizeof(rb));
		if (!p->o.failure && p->o.min_ms <= 0)
			cut_others(p, t);
		if (matched && !t->unfinished) {
			lupe_syscall_format_args(&t->enter, ev, &p->fmt, 0, -1, p->line,
						 sizeof(p->line));
			emit(p, t, "%s(%s)", name_of(ev->nr, nb, sizeof(nb)), p->line);
			fprintf(p->o.out, " = %s", rb);
		} else {
			int out = lupe_syscall_output_arg(ev->nr);

			p->line[0] = '\0';
			if (matched && out >= 0)
				lupe_syscall_format_args(&t->enter, ev, &p->fmt, out, -1,
							 p->line, sizeof(p->line));
			emit(p, t, "<... %s resumed>%s)", name_of(ev->nr, nb, sizeof(nb)),
			     p->line + (out > 0 && p->line[0] == ',' ? 2 : 0));
			fprintf(p->o.out, " = %s", rb);
		}
		if (p->fds && ev->ret >= 0 && lupe_trace_fds_returns_fd(p->fds, ev->nr)) {
			lupe_trace_fds_call(p->fds, matched ? &t->enter : NULL, ev);
			if (fd_path(ev->pid, ev->ret, p))
				fprintf(p->o.out, "<%s>", fd_path(ev->pid, ev->ret, p));
		}
		if (p->o.time && matched)
			fprintf(p->o.out, " <%.6f>", ms / 1e3);
		fputc('\n', p->o.out);
	}
	if (p->fds && !lupe_trace_fds_returns_fd(p->fds, ev->nr))
		lupe_trace_fds_call(p->fds, matched ? &t->enter : NULL, ev);
	t->pending = false;
	t->unfinished = false;
}

/* A tracepoint asked for with -e, between the calls, as "sys:name(fields)". */
static void on_tracepoint(struct trace_printer *p, struct thread *t, const struct lupe_sc_event *ev)
{
	if (!p->o.events || p->o.failure || p->o.min_ms > 0)
		return;
	cut_others(p, t);
	lupe_tracepoint_format(ev->bufs[0].data, ev->bufs[0].len, p->line, sizeof(p->line));
	prefix(p, t);
	fprintf(p->o.out, "%s(%s)\n", ev->tp_name, p->line);
}

int trace_printer_event(const struct lupe_sc_event *ev, void *arg)
{
	struct trace_printer *p = arg;
	struct thread *t = thread(p, ev);

	if (!t)
		return -1;
	if (ev->comm)
		snprintf(t->comm, sizeof(t->comm), "%.15s", ev->comm);
	if (ev->kind == LUPE_SC_PROC_EXIT) {
		/* its threads' calls that never returned come first */
		for (size_t i = 0; i < p->nthreads; i++)
			if (p->threads[i]->pid == ev->pid && p->threads[i]->pending)
				print_noreturn(p, p->threads[i]);
		trace_printer_exited(p, ev->pid, (int)ev->ret);
	} else if (ev->kind == LUPE_SC_TRACEPOINT)
		on_tracepoint(p, t, ev);
	else if (ev->kind == LUPE_SC_ENTER)
		on_sc_enter(p, t, ev);
	else
		on_sc_exit(p, t, ev);
	p->last = t;
	return 0;
}

void trace_printer_finish(struct trace_printer *p)
{
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i]->pending)
			print_noreturn(p, p->threads[i]);
}

void trace_printer_exited(struct trace_printer *p, pid_t pid, int status)
{
	struct thread t = { .tid = pid };

	/* said once: from the BPF capture, or from the workload's wait status */
	for (size_t i = 0; i < p->nexited; i++)
		if (p->exited[i] == pid)
			return;
	if (p->nexited < sizeof(p->exited) / sizeof(p->exited[0]))
		p->exited[p->nexited++] = pid;
	if (!p->o.events || p->o.failure || p->o.min_ms > 0)
		return;
	prefix(p, &t);
	if (WIFSIGNALED(status))
		fprintf(p->o.out, "+++ killed by SIG%s%s +++\n", sigabbrev_np(WTERMSIG(status)) ?: "?",
			WCOREDUMP(status) ? " (core dumped)" : "");
	else
		fprintf(p->o.out, "+++ exited with %d +++\n", WEXITSTATUS(status));
}

/* The table of one thread or of all, longest total time first (as perf trace -s). */
static void print_table(FILE *f, const struct lupe_sc_stat *stats)
{
	char nb[32];
	int order[LUPE_SC_MAX], n = lupe_sc_stats_order(stats, order);

	fprintf(f, "   syscall            calls  errors  total       min       avg       max       stddev\n"
		   "                                     (msec)    (msec)    (msec)    (msec)        (%%)\n"
		   "   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
	for (int k = 0; k < n; k++) {
		int nr = order[k];
		const struct lupe_sc_stat *s = &stats[nr];
		double avg = s->total / s->calls;
		double var = s->calls > 1 ? (s->sumsq - s->calls * avg * avg) / (s->calls - 1) : 0;

		fprintf(f, "   %-15s %8lu %7lu %8.3f %9.3f %9.3f %9.3f %9.2f%%\n",
			name_of(nr, nb, sizeof(nb)), s->calls, s->errors, s->total, s->min, avg,
			s->max, avg > 0 && var > 0 ? 100.0 * sqrt(var / s->calls) / avg : 0.0);
	}
	fputc('\n', f);
}

void trace_printer_summary(struct trace_printer *p)
{
	FILE *f = p->o.out;
	unsigned long all = 0;
	struct lupe_sc_stat *total = calloc(LUPE_SC_MAX, sizeof(*total));

	if (!total)
		return;
	for (size_t i = 0; i < p->nthreads; i++)
		all += p->threads[i]->events;
	fprintf(f, "\n Summary of events:\n\n");
	for (size_t i = 0; i < p->nthreads; i++) {
		struct thread *t = p->threads[i];

		if (!t->stats || !t->events)
			continue;
		fprintf(f, " %s (%d), %lu events, %.1f%%\n\n", t->comm, t->tid, t->events,
			all ? 100.0 * t->events / all : 0.0);
		print_table(f, t->stats);
		lupe_sc_stats_merge(total, t->stats);
	}
	fprintf(f, " total, %lu events, %zu threads\n\n", all, p->nthreads);
	print_table(f, total);
	free(total);
}

void trace_printer_delete(struct trace_printer *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nthreads; i++) {
		free(p->threads[i]->stats);
		free(p->threads[i]);
	}
	lupe_trace_fds_delete(p->fds);
	free(p->threads);
	free(p);
}
