// SPDX-License-Identifier: GPL-2.0
/* Probe definitions: perf probe's syntax parsed, names chosen, tracefs lines written; filter fields. */
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/events.h>
#include <lupe/probe.h>

static void test_return_string(void **state)
{
	struct lupe_probe p;
	char *def;

	assert_int_equal(lupe_probe_parse(&p, "parse%return +0($retval):string", "/bin/true"), 0);
	assert_true(p.retprobe);
	assert_string_equal(p.func, "parse");
	assert_string_equal(p.group, "probe_true");
	assert_string_equal(p.event, "parse__return");
	assert_int_equal(p.nr_args, 1);
	assert_string_equal(p.args[0].name, "arg1");
	assert_string_equal(p.args[0].fetch, "+0($retval)");
	assert_string_equal(p.args[0].type, "string");
	assert_null(p.args[0].var);
	p.file_off = 0x1169;
	def = lupe_probe_definition(&p);
	assert_string_equal(def, "r:probe_true/parse__return /usr/bin/true:0x0000000000001169 arg1=+0($retval):string");
	free(def);
	lupe_probe_clear(&p);
}

static void test_vars_and_names(void **state)
{
	struct lupe_probe p;

	assert_int_equal(lupe_probe_parse(&p, "grp:ev=leaf_a+4 n cnt=count:u32 %di", NULL), 0);
	assert_string_equal(p.group, "grp");
	assert_string_equal(p.event, "ev");
	assert_true(p.user_event);
	assert_int_equal(p.off, 4);
	assert_int_equal(p.nr_args, 3);
	assert_string_equal(p.args[0].var, "n");
	assert_string_equal(p.args[0].name, "n");
	assert_null(p.args[0].type);
	assert_string_equal(p.args[1].name, "cnt");
	assert_string_equal(p.args[1].var, "count");
	assert_string_equal(p.args[1].type, "u32");
	assert_string_equal(p.args[2].fetch, "%di");
	assert_string_equal(p.args[2].name, "arg3");
	assert_string_equal(p.args[1].text, "cnt=count:u32");
	lupe_probe_clear(&p);

	/* perf's name for a typed variable: its text made a name */
	assert_int_equal(lupe_probe_parse(&p, "parse line:string", NULL), 0);
	assert_string_equal(p.args[0].name, "line_string");
	assert_string_equal(p.args[0].var, "line");
	lupe_probe_clear(&p);

	assert_int_equal(lupe_probe_parse(&p, "demo.c:37 slot", NULL), 0);
	assert_string_equal(p.src, "demo.c");
	assert_int_equal(p.line, 37);
	assert_null(p.func);
	assert_string_equal(p.group, "probe");
	lupe_probe_clear(&p);
}

static void test_bad_definitions(void **state)
{
	static const char *const bad[] = {
		"", "f%entry", "f+x", "demo.c:x", "f+4%return", "f x.y", "f x:",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct lupe_probe p;

		assert_int_equal(lupe_probe_parse(&p, bad[i], NULL), -EINVAL);
		assert_true(p.why[0] != '\0');
		lupe_probe_clear(&p);
	}
}

static void test_filter_fields(void **state)
{
	char *fields[] = { "common_pid", "prev_pid", "prev_comm", NULL };
	char bad[64];

	assert_int_equal(lupe_filter_unknown_field("prev_pid > 0", fields, bad, sizeof(bad)), 0);
	assert_int_equal(lupe_filter_unknown_field("prev_pid > 0 && prev_comm == \"a b\" || cpu == 1",
						   fields, bad, sizeof(bad)), 0);
	assert_int_equal(lupe_filter_unknown_field("(prev_pid>0x1f)&&next_pid!=3", fields, bad, sizeof(bad)), 1);
	assert_string_equal(bad, "next_pid");
	assert_int_equal(lupe_filter_unknown_field("prev_comm ~ \"foo*\" && prev_pidd >= 2", fields, bad,
						   sizeof(bad)), 1);
	assert_string_equal(bad, "prev_pidd");
}

/* perf's strfilter syntax: where a filter stops parsing, as perf's "Filter parse error at N" */
static void test_funcs_filter_syntax(void **state)
{
	int pos = -1;

	assert_int_equal(lupe_probe_filter_check("!_* & !*@plt", NULL), 0);
	assert_int_equal(lupe_probe_filter_check("(m*|f*) & !main", NULL), 0);
	assert_int_equal(lupe_probe_filter_check("!!a", NULL), 0);
	assert_int_equal(lupe_probe_filter_check("[!a]*", NULL), 0);
	assert_int_equal(lupe_probe_filter_check("(foo", &pos), -EINVAL);
	assert_int_equal(pos, 4);
	assert_int_equal(lupe_probe_filter_check("", &pos), -EINVAL);
	assert_int_equal(pos, 0);
	assert_int_equal(lupe_probe_filter_check("a b", &pos), -EINVAL);
	assert_int_equal(pos, 2);
	assert_int_equal(lupe_probe_filter_check("main|", &pos), -EINVAL);
	assert_int_equal(lupe_probe_filter_check("a&)", &pos), -EINVAL);
}

/* This test's own functions, through its symbol table, sorted, the filter applied */
static void test_funcs_of_self(void **state)
{
	char **names;
	int n = lupe_probe_funcs("/proc/self/exe", "test_r* | test_v*", &names, NULL);

	assert_int_equal(n, 2);
	assert_string_equal(names[0], "test_return_string");
	assert_string_equal(names[1], "test_vars_and_names");
	assert_null(names[2]);
	lupe_probe_names_delete(names);
	n = lupe_probe_funcs("/proc/self/exe", NULL, &names, NULL);
	assert_true(n > 5);
	for (int i = 0; i < n; i++) {
		assert_true(names[i][0] != '_');
		if (i)
			assert_true(strcmp(names[i - 1], names[i]) <= 0);
	}
	lupe_probe_names_delete(names);
	assert_int_equal(lupe_probe_funcs("/proc/self/exe", "!*", &names, NULL), 0);
	assert_null(names[0]);
	lupe_probe_names_delete(names);
	assert_int_equal(lupe_probe_funcs("/no/such/binary", NULL, &names, NULL), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_return_string),
		cmocka_unit_test(test_vars_and_names),
		cmocka_unit_test(test_bad_definitions),
		cmocka_unit_test(test_filter_fields),
		cmocka_unit_test(test_funcs_filter_syntax),
		cmocka_unit_test(test_funcs_of_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
