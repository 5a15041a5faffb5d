// SPDX-License-Identifier: GPL-2.0
/*
 * perf's -G pairing (lib/counting/cgroup.c): names pair with the events in
 * order, empty names leave an event alone, more names than events and a
 * missing cgroup are refused with the name at fault.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/evlist.h>

static void test_pairing(void **state)
{
	struct lupe_evlist *el = lupe_evlist_parse("task-clock,cpu-clock");
	char root[4096], bad[64];
	char *none[] = { ",," }, *many[] = { ",", "x" }, *missing[] = { "lupe-no-such-cgroup-0" };

	(void)state;
	assert_non_null(el);
	/* empty names: nothing to open, past the events too, as perf takes them */
	assert_int_equal(lupe_evlist_set_cgroups(el, none, 1, bad, sizeof(bad)), 0);
	assert_null(lupe_evsel_cgroup(lupe_evlist_evsel(el, 0)));
	assert_null(lupe_evsel_cgroup(lupe_evlist_evsel(el, 1)));
	/* a third name for two events */
	assert_int_equal(lupe_evlist_set_cgroups(el, many, 2, bad, sizeof(bad)), -E2BIG);
	assert_string_equal(bad, "x");
	if (lupe_cgroup_root(root, sizeof(root))) {
		lupe_evlist_delete(el);
		skip(); /* no cgroup hierarchy here */
	}
	assert_int_equal(lupe_evlist_set_cgroups(el, missing, 1, bad, sizeof(bad)), -ENOENT);
	assert_string_equal(bad, "lupe-no-such-cgroup-0");
	/* the root itself ("" under it is the root: perf's "/") opens */
	{
		char *root_only[] = { "/" };
		int fd = lupe_cgroup_open("/");

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(lupe_evlist_set_cgroups(el, root_only, 1, bad, sizeof(bad)), 0);
		/* a single name is every event's */
		assert_string_equal(lupe_evsel_cgroup(lupe_evlist_evsel(el, 0)), "/");
		assert_string_equal(lupe_evsel_cgroup(lupe_evlist_evsel(el, 1)), "/");
	}
	lupe_evlist_delete(el);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
