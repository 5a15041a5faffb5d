// SPDX-License-Identifier: GPL-2.0
/*
 * stat's output shapes against lines perf 6.1 printed on the test machine:
 * counts, units, metrics, CSV, JSON, <not supported>/<not counted>, the
 * multiplex percentage, the -r spread, intervals and per-CPU/thread columns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "stat-metric.h"
#include "stat-print.h"

static char *buf;
static size_t len;

static struct stat_print pr(enum stat_format format)
{
	struct stat_print p = {
		.out = open_memstream(&buf, &len), .format = format, .sep = ",",
		.aggr = STAT_AGGR_GLOBAL, .run_count = 1, .unit_width = 4,
	};

	assert_non_null(p.out);
	return p;
}

static const char *done(struct stat_print *p)
{
	fclose(p->out);
	return buf;
}

static void reset(void)
{
	free(buf);
	buf = NULL;
}

static struct stat_row task_clock(void)
{
	struct stat_row r = {
		.name = "task-clock", .unit = "msec", .fractional = 1, .value = 1.536,
		.run = 1536000, .ena = 1536000, .counted = 1, .supported = 1,
		.metric = { "%8.3f", 0.542, "CPUs utilized" },
	};

	return r;
}

static struct stat_row cycles_unsupported(void)
{
	struct stat_row r = { .name = "cycles", .unit = "", .supported = 0 };

	return r;
}

static void test_std_lines(void **state)
{
	struct stat_print p = pr(STAT_STD);
	struct stat_row tc = task_clock(), cy = cycles_unsupported();
	struct stat_row pf = {
		.name = "page-faults", .unit = "", .value = 102, .run = 1, .ena = 1,
		.counted = 1, .supported = 1, .metric = { "%8.3f", 66.393, "K/sec" },
	};
	struct stat_row bare = { .name = "page-faults", .unit = "", .value = 49, .run = 1,
				 .ena = 1, .counted = 1, .supported = 1 };

	stat_print_row(&p, &tc);
	stat_print_row(&p, &pf);
	stat_print_row(&p, &cy);
	stat_print_row(&p, &bare);
	assert_string_equal(done(&p),
		"              1.54 msec task-clock                       #    0.542 CPUs utilized          \n"
		"               102      page-faults                      #   66.393 K/sec                  \n"
		"   <not supported>      cycles                                                      \n"
		"                49      page-faults                                                        \n");
	reset();
}

static void test_not_counted_and_multiplexed(void **state)
{
	struct stat_print p = pr(STAT_STD);
	struct stat_row nc = task_clock(), mx = task_clock();

	nc.counted = 0;
	nc.supported = 1;
	nc.run = nc.ena = 0;
	mx.run = 500;
	mx.ena = 2000;
	stat_print_row(&p, &nc);
	stat_print_row(&p, &mx);
	assert_string_equal(done(&p),
		"     <not counted> msec task-clock                                                  \n"
		"              1.54 msec task-clock                       #    0.542 CPUs utilized            (25.00%)\n");
	reset();
}

static void test_repeat_noise(void **state)
{
	struct stat_print p = pr(STAT_STD);
	struct stat_row r = task_clock();

	p.run_count = 5;
	r.value = 0.51;
	r.metric.val = 0.48;
	r.noise = 4.1;
	stat_print_row(&p, &r);
	assert_string_equal(done(&p),
		"              0.51 msec task-clock                       #    0.480 CPUs utilized            ( +-  4.10% )\n");
	reset();
}

static void test_csv(void **state)
{
	struct stat_print p = pr(STAT_CSV);
	struct stat_row tc = task_clock(), cy = cycles_unsupported();
	struct stat_row ut = { .name = "user_time", .unit = "ns", .supported = 1 };
	struct stat_row mx = task_clock();

	tc.value = 0.70;
	tc.run = tc.ena = 704875;
	tc.metric.val = 0.559;
	mx.run = 1;
	mx.ena = 3; /* perf divides in integers: 33.00, not 33.33 */
	stat_print_row(&p, &tc);
	stat_print_row(&p, &cy);
	stat_print_row(&p, &ut);
	stat_print_row(&p, &mx);
	p.run_count = 3;
	tc.noise = 1.47;
	stat_print_row(&p, &tc);
	assert_string_equal(done(&p),
		"0.70,msec,task-clock,704875,100.00,0.559,CPUs utilized\n"
		"<not supported>,,cycles,0,100.00,,\n"
		"<not counted>,ns,user_time,0,100.00,,\n"
		"1.54,msec,task-clock,1,33.00,0.542,CPUs utilized\n"
		"0.70,msec,task-clock,1.47%,704875,100.00,0.559,CPUs utilized\n");
	reset();
}

static void test_csv_metric_number(void **state)
{
	struct stat_print p = pr(STAT_CSV);
	struct stat_row r = { .name = "branch-misses", .unit = "", .value = 10, .run = 1,
			      .ena = 1, .counted = 1, .supported = 1,
			      .metric = { "%7.2f%%", 12.3456, "of all branches" } };

	stat_print_row(&p, &r);
	assert_string_equal(done(&p), "10,,branch-misses,1,100.00,12.35,of all branches\n");
	reset();
}

static void test_json(void **state)
{
	struct stat_print p = pr(STAT_JSON);
	struct stat_row tc = task_clock(), cy = cycles_unsupported();
	struct stat_row pf = { .name = "page-faults", .unit = "", .value = 49, .run = 515652,
			       .ena = 515652, .counted = 1, .supported = 1 };

	tc.value = 0.784594;
	tc.run = tc.ena = 784594;
	tc.metric.val = 0.548841;
	stat_print_row(&p, &tc);
	stat_print_row(&p, &pf);
	stat_print_row(&p, &cy);
	p.run_count = 3;
	tc.noise = 4.14;
	stat_print_row(&p, &tc);
	assert_string_equal(done(&p),
		"{\"counter-value\" : \"0.784594\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 784594, \"pcnt-running\" : 100.00, \"metric-value\" : 0.548841, \"metric-unit\" : \"CPUs utilized\"}\n"
		"{\"counter-value\" : \"49.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 515652, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"(null)\"}\n"
		"{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n"
		"{\"counter-value\" : \"0.784594\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"variance\" : 4.14, \"event-runtime\" : 784594, \"pcnt-running\" : 100.00, \"metric-value\" : 0.548841, \"metric-unit\" : \"CPUs utilized\"}\n");
	reset();
}

static void test_intervals(void **state)
{
	struct timespec ts = { 0, 100193114 };
	char prefix[64];
	struct stat_print p = pr(STAT_STD);
	struct stat_row r = task_clock(), nc = task_clock();

	p.interval = 100;
	stat_interval_prefix(&p, &ts, prefix, sizeof(prefix));
	r.prefix = nc.prefix = prefix;
	r.value = 0.95;
	r.metric.val = 0.00954;
	nc.counted = 0;
	for (int i = 0; i < 27; i++)
		stat_print_interval_header(&p);
	stat_print_row(&p, &r);
	stat_print_row(&p, &nc);
	stat_print_header(&p, "'true'"); /* nothing with -I */
	assert_string_equal(done(&p),
		"#           time             counts unit events\n"
		"#           time             counts unit events\n"
		"     0.100193114               0.95 msec task-clock                       #    0.010 CPUs utilized          \n"
		"     0.100193114      <not counted> msec task-clock                                                  \n");
	reset();

	p = pr(STAT_CSV);
	p.interval = 100;
	stat_interval_prefix(&p, &ts, prefix, sizeof(prefix));
	assert_string_equal(prefix, "     0.100193114,");
	p.format = STAT_JSON;
	stat_interval_prefix(&p, &ts, prefix, sizeof(prefix));
	assert_string_equal(prefix, "{\"interval\" : 0.100193114, ");
	r.prefix = prefix;
	r.value = 1.1043;
	r.run = r.ena = 1104300;
	r.metric.val = 0.011043;
	stat_print_row(&p, &r);
	assert_string_equal(done(&p),
		"{\"interval\" : 0.100193114, \"counter-value\" : \"1.104300\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 1104300, \"pcnt-running\" : 100.00, \"metric-value\" : 0.011043, \"metric-unit\" : \"CPUs utilized\"}\n");
	reset();
}

static void test_aggr_columns(void **state)
{
	struct stat_print p = pr(STAT_STD);
	struct stat_row r = task_clock(), cy = cycles_unsupported();

	p.aggr = STAT_AGGR_CPU;
	p.interval = 100;
	r.value = 201.56;
	r.metric.val = 1.001;
	stat_print_interval_header(&p);
	p.interval = 0;
	stat_print_row(&p, &r);
	stat_print_row(&p, &cy);
	p.aggr = STAT_AGGR_THREAD;
	p.headers_printed = 0;
	p.interval = 100;
	stat_print_interval_header(&p);
	cy.comm = "sleep";
	cy.pid = 8519;
	cy.supported = 1;
	cy.unit = "msec";
	cy.name = "task-clock";
	stat_print_row(&p, &cy);
	assert_string_equal(done(&p),
		"#           time CPU                    counts unit events\n"
		"CPU0                   201.56 msec task-clock                       #    1.001 CPUs utilized          \n"
		"CPU0          <not supported>      cycles                                                      \n"
		"#           time             comm-pid                  counts unit events\n"
		"           sleep-8519          <not counted> msec task-clock                                                  \n");
	reset();

	p = pr(STAT_CSV);
	p.aggr = STAT_AGGR_CPU;
	r.cpu = 1;
	stat_print_row(&p, &r);
	p.format = STAT_JSON;
	r.value = 107.062414;
	r.run = r.ena = 107062414;
	r.metric.val = 1.048779;
	stat_print_row(&p, &r);
	p.format = STAT_CSV;
	p.aggr = STAT_AGGR_THREAD;
	r.comm = "sleep";
	r.pid = 42;
	stat_print_row(&p, &r);
	assert_string_equal(done(&p),
		"CPU1,201.56,msec,task-clock,1536000,100.00,1.001,CPUs utilized\n"
		"{\"cpu\" : \"1\", \"counter-value\" : \"107.062414\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 107062414, \"pcnt-running\" : 100.00, \"metric-value\" : 1.048779, \"metric-unit\" : \"CPUs utilized\"}\n"
		"sleep-42,107.06,msec,task-clock,107062414,100.00,1.049,CPUs utilized\n");
	reset();
}

static void test_header_footer(void **state)
{
	struct stat_print p = pr(STAT_STD);
	struct stat_footer f = { .elapsed = 0.002832072, .rusage = 1, .user = 0.002581 };

	stat_print_header(&p, "'ls /'");
	stat_print_footer(&p, &f);
	p.run_count = 5;
	stat_print_header(&p, "'true'");
	f.elapsed = 0.0010654;
	f.elapsed_sd = 0.0000327;
	stat_print_footer(&p, &f);
	assert_string_equal(done(&p),
		"\n Performance counter stats for 'ls /':\n\n"
		"\n       0.002832072 seconds time elapsed\n\n"
		"       0.002581000 seconds user\n"
		"       0.000000000 seconds sys\n\n\n"
		"\n Performance counter stats for 'true' (5 runs):\n\n"
		"\n         0.0010654 +- 0.0000327 seconds time elapsed  ( +-  3.07% )\n\n");
	reset();

	/* CSV and JSON have neither */
	p = pr(STAT_CSV);
	stat_print_header(&p, "'true'");
	stat_print_footer(&p, &f);
	assert_string_equal(done(&p), "");
	reset();
}

static void test_metrics(void **state)
{
	struct stat_shadow sh = { 0 };
	struct stat_metric m;
	char unit[16];
	double scale;

	struct perf_event_attr tc = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK };
	struct perf_event_attr br = { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_BRANCH_MISSES };
	struct perf_event_attr l1 = { .type = PERF_TYPE_HW_CACHE, .config = 0 | (0 << 8) | (1 << 16) };

	assert_int_equal(stat_kind_of(&tc, 0), STAT_K_CLOCK);
	assert_int_equal(stat_kind_of(&br, 0), STAT_K_BRANCH_MISSES);
	assert_int_equal(stat_kind_of(&l1, 0), STAT_K_L1D_MISSES);
	assert_int_equal(stat_kind_of(&tc, LUPE_TOOL_DURATION_TIME), STAT_K_OTHER);
	assert_string_equal(stat_unit_of(&tc, 0, &scale), "msec");
	assert_true(scale == 1e-6);
	assert_string_equal(stat_unit_of(&br, 0, &scale), "");
	assert_string_equal(stat_unit_of(&tc, LUPE_TOOL_USER_TIME, &scale), "ns");

	/* nothing to divide by: no metric at all */
	stat_metric_for(STAT_K_OTHER, 102, 1, &sh, 2832072, &m, unit);
	assert_null(m.fmt);
	assert_null(m.unit);

	/* 1.536 ms of task-clock in 2.832 ms */
	stat_shadow_update(&sh, STAT_K_CLOCK, 1536000);
	stat_metric_for(STAT_K_CLOCK, 1.536, 1e-6, &sh, 2832072, &m, unit);
	assert_string_equal(m.unit, "CPUs utilized");
	assert_true(m.val > 0.5423 && m.val < 0.5424);
	/* rates: /sec, K/sec, M/sec, G/sec */
	stat_metric_for(STAT_K_OTHER, 0, 1, &sh, 0, &m, unit);
	assert_string_equal(m.unit, "/sec");
	stat_metric_for(STAT_K_OTHER, 102, 1, &sh, 0, &m, unit);
	assert_string_equal(m.unit, "K/sec");
	assert_true(m.val > 66.40 && m.val < 66.41);
	stat_metric_for(STAT_K_OTHER, 2e6, 1, &sh, 0, &m, unit);
	assert_string_equal(m.unit, "G/sec");
	/* GHz from cycles and task-clock */
	stat_metric_for(STAT_K_CYCLES, 3072000, 1, &sh, 0, &m, unit);
	assert_string_equal(m.unit, "GHz");
	assert_true(m.val == 2.0);
	/* branch-misses without branches: an empty column; with: a percentage */
	stat_metric_for(STAT_K_BRANCH_MISSES, 5, 1, &sh, 0, &m, unit);
	assert_null(m.fmt);
	stat_shadow_update(&sh, STAT_K_BRANCHES, 200);
	stat_metric_for(STAT_K_BRANCH_MISSES, 5, 1, &sh, 0, &m, unit);
	assert_string_equal(m.fmt, "%7.2f%%");
	assert_true(m.val == 2.5);
	assert_string_equal(m.unit, "of all branches");
	/* IPC */
	stat_metric_for(STAT_K_INSTRUCTIONS, 6144000, 1, &sh, 0, &m, unit);
	assert_null(m.fmt);
	stat_shadow_update(&sh, STAT_K_CYCLES, 3072000);
	stat_metric_for(STAT_K_INSTRUCTIONS, 6144000, 1, &sh, 0, &m, unit);
	assert_string_equal(m.unit, "insn per cycle");
	assert_true(m.val == 2.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_std_lines),
		cmocka_unit_test(test_not_counted_and_multiplexed),
		cmocka_unit_test(test_repeat_noise),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_metric_number),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_aggr_columns),
		cmocka_unit_test(test_header_footer),
		cmocka_unit_test(test_metrics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
