// SPDX-License-Identifier: GPL-2.0
/*
 * lupe trace's printer: strace -f's lines from paired entry/exit events.
 * A call is printed whole at its exit; when another thread prints while it
 * is pending, it is printed first as "name(args <unfinished ...>" and ends
 * later as "<... name resumed>rest) = ret", as strace -f shows it. The
 * summary keeps calls, errors and time per thread and syscall, as
 * `perf trace -s` does.
 */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace.h"

struct sc_stat {
	unsigned long calls, errors;
	double total, min, max, sumsq; /* ms */
};

struct thread {
	pid_t tid, pid;
	char comm[16];
	bool pending, unfinished;
	bool execed;                /* the workload's exec has succeeded */
	struct lupe_sc_event enter; /* its bufs point into data */
	unsigned char data[6][4096 + 8];
	struct sc_stat *stats;      /* LUPE_SC_MAX, for the summary */
	unsigned long events;
};

/* The paths behind a process's fds, learned from the calls that made them (-y). */
struct proc_fds {
	pid_t pid;
	char **path; /* by fd */
	int n;
};

struct trace_printer {
	struct trace_print_opts o;
	struct lupe_sc_fmt fmt;
	struct proc_fds *procs;
	size_t nprocs;
	long nr_clone, nr_clone3, nr_fork, nr_vfork, nr_exit, nr_exit_group;
	long nr_open, nr_openat, nr_creat, nr_close, nr_dup, nr_dup2, nr_dup3, nr_fcntl;
	struct thread **threads;
	size_t nthreads, cap;
	struct thread *last;        /* the thread that printed last */
	bool multi;
	long execve_nr;
	pid_t exited[64];           /* processes whose end was printed (the last ones) */
	size_t nexited;
	char line[65536];
};

static struct proc_fds *proc_of(struct trace_printer *p, pid_t pid)
{
	struct proc_fds *n;

	for (size_t i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid)
			return &p->procs[i];
	n = realloc(p->procs, (p->nprocs + 1) * sizeof(*n));
	if (!n)
		return NULL;
	p->procs = n;
	n = &p->procs[p->nprocs++];
	*n = (struct proc_fds){ .pid = pid };
	return n;
}

static void set_fd(struct trace_printer *p, pid_t pid, long fd, const char *path, int len)
{
	struct proc_fds *pf = proc_of(p, pid);

	if (!pf || fd < 0 || fd > 1 << 20)
		return;
	if (fd >= pf->n) {
		int n = fd + 16;
		char **np = realloc(pf->path, n * sizeof(*np));

		if (!np)
			return;
		memset(np + pf->n, 0, (n - pf->n) * sizeof(*np));
		pf->path = np;
		pf->n = n;
	}
	free(pf->path[fd]);
	pf->path[fd] = path ? strndup(path, len) : NULL;
}

/*
 * The path behind fd: learned from open/dup calls, else what /proc says
 * now (fds opened before the trace began, such as 0, 1 and 2).
 */
static const char *fd_path(pid_t pid, int fd, void *arg)
{
	struct trace_printer *p = arg;
	struct proc_fds *pf = proc_of(p, pid);
	char link[64], target[4096];
	ssize_t n;

	if (pf && fd < pf->n && pf->path[fd])
		return pf->path[fd];
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	set_fd(p, pid, fd, target, n);
	return pf && fd < pf->n ? pf->path[fd] : NULL;
}

/* Follow the calls that make, copy and close fds (for -y). */
static void track_fds(struct trace_printer *p, const struct lupe_sc_event *en,
		      const struct lupe_sc_event *ex)
{
	long nr = ex->nr, ret = ex->ret;

	if (ret < 0)
		return;
	if (nr == p->nr_open || nr == p->nr_openat || nr == p->nr_creat) {
		int arg = nr == p->nr_openat ? 1 : 0;

		for (int i = 0; en && i < en->nbufs; i++)
			if (en->bufs[i].arg == arg)
				set_fd(p, ex->pid, ret, (const char *)en->bufs[i].data, en->bufs[i].len);
		for (int i = 0; i < ex->nbufs; i++) /* the path was read again at exit */
			if (ex->bufs[i].arg == arg)
				set_fd(p, ex->pid, ret, (const char *)ex->bufs[i].data, ex->bufs[i].len);
	} else if (nr == p->nr_close && en) {
		set_fd(p, ex->pid, (int)en->args[0], NULL, 0);
	} else if ((nr == p->nr_dup || nr == p->nr_dup2 || nr == p->nr_dup3 ||
		    (nr == p->nr_fcntl && en && (en->args[1] == 0 || en->args[1] == 1030))) && en) {
		const char *src = fd_path(ex->pid, (int)en->args[0], p);

		if (src) {
			char *copy = strdup(src);

			set_fd(p, ex->pid, ret, copy, copy ? strlen(copy) : 0);
			free(copy);
		}
	}
}

void trace_printer_prime_fds(struct trace_printer *p, pid_t pid)
{
	char dir[64];
	DIR *d;
	struct dirent *de;

	if (!p->fmt.fd_path)
		return;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			fd_path(pid, atoi(de->d_name), p);
	closedir(d);
}

struct trace_printer *trace_printer_new(const struct trace_print_opts *o)
{
	struct trace_printer *p = calloc(1, sizeof(*p));

	if (p) {
		p->o = *o;
		p->execve_nr = lupe_syscall_nr("execve");
		p->fmt.max_strlen = o->max_strlen;
		if (o->fd_paths) {
			p->fmt.fd_path = fd_path;
			p->fmt.arg = p;
		}
		p->nr_exit = lupe_syscall_nr("exit");
		p->nr_exit_group = lupe_syscall_nr("exit_group");
		p->nr_clone = lupe_syscall_nr("clone");
		p->nr_clone3 = lupe_syscall_nr("clone3");
		p->nr_fork = lupe_syscall_nr("fork");
		p->nr_vfork = lupe_syscall_nr("vfork");
		p->nr_open = lupe_syscall_nr("open");
		p->nr_openat = lupe_syscall_nr("openat");
		p->nr_creat = lupe_syscall_nr("creat");
		p->nr_close = lupe_syscall_nr("close");
		p->nr_dup = lupe_syscall_nr("dup");
		p->nr_dup2 = lupe_syscall_nr("dup2");
		p->nr_dup3 = lupe_syscall_nr("dup3");
		p->nr_fcntl = lupe_syscall_nr("fcntl");
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
	struct sc_stat *s;

	t->events++;
	if (!t->stats || nr < 0 || nr >= LUPE_SC_MAX)
		return;
	s = &t->stats[nr];
	if (!s->calls || (timed && ms < s->min))
		s->min = ms;
	s->calls++;
	if (ret < 0 && ret >= -4095)
		s->errors++;
	if (timed) {
		s->total += ms;
		s->sumsq += ms * ms;
		if (ms > s->max)
			s->max = ms;
	}
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

static bool is_fd_ret(const struct trace_printer *p, long nr)
{
	return nr == p->nr_open || nr == p->nr_openat || nr == p->nr_creat || nr == p->nr_dup ||
	       nr == p->nr_dup2 || nr == p->nr_dup3;
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
		lupe_syscall_format_ret(ev->nr, ev->ret, rb, sizeof(rb));
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
		if (p->fmt.fd_path && ev->ret >= 0 && is_fd_ret(p, ev->nr)) {
			track_fds(p, matched ? &t->enter : NULL, ev);
			if (fd_path(ev->pid, ev->ret, p))
				fprintf(p->o.out, "<%s>", fd_path(ev->pid, ev->ret, p));
		}
		if (p->o.time && matched)
			fprintf(p->o.out, " <%.6f>", ms / 1e3);
		fputc('\n', p->o.out);
	}
	if (p->fmt.fd_path && !is_fd_ret(p, ev->nr))
		track_fds(p, matched ? &t->enter : NULL, ev);
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

static const struct sc_stat *sort_stats;

static int by_total(const void *a, const void *b)
{
	const struct sc_stat *x = &sort_stats[*(const int *)a], *y = &sort_stats[*(const int *)b];

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

/* The table of one thread or of all, longest total time first (as perf trace -s). */
static void print_table(FILE *f, const struct sc_stat *stats)
{
	char nb[32];
	int order[LUPE_SC_MAX];

	for (int i = 0; i < LUPE_SC_MAX; i++)
		order[i] = i;
	sort_stats = stats;
	qsort(order, LUPE_SC_MAX, sizeof(order[0]), by_total);

	fprintf(f, "   syscall            calls  errors  total       min       avg       max       stddev\n"
		   "                                     (msec)    (msec)    (msec)    (msec)        (%%)\n"
		   "   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
	for (int k = 0; k < LUPE_SC_MAX; k++) {
		int nr = order[k];
		const struct sc_stat *s = &stats[nr];
		double avg, var;

		if (!s->calls)
			continue;
		avg = s->total / s->calls;
		var = s->calls > 1 ? (s->sumsq - s->calls * avg * avg) / (s->calls - 1) : 0;
		fprintf(f, "   %-15s %8lu %7lu %8.3f %9.3f %9.3f %9.3f %9.2f%%\n",
			name_of(nr, nb, sizeof(nb)), s->calls, s->errors, s->total, s->min, avg,
			s->max, avg > 0 && var > 0 ? 100.0 * sqrt(var / s->calls) / avg : 0.0);
	}
	fputc('\n', f);
}

static void add_stats(struct sc_stat *to, const struct sc_stat *from)
{
	for (int nr = 0; nr < LUPE_SC_MAX; nr++) {
		const struct sc_stat *s = &from[nr];
		struct sc_stat *d = &to[nr];

		if (!s->calls)
			continue;
		if (!d->calls || s->min < d->min)
			d->min = s->min;
		d->calls += s->calls;
		d->errors += s->errors;
		d->total += s->total;
		d->sumsq += s->sumsq;
		if (s->max > d->max)
			d->max = s->max;
	}
}

void trace_printer_summary(struct trace_printer *p)
{
	FILE *f = p->o.out;
	unsigned long all = 0;
	struct sc_stat *total = calloc(LUPE_SC_MAX, sizeof(*total));

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
		add_stats(total, t->stats);
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
	for (size_t i = 0; i < p->nprocs; i++) {
		for (int fd = 0; fd < p->procs[i].n; fd++)
			free(p->procs[i].path[fd]);
		free(p->procs[i].path);
	}
	free(p->procs);
	free(p->threads);
	free(p);
}
