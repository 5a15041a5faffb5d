// SPDX-License-Identifier: GPL-2.0
/*
 * The ring reader on a ring laid out by hand (control page, then data
 * pages) as the kernel lays it out: records in order, a record wrapping the
 * buffer's edge arrives whole, data_tail is handed back, a stop keeps the
 * rest for the next read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "sampling/ring.h"

#define DATA_PAGES 1

struct fake {
	struct ring r;
	char *mem;
	size_t page;
};

static void fake_init(struct fake *f)
{
	f->page = (size_t)sysconf(_SC_PAGESIZE);
	f->mem = aligned_alloc(f->page, (DATA_PAGES + 1) * f->page);
	assert_non_null(f->mem);
	memset(f->mem, 0, (DATA_PAGES + 1) * f->page);
	memset(&f->r, 0, sizeof(f->r));
	f->r.base = f->mem;
	f->r.data_size = DATA_PAGES * f->page;
	f->r.bounce = malloc(UINT16_MAX + 1);
	((struct perf_event_mmap_page *)f->mem)->data_offset = f->page;
}

static void fake_free(struct fake *f)
{
	free(f->r.bounce);
	free(f->mem);
}

/* The kernel's side: write a record of size bytes (filled with fill) at head. */
static void produce(struct fake *f, uint16_t size, unsigned char fill)
{
	struct perf_event_mmap_page *pc = (void *)f->mem;
	char *data = f->mem + f->page, rec[512];
	struct perf_event_header *h = (void *)rec;
	uint64_t head = pc->data_head;

	memset(rec, fill, size);
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = size;
	for (size_t i = 0; i < size; i++)
		data[(head + i) % f->r.data_size] = rec[i];
	pc->data_head = head + size;
}

struct seen {
	int n;
	unsigned char fill[64];
	uint16_t size[64];
	int stop_at;
};

static int consume(const struct perf_event_header *h, void *arg)
{
	struct seen *s = arg;
	const unsigned char *p = (const void *)h;

	/* the whole record is contiguous and intact */
	for (size_t i = sizeof(*h); i < h->size; i++)
		assert_int_equal(p[i], p[sizeof(*h)]);
	s->fill[s->n] = p[sizeof(*h)];
	s->size[s->n] = h->size;
	s->n++;
	return s->n == s->stop_at ? 7 : 0;
}

static void test_in_order_and_tail(void **state)
{
	struct fake f;
	struct seen s = { 0 };

	fake_init(&f);
	produce(&f, 64, 1);
	produce(&f, 128, 2);
	assert_true(lupe_ring_pending(&f.r));
	assert_int_equal(lupe_ring_read(&f.r, consume, &s), 192);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.fill[0], 1);
	assert_int_equal(s.fill[1], 2);
	assert_int_equal(((struct perf_event_mmap_page *)f.mem)->data_tail, 192);
	assert_false(lupe_ring_pending(&f.r));
	fake_free(&f);
}

static void test_wraps_the_edge(void **state)
{
	struct fake f;
	struct seen s = { 0 };
	uint64_t used = 0;

	fake_init(&f);
	/* fill up to 40 bytes before the edge, drain, then a record across it */
	while (used + 256 <= f.r.data_size - 40) {
		produce(&f, 256, 3);
		used += 256;
	}
	produce(&f, (uint16_t)(f.r.data_size - 40 - used), 4);
	assert_true(lupe_ring_read(&f.r, consume, &s) > 0);
	s.n = 0;
	produce(&f, 200, 5); /* 40 bytes before the edge, 160 after */
	produce(&f, 48, 6);
	assert_int_equal(lupe_ring_read(&f.r, consume, &s), 248);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.fill[0], 5);
	assert_int_equal(s.size[0], 200);
	assert_int_equal(s.fill[1], 6);
	fake_free(&f);
}

static void test_stop_keeps_the_rest(void **state)
{
	struct fake f;
	struct seen s = { .stop_at = 1 };

	fake_init(&f);
	produce(&f, 64, 1);
	produce(&f, 64, 2);
	assert_int_equal(lupe_ring_read(&f.r, consume, &s), 7);
	assert_int_equal(((struct perf_event_mmap_page *)f.mem)->data_tail, 64);
	s.stop_at = 0;
	assert_int_equal(lupe_ring_read(&f.r, consume, &s), 64);
	assert_int_equal(s.fill[1], 2);
	fake_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order_and_tail),
		cmocka_unit_test(test_wraps_the_edge),
		cmocka_unit_test(test_stop_keeps_the_rest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
