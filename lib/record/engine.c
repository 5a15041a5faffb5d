// SPDX-License-Identifier: GPL-2.0
/*
 * The live engine (engine.h): the loop that opens a reader's events per
 * CPU and thread and puts each into its ring, the poll over them, and the
 * pass over the rings. Written once so that the ring step (map the first
 * fd, redirect the rest: lupe_ring_attach) and the handling of a task's
 * end (POLLHUP, which would otherwise make every later poll return at
 * once) are the same for record, top, trace's fallback and stat --func.
 *
 * Cost: one pollfd per event fd (perf polls every fd too, so that a
 * thread's end is seen); a redirected fd polls its ring.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include "record/engine.h"
#include "sampling/ring.h"

#define MAX_WAKE 4

struct lupe_live_rings {
	struct ring *rings;
	int nr_rings;
	size_t pages;
	struct pollfd *pfd; /* every event's fd, then room for the wake fds */
	int nr_fds, alloc_fds, nr_hup;
	int wake[MAX_WAKE], nr_wake;
	uint64_t wakeups;
	/* the read in progress */
	lupe_live_read_fn fn;
	void *arg;
	int ring, ret;
};

struct lupe_live_rings *lupe_live_rings_new(int nr_rings, size_t pages)
{
	struct lupe_live_rings *lr;

	if (nr_rings <= 0 || !pages || (pages & (pages - 1))) {
		errno = EINVAL;
		return NULL;
	}
	lr = calloc(1, sizeof(*lr));
	if (!lr)
		return NULL;
	lr->rings = calloc(nr_rings, sizeof(*lr->rings));
	/* room for the wake fds even when no event opens */
	lr->alloc_fds = 64;
	lr->pfd = calloc(lr->alloc_fds, sizeof(*lr->pfd));
	if (!lr->rings || !lr->pfd) {
		free(lr->rings);
		free(lr->pfd);
		free(lr);
		errno = ENOMEM;
		return NULL;
	}
	lr->nr_rings = nr_rings;
	lr->pages = pages;
	return lr;
}

void lupe_live_rings_delete(struct lupe_live_rings *lr)
{
	if (!lr)
		return;
	for (int i = 0; i < lr->nr_rings; i++)
		lupe_ring_unmap(&lr->rings[i]);
	free(lr->rings);
	free(lr->pfd);
	free(lr);
}

static int add_fd(struct lupe_live_rings *lr, int fd)
{
	if (lr->nr_fds + MAX_WAKE >= lr->alloc_fds) {
		int n = 2 * lr->alloc_fds;
		struct pollfd *p = realloc(lr->pfd, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		lr->pfd = p;
		lr->alloc_fds = n;
	}
	lr->pfd[lr->nr_fds++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	return 0;
}

int lupe_live_rings_open(struct lupe_live_rings *lr, const struct lupe_live_open *o)
{
	for (int c = 0; c < lupe_cpu_map_nr(o->cpus); c++) {
		for (int t = 0; t < o->nr_threads; t++) {
			int r = o->per_thread ? t : c;

			if (r >= lr->nr_rings)
				return -EINVAL;
			for (int e = 0; e < o->nr_events; e++) {
				int fd = o->open(o->arg, c, t, e), err;

				if (fd == LUPE_LIVE_SKIP)
					continue;
				if (fd < 0)
					return fd;
				err = lupe_ring_attach(&lr->rings[r], fd, lupe_cpu_map_cpu(o->cpus, c),
						       lr->pages);
				if (!err)
					err = add_fd(lr, fd);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

int lupe_live_rings_add_wake_fd(struct lupe_live_rings *lr, int fd)
{
	if (lr->nr_wake == MAX_WAKE)
		return -ENOSPC;
	lr->wake[lr->nr_wake++] = fd;
	return 0;
}

int lupe_live_rings_nr_fds(const struct lupe_live_rings *lr)
{
	return lr->nr_fds;
}

int lupe_live_rings_fd(const struct lupe_live_rings *lr, int i)
{
	int fd = lr->pfd[i].fd;

	return fd < 0 ? ~fd : fd;
}

int lupe_live_rings_poll(struct lupe_live_rings *lr, int timeout_ms)
{
	int n = lr->nr_fds, ret, data = 0;

	for (int i = 0; i < lr->nr_wake; i++)
		lr->pfd[n + i] = (struct pollfd){ .fd = lr->wake[i], .events = POLLIN };
	ret = poll(lr->pfd, n + lr->nr_wake, timeout_ms);
	if (ret < 0)
		return -errno;
	if (!ret)
		return 0;
	/* A hung-up event (its task exited) stays out of the next polls. */
	for (int i = 0; i < n; i++) {
		if (lr->pfd[i].fd < 0)
			continue;
		data |= !!(lr->pfd[i].revents & POLLIN);
		if (lr->pfd[i].revents & (POLLHUP | POLLERR)) {
			lr->pfd[i].fd = ~lr->pfd[i].fd;
			lr->nr_hup++;
		}
	}
	/* perf's "woken up": the kernel said a ring has data */
	lr->wakeups += data;
	return 1;
}

int lupe_live_rings_all_hup(const struct lupe_live_rings *lr)
{
	return lr->nr_hup == lr->nr_fds;
}

uint64_t lupe_live_rings_wakeups(const struct lupe_live_rings *lr)
{
	return lr->wakeups;
}

static int on_record(const struct perf_event_header *h, void *arg)
{
	struct lupe_live_rings *lr = arg;

	lr->ret = lr->fn(h, lr->ring, lr->arg);
	return lr->ret;
}

int lupe_live_rings_read(struct lupe_live_rings *lr, lupe_live_read_fn fn, void *arg)
{
	lr->fn = fn;
	lr->arg = arg;
	lr->ret = 0;
	for (lr->ring = 0; lr->ring < lr->nr_rings; lr->ring++) {
		long n = lupe_ring_read(&lr->rings[lr->ring], on_record, lr);

		if (lr->ret)
			return lr->ret;
		if (n < 0)
			return (int)n;
	}
	return 0;
}
