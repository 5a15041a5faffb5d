// SPDX-License-Identifier: GPL-2.0
/* CPU and thread maps, and starting a workload. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/cpumap.h>
#include <lupe/workload.h>
#include "util/util.h"

static void test_cpu_map_lists(void **state)
{
	struct lupe_cpu_map *all = lupe_cpu_map_new(NULL), *m;
	int n = lupe_cpu_map_nr(all);

	assert_non_null(all);
	assert_int_equal(n, sysconf(_SC_NPROCESSORS_ONLN));
	m = lupe_cpu_map_new("0");
	assert_int_equal(lupe_cpu_map_nr(m), 1);
	assert_int_equal(lupe_cpu_map_cpu(m, 0), 0);
	assert_int_equal(lupe_cpu_map_cpu(m, 1), -1);
	lupe_cpu_map_put(m);
	if (n >= 2) {
		m = lupe_cpu_map_new("1,0-1,0");
		assert_int_equal(lupe_cpu_map_nr(m), 2);
		assert_int_equal(lupe_cpu_map_cpu(m, 0), 0);
		assert_int_equal(lupe_cpu_map_cpu(m, 1), 1);
		lupe_cpu_map_put(m);
	}
	lupe_cpu_map_put(all);

	const char *bad[] = { "", "x", "1-", "-1", "3-1", "0,,1", "0 1" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		assert_null(lupe_cpu_map_new(bad[i]));
		assert_int_equal(errno, EINVAL);
	}
	assert_null(lupe_cpu_map_new("4000"));
	assert_int_equal(errno, ENODEV);

	m = lupe_cpu_map_any();
	assert_int_equal(lupe_cpu_map_nr(m), 1);
	assert_int_equal(lupe_cpu_map_cpu(m, 0), -1);
	assert_ptr_equal(lupe_cpu_map_get(m), m);
	lupe_cpu_map_put(m);
	lupe_cpu_map_put(m);
	lupe_cpu_map_put(NULL);
}

static void test_thread_maps(void **state)
{
	char self[32];
	struct lupe_thread_map *m;

	snprintf(self, sizeof(self), "%d", getpid());
	m = lupe_thread_map_new_pids(self);
	assert_non_null(m);
	assert_int_equal(lupe_thread_map_nr(m), 1);
	assert_int_equal(lupe_thread_map_pid(m, 0), getpid());
	lupe_thread_map_put(m);

	m = lupe_thread_map_new_tids("1,1");
	assert_int_equal(lupe_thread_map_nr(m), 1);
	lupe_thread_map_put(m);

	assert_null(lupe_thread_map_new_pids("abc"));
	assert_int_equal(errno, EINVAL);
	assert_null(lupe_thread_map_new_pids("999999999"));
	assert_int_equal(errno, ESRCH);

	m = lupe_thread_map_new_one(-1);
	assert_int_equal(lupe_thread_map_pid(m, 0), -1);
	lupe_thread_map_put(m);
}

static void test_workload(void **state)
{
	struct lupe_workload w;
	char *ok[] = { "sh", "-c", "exit 3", NULL };
	char *missing[] = { "lupe-no-such-program", NULL };

	assert_int_equal(lupe_workload_prepare(&w, ok), 0);
	assert_int_equal(lupe_workload_start(&w), 0);
	assert_int_equal(lupe_workload_wait(&w), 0);
	assert_int_equal(lupe_workload_exit_code(&w), 3);

	assert_int_equal(lupe_workload_prepare(&w, missing), 0);
	assert_int_equal(lupe_workload_start(&w), -ENOENT);
	assert_true(w.reaped);

	assert_int_equal(lupe_workload_prepare(&w, ok), 0);
	lupe_workload_abort(&w);
	assert_true(w.reaped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_map_lists),
		cmocka_unit_test(test_thread_maps),
		cmocka_unit_test(test_workload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
