// SPDX-License-Identifier: GPL-2.0
/*
 * The live engine (record/engine.c) on real events of this thread: two
 * page-fault events opened through the callback land in one ring (the
 * second redirected into the first's), a skipped slot adds no fd, an
 * opener's error stops the open and is returned, and bad ring sizes and
 * ring indexes are refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <cmocka.h>
#include <lupe/cpumap.h>
#include <lupe/evsel.h>
#include "record/engine.h"

struct opener {
	uint64_t config[3];  /* a page-fault event per slot, 0: skip it */
	int fds[3];
	uint64_t ids[3];
	int fail_at;         /* return -EMFILE at this slot, or -1 */
	int calls;
};

static int open_slot(void *arg, int c, int t, int e)
{
	struct opener *o = arg;
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE, .config = o->config[e],
		.sample_period = 1, .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID,
		.exclude_kernel = 1, .exclude_hv = 1, .wakeup_events = 1,
	};

	(void)c, (void)t;
	o->calls++;
	if (e == o->fail_at)
		return -EMFILE;
	if (!o->config[e])
		return LUPE_LIVE_SKIP;
	o->fds[e] = lupe_perf_event_open(&a, 0, -1, -1, 0);
	if (o->fds[e] >= 0)
		assert_int_equal(ioctl(o->fds[e], PERF_EVENT_IOC_ID, &o->ids[e]), 0);
	return o->fds[e];
}

struct seen {
	uint64_t ids[3];
	int per_id[3];
	int other_ring;
};

static int count(const struct perf_event_header *h, int ring, void *arg)
{
	struct seen *s = arg;
	uint64_t id = *(const uint64_t *)(h + 1);

	s->other_ring |= ring != 0;
	for (int i = 0; h->type == PERF_RECORD_SAMPLE && i < 3; i++)
		s->per_id[i] += s->ids[i] && id == s->ids[i];
	return 0;
}

static void close_fds(struct opener *o)
{
	for (int i = 0; i < 3; i++)
		if (o->fds[i] >= 0)
			close(o->fds[i]);
}

/* Open lo, or skip the test when the kernel refuses this thread's events (perf_event_paranoid). */
static int open_or_skip(struct lupe_live_rings *lr, const struct lupe_live_open *lo,
			struct opener *o, struct lupe_cpu_map *any)
{
	int err = lupe_live_rings_open(lr, lo);

	if (err == -EACCES || err == -EPERM) {
		close_fds(o);
		lupe_live_rings_delete(lr);
		lupe_cpu_map_put(any);
		skip();
	}
	return err;
}

static void test_one_ring_two_events(void **state)
{
	struct opener o = { { PERF_COUNT_SW_PAGE_FAULTS, 0, PERF_COUNT_SW_PAGE_FAULTS_MIN },
			    { -1, -1, -1 }, { 0 }, -1, 0 };
	struct lupe_cpu_map *any = lupe_cpu_map_any();
	struct lupe_live_rings *lr = lupe_live_rings_new(1, 8);
	struct lupe_live_open lo = { any, 1, 3, 1, open_slot, &o };
	struct seen s = { { 0 }, { 0 }, 0 };
	size_t len = 64 * 4096;
	char *p;
	int err;

	(void)state;
	assert_non_null(any);
	assert_non_null(lr);
	err = open_or_skip(lr, &lo, &o, any);
	assert_int_equal(err, 0);
	assert_int_equal(o.calls, 3);
	assert_int_equal(lupe_live_rings_nr_fds(lr), 2); /* the skipped slot added none */
	assert_int_equal(lupe_live_rings_fd(lr, 0), o.fds[0]);
	assert_int_equal(lupe_live_rings_fd(lr, 1), o.fds[2]);
	/* fault in fresh pages: each fault is a sample of both events */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	munmap(p, len);
	assert_int_equal(lupe_live_rings_poll(lr, 0), 1);
	assert_int_equal(lupe_live_rings_all_hup(lr), 0);
	assert_int_equal(lupe_live_rings_wakeups(lr), 1);
	s.ids[0] = o.ids[0];
	s.ids[2] = o.ids[2];
	assert_int_equal(lupe_live_rings_read(lr, count, &s), 0);
	/* both events' samples came through the one ring */
	assert_true(s.per_id[0] >= 64);
	assert_true(s.per_id[2] >= 64);
	assert_int_equal(s.other_ring, 0);
	close_fds(&o);
	lupe_live_rings_delete(lr);
	lupe_cpu_map_put(any);
}

static void test_errors(void **state)
{
	struct opener o = { { PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS, 0 },
			    { -1, -1, -1 }, { 0 }, 1, 0 };
	struct lupe_cpu_map *any = lupe_cpu_map_any();
	struct lupe_live_rings *lr = lupe_live_rings_new(1, 8);
	struct lupe_live_open lo = { any, 1, 3, 1, open_slot, &o };
	int err;

	(void)state;
	assert_null(lupe_live_rings_new(1, 3)); /* not a power of two */
	assert_int_equal(errno, EINVAL);
	assert_null(lupe_live_rings_new(0, 8));
	err = open_or_skip(lr, &lo, &o, any);
	/* the opener's error stops the loop and is returned */
	assert_int_equal(err, -EMFILE);
	assert_int_equal(o.calls, 2);
	assert_int_equal(lupe_live_rings_nr_fds(lr), 1);
	close_fds(&o);
	lupe_live_rings_delete(lr);
	/* a thread index past the rings (per thread: ring t) */
	lr = lupe_live_rings_new(1, 8);
	assert_non_null(lr);
	lo.nr_threads = 2;
	o.fail_at = -1;
	memset(o.fds, -1, sizeof(o.fds));
	assert_int_equal(lupe_live_rings_open(lr, &lo), -EINVAL);
	close_fds(&o);
	lupe_live_rings_delete(lr);
	lupe_live_rings_delete(NULL);
	lupe_cpu_map_put(any);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_ring_two_events),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
