// SPDX-License-Identifier: GPL-2.0
/*
 * A counter kept open for hot loops. start/stop/reset are the evlist's
 * ioctls (one per group) and a read is the evlist's read (one read(2) per
 * group), so the cost over the bare syscalls is a few loads and the
 * scaling. When every event is a hardware counter and the kernel sets
 * cap_user_rdpmc in the event's mmapped perf_event_mmap_page, a read while
 * counting needs no syscall: the count is the page's offset plus rdpmc of
 * the counter, read under the page's seqlock, and the enabled/running times
 * are extended with the TSC conversion the page gives (cap_user_time). The
 * algorithm is the one <linux/perf_event.h> documents next to the page.
 * A stopped counter has no hardware index: the read falls back to read(2).
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "api/api.h"
#include "util/util.h"
#include "arch/arch.h"

struct lupe_counter {
	struct lupe_evlist *evlist;
	int nr;
	int rdpmc;                            /* every event has a page with cap_user_rdpmc */
	struct perf_event_mmap_page **pages;  /* [nr], NULL when not mapped */
	size_t page_size;
};

static int is_hardware(const struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
	case PERF_TYPE_TRACEPOINT:
	case PERF_TYPE_BREAKPOINT:
		return 0;
	default: /* HARDWARE, HW_CACHE, RAW, a dynamic PMU (cpu_core, msr...) */
		return 1;
	}
}

/* Map each hardware event's first page; rdpmc only when all of them allow it. */
static void map_pages(struct lupe_counter *c)
{
	c->rdpmc = c->nr > 0;
	for (int i = 0; i < c->nr; i++) {
		struct lupe_evsel *evsel = lupe_evlist_evsel(c->evlist, i);
		int fd = lupe_evsel_fd(evsel, 0, 0);
		void *p;

		if (fd < 0 || !is_hardware(lupe_evsel_attr(evsel))) {
			c->rdpmc = 0;
			continue;
		}
		p = mmap(NULL, c->page_size, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			c->rdpmc = 0;
			continue;
		}
		c->pages[i] = p;
		if (!c->pages[i]->cap_user_rdpmc)
			c->rdpmc = 0;
	}
}

struct lupe_counter *lupe_counter_new(const char *spec, pid_t pid, int cpu)
{
	struct lupe_counter *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return err_ptr(lupe_set_error(-ENOMEM, "out of memory"));
	c->page_size = sysconf(_SC_PAGESIZE);
	c->evlist = lupe_evlist_parse(spec);
	if (!c->evlist) {
		err = -errno;
		free(c);
		return err_ptr(err);
	}
	c->nr = lupe_evlist_nr(c->evlist);
	c->pages = calloc(c->nr, sizeof(*c->pages));
	if (!c->pages) {
		lupe_counter_delete(c);
		return err_ptr(lupe_set_error(-ENOMEM, "out of memory"));
	}
	err = lupe_evlist_open_task(c->evlist, pid, cpu);
	if (err) {
		lupe_counter_delete(c);
		return err_ptr(err);
	}
	/* rdpmc reads the counter of the thread that runs it: only for our own thread */
	if (pid == 0 || pid == gettid())
		map_pages(c);
	return c;
}

void lupe_counter_delete(struct lupe_counter *c)
{
	if (!c)
		return;
	for (int i = 0; c->pages && i < c->nr; i++)
		if (c->pages[i])
			munmap(c->pages[i], c->page_size);
	free(c->pages);
	lupe_evlist_delete(c->evlist);
	free(c);
}

int lupe_counter_start(struct lupe_counter *c)
{
	return lupe_evlist_enable(c->evlist);
}

int lupe_counter_stop(struct lupe_counter *c)
{
	return lupe_evlist_disable(c->evlist);
}

int lupe_counter_reset(struct lupe_counter *c)
{
	return lupe_evlist_reset(c->evlist);
}

int lupe_counter_nr(const struct lupe_counter *c)
{
	return c->nr;
}

int lupe_counter_rdpmc(const struct lupe_counter *c)
{
	return c->rdpmc;
}

struct lupe_evlist *lupe_counter_evlist(struct lupe_counter *c)
{
	return c->evlist;
}

#if LUPE_ARCH_HAVE_USER_PMC
/* The count and times from the page; -EAGAIN when the counter is not on the PMU. */
static int page_read(volatile struct perf_event_mmap_page *pc, struct lupe_counts *out)
{
	uint64_t count, ena, run, cyc, delta;
	uint32_t seq, idx;

	do {
		seq = pc->lock;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		idx = pc->index;
		if (!pc->cap_user_rdpmc || !idx)
			return -EAGAIN;
		ena = pc->time_enabled;
		run = pc->time_running;
		count = pc->offset;
		if (pc->cap_user_time) {
			uint16_t shift = pc->time_shift;
			uint32_t mult = pc->time_mult;
			uint64_t quot, rem;

			cyc = lupe_arch_read_tsc();
			quot = cyc >> shift;
			rem = cyc & (((uint64_t)1 << shift) - 1);
			delta = pc->time_offset + quot * mult + ((rem * mult) >> shift);
			ena += delta;
			run += delta;
		}
		{
			int64_t pmc = lupe_arch_read_pmc(idx - 1);
			unsigned int width = pc->pmc_width;

			pmc <<= 64 - width;
			pmc >>= 64 - width;
			count += pmc;
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (pc->lock != seq);
	*out = (struct lupe_counts){ count, ena, run };
	return 0;
}

static int read_rdpmc(struct lupe_counter *c, struct lupe_value *vals)
{
	for (int i = 0; i < c->nr; i++) {
		struct lupe_counts counts;

		if (page_read(c->pages[i], &counts))
			return -EAGAIN;
		lupe_value_set(&vals[i], lupe_evsel_name(lupe_evlist_evsel(c->evlist, i)), &counts, 1);
	}
	return c->nr;
}
#else
static int read_rdpmc(struct lupe_counter *c, struct lupe_value *vals)
{
	return -EAGAIN; /* NEEDSWORK: user-space reads on other architectures */
}
#endif

int lupe_counter_read(struct lupe_counter *c, struct lupe_value *vals, int max)
{
	int err;

	if (max < c->nr)
		return -ENOSPC;
	if (c->rdpmc && (err = read_rdpmc(c, vals)) != -EAGAIN)
		return err;
	err = lupe_evlist_read(c->evlist);
	if (err)
		return err;
	return lupe_values_from_evlist(c->evlist, vals, max);
}
