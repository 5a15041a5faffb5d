// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text format as ui/prometheus.c writes it: HELP/TYPE lines,
 * samples with and without labels, the escapes of HELP text and label
 * values, and metric names made from perf event names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "prometheus.h"

static char *buf;
static size_t len;

static FILE *out(void)
{
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	return f;
}

static const char *done(FILE *f)
{
	fclose(f);
	return buf;
}

static void test_family_and_samples(void **state)
{
	FILE *f = out();
	struct prom_label l[] = { { "event", "page-faults" }, { "cpu", "1" }, { "pid", NULL } };

	prom_family(f, "lupe_events_total", "counter", "counts");
	prom_sample_u64(f, "lupe_events_total", l, 3, 18446744073709551615ULL);
	prom_sample_u64(f, "up", NULL, 0, 1);
	prom_sample_double(f, "lupe_exporter_scrape_duration_seconds", NULL, 0, 0.000125);
	assert_string_equal(done(f),
		"# HELP lupe_events_total counts\n"
		"# TYPE lupe_events_total counter\n"
		"lupe_events_total{event=\"page-faults\",cpu=\"1\"} 18446744073709551615\n"
		"up 1\n"
		"lupe_exporter_scrape_duration_seconds 0.000125\n");
	free(buf);
}

static void test_escapes(void **state)
{
	FILE *f = out();
	struct prom_label l[] = { { "cgroup", "a\"b\\c\nd" } };

	prom_family(f, "m", "gauge", "say \"x\" \\ then\nmore");
	prom_sample_u64(f, "m", l, 1, 7);
	/* HELP escapes backslash and newline only; label values the quote too */
	assert_string_equal(done(f),
		"# HELP m say \"x\" \\\\ then\\nmore\n"
		"# TYPE m gauge\n"
		"m{cgroup=\"a\\\"b\\\\c\\nd\"} 7\n");
	free(buf);
}

static void test_metric_names(void **state)
{
	char name[64];

	assert_string_equal(prom_metric_name(name, sizeof(name), "node_perf_",
					     "syscalls:sys_enter_read", ""),
			    "node_perf_syscalls_sys_enter_read");
	assert_string_equal(prom_metric_name(name, sizeof(name), "node_perf_", "task-clock", "_total"),
			    "node_perf_task_clock_total");
	/* runs of bad characters become one _, and none doubles the suffix's */
	assert_string_equal(prom_metric_name(name, sizeof(name), "p_", "msr/tsc/", "_total"),
			    "p_msr_tsc_total");
	assert_string_equal(prom_metric_name(name, sizeof(name), "", "9lives", ""), "_lives");
	/* cut to the buffer, always terminated */
	assert_string_equal(prom_metric_name(name, 8, "node_perf_", "x", ""), "node_pe");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family_and_samples),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_metric_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
