// SPDX-License-Identifier: GPL-2.0
/*
 * trace's model, what a consumer of syscall events keeps besides its lines:
 * the paths behind the traced processes' fds (strace -y), learned from the
 * calls that make, copy and close them, else from /proc; and the summary
 * statistics per syscall (perf trace -s: calls, errors, total, min, max,
 * spread). ui/trace.c prints both. The fd table costs a pointer per fd
 * number seen and the paths themselves.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace/internal.h"
#include "util/util.h"

struct proc_fds {
	pid_t pid;
	char **path; /* by fd */
	int n;
};

struct lupe_trace_fds {
	struct proc_fds *procs;
	size_t nprocs;
	long nr_open, nr_openat, nr_creat, nr_close, nr_dup, nr_dup2, nr_dup3, nr_fcntl;
};

struct lupe_trace_fds *lupe_trace_fds_new(void)
{
	struct lupe_trace_fds *f = calloc(1, sizeof(*f));

	if (!f)
		return err_ptr(-ENOMEM);
	f->nr_open = lupe_syscall_nr("open");
	f->nr_openat = lupe_syscall_nr("openat");
	f->nr_creat = lupe_syscall_nr("creat");
	f->nr_close = lupe_syscall_nr("close");
	f->nr_dup = lupe_syscall_nr("dup");
	f->nr_dup2 = lupe_syscall_nr("dup2");
	f->nr_dup3 = lupe_syscall_nr("dup3");
	f->nr_fcntl = lupe_syscall_nr("fcntl");
	return f;
}

void lupe_trace_fds_delete(struct lupe_trace_fds *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nprocs; i++) {
		for (int fd = 0; fd < f->procs[i].n; fd++)
			free(f->procs[i].path[fd]);
		free(f->procs[i].path);
	}
	free(f->procs);
	free(f);
}

static struct proc_fds *proc_of(struct lupe_trace_fds *f, pid_t pid)
{
	struct proc_fds *n;

	for (size_t i = 0; i < f->nprocs; i++)
		if (f->procs[i].pid == pid)
			return &f->procs[i];
	n = realloc(f->procs, (f->nprocs + 1) * sizeof(*n));
	if (!n)
		return NULL;
	f->procs = n;
	n = &f->procs[f->nprocs++];
	*n = (struct proc_fds){ .pid = pid };
	return n;
}

static void set_fd(struct lupe_trace_fds *f, pid_t pid, long fd, const char *path, int len)
{
	struct proc_fds *pf = proc_of(f, pid);

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

const char *lupe_trace_fds_path(struct lupe_trace_fds *f, pid_t pid, int fd)
{
	struct proc_fds *pf = proc_of(f, pid);
	char link[64], target[4096];
	ssize_t n;

	if (pf && fd >= 0 && fd < pf->n && pf->path[fd])
		return pf->path[fd];
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	set_fd(f, pid, fd, target, n);
	return pf && fd >= 0 && fd < pf->n ? pf->path[fd] : NULL;
}

void lupe_trace_fds_prime(struct lupe_trace_fds *f, pid_t pid)
{
	char dir[64];
	DIR *d;
	struct dirent *de;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			lupe_trace_fds_path(f, pid, atoi(de->d_name));
	closedir(d);
}

bool lupe_trace_fds_returns_fd(const struct lupe_trace_fds *f, long nr)
{
	return nr == f->nr_open || nr == f->nr_openat || nr == f->nr_creat || nr == f->nr_dup ||
	       nr == f->nr_dup2 || nr == f->nr_dup3;
}

void lupe_trace_fds_call(struct lupe_trace_fds *f, const struct lupe_sc_event *en,
			 const struct lupe_sc_event *ex)
{
	long nr = ex->nr, ret = ex->ret;

	if (ret < 0)
		return;
	if (nr == f->nr_open || nr == f->nr_openat || nr == f->nr_creat) {
		int arg = nr == f->nr_openat ? 1 : 0;

		for (int i = 0; en && i < en->nbufs; i++)
			if (en->bufs[i].arg == arg)
				set_fd(f, ex->pid, ret, (const char *)en->bufs[i].data, en->bufs[i].len);
		for (int i = 0; i < ex->nbufs; i++) /* the path was read again at exit */
			if (ex->bufs[i].arg == arg)
				set_fd(f, ex->pid, ret, (const char *)ex->bufs[i].data, ex->bufs[i].len);
	} else if (nr == f->nr_close && en) {
		set_fd(f, ex->pid, (int)en->args[0], NULL, 0);
	} else if ((nr == f->nr_dup || nr == f->nr_dup2 || nr == f->nr_dup3 ||
		    (nr == f->nr_fcntl && en && (en->args[1] == 0 || en->args[1] == 1030))) && en) {
		const char *src = lupe_trace_fds_path(f, ex->pid, (int)en->args[0]);

		if (src) {
			char *copy = strdup(src);

			set_fd(f, ex->pid, ret, copy, copy ? strlen(copy) : 0);
			free(copy);
		}
	}
}

/* ---- the summary ---- */

void lupe_sc_stat_add(struct lupe_sc_stat *s, long ret, double ms, bool timed)
{
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

void lupe_sc_stats_merge(struct lupe_sc_stat *to, const struct lupe_sc_stat *from)
{
	for (int nr = 0; nr < LUPE_SC_MAX; nr++) {
		const struct lupe_sc_stat *s = &from[nr];
		struct lupe_sc_stat *d = &to[nr];

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

static int by_total(const void *a, const void *b, void *arg)
{
	const struct lupe_sc_stat *st = arg;
	const struct lupe_sc_stat *x = &st[*(const int *)a], *y = &st[*(const int *)b];

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

int lupe_sc_stats_order(const struct lupe_sc_stat *stats, int *order)
{
	int n = 0;

	for (int i = 0; i < LUPE_SC_MAX; i++)
		if (stats[i].calls)
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), by_total, (void *)stats);
	return n;
}
