// SPDX-License-Identifier: GPL-2.0
/*
 * trace's model of the calls: each thread's entry kept (with copies of the
 * memory it captured) until its exit, then handed to the consumer as one
 * call with its duration, as strace -f pairs them. Calls that cannot
 * return (exit, exit_group; a call pending when the thread enters another,
 * which exec does; one pending at the end or at its process's end) are
 * handed out without an exit. The rules of what is not a call of the
 * traced program live here too: the failed execve of lupe's own PATH search
 * before a command runs, and a new task's return from clone. The model
 * also keeps the summary's figures per thread and follows the fds
 * (model.c), so ui/trace.c only formats.
 *
 * Cost: a thread is about 25 KiB (the copies of six captured buffers of
 * its pending call) and, with the summary, LUPE_SC_MAX figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/internal.h"
#include "util/util.h"

#define BUF_COPY 4096

struct thread {
	struct lupe_trace_thread t; /* first: what the consumer sees */
	bool execed;                /* the workload's exec has succeeded */
	unsigned char data[6][BUF_COPY + 8];
};

/* The calls whose numbers the rules need. */
enum { NR_EXIT, NR_EXIT_GROUP, NR_CLONE, NR_CLONE3, NR_FORK, NR_VFORK, NR_EXECVE, NR_N };
static const char *const nr_names[NR_N] = {
	"exit", "exit_group", "clone", "clone3", "fork", "vfork", "execve",
};

struct lupe_trace_model {
	struct lupe_trace_model_opts o;
	lupe_trace_call_fn fn;
	void *arg;
	struct lupe_trace_fds *fds;
	struct lupe_trace_thread **threads; /* each the first member of a struct thread */
	size_t nthreads, cap;
	struct thread *last;        /* the thread of the previous event */
	bool multi;
	long nr[NR_N];              /* the numbers of the calls the rules name */
	pid_t exited[64];           /* processes whose end was said (the last ones) */
	size_t nexited;
};

static struct thread *th(struct lupe_trace_thread *t)
{
	return (struct thread *)t;
}

struct lupe_trace_model *lupe_trace_model_new(const struct lupe_trace_model_opts *opts,
					      lupe_trace_call_fn fn, void *arg)
{
	struct lupe_trace_model *m;

	struct lupe_trace_model_opts o;

	if (!opts || !fn || lupe_opts_load(&o, opts))
		return err_ptr(-EINVAL);
	m = calloc(1, sizeof(*m));
	if (!m)
		return err_ptr(-ENOMEM);
	m->o = o;
	m->fn = fn;
	m->arg = arg;
	if (m->o.fd_paths && !(m->fds = lupe_trace_fds_new())) {
		free(m);
		return err_ptr(-ENOMEM);
	}
	for (int i = 0; i < NR_N; i++)
		m->nr[i] = lupe_syscall_nr(nr_names[i]);
	return m;
}

void lupe_trace_model_delete(struct lupe_trace_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nthreads; i++) {
		free(m->threads[i]->stats);
		free(th(m->threads[i]));
	}
	lupe_trace_fds_delete(m->fds);
	free(m->threads);
	free(m);
}

static void read_comm(struct lupe_trace_thread *t)
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

static struct thread *thread_of(struct lupe_trace_model *m, const struct lupe_sc_event *ev)
{
	struct thread *t;

	if (m->last && m->last->t.tid == ev->tid)
		return m->last;
	for (size_t i = 0; i < m->nthreads; i++)
		if (m->threads[i]->tid == ev->tid)
			return th(m->threads[i]);
	if (lupe_grow(&m->threads, &m->cap, m->nthreads + 1, sizeof(*m->threads)))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->t.tid = ev->tid;
	t->t.pid = ev->pid;
	if (!m->o.main_pid && m->o.first_is_main)
		m->o.main_pid = ev->pid;
	if (m->o.summary) {
		t->t.stats = calloc(LUPE_SC_MAX, sizeof(*t->t.stats));
		if (!t->t.stats) {
			free(t);
			return NULL;
		}
		read_comm(&t->t);
		/* a thread that is gone: its process's name */
		for (size_t i = 0; t->t.comm[0] == '?' && i < m->nthreads; i++)
			if (m->threads[i]->tid == t->t.pid)
				memcpy(t->t.comm, m->threads[i]->comm, sizeof(t->t.comm));
	}
	m->threads[m->nthreads++] = &t->t;
	if (m->nthreads > 1 || (m->o.main_pid && ev->tid != m->o.main_pid))
		m->multi = true;
	return t;
}

static void account(struct thread *t, long nr, long ret, double ms, bool timed)
{
	t->t.events++;
	if (t->t.stats && nr >= 0 && nr < LUPE_SC_MAX)
		lupe_sc_stat_add(&t->t.stats[nr], ret, ms, timed);
}

/* t's pending call that will never return. */
static int noreturn(struct lupe_trace_model *m, struct thread *t)
{
	struct lupe_trace_call c = { .kind = LUPE_TRACE_NORETURN, .thread = &t->t,
				     .enter = &t->t.enter };

	account(t, t->t.enter.nr, 0, 0, false);
	t->t.pending = false;
	return m->fn(m, &c, m->arg);
}

static int on_enter(struct lupe_trace_model *m, struct thread *t, const struct lupe_sc_event *ev)
{
	int err = 0;

	/* the previous call never returned (exec replaced it, or an exit) */
	if (t->t.pending && (err = noreturn(m, t)))
		return err;
	t->t.enter = *ev;
	for (int i = 0; i < ev->nbufs; i++) {
		int n = ev->bufs[i].len < BUF_COPY ? ev->bufs[i].len : BUF_COPY;

		memcpy(t->data[i], ev->bufs[i].data, n);
		t->t.enter.bufs[i].data = t->data[i];
		t->t.enter.bufs[i].len = n;
	}
	t->t.pending = true;
	t->t.mark = false;
	/* exit and exit_group never return: said now, as strace does */
	if (ev->nr == m->nr[NR_EXIT] || ev->nr == m->nr[NR_EXIT_GROUP])
		return noreturn(m, t);
	return 0;
}

static bool is_fork(const struct lupe_trace_model *m, long nr)
{
	return nr == m->nr[NR_CLONE] || nr == m->nr[NR_CLONE3] || nr == m->nr[NR_FORK] ||
	       nr == m->nr[NR_VFORK];
}

static int on_exit_ev(struct lupe_trace_model *m, struct thread *t, const struct lupe_sc_event *ev)
{
	bool matched = t->t.pending && t->t.enter.nr == ev->nr;
	struct lupe_trace_call c = {
		.kind = LUPE_TRACE_CALL, .thread = &t->t, .exit = ev,
		.enter = matched ? &t->t.enter : NULL,
		.ms = matched ? (ev->time - t->t.enter.time) / 1e6 : 0,
	};
	bool makes_fd = m->fds && ev->ret >= 0 && lupe_trace_fds_returns_fd(m->fds, ev->nr);
	int err;

	/* execvp's PATH search is lupe's doing, not the workload's: strace's own
	 * search does not show either */
	if (m->o.workload && t->t.tid == m->o.main_pid && !t->execed && ev->nr == m->nr[NR_EXECVE]) {
		if (ev->ret < 0) {
			t->t.pending = false;
			return 0;
		}
		t->execed = true;
	}
	/* a new task's first event is its return from clone with 0: strace shows none */
	if (!matched && ev->ret == 0 && is_fork(m, ev->nr)) {
		t->t.pending = false;
		return 0;
	}
	account(t, ev->nr, ev->ret, c.ms, matched);
	/* a new fd's path is known to the consumer of its call; a closed one's after it */
	if (makes_fd)
		lupe_trace_fds_call(m->fds, c.enter, ev);
	err = m->fn(m, &c, m->arg);
	if (m->fds && !makes_fd)
		lupe_trace_fds_call(m->fds, c.enter, ev);
	t->t.pending = false;
	t->t.mark = false;
	return err;
}

int lupe_trace_model_exited(struct lupe_trace_model *m, pid_t pid, int status)
{
	struct lupe_trace_call c = { .kind = LUPE_TRACE_PROC_END, .pid = pid, .status = status };

	/* said once: from the capture, or from the workload's wait status */
	for (size_t i = 0; i < m->nexited; i++)
		if (m->exited[i] == pid)
			return 0;
	if (m->nexited < sizeof(m->exited) / sizeof(m->exited[0]))
		m->exited[m->nexited++] = pid;
	return m->fn(m, &c, m->arg);
}

int lupe_trace_model_event(const struct lupe_sc_event *ev, void *arg)
{
	struct lupe_trace_model *m = arg;
	struct thread *t = thread_of(m, ev);
	int err = 0;

	if (!t)
		return -ENOMEM;
	if (ev->comm)
		snprintf(t->t.comm, sizeof(t->t.comm), "%.15s", ev->comm);
	if (ev->kind == LUPE_SC_PROC_EXIT) {
		/* its threads' calls that never returned come first */
		for (size_t i = 0; i < m->nthreads && !err; i++)
			if (m->threads[i]->pid == ev->pid && m->threads[i]->pending)
				err = noreturn(m, th(m->threads[i]));
		if (!err)
			err = lupe_trace_model_exited(m, ev->pid, (int)ev->ret);
	} else if (ev->kind == LUPE_SC_TRACEPOINT) {
		struct lupe_trace_call c = { .kind = LUPE_TRACE_TP, .thread = &t->t, .exit = ev };

		err = m->fn(m, &c, m->arg);
	} else if (ev->kind == LUPE_SC_ENTER) {
		err = on_enter(m, t, ev);
	} else {
		err = on_exit_ev(m, t, ev);
	}
	m->last = t;
	return err;
}

int lupe_trace_model_finish(struct lupe_trace_model *m)
{
	int err = 0;

	for (size_t i = 0; i < m->nthreads && !err; i++)
		if (m->threads[i]->pending)
			err = noreturn(m, th(m->threads[i]));
	return err;
}

size_t lupe_trace_model_threads(struct lupe_trace_model *m,
				struct lupe_trace_thread *const **threads)
{
	*threads = m->threads;
	return m->nthreads;
}

pid_t lupe_trace_model_main(const struct lupe_trace_model *m)
{
	return m->o.main_pid;
}

bool lupe_trace_model_multi(const struct lupe_trace_model *m)
{
	return m->multi;
}

struct lupe_trace_fds *lupe_trace_model_fds(struct lupe_trace_model *m)
{
	return m->fds;
}
