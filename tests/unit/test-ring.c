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
#include <sys/ioctl.h>
#include <sys/syscall.h>
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

/* A task-clock event of this thread sampling every 100 us, its id first in each sample. */
static int open_clock(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = 100000, .sample_type = PERF_SAMPLE_IDENTIFIER,
		.exclude_kernel = 1, .exclude_hv = 1,
	};

	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

struct ids {
	uint64_t want[2];
	int seen[2];
};

static int count_ids(const struct perf_event_header *rec, void *arg)
{
	struct ids *ids = arg;
	uint64_t id;

	if (rec->type != PERF_RECORD_SAMPLE)
		return 0;
	memcpy(&id, rec + 1, sizeof(id));
	for (int i = 0; i < 2; i++)
		ids->seen[i] += id == ids->want[i];
	return 0;
}

/* The ring step: the first fd maps the ring, the second's samples land in it. */
static void test_attach_redirects(void **state)
{
	struct ring r = { 0 };
	struct ids ids;
	int fd[2] = { open_clock(), open_clock() };
	volatile unsigned long spin = 0;

	(void)state;
	memset(&ids, 0, sizeof(ids));
	if (fd[0] < 0 || fd[1] < 0) {
		print_message("no task-clock events here (perf_event_paranoid?): not checked\n");
		skip();
	}
	assert_int_equal(lupe_ring_attach(&r, fd[0], -1, 8), 0);
	assert_non_null(r.base);
	assert_int_equal(r.fd, fd[0]);
	assert_int_equal(lupe_ring_attach(&r, fd[1], -1, 8), 0);
	assert_int_equal(r.fd, fd[0]); /* still the first's ring */
	for (int i = 0; i < 2; i++)
		assert_int_equal(ioctl(fd[i], PERF_EVENT_IOC_ID, &ids.want[i]), 0);
	for (unsigned long i = 0; i < 50000000UL && ids.seen[1] < 3; i++) {
		spin += i;
		if (!(i % 1000000))
			lupe_ring_read(&r, count_ids, &ids);
	}
	lupe_ring_read(&r, count_ids, &ids);
	assert_true(ids.seen[0] > 0);
	assert_true(ids.seen[1] > 0);
	lupe_ring_unmap(&r);
	close(fd[0]);
	close(fd[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order_and_tail),
		cmocka_unit_test(test_wraps_the_edge),
		cmocka_unit_test(test_stop_keeps_the_rest),
		cmocka_unit_test(test_attach_redirects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
