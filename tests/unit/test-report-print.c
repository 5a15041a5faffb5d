// SPDX-License-Identifier: GPL-2.0
/* report's entry lines and column heads with -F columns, -t's separator and -v, as perf prints them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "hist.h"

static const struct lupe_symbol spin = { 0x1100, 0x1200, "spin" };

static struct lupe_hist_entry entry(const char *comm, uint64_t self, uint64_t children)
{
	return (struct lupe_hist_entry){ .comm = comm, .sym = &spin, .addr = 0x1201, .self = self,
					 .children = children, .nr_samples = 563 };
}

static void test_default_columns(void **state)
{
	struct lupe_report_view v = { .nr_keys = 2, .keys = { LUPE_SORT_COMM, LUPE_SORT_SYM } };
	struct report_print_opts po = { .show_nr = 1 };
	struct lupe_hist_entry e = entry("demo", 7986, 0);
	int width[REPORT_MAX_COLS] = { 8, 12, 7, 8 };
	char buf[256];

	report_format_head(buf, sizeof(buf), &v, &po, width);
	assert_string_equal(buf, "Overhead       Samples  Command  Symbol  ");
	report_format_entry(buf, sizeof(buf), &v, &po, width, &e, 10000);
	/* the last symbol column is not padded */
	assert_string_equal(buf, "    79.86%           563  demo     [.] spin");
	v.children = 1;
	e.children = 9972;
	width[0] = width[1] = 8;
	width[2] = 12;
	width[3] = 7;
	width[4] = 8;
	report_format_head(buf, sizeof(buf), &v, &po, width);
	assert_string_equal(buf, "Children      Self       Samples  Command  Symbol  ");
}

static void test_fields(void **state)
{
	/* -F sym,overhead_children,period without --children */
	struct lupe_report_view v = { .nr_fields = 3,
				      .fields = { LUPE_FIELD_KEY, LUPE_FIELD_CHILDREN, LUPE_FIELD_PERIOD },
				      .field_keys = { LUPE_SORT_SYM } };
	struct report_print_opts po = { 0 };
	struct lupe_hist_entry e = entry("demo", 140750000, 0);
	int width[REPORT_MAX_COLS] = { 10, 8, 12 };
	char buf[256];

	report_format_head(buf, sizeof(buf), &v, &po, width);
	assert_string_equal(buf, "Symbol      Children        Period");
	report_format_entry(buf, sizeof(buf), &v, &po, width, &e, 176250000);
	/* a symbol that is not last is padded; children are N/A without --children */
	assert_string_equal(buf, "  [.] spin         N/A     140750000");
	/* -F +period: after the default overhead column, which children call Self */
	v.fields_added = 1;
	v.children = 1;
	v.nr_fields = 1;
	v.fields[0] = LUPE_FIELD_PERIOD;
	report_format_head(buf, sizeof(buf), &v, &po, (int[REPORT_MAX_COLS]){ 8, 8, 12 });
	assert_string_equal(buf, "Children      Self        Period");
}

static void test_separator(void **state)
{
	struct lupe_report_view v = { .nr_fields = 3,
				      .fields = { LUPE_FIELD_OVERHEAD, LUPE_FIELD_KEY, LUPE_FIELD_SAMPLE },
				      .field_keys = { 0, LUPE_SORT_COMM } };
	struct report_print_opts po = { .field_sep = "," };
	struct lupe_hist_entry e = entry("a,b", 28, 0);
	int width[REPORT_MAX_COLS] = { 8, 7, 12 };
	char buf[256];

	report_format_head(buf, sizeof(buf), &v, &po, width);
	assert_string_equal(buf, "Overhead,Command,     Samples");
	report_format_entry(buf, sizeof(buf), &v, &po, width, &e, 10000);
	/* no leading spaces, the percentage unpadded then padded to its width, a ',' in a value dotted, the last column bare */
	assert_string_equal(buf, " 0.28%  ,a.b    , 563");
}

static void test_verbose(void **state)
{
	struct lupe_report_view v = { .nr_keys = 2, .keys = { LUPE_SORT_DSO, LUPE_SORT_SYM } };
	struct report_print_opts po = { .verbose = 1 };
	struct lupe_hist_entry e = entry("demo", 5000, 0);
	int width[REPORT_MAX_COLS] = { 8, 9, 8 };
	char buf[256];

	report_format_entry(buf, sizeof(buf), &v, &po, width, &e, 10000);
	/* no map: perf's '!' origin beside the first sample's address */
	assert_string_equal(buf, "    50.00%  [unknown]  0x1201             ! [.] spin");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_columns),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_separator),
		cmocka_unit_test(test_verbose),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
