// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer: write a small file and read it back with direct
 * checks of the layouts (header, attrs with id arrays, data, feature
 * table, EVENT_DESC, strings), pipe mode, and that an unfinished file does
 * not claim to be a perf.data.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>
#include "data/features.h"
#include "data/format.h"
#include "data/maps-write.h"
#include "data/writer.h"
#include "util/util.h"

static char *slurp(const char *path, size_t *len)
{
	char *d = lupe_read_whole_file(path, len);

	assert_non_null(d);
	return d;
}

static int tmpfile_fd(char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	return fd;
}

static struct perf_event_attr test_attr(void)
{
	struct perf_event_attr a = { 0 };

	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.freq = 1;
	a.sample_freq = 4000;
	return a;
}

static int has_feat(const struct perf_file_header *h, int f)
{
	return !!(h->adds_features[f / 64] & (1ULL << (f % 64)));
}

static void test_file_round_trip(void **state)
{
	char path[] = "/tmp/lupe-pdw-XXXXXX";
	int fd = tmpfile_fd(path);
	struct perf_writer *w = lupe_perf_writer_new(fd, 0);
	struct perf_event_attr a = test_attr();
	uint64_t ids[2] = { 11, 12 };
	struct { struct perf_event_header h; uint64_t ip; uint32_t pid, tid; } s = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 0x1234, 7, 8 };
	char *argv[] = { "record", "--", "true" };
	struct feat_env env = { .version = "lupe test", .argc = 3, .argv = argv,
				.first_sample_time = 5, .last_sample_time = 9 };
	struct perf_file_header *h;
	struct perf_file_attr *fa;
	struct perf_file_section *sec;
	size_t len;
	char *d;

	assert_non_null(w);
	assert_int_equal(lupe_perf_writer_add_attr(w, &a, ids, 2, "cpu-clock"), 0);
	assert_int_equal(lupe_perf_writer_start(w), 0);
	assert_int_equal(lupe_perf_writer_write(w, &s, sizeof(s)), 0);
	assert_int_equal(lupe_perf_writer_round(w), 0);

	/*
	 * Before finish, the header is valid and covers the rounds written, but
	 * names no features: a reader knows the file was not finalized.
	 */
	d = slurp(path, &len);
	h = (void *)d;
	assert_true(len >= sizeof(*h));
	assert_true(h->magic == PERF_MAGIC2);
	assert_int_equal(h->data.offset + h->data.size, len);
	assert_int_equal(h->data.size, sizeof(s) + sizeof(struct perf_event_header));
	assert_int_equal(h->adds_features[0] | h->adds_features[1], 0);
	free(d);

	assert_int_equal(lupe_features_write(w, &env, 0), 0);
	assert_int_equal(lupe_perf_writer_finish(w), 0);
	lupe_perf_writer_delete(w);

	d = slurp(path, &len);
	h = (void *)d;
	assert_true(h->magic == PERF_MAGIC2);
	assert_int_equal(h->size, 104);
	assert_int_equal(h->attr_size, sizeof(struct perf_file_attr));
	assert_int_equal(h->attrs.size, sizeof(struct perf_file_attr));
	fa = (void *)(d + h->attrs.offset);
	assert_int_equal(fa->attr.size, sizeof(struct perf_event_attr));
	assert_int_equal(fa->attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(fa->ids.size, 16);
	assert_int_equal(((uint64_t *)(d + fa->ids.offset))[0], 11);
	assert_int_equal(((uint64_t *)(d + fa->ids.offset))[1], 12);
	/* data: the sample, then FINISHED_ROUND */
	assert_int_equal(h->data.size, sizeof(s) + 8);
	assert_memory_equal(d + h->data.offset, &s, sizeof(s));
	assert_int_equal(((struct perf_event_header *)(d + h->data.offset + sizeof(s)))->type,
			 PERF_RECORD_FINISHED_ROUND);

	/* the feature table follows the data, one section per bit in bit order */
	for (int f = HEADER_HOSTNAME; f <= HEADER_CPU_TOPOLOGY; f++)
		if (f != HEADER_CPUDESC && f != HEADER_CPUID && f != HEADER_TOTAL_MEM)
			assert_true(has_feat(h, f));
	assert_true(has_feat(h, HEADER_SAMPLE_TIME));
	assert_false(has_feat(h, HEADER_BUILD_ID));
	assert_false(has_feat(h, HEADER_TRACING_DATA));
	sec = (void *)(d + h->data.offset + h->data.size);
	{
		int i = 0;

		for (int f = 1; f < HEADER_LAST_FEATURE; f++) {
			if (!has_feat(h, f))
				continue;
			assert_true(sec[i].offset + sec[i].size <= len);
			if (f == HEADER_VERSION) {
				struct perf_header_string *str = (void *)(d + sec[i].offset);

				assert_int_equal(str->len, 64); /* padded to NAME_ALIGN */
				assert_string_equal(str->string, "lupe test");
			}
			if (f == HEADER_EVENT_DESC) {
				const char *p = d + sec[i].offset;

				assert_int_equal(*(uint32_t *)p, 1);
				assert_int_equal(*(uint32_t *)(p + 4), sizeof(struct perf_event_attr));
				p += 8 + sizeof(struct perf_event_attr);
				assert_int_equal(*(uint32_t *)p, 2); /* ids */
				assert_string_equal(((struct perf_header_string *)(p + 4))->string, "cpu-clock");
			}
			if (f == HEADER_CMDLINE) {
				const char *p = d + sec[i].offset;

				assert_int_equal(*(uint32_t *)p, 4); /* the program, then argv */
			}
			if (f == HEADER_SAMPLE_TIME) {
				assert_int_equal(sec[i].size, 16);
				assert_int_equal(((uint64_t *)(d + sec[i].offset))[1], 9);
			}
			i++;
		}
		/* nothing after the last feature */
		assert_int_equal(sec[i - 1].offset + sec[i - 1].size, len);
	}
	free(d);
	unlink(path);
}

static void test_pipe_mode(void **state)
{
	char path[] = "/tmp/lupe-pdw-XXXXXX";
	int fd = tmpfile_fd(path);
	struct perf_writer *w = lupe_perf_writer_new(fd, 1);
	struct perf_event_attr a = test_attr();
	uint64_t id = 99;
	struct fbuf b = { 0 };
	struct perf_event_header *eh;
	size_t len;
	char *d;

	assert_int_equal(lupe_perf_writer_add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	assert_int_equal(lupe_perf_writer_start(w), 0);
	lupe_fbuf_string(&b, "host");
	assert_int_equal(lupe_perf_writer_pipe_feature(w, HEADER_HOSTNAME, &b), 0);
	lupe_fbuf_free(&b);
	assert_int_equal(lupe_perf_writer_finish(w), 0);
	lupe_perf_writer_delete(w);

	d = slurp(path, &len);
	assert_true(((struct perf_pipe_file_header *)d)->magic == PERF_MAGIC2);
	assert_int_equal(((struct perf_pipe_file_header *)d)->size, 16);
	eh = (void *)(d + 16);
	assert_int_equal(eh->type, PERF_RECORD_HEADER_ATTR);
	assert_int_equal(eh->size, 8 + sizeof(struct perf_event_attr) + 8);
	assert_int_equal(*(uint64_t *)((char *)eh + 8 + sizeof(struct perf_event_attr)), 99);
	eh = (void *)((char *)eh + eh->size);
	assert_int_equal(eh->type, PERF_RECORD_HEADER_FEATURE);
	assert_int_equal(((struct perf_record_header_feature *)eh)->feat_id, HEADER_HOSTNAME);
	assert_int_equal((char *)eh + eh->size - d, len);
	free(d);
	unlink(path);
}

static void test_write_error_is_sticky(void **state)
{
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	struct perf_writer *w;
	struct perf_event_attr a = test_attr();
	uint64_t id = 1;

	if (fd < 0)
		skip();
	w = lupe_perf_writer_new(fd, 1);
	assert_int_equal(lupe_perf_writer_add_attr(w, &a, &id, 1, "x"), 0);
	assert_int_equal(lupe_perf_writer_start(w), -ENOSPC);
	assert_int_equal(lupe_perf_writer_round(w), -ENOSPC);
	assert_int_equal(lupe_perf_writer_finish(w), -ENOSPC);
	lupe_perf_writer_delete(w);
}

static void test_compressed(void **state)
{
	char path[] = "/tmp/lupe-pdw-XXXXXX";
	int fd = tmpfile_fd(path);
	struct perf_writer *w = lupe_perf_writer_new(fd, 0);
	struct perf_event_attr a = test_attr();
	uint64_t id = 1;
	struct { struct perf_event_header h; uint64_t ip; uint32_t pid, tid; } s = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 0x1234, 7, 8 };
	struct perf_file_header *h;
	struct perf_event_header *eh;
	size_t len;
	char *d;

	assert_int_equal(lupe_perf_writer_add_attr(w, &a, &id, 1, "x"), 0);
	if (lupe_perf_writer_set_compression(w, 3) == -LUPE_ERR_NOT_SUPPORTED) {
		lupe_perf_writer_delete(w);
		unlink(path);
		skip();
	}
	assert_int_equal(lupe_perf_writer_start(w), 0);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(lupe_perf_writer_write(w, &s, sizeof(s)), 0);
	assert_int_equal(lupe_perf_writer_round(w), 0);
	assert_int_equal(lupe_perf_writer_finish(w), 0);
	assert_true(lupe_perf_writer_bytes_in(w) > 10 * lupe_perf_writer_data_size(w));
	lupe_perf_writer_delete(w);

	d = slurp(path, &len);
	h = (void *)d;
	eh = (void *)(d + h->data.offset);
	/* whole batches of records, each at most 60 KiB, in several records */
	assert_int_equal(eh->type, PERF_RECORD_COMPRESSED);
	eh = (void *)((char *)eh + eh->size);
	assert_int_equal(eh->type, PERF_RECORD_COMPRESSED);
	free(d);
	unlink(path);
}

/* CPU_MAP as perf 6.1 encodes it: a range when consecutive, else the list; -1 as any */
static void check_cpu_map(const int *cpus, int nr, const uint16_t *want, size_t want_words)
{
	struct lupe_cpu_map *m = lupe_cpu_map_new_cpus(cpus, nr);
	struct fbuf b = { 0 };
	const struct perf_event_header *h;

	assert_non_null(m);
	lupe_cpu_map_record(&b, m);
	assert_int_equal(b.err, 0);
	h = (const void *)b.data;
	assert_int_equal(h->type, PERF_RECORD_CPU_MAP);
	assert_int_equal(h->size, b.len);
	assert_int_equal(b.len % 8, 0);
	assert_true(b.len >= sizeof(*h) + 2 * want_words);
	assert_memory_equal(b.data + sizeof(*h), want, 2 * want_words);
	lupe_fbuf_free(&b);
	lupe_cpu_map_put(m);
}

static void test_cpu_map_record(void **state)
{
	static const int range[] = { 0, 1, 2, 3 }, list[] = { 0, 2, 5 }, any[] = { -1 },
			 any_range[] = { -1, 1, 2 };
	/* type, then a range's any_cpu/pad bytes, start, end; a list's nr, cpus */
	static const uint16_t w_range[] = { 2, 0, 0, 3 }, w_list[] = { 0, 3, 0, 2, 5 },
			      w_any[] = { 0, 1, 0xffff }, w_any_range[] = { 2, 1, 1, 2 };

	(void)state;
	check_cpu_map(range, 4, w_range, 4);
	check_cpu_map(list, 3, w_list, 5);
	check_cpu_map(any, 1, w_any, 3);
	check_cpu_map(any_range, 3, w_any_range, 4);
}

static void test_thread_map_record(void **state)
{
	static const pid_t pids[] = { -1, 12345 };
	struct lupe_thread_map *m = lupe_thread_map_new_list(pids, 2);
	struct fbuf b = { 0 };
	const struct perf_event_header *h;
	uint64_t nr;
	int64_t pid;

	(void)state;
	assert_non_null(m);
	lupe_thread_map_record(&b, m, 0);
	assert_int_equal(b.err, 0);
	h = (const void *)b.data;
	assert_int_equal(h->type, PERF_RECORD_THREAD_MAP);
	/* u64 nr, then { u64 pid; char comm[16] } each */
	assert_int_equal(h->size, 8 + 8 + 2 * 24);
	memcpy(&nr, b.data + 8, 8);
	assert_int_equal(nr, 2);
	memcpy(&pid, b.data + 16, 8);
	assert_int_equal(pid, -1);
	memcpy(&pid, b.data + 40, 8);
	assert_int_equal(pid, 12345);
	assert_int_equal(b.data[48], 0); /* no comm asked for */
	lupe_fbuf_free(&b);
	lupe_thread_map_put(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_pipe_mode),
		cmocka_unit_test(test_write_error_is_sticky),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_cpu_map_record),
		cmocka_unit_test(test_thread_map_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
