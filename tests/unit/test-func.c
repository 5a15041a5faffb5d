// SPDX-License-Identifier: GPL-2.0
/* --func SPEC parsing, and resolution against the workloads' ELF files. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/func.h>

static void test_spec_function(void **state)
{
	struct lupe_func_spec s;

	assert_int_equal(lupe_func_spec_parse("sum", &s), 0);
	assert_string_equal(s.name, "sum");
	assert_null(s.dso);
	assert_null(s.file);
	lupe_func_spec_clear(&s);
	assert_int_equal(lupe_func_spec_parse("Matrix::*", &s), 0);
	assert_string_equal(s.name, "Matrix::*");
	assert_null(s.dso);
	lupe_func_spec_clear(&s);
}

static void test_spec_dso(void **state)
{
	struct lupe_func_spec s;

	assert_int_equal(lupe_func_spec_parse("libc.so.6:qsort", &s), 0);
	assert_string_equal(s.dso, "libc.so.6");
	assert_string_equal(s.name, "qsort");
	lupe_func_spec_clear(&s);
	assert_int_equal(lupe_func_spec_parse("/lib/libfoo.so:ns::Foo::bar", &s), 0);
	assert_string_equal(s.dso, "/lib/libfoo.so");
	assert_string_equal(s.name, "ns::Foo::bar");
	lupe_func_spec_clear(&s);
}

static void test_spec_range(void **state)
{
	struct lupe_func_spec s;

	assert_int_equal(lupe_func_spec_parse("file.c:120-140", &s), 0);
	assert_string_equal(s.file, "file.c");
	assert_int_equal(s.line_lo, 120);
	assert_int_equal(s.line_hi, 140);
	assert_null(s.name);
	lupe_func_spec_clear(&s);
	assert_int_equal(lupe_func_spec_parse("file.c:7", &s), 0);
	assert_int_equal(s.line_lo, 7);
	assert_int_equal(s.line_hi, 7);
	lupe_func_spec_clear(&s);
}

static void test_spec_bad(void **state)
{
	struct lupe_func_spec s;

	assert_int_equal(lupe_func_spec_parse("", &s), -LUPE_ERR_PARSE);
	assert_int_equal(lupe_func_spec_parse("x:", &s), -LUPE_ERR_PARSE);
	assert_int_equal(lupe_func_spec_parse(":f", &s), -LUPE_ERR_PARSE);
	assert_int_equal(lupe_func_spec_parse("f.c:20-10", &s), -LUPE_ERR_PARSE);
	assert_int_equal(lupe_func_spec_parse("f.c:0", &s), -LUPE_ERR_PARSE);
	assert_int_equal(lupe_func_spec_parse("f.c:3x", &s), -LUPE_ERR_PARSE);
}

/* This test program itself: PIE, with symbols; main's offset must be its file offset. */
static void test_resolve_self(void **state)
{
	struct lupe_func_target *t = NULL;
	struct lupe_func_error err;
	int nr = 0;

	assert_int_equal(lupe_func_resolve("test_resolve_self", "/proc/self/exe", 0, &t, &nr, &err), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(t[0].name, "test_resolve_self");
	assert_true(t[0].entry > 0);
	assert_int_equal(t[0].exit, 0);
	lupe_func_targets_delete(t, nr);
	t = NULL;
	nr = 0;
	assert_int_equal(lupe_func_resolve("test_resolve_slf", "/proc/self/exe", 0, &t, &nr, &err), -ENOENT);
	assert_int_equal(err.why, LUPE_FUNC_UNKNOWN);
	assert_non_null(strstr(err.hint, "test_resolve_self"));
	assert_int_equal(lupe_func_resolve("libnope.so.9:f", "/proc/self/exe", 0, &t, &nr, &err), -ENOENT);
	assert_int_equal(err.why, LUPE_FUNC_NO_DSO);
	assert_int_equal(nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_function),
		cmocka_unit_test(test_spec_dso),
		cmocka_unit_test(test_spec_range),
		cmocka_unit_test(test_spec_bad),
		cmocka_unit_test(test_resolve_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
