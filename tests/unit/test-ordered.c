// SPDX-License-Identifier: GPL-2.0
/* Time ordering (session/ordered.c): rounds as perf flushes them, a time window for live data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "session/ordered.h"

struct rec {
	struct perf_event_header h;
	uint64_t time;
};

struct seen {
	uint64_t times[64];
	int n, stop_at;
};

static int collect(void *arg, const struct perf_event_header *ev, uint64_t offset)
{
	struct seen *s = arg;

	/* each record comes back with the offset it was queued with */
	assert_int_equal(offset, ((const struct rec *)ev)->time + 1000);
	s->times[s->n++] = ((const struct rec *)ev)->time;
	return s->stop_at && s->n == s->stop_at ? 1 : 0;
}

static void queue(struct lupe_ordered *o, uint64_t t, int stable)
{
	struct rec r = { { PERF_RECORD_SAMPLE, 0, sizeof(r) }, t };

	/* unstable records are copied: r may go once queued */
	assert_int_equal(lupe_ordered_queue(o, &r.h, stable, t, t + 1000), 0);
}

static void test_rounds(void **state)
{
	struct seen s = { 0 };
	struct lupe_ordered *o = lupe_ordered_new(collect, &s);

	queue(o, 30, 0);
	queue(o, 10, 0);
	/* the first round flushes nothing: what follows may still be older */
	assert_int_equal(lupe_ordered_round(o), 0);
	assert_int_equal(s.n, 0);
	queue(o, 20, 0);
	queue(o, 40, 0);
	/* the second flushes up to the newest time of the first (30) */
	assert_int_equal(lupe_ordered_round(o), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.times[0], 10);
	assert_int_equal(s.times[1], 20);
	assert_int_equal(s.times[2], 30);
	queue(o, 5, 0); /* late: delivered, and counted */
	assert_int_equal(lupe_ordered_flush_all(o), 0);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.times[3], 5);
	assert_int_equal(s.times[4], 40);
	assert_int_equal(lupe_ordered_nr_unordered(o), 1);
	lupe_ordered_delete(o);
}

static void test_window(void **state)
{
	struct seen s = { 0 };
	struct lupe_ordered *o = lupe_ordered_new(collect, &s);

	lupe_ordered_set_window(o, 100);
	queue(o, 1000, 0);
	queue(o, 990, 0);
	assert_int_equal(s.n, 0);
	/* 1200 - 100: what is older than 1100 goes, in order, without a round */
	queue(o, 1200, 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.times[0], 990);
	assert_int_equal(s.times[1], 1000);
	assert_int_equal(lupe_ordered_flush_all(o), 0);
	assert_int_equal(s.n, 3);
	lupe_ordered_delete(o);
}

static void test_stop_and_stable(void **state)
{
	struct seen s = { .stop_at = 2 };
	struct lupe_ordered *o = lupe_ordered_new(collect, &s);
	struct rec keep[3] = {
		{ { PERF_RECORD_SAMPLE, 0, sizeof(struct rec) }, 3 },
		{ { PERF_RECORD_SAMPLE, 0, sizeof(struct rec) }, 1 },
		{ { PERF_RECORD_SAMPLE, 0, sizeof(struct rec) }, 2 },
	};

	for (int i = 0; i < 3; i++)
		assert_int_equal(lupe_ordered_queue(o, &keep[i].h, 1, keep[i].time, keep[i].time + 1000), 0);
	/* stable records stay where they are: the lowest one is what must stay mapped */
	assert_ptr_equal(lupe_ordered_lowest_stable(o), &keep[0].h);
	/* the consumer stops after two: the third is dropped */
	assert_int_equal(lupe_ordered_flush_all(o), 1);
	assert_int_equal(s.n, 2);
	assert_null(lupe_ordered_lowest_stable(o));
	lupe_ordered_delete(o);
}

/* Items (decoded BPF events) and records in one order; a live reader's own cut-off. */
struct mixed {
	char order[16];
	int n;
};

static int collect_mixed(void *arg, const struct perf_event_header *ev, uint64_t offset)
{
	struct mixed *m = arg;

	/* an item comes back as its handle, a record as itself */
	m->order[m->n++] = ev ? (char)('0' + ((const struct rec *)ev)->time / 10) : (char)offset;
	return 0;
}

static void test_items_and_cutoff(void **state)
{
	struct mixed m = { 0 };
	struct lupe_ordered *o = lupe_ordered_new(collect_mixed, &m);
	struct rec r1 = { { PERF_RECORD_SAMPLE, 0, sizeof(r1) }, 20 };
	struct rec r2 = { { PERF_RECORD_SAMPLE, 0, sizeof(r2) }, 40 };

	(void)state;
	assert_int_equal(lupe_ordered_queue(o, &r2.h, 0, 40, 0), 0);
	assert_int_equal(lupe_ordered_queue_item(o, 30, 'c'), 0);
	assert_int_equal(lupe_ordered_queue(o, &r1.h, 0, 20, 0), 0);
	assert_int_equal(lupe_ordered_queue_item(o, 10, 'a'), 0);
	assert_int_equal(lupe_ordered_queue_item(o, 20, 'b'), 0); /* equal times: by arrival */
	/* what is at most 30 goes; 40 waits for the next drain */
	assert_int_equal(lupe_ordered_flush_upto(o, 30), 0);
	assert_int_equal(m.n, 4);
	assert_memory_equal(m.order, "a2bc", 4);
	/* no record stays in the caller's memory: nothing stable is queued */
	assert_null(lupe_ordered_lowest_stable(o));
	assert_int_equal(lupe_ordered_flush_all(o), 0);
	assert_int_equal(m.n, 5);
	assert_int_equal(m.order[4], '4');
	lupe_ordered_delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_stop_and_stable),
		cmocka_unit_test(test_items_and_cutoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
