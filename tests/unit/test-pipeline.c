// SPDX-License-Identifier: GPL-2.0
/*
 * One pipeline, two sources: the demo workload (known split: compute_a
 * about 50% of the time with its callees, compute_b 30%, compute_c 20%)
 * profiled by a live source feeding the report consumer directly (no
 * file), and read back from the file `lupe record` wrote, through the same
 * session code and the same consumer. Both must show the split.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>
#include <lupe/record.h>
#include <lupe/report.h>
#include <lupe/session.h>
#include <lupe/source.h>
#include <lupe/workload.h>

#define DEMO LUPE_WORKLOADS "/demo"

/* The share (percent, with children) of the entries for each of compute_a/b/c. */
static void split_of(struct lupe_report *rep, double pct[3])
{
	static const char *const names[] = { "compute_a", "compute_b", "compute_c" };
	struct lupe_hists *h = lupe_report_hists(rep, 0);
	uint64_t total;
	struct lupe_hist_entry *e;

	assert_non_null(h);
	total = lupe_hists_total_period(h);
	assert_true(total > 0);
	memset(pct, 0, 3 * sizeof(*pct));
	for (long i = 0; (e = lupe_hists_entry(h, i)); i++)
		for (int k = 0; k < 3; k++)
			if (e->sym && !strcmp(e->sym->name, names[k]))
				pct[k] += 100.0 * (double)e->children / (double)total;
}

/* The known split, with room for a busy machine's noise. */
static void assert_split(const char *how, const double pct[3])
{
	print_message("%s: compute_a %.1f%%, compute_b %.1f%%, compute_c %.1f%%\n", how, pct[0],
		      pct[1], pct[2]);
	assert_true(pct[0] > 38 && pct[0] < 62);
	assert_true(pct[1] > 20 && pct[1] < 40);
	assert_true(pct[2] > 12 && pct[2] < 28);
	assert_true(pct[0] > pct[1] && pct[1] > pct[2]);
}

static struct lupe_report *new_report(void)
{
	LUPE_OPTS(lupe_report_opts, o, .sort = "sym", .children = 1);
	struct lupe_report *rep = lupe_report_new(&o);

	assert_non_null(rep);
	return rep;
}

static void test_live_source_to_report(void **state)
{
	char *argv[] = { DEMO, "-n", "400", NULL };
	LUPE_OPTS(lupe_record_opts, ro, .callgraph = LUPE_CALLGRAPH_FP, .workload = 1);
	struct lupe_event_list evs = { 0 };
	struct lupe_workload wl = { .pid = -1 };
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads;
	struct lupe_source *src;
	struct lupe_session *s;
	struct lupe_report *rep;
	double pct[3];
	int failed, err;

	assert_int_equal(lupe_events_parse(&evs, "task-clock", NULL), 0);
	assert_int_equal(lupe_workload_prepare(&wl, argv), 0);
	cpus = lupe_cpu_map_new(NULL);
	threads = lupe_thread_map_new_one(wl.pid);
	assert_non_null(cpus);
	assert_non_null(threads);
	src = lupe_live_source_new(&ro, evs.events, evs.nr, cpus, threads);
	assert_non_null(src);
	err = lupe_live_open(src, &failed);
	if (err == -EACCES || err == -EPERM) {
		lupe_workload_abort(&wl);
		skip();
	}
	assert_int_equal(err, 0);
	assert_int_equal(lupe_live_start(src), 0);
	assert_int_equal(lupe_workload_start(&wl), 0);

	s = lupe_session_new_empty();
	assert_non_null(s);
	rep = new_report();
	/* until the workload exits: its events hang up, the rings are drained */
	assert_int_equal(lupe_session_read(s, src, lupe_report_tool(rep)), 0);
	assert_int_equal(lupe_workload_wait(&wl), 0);
	assert_null(lupe_session_file(s));
	assert_true(lupe_session_stats(s)->nr_samples > 500);
	assert_int_equal(lupe_report_finish(rep), 0);
	split_of(rep, pct);
	assert_split("live", pct);
	/* a second finish (top's refresh) gives the same entries */
	assert_int_equal(lupe_report_finish(rep), 0);
	split_of(rep, pct);
	assert_split("live, finished again", pct);
	/* reset (top -z): nothing left */
	lupe_report_reset(rep);
	assert_int_equal(lupe_report_finish(rep), 0);
	assert_null(lupe_hists_entry(lupe_report_hists(rep, 0), 0));

	lupe_report_delete(rep);
	lupe_session_delete(s);
	lupe_source_delete(src);
	lupe_cpu_map_put(cpus);
	lupe_thread_map_put(threads);
	lupe_event_list_clear(&evs);
}

static void test_file_source_to_report(void **state)
{
	char dir[] = "/tmp/lupe-pipeline.XXXXXX", cmd[512], path[256];
	struct lupe_source *src;
	struct lupe_session *s;
	struct lupe_report *rep;
	double pct[3];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(cmd, sizeof(cmd), "'%s' record -q -g -o '%s' -- '%s' -n 400 >/dev/null 2>&1",
		 LUPE_BIN, path, DEMO);
	assert_int_equal(system(cmd), 0);

	src = lupe_source_file(path, 0);
	assert_non_null(src);
	s = lupe_session_new_empty();
	assert_non_null(s);
	rep = new_report();
	assert_int_equal(lupe_session_read(s, src, lupe_report_tool(rep)), 0);
	assert_ptr_equal(lupe_session_file(s), lupe_source_perf_file(src));
	assert_true(lupe_session_stats(s)->nr_samples > 500);
	assert_int_equal(lupe_report_finish(rep), 0);
	split_of(rep, pct);
	assert_split("file", pct);

	lupe_report_delete(rep);
	lupe_session_delete(s);
	lupe_source_delete(src);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_source_to_report),
		cmocka_unit_test(test_file_source_to_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
