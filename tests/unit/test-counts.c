// SPDX-License-Identifier: GPL-2.0
/* lib/counting: scaling, deltas, run statistics, stat's tables and runs, open-error verdicts and sentences. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/counts.h>
#include <lupe/evsel.h>
#include <lupe/evlist.h>

static void test_scale(void **state)
{
	struct lupe_counts full = { 100, 1000, 1000 }, half = { 100, 1000, 500 };
	struct lupe_counts never = { 7, 1000, 0 };

	assert_int_equal(lupe_counts_scale(&full), 0);
	assert_int_equal(full.val, 100);
	assert_int_equal(lupe_counts_scale(&half), 1);
	assert_int_equal(half.val, 200);
	assert_int_equal(lupe_counts_scale(&never), -1);
	assert_int_equal(never.val, 0);
}

static void test_delta_add(void **state)
{
	struct lupe_counts a = { 10, 100, 50 }, b = { 15, 200, 150 }, d;

	d = lupe_counts_delta(&b, &a);
	assert_int_equal(d.val, 5);
	assert_int_equal(d.ena, 100);
	assert_int_equal(d.run, 100);
	d = lupe_counts_delta(&a, &b); /* never negative */
	assert_int_equal(d.val, 0);
	lupe_counts_add(&a, &b);
	assert_int_equal(a.val, 25);
	assert_int_equal(a.run, 200);
}

static void test_stats(void **state)
{
	struct lupe_stats s = { 0 };
	double sd;

	lupe_stats_update(&s, 2);
	assert_true(lupe_stats_stddev(&s) == 0);
	lupe_stats_update(&s, 4);
	lupe_stats_update(&s, 6);
	assert_true(lupe_stats_mean(&s) == 4);
	/* sample variance 4, stddev of the mean sqrt(4/3) */
	sd = lupe_stats_stddev(&s);
	assert_true(sd > 1.1547 && sd < 1.1548);
	assert_true(lupe_stats_rel_stddev(sd, 4) > 28.86 && lupe_stats_rel_stddev(sd, 4) < 28.87);
	assert_true(lupe_stats_rel_stddev(1, 0) == 0);
}

static void test_verdicts(void **state)
{
	struct perf_event_attr hw = { .type = PERF_TYPE_HARDWARE };
	struct perf_event_attr sw = { .type = PERF_TYPE_SOFTWARE, .exclude_kernel = 1 };
	char buf[512];

	assert_int_equal(lupe_open_verdict(-ENOENT), LUPE_OPEN_UNSUPPORTED);
	assert_int_equal(lupe_open_verdict(-EOPNOTSUPP), LUPE_OPEN_UNSUPPORTED);
	assert_int_equal(lupe_open_verdict(-ENODEV), LUPE_OPEN_UNSUPPORTED);
	assert_int_equal(lupe_open_verdict(-EACCES), LUPE_OPEN_DENIED);
	assert_int_equal(lupe_open_verdict(-EPERM), LUPE_OPEN_DENIED);
	assert_int_equal(lupe_open_verdict(-EMFILE), LUPE_OPEN_FATAL);

	lupe_open_strerror(-EACCES, &hw, "cycles", -1, 1234, buf, sizeof(buf));
	assert_non_null(strstr(buf, "'cycles'"));
	assert_non_null(strstr(buf, "perf_event_paranoid is"));
	assert_non_null(strstr(buf, "CAP_PERFMON"));
	assert_non_null(strstr(buf, "'cycles:u'"));
	/* already user space only: no point suggesting :u */
	lupe_open_strerror(-EPERM, &sw, "task-clock:u", 0, -1, buf, sizeof(buf));
	assert_null(strstr(buf, ":u:u"));
	lupe_open_strerror(-ENOENT, &hw, "cycles", -1, 1, buf, sizeof(buf));
	assert_non_null(strstr(buf, "no hardware PMU"));
	lupe_open_strerror(-ESRCH, &sw, "task-clock", -1, 99, buf, sizeof(buf));
	assert_non_null(strstr(buf, "no process 99"));
	assert_true(lupe_perf_event_paranoid() >= -1);
}

static void test_evlist_without_kernel(void **state)
{
	struct lupe_event ev[2] = {
		{ .name = "duration_time", .tool = LUPE_TOOL_DURATION_TIME, .leader = 0, .group_size = 1 },
		{ .name = "user_time", .tool = LUPE_TOOL_USER_TIME, .leader = 1, .group_size = 1 },
	};
	struct lupe_event_list list = { ev, 2, 2 };
	struct lupe_evlist *evlist = lupe_evlist_new(&list);
	struct lupe_cpu_map *cpus = lupe_cpu_map_any();
	struct lupe_thread_map *threads = lupe_thread_map_new_one(-1);
	LUPE_OPTS(lupe_evlist_opts, opts);
	struct lupe_counts c;

	assert_non_null(evlist);
	assert_int_equal(lupe_evlist_nr(evlist), 2);
	assert_string_equal(lupe_evsel_name(lupe_evlist_evsel(evlist, 1)), "user_time");
	/* tool events open nothing */
	assert_int_equal(lupe_evlist_open(evlist, cpus, threads, &opts, NULL), 0);
	lupe_evlist_set_tool_times(evlist, 1000, 0, 5);
	assert_int_equal(lupe_evlist_read(evlist), 0);
	c = lupe_evsel_aggr_counts(lupe_evlist_evsel(evlist, 0), LUPE_AGGR_GLOBAL, 0);
	assert_int_equal(c.val, 1000);
	assert_int_equal(c.run, 1000);
	c = lupe_evsel_aggr_counts(lupe_evlist_evsel(evlist, 1), LUPE_AGGR_GLOBAL, 0);
	assert_int_equal(c.run, 0); /* no user time: <not counted>, as perf */
	lupe_evlist_delete(evlist);
	lupe_cpu_map_put(cpus);
	lupe_thread_map_put(threads);
}

/* stat -r: per event and aggregate, each run scaled, then the mean over runs */
static void test_runs(void **state)
{
	/* 2 events x 2 aggregates: [e * naggr + g] */
	struct lupe_counts c1[4] = {
		{ 100, 1000, 1000 }, /* ran all the time */
		{ 100, 1000, 500 },  /* multiplexed: scaled to 200 */
		{ 7, 1000, 0 },      /* never ran */
		{ 0, 0, 0 },         /* never enabled */
	};
	struct lupe_counts c2[4] = { { 300, 1000, 1000 }, { 100, 1000, 250 }, { 7, 1000, 0 }, { 0, 0, 0 } };
	struct lupe_counts_table t1 = { 2, 2, c1 }, t2 = { 2, 2, c2 };
	struct lupe_counts_runs r;

	assert_int_equal(lupe_counts_runs_init(&r, 2, 2), 0);
	lupe_counts_runs_add(&r, &t1, NULL, 1e9);
	lupe_counts_runs_add(&r, &t2, NULL, 3e9);
	assert_true(lupe_stats_mean(&r.val[0]) == 200);   /* (100 + 300) / 2 */
	assert_true(lupe_stats_mean(&r.val[1]) == 300);   /* (200 + 400) / 2 */
	assert_true(lupe_stats_mean(&r.val[2]) == 0);
	assert_true(lupe_stats_mean(&r.run[1]) == 375);
	assert_true(lupe_stats_mean(&r.wall) == 2e9);
	/* stddev of the mean of 100 and 300: sqrt(20000 / 2) */
	assert_true(lupe_stats_stddev(&r.val[0]) == 100);
	assert_true(lupe_counts_runs_counted(&r, 0, 0));
	assert_true(lupe_counts_runs_counted(&r, 0, 1));
	assert_false(lupe_counts_runs_counted(&r, 1, 0)); /* enabled, never on a counter */
	assert_false(lupe_counts_runs_counted(&r, 1, 1));

	/* -I: one interval is now - prev, scaled by its own times */
	lupe_counts_runs_reset(&r);
	assert_true(lupe_stats_mean(&r.wall) == 0);
	c2[0] = (struct lupe_counts){ 300, 2000, 2000 };
	c2[1] = (struct lupe_counts){ 150, 2000, 1000 };
	lupe_counts_runs_add(&r, &t2, &t1, 5e8);
	assert_true(lupe_stats_mean(&r.val[0]) == 200); /* 300 - 100, ran all the interval */
	assert_true(lupe_stats_mean(&r.val[1]) == 100); /* 50 in 500 of 1000 ns */
	assert_true(lupe_stats_mean(&r.wall) == 5e8);
	lupe_counts_runs_clear(&r);
	assert_null(r.val);
	lupe_counts_runs_clear(&r); /* twice is fine */
}

/* the table of a list's counts, and perf's merged aliases folded into one event */
static void test_counts_table(void **state)
{
	struct lupe_event ev[2] = {
		{ .name = "duration_time", .tool = LUPE_TOOL_DURATION_TIME, .leader = 0, .group_size = 1 },
		{ .name = "duration_time", .tool = LUPE_TOOL_DURATION_TIME, .leader = 1, .group_size = 1 },
	};
	struct lupe_event_list list = { ev, 2, 2 };
	struct lupe_evlist *evlist = lupe_evlist_new(&list);
	struct lupe_evlist_opts opts = { .sz = sizeof(opts) };
	struct lupe_cpu_map *cpus = lupe_cpu_map_any();
	struct lupe_thread_map *threads = lupe_thread_map_new_one(-1);
	struct lupe_counts_table t = { 0 };
	const int merge[2] = { 0, 0 };

	assert_non_null(evlist);
	assert_int_equal(lupe_evlist_open(evlist, cpus, threads, &opts, NULL), 0);
	lupe_cpu_map_put(cpus);
	lupe_thread_map_put(threads);
	lupe_evlist_set_tool_times(evlist, 1000, 0, 0);
	assert_int_equal(lupe_evlist_read(evlist), 0);
	assert_int_equal(lupe_evlist_counts_table(evlist, LUPE_AGGR_GLOBAL, NULL, &t), 0);
	assert_int_equal(t.nevsel, 2);
	assert_int_equal(t.naggr, 1);
	assert_int_equal(t.c[0].val, 1000);
	assert_int_equal(t.c[1].val, 1000);
	assert_int_equal(lupe_evlist_counts_table(evlist, LUPE_AGGR_GLOBAL, merge, &t), 0);
	assert_int_equal(t.c[0].val, 2000);
	assert_int_equal(t.c[0].run, 2000);
	assert_int_equal(t.c[1].val, 0);
	lupe_counts_table_clear(&t);
	assert_null(t.c);
	lupe_evlist_delete(evlist);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_delta_add),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_evlist_without_kernel),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_counts_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
