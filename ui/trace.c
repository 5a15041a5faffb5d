// SPDX-License-Identifier: GPL-2.0
/*
 * lupe trace's printer: strace -f's lines from the calls the model pairs
 * (lib/trace/pair.c). A call is printed whole when it returns; when
 * another thread prints while it is pending, it is printed first as
 * "name(args <unfinished ...>" and ends later as "<... name resumed>rest)
 * = ret", as strace -f shows it. The summary's figures per thread and
 * syscall (perf trace -s) and the fd paths of -y are the model's too: this
 * file chooses and formats.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace.h"

struct trace_printer {
	struct trace_print_opts o;
	struct lupe_sc_fmt fmt;
	struct lupe_trace_model *m;
	struct lupe_trace_fds *fds; /* -y: the model's */
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

static int on_call(struct lupe_trace_model *m, const struct lupe_trace_call *c, void *arg);

struct trace_printer *trace_printer_new(const struct trace_print_opts *o)
{
	struct trace_printer *p = calloc(1, sizeof(*p));
	LUPE_OPTS(lupe_trace_model_opts, mo, .summary = o->summary, .fd_paths = o->fd_paths,
		  .workload = o->workload, .main_pid = o->main_pid,
		  .first_is_main = o->first_is_main);

	if (!p)
		return NULL;
	p->o = *o;
	p->fmt.max_strlen = o->max_strlen;
	p->m = lupe_trace_model_new(&mo, on_call, p);
	if (!p->m) {
		free(p);
		return NULL;
	}
	p->fds = lupe_trace_model_fds(p->m);
	if (p->fds) {
		p->fmt.fd_path = fd_path;
		p->fmt.arg = p;
	}
	return p;
}

static int prefix(struct trace_printer *p, pid_t tid)
{
	if (lupe_trace_model_multi(p->m) || !lupe_trace_model_main(p->m))
		return fprintf(p->o.out, "[pid %5d] ", tid);
	return 0;
}

/* "head = ret": the result starts at column 40, as strace aligns it. */
static void emit(struct trace_printer *p, const struct lupe_trace_thread *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void emit(struct trace_printer *p, const struct lupe_trace_thread *t, const char *fmt, ...)
{
	va_list ap;
	int n = prefix(p, t->tid);

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
static void print_unfinished(struct trace_printer *p, struct lupe_trace_thread *t)
{
	char nb[32];
	int out = lupe_syscall_output_arg(t->enter.nr);

	lupe_syscall_format_args(&t->enter, NULL, &p->fmt, 0, out, p->line, sizeof(p->line));
	prefix(p, t->tid);
	fprintf(p->o.out, "%s(%s%s <unfinished ...>\n", name_of(t->enter.nr, nb, sizeof(nb)),
		p->line, out > 0 ? ", " : "");
	t->mark = true;
}

/* Other threads' pending calls are cut before t prints. */
static void cut_others(struct trace_printer *p, struct lupe_trace_thread *t)
{
	struct lupe_trace_thread *const *threads;
	size_t n;

	if (!lupe_trace_model_multi(p->m))
		return;
	n = lupe_trace_model_threads(p->m, &threads);
	for (size_t i = 0; i < n; i++) {
		struct lupe_trace_thread *o = threads[i];

		if (o != t && o->pending && !o->mark)
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

/* t's call that will never return: "name(args) = ?" */
static void print_noreturn(struct trace_printer *p, struct lupe_trace_thread *t,
			   const struct lupe_sc_event *enter)
{
	char nb[32];

	if (!shown(p, 0, 0) || p->o.failure)
		return;
	if (t->mark) {
		emit(p, t, "<... %s resumed>)", name_of(enter->nr, nb, sizeof(nb)));
	} else {
		cut_others(p, t);
		lupe_syscall_format_args(enter, NULL, &p->fmt, 0, -1, p->line, sizeof(p->line));
		emit(p, t, "%s(%s)", name_of(enter->nr, nb, sizeof(nb)), p->line);
	}
	fprintf(p->o.out, " = ?\n");
}

static void print_call(struct trace_printer *p, const struct lupe_trace_call *c)
{
	struct lupe_trace_thread *t = c->thread;
	const struct lupe_sc_event *ev = c->exit;
	char nb[32], rb[128];

	if (!shown(p, ev->ret, c->ms))
		return;
	lupe_syscall_format_result(c->enter, ev->nr, ev->ret, rb, sizeof(rb));
	if (!p->o.failure && p->o.min_ms <= 0)
		cut_others(p, t);
	if (c->enter && !t->mark) {
		lupe_syscall_format_args(c->enter, ev, &p->fmt, 0, -1, p->line, sizeof(p->line));
		emit(p, t, "%s(%s)", name_of(ev->nr, nb, sizeof(nb)), p->line);
	} else {
		int out = lupe_syscall_output_arg(ev->nr);

		p->line[0] = '\0';
		if (c->enter && out >= 0)
			lupe_syscall_format_args(c->enter, ev, &p->fmt, out, -1, p->line,
						 sizeof(p->line));
		emit(p, t, "<... %s resumed>%s)", name_of(ev->nr, nb, sizeof(nb)),
		     p->line + (out > 0 && p->line[0] == ',' ? 2 : 0));
	}
	fprintf(p->o.out, " = %s", rb);
	if (p->fds && ev->ret >= 0 && lupe_trace_fds_returns_fd(p->fds, ev->nr) &&
	    fd_path(ev->pid, ev->ret, p))
		fprintf(p->o.out, "<%s>", fd_path(ev->pid, ev->ret, p));
	if (p->o.time && c->enter)
		fprintf(p->o.out, " <%.6f>", c->ms / 1e3);
	fputc('\n', p->o.out);
}

/* A tracepoint asked for with -e, between the calls, as "sys:name(fields)". */
static void print_tracepoint(struct trace_printer *p, struct lupe_trace_thread *t,
			     const struct lupe_sc_event *ev)
{
	if (!p->o.events || p->o.failure || p->o.min_ms > 0)
		return;
	cut_others(p, t);
	lupe_tracepoint_format(ev->bufs[0].data, ev->bufs[0].len, p->line, sizeof(p->line));
	prefix(p, t->tid);
	fprintf(p->o.out, "%s(%s)\n", ev->tp_name, p->line);
}

static void print_end(struct trace_printer *p, pid_t pid, int status)
{
	if (!p->o.events || p->o.failure || p->o.min_ms > 0)
		return;
	prefix(p, pid);
	if (WIFSIGNALED(status))
		fprintf(p->o.out, "+++ killed by SIG%s%s +++\n", sigabbrev_np(WTERMSIG(status)) ?: "?",
			WCOREDUMP(status) ? " (core dumped)" : "");
	else
		fprintf(p->o.out, "+++ exited with %d +++\n", WEXITSTATUS(status));
}

static int on_call(struct lupe_trace_model *m, const struct lupe_trace_call *c, void *arg)
{
	struct trace_printer *p = arg;

	(void)m;
	switch (c->kind) {
	case LUPE_TRACE_CALL: print_call(p, c); break;
	case LUPE_TRACE_NORETURN: print_noreturn(p, c->thread, c->enter); break;
	case LUPE_TRACE_PROC_END: print_end(p, c->pid, c->status); break;
	case LUPE_TRACE_TP: print_tracepoint(p, c->thread, c->exit); break;
	}
	return 0;
}

int trace_printer_event(const struct lupe_sc_event *ev, void *arg)
{
	struct trace_printer *p = arg;

	return lupe_trace_model_event(ev, p->m);
}

void trace_printer_finish(struct trace_printer *p)
{
	lupe_trace_model_finish(p->m);
}

void trace_printer_exited(struct trace_printer *p, pid_t pid, int status)
{
	lupe_trace_model_exited(p->m, pid, status);
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
	struct lupe_trace_thread *const *threads;
	size_t n = lupe_trace_model_threads(p->m, &threads);

	if (!total)
		return;
	for (size_t i = 0; i < n; i++)
		all += threads[i]->events;
	fprintf(f, "\n Summary of events:\n\n");
	for (size_t i = 0; i < n; i++) {
		const struct lupe_trace_thread *t = threads[i];

		if (!t->stats || !t->events)
			continue;
		fprintf(f, " %s (%d), %lu events, %.1f%%\n\n", t->comm, t->tid, t->events,
			all ? 100.0 * t->events / all : 0.0);
		print_table(f, t->stats);
		lupe_sc_stats_merge(total, t->stats);
	}
	fprintf(f, " total, %lu events, %zu threads\n\n", all, n);
	print_table(f, total);
	free(total);
}

void trace_printer_delete(struct trace_printer *p)
{
	if (!p)
		return;
	lupe_trace_model_delete(p->m);
	free(p);
}
