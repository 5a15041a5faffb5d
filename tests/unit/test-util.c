// SPDX-License-Identifier: GPL-2.0
/* The error convention, the small-file and directory helpers and lupe_grow of lib/util. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_err_ptr),
		cmocka_unit_test(test_read_small_file),
		cmocka_unit_test(test_log_levels),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_dir_foreach_num),
		cmocka_unit_test(test_parse_sort_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
