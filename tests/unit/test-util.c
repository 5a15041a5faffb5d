// SPDX-License-Identifier: GPL-2.0
/* The error convention, the small-file and directory helpers, lupe_grow, the file pages' helpers and the index table of lib/util. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "util/phash.h"
#include "util/util.h"

static void test_strerror(void **state)
{
	assert_string_equal(lupe_strerror(-ENOENT), strerror(ENOENT));
	assert_string_equal(lupe_strerror(ENOENT), strerror(ENOENT));
	assert_string_equal(lupe_strerror(-LUPE_ERR_TRUNCATED), "file is truncated");
	for (int e = LUPE_ERR_BASE; e < LUPE_ERR_MAX; e++)
		assert_non_null(lupe_strerror(-e));
}

static void test_err_ptr(void **state)
{
	errno = 0;
	assert_null(err_ptr(-EINVAL));
	assert_int_equal(errno, EINVAL);
	errno = EBADF;
	assert_int_equal(libc_err(-1), -EBADF);
	assert_int_equal(libc_err(5), 5);
}

static void test_read_small_file(void **state)
{
	char path[] = "/tmp/lupe-util-XXXXXX", buf[16];
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "1234\n\n", 6), 6);
	close(fd);
	assert_int_equal(lupe_read_small_file(path, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "1234");
	/* a buffer too small keeps what fits */
	assert_int_equal(lupe_read_small_file(path, buf, 3), 2);
	assert_string_equal(buf, "12");
	unlink(path);
	assert_int_equal(lupe_read_small_file(path, buf, sizeof(buf)), -ENOENT);
	assert_null(lupe_read_whole_file(path, NULL));
	assert_int_equal(errno, ENOENT);
}

static int count_in(uintptr_t lo, uintptr_t hi, void *arg)
{
	uintptr_t *r = arg; /* r[0], r[1]: the range; r[2]: mappings of a file inside it */

	r[2] += lo >= r[0] && hi <= r[1];
	return 0;
}

static int stop_at_first(uintptr_t lo, uintptr_t hi, void *arg)
{
	(*(int *)arg)++;
	return 7;
}

/*
 * lib/util/pages.c: a file's mapping is told from the heap's, cut into
 * pieces of 1 MiB by lupe_pages_fine() (three mappings of a file where
 * there was one; 24 in pieces of 128 KiB by lupe_pages_cut()), and reads
 * the same bytes after its pages are given back.
 */
static void test_pages(void **state)
{
	char path[] = "/tmp/lupe-util-XXXXXX";
	size_t len = 3u << 20;
	int fd = mkstemp(path), n = 0;
	unsigned char *m, *heap = malloc(len);
	uintptr_t r[3];

	assert_true(fd >= 0);
	assert_non_null(heap);
	for (size_t i = 0; i < len; i += 4096)
		heap[i] = (unsigned char)(i >> 12);
	assert_int_equal(write(fd, heap, len), (ssize_t)len);
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(lupe_file_mapped(m, len), 1);
	assert_int_equal(lupe_file_mapped(m + 4096, len - 4096), 1);
	assert_int_equal(lupe_file_mapped(m, len + 4096), 0);
	assert_int_equal(lupe_file_mapped(heap, 4096), 0);
	assert_int_equal(lupe_file_maps_each(stop_at_first, &n), 7);
	assert_int_equal(n, 1);
	r[0] = (uintptr_t)m, r[1] = (uintptr_t)m + len, r[2] = 0;
	lupe_file_maps_each(count_in, r);
	assert_int_equal(r[2], 1);
	lupe_pages_fine(m, len);
	r[2] = 0;
	lupe_file_maps_each(count_in, r);
	assert_int_equal(r[2], 3);
	/* a range in a cut mapping is no longer in one mapping */
	assert_int_equal(lupe_file_mapped(m, len), 0);
	lupe_pages_give_back(m, len);
	for (size_t i = 0; i < len; i += 4096)
		assert_int_equal(m[i], heap[i]);
	munmap(m, len);
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(m != MAP_FAILED);
	lupe_pages_cut(m, len, 128u << 10);
	r[0] = (uintptr_t)m, r[1] = (uintptr_t)m + len, r[2] = 0;
	lupe_file_maps_each(count_in, r);
	assert_int_equal(r[2], 24);
	lupe_pages_give_back(m + 5000, 3 * 4096); /* not page-aligned: the pages it touches */
	{
		size_t given = 0;

		lupe_pages_give_back_behind(m, &given, 4000, 4096); /* less than a step: nothing */
		assert_int_equal(given, 0);
		lupe_pages_give_back_behind(m, &given, 3 * 4096 + 100, 8192); /* cut to a page */
		assert_int_equal(given, 3 * 4096);
		lupe_pages_give_back_behind(m, &given, 4 * 4096, 8192);
		assert_int_equal(given, 3 * 4096);
	}
	for (size_t i = 0; i < len; i += 4096)
		assert_int_equal(m[i], heap[i]);
	munmap(m, len);
	close(fd);
	unlink(path);
	free(heap);
}

static void test_grow(void **state)
{
	uint32_t *v = NULL;
	size_t cap = 0;

	/* appended one at a time, the items already there stay */
	for (size_t n = 0; n < 1000; n++) {
		assert_int_equal(lupe_grow(&v, &cap, n + 1, sizeof(*v)), 0);
		assert_true(cap >= n + 1);
		v[n] = (uint32_t)n;
	}
	for (size_t n = 0; n < 1000; n++)
		assert_int_equal(v[n], n);
	assert_int_equal(cap, 1024); /* doubled from 64 */
	/* room enough: nothing moves */
	assert_int_equal(lupe_grow(&v, &cap, 10, sizeof(*v)), 0);
	assert_int_equal(cap, 1024);
	/* a size that cannot be had fails and leaves the array as it was */
	assert_int_equal(lupe_grow(&v, &cap, SIZE_MAX / 2, sizeof(*v)), -ENOMEM);
	assert_int_equal(lupe_grow(&v, &cap, SIZE_MAX, 1), -ENOMEM);
	assert_int_equal(cap, 1024);
	assert_int_equal(v[999], 999);
	free(v);
}

static int sum_num(int n, void *arg)
{
	int *sum = arg;

	*sum += n;
	return n == 7 ? 9 : 0; /* 7 stops the walk with 9 */
}

static void test_dir_foreach_num(void **state)
{
	char dir[] = "/tmp/lupe-util-XXXXXX", path[64];
	const char *names[] = { "node1", "node20", "nodex", "node", "x3", "12" };
	int sum = 0;

	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	/* only "node" and a digit count */
	assert_int_equal(lupe_dir_foreach_num(dir, "node", sum_num, &sum), 0);
	assert_int_equal(sum, 21);
	/* the empty prefix: names that start with a digit */
	sum = 0;
	assert_int_equal(lupe_dir_foreach_num(dir, "", sum_num, &sum), 0);
	assert_int_equal(sum, 12);
	/* fn's non-zero ends the walk and is returned */
	snprintf(path, sizeof(path), "%s/node7", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	sum = 0;
	assert_int_equal(lupe_dir_foreach_num(dir, "node", sum_num, &sum), 9);
	assert_true(sum >= 7);
	assert_int_equal(rmdir(path), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		assert_int_equal(rmdir(path), 0);
	}
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(lupe_dir_foreach_num(dir, "", sum_num, &sum), -ENOENT);
}

static void test_parse_sort_keys(void **state)
{
	static const char *const names[] = { "avg", "max", "pid" };
	int keys[2];

	assert_int_equal(lupe_parse_sort_keys("pid, avg", ", ", names, 3, keys, 2, "h"), 2);
	assert_int_equal(keys[0], 2);
	assert_int_equal(keys[1], 0);
	assert_int_equal(lupe_parse_sort_keys("", ",", names, 3, keys, 2, "h"), 0);
	/* a word not in names, and one past the room */
	assert_int_equal(lupe_parse_sort_keys("max,nope", ",", names, 3, keys, 2, "h"), -EINVAL);
	assert_int_equal(lupe_parse_sort_keys("max,pid,avg", ",", names, 3, keys, 2, "h"), -EINVAL);
	/* the separators are the caller's: a space is part of a word here */
	assert_int_equal(lupe_parse_sort_keys("max, pid", ",", names, 3, keys, 2, "h"), -EINVAL);
}

static int seen;
static void count_log(enum lupe_log_level level, const char *fmt, va_list ap)
{
	seen++;
}

static void test_log_levels(void **state)
{
	lupe_log_set(count_log);
	lupe_log_set_level(LUPE_LOG_WARN);
	pr_err("e");
	pr_warn("w");
	pr_debug("d");
	assert_int_equal(seen, 2);
	lupe_log_set(NULL);
	pr_err("dropped");
	assert_int_equal(seen, 2);
}

static int ihash_eq(const void *arg, uint32_t idx)
{
	const uint64_t *const *keys = arg; /* { the keys by index, the key looked for } */

	return keys[0][idx] == *keys[1];
}

/*
 * lupe_ihash_*: indexes through the pointer table, index 0 included (a slot
 * holds index + 1), found again after the table grew past its first 256
 * slots, and an equal hash with another key is not a match.
 */
static void test_ihash(void **state)
{
	enum { N = 1000 };
	static uint64_t keys[N];
	struct phash t = { 0 };

	for (uint32_t i = 0; i < N; i++) {
		uint64_t key = 7919 * (uint64_t)i + 1;
		const uint64_t *arg[2] = { keys, &key };
		void **slot = lupe_ihash_find(&t, key % 97, ihash_eq, arg); /* many keys a hash */

		assert_non_null(slot);
		assert_int_equal(lupe_ihash_idx(slot), -1);
		keys[i] = key;
		lupe_ihash_fill(&t, slot, key % 97, i);
	}
	assert_int_equal(t.nr, N);
	assert_true(t.cap > 256);
	for (uint32_t i = 0; i < N; i++) {
		const uint64_t *arg[2] = { keys, &keys[i] };
		void **slot = lupe_ihash_find(&t, keys[i] % 97, ihash_eq, arg);

		assert_non_null(slot);
		assert_int_equal(lupe_ihash_idx(slot), i);
	}
	{
		uint64_t other = 2; /* no key, looked up by the hash of keys[1] */
		const uint64_t *arg[2] = { keys, &other };

		assert_int_equal(lupe_ihash_idx(lupe_ihash_find(&t, 7920 % 97, ihash_eq, arg)), -1);
	}
	lupe_phash_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_err_ptr),
		cmocka_unit_test(test_read_small_file),
		cmocka_unit_test(test_log_levels),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_ihash),
		cmocka_unit_test(test_dir_foreach_num),
		cmocka_unit_test(test_parse_sort_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
