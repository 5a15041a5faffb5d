// SPDX-License-Identifier: GPL-2.0
/* perf's config files (lib/util/config.c): grammar, order, errors, writing, booleans. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/config.h>

static struct lupe_config *parse(const char *text, int want_err, int want_line)
{
	struct lupe_config *c = lupe_config_new();
	int line = 0;

	assert_non_null(c);
	assert_int_equal(lupe_config_parse(c, text, strlen(text), &line), want_err);
	if (want_err)
		assert_int_equal(line, want_line);
	return c;
}

/* "sec.name=value\n" for each variable, in order */
static char *list(const struct lupe_config *c)
{
	static char buf[4096];
	const char *s, *n, *v;
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; !lupe_config_item(c, i, &s, &n, &v); i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s.%s=%s\n", s, n, v);
	return buf;
}

static void test_grammar(void **state)
{
	struct lupe_config *c = parse("# comment\n; another\n[Report]\n\tChildren = false\n"
				      "  percent-limit=5   # trailing\nx_y = a  b ; c\n"
				      "[annotate \"Sub\"]\n hide = 1\nq = \"a \\\" b\\tc\"\n"
				      "cont = one \\\n two\n", 0, 0);

	assert_string_equal(list(c), "report.children=false\nreport.percent-limit=5\n"
				     "report.x_y=a  b\nannotate.Sub.hide=1\n"
				     "annotate.Sub.q=a \" b\tc\nannotate.Sub.cont=one  two\n");
	assert_string_equal(lupe_config_get(c, "report.children"), "false");
	assert_string_equal(lupe_config_get(c, "REPORT.Children"), "false");
	assert_null(lupe_config_get(c, "report.nosuch"));
	assert_null(lupe_config_get(c, "nodot"));
	assert_int_equal(lupe_config_count(c), 6);
	lupe_config_delete(c);
}

/* perf's set: a later value replaces in place, sections keep their first place */
static void test_order(void **state)
{
	struct lupe_config *c = parse("[a]\nx = 1\n[b]\ny = 2\n[a]\nz = 3\nx = 4\n", 0, 0);

	assert_string_equal(list(c), "a.x=4\na.z=3\nb.y=2\n");
	assert_int_equal(lupe_config_parse(c, "[b]\ny=5\n[c]\nw=6\n", 16, NULL), 0);
	assert_string_equal(list(c), "a.x=4\na.z=3\nb.y=5\nc.w=6\n");
	assert_int_equal(lupe_config_set(c, "C.New", "7"), 0);
	assert_int_equal(lupe_config_set(c, "d.k", "8"), 0);
	assert_string_equal(list(c), "a.x=4\na.z=3\nb.y=5\nc.w=6\nc.new=7\nd.k=8\n");
	assert_int_equal(lupe_config_set(c, "nodot", "1"), -EINVAL);
	assert_int_equal(lupe_config_set(c, ".k", "1"), -EINVAL);
	assert_int_equal(lupe_config_set(c, "a.", "1"), -EINVAL);
	assert_int_equal(lupe_config_set(c, "a.b c", "1"), -EINVAL);
	lupe_config_delete(c);
}

/* malformed lines: -EINVAL with perf's line number, what came before kept */
static void test_errors(void **state)
{
	struct lupe_config *c;

	c = parse("[report\nchildren = 1\n", -EINVAL, 2);
	lupe_config_delete(c);
	c = parse("[report]\nchildren\n", -EINVAL, 2);
	lupe_config_delete(c);
	c = parse("[r]\na = 1\n!b = 2\nc = 3\n", -EINVAL, 3);
	assert_string_equal(list(c), "r.a=1\n");
	lupe_config_delete(c);
	c = parse("x = 1\n", -EINVAL, 1); /* no section */
	lupe_config_delete(c);
	c = parse("[r]\na = \"open\n", -EINVAL, 2);
	lupe_config_delete(c);
	c = parse("[r]\na = bad\\q\n", -EINVAL, 2);
	lupe_config_delete(c);
	c = parse("[r \"sub]\n", -EINVAL, 2);
	lupe_config_delete(c);
	c = parse("[r]\n!b = 2\n", -EINVAL, 2);
	lupe_config_delete(c);
	/* no NUL: the parser stops at len */
	c = lupe_config_new();
	assert_int_equal(lupe_config_parse(c, "[r]\na = 1xxxx", 9, NULL), 0);
	assert_string_equal(lupe_config_get(c, "r.a"), "1");
	lupe_config_delete(c);
}

static void test_write(void **state)
{
	struct lupe_config *c = parse("[report]\nchildren = false\n[annotate \"x\"]\nh = 1\n", 0, 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(lupe_config_write(c, f), 0);
	fclose(f);
	/* perf config's own layout: a subsection goes into its key */
	assert_string_equal(buf, "# this file is auto-generated.\n[report]\n\tchildren = false\n"
				 "[annotate]\n\tx.h = 1\n");
	free(buf);
	lupe_config_delete(c);
}

static void test_bool(void **state)
{
	assert_int_equal(lupe_config_bool("true"), 1);
	assert_int_equal(lupe_config_bool("Yes"), 1);
	assert_int_equal(lupe_config_bool("on"), 1);
	assert_int_equal(lupe_config_bool("2"), 1);
	assert_int_equal(lupe_config_bool("false"), 0);
	assert_int_equal(lupe_config_bool("NO"), 0);
	assert_int_equal(lupe_config_bool("off"), 0);
	assert_int_equal(lupe_config_bool(""), 0);
	assert_int_equal(lupe_config_bool("0"), 0);
	assert_int_equal(lupe_config_bool("maybe"), -EINVAL);
}

static void test_files(void **state)
{
	const char *paths[3];

	setenv("HOME", "/home/u", 1);
	setenv("PERF_CONFIG", "/x/cfg", 1);
	assert_int_equal(lupe_config_files(paths, 3), 1);
	assert_string_equal(paths[0], "/x/cfg");
	setenv("PERF_CONFIG", "", 1);
	assert_int_equal(lupe_config_files(paths, 3), 0);
	unsetenv("PERF_CONFIG");
	assert_int_equal(lupe_config_files(paths, 3), 2);
	assert_string_equal(paths[0], "/etc/perfconfig");
	assert_string_equal(paths[1], "/home/u/.perfconfig");
	setenv("PERF_CONFIG_NOSYSTEM", "1", 1);
	assert_int_equal(lupe_config_files(paths, 3), 1);
	assert_string_equal(paths[0], "/home/u/.perfconfig");
	unsetenv("PERF_CONFIG_NOSYSTEM");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
