// SPDX-License-Identifier: GPL-2.0
/*
 * The export model and its writers on a profile built by hand: folded
 * names by stackcollapse-perf.pl's rules, folded stacks (event filter,
 * periods, merging), the flame graph's widths and diff colours, and the
 * JSON writers' shape (the browser view's data too).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/export.h>

static char *name_of(struct lupe_profile *p, const char *sym, const char *dso)
{
	static char buf[512];
	long d = dso ? lupe_profile_add_dso(p, dso, 0, NULL, 0, 0, 0, 0) : (long)LUPE_PROF_NONE;
	long f = lupe_profile_add_func(p, sym, (uint32_t)d, LUPE_PROF_USER, 0x1234, 0x1234);

	assert_true(f >= 0);
	lupe_profile_folded_name(p, (uint32_t)f, buf, sizeof(buf));
	return buf;
}

static void test_folded_names(void **state)
{
	struct lupe_profile *p = lupe_profile_new();

	assert_non_null(p);
	assert_string_equal(name_of(p, "leaf_a", "/bin/demo"), "leaf_a");
	assert_string_equal(name_of(p, NULL, "/usr/lib/libc.so.6"), "[libc.so.6]");
	assert_string_equal(name_of(p, NULL, NULL), "[unknown]");
	assert_string_equal(name_of(p, NULL, "[kernel.kallsyms]"), "[[kernel.kallsyms]]");
	assert_string_equal(name_of(p, "Foo::bar(int) const", "/bin/x"), "Foo::bar");
	assert_string_equal(name_of(p, "(anonymous namespace)::f(int)", "/bin/x"), "(anonymous namespace)::f");
	assert_string_equal(name_of(p, "net/http.(*Client).Do", "/bin/x"), "net/http.(*Client).Do");
	assert_string_equal(name_of(p, "a;b", "/bin/x"), "a:b");
	assert_string_equal(name_of(p, "RegExp:[&<>\"']", "/tmp/perf-1.map"), "RegExp:[&<>]");
	assert_string_equal(name_of(p, "outer->inner", "/bin/x"), "outer;inner_[i]");
	/* the script splits "sym (dso)" at the last " (": a deleted file's name moves */
	assert_string_equal(name_of(p, NULL, "/memfd:x (deleted)"), "[unknown] ");
	lupe_profile_delete(p);
}

/* demo;main;a;leaf x3 (period 10 each), demo;main;b x1 (period 10), a second event ignored */
static struct lupe_profile *small_profile(int leaf_weight, int b_weight)
{
	struct lupe_profile *p = lupe_profile_new();
	long ev = lupe_profile_add_event(p, "cpu-clock", 0, 1, 1);
	long ev2 = lupe_profile_add_event(p, "page-faults", 0, 1, 0);
	long d = lupe_profile_add_dso(p, "/bin/demo", 0, NULL, 0, 0x1000, 0x2000, 0);
	long fm = lupe_profile_add_func(p, "main", (uint32_t)d, LUPE_PROF_USER, 1, 1);
	long fa = lupe_profile_add_func(p, "a", (uint32_t)d, LUPE_PROF_USER, 2, 2);
	long fb = lupe_profile_add_func(p, "b", (uint32_t)d, LUPE_PROF_USER, 3, 3);
	long fl = lupe_profile_add_func(p, "leaf", (uint32_t)d, LUPE_PROF_USER, 4, 4);
	long fk = lupe_profile_add_func(p, "do_syscall_64", LUPE_PROF_NONE, LUPE_PROF_KERNEL, 5, 5);
	long nm = lupe_profile_add_node(p, LUPE_PROF_NONE, (uint32_t)fm);
	long na = lupe_profile_add_node(p, (uint32_t)nm, (uint32_t)fa);
	long nl = lupe_profile_add_node(p, (uint32_t)na, (uint32_t)fl);
	long nb = lupe_profile_add_node(p, (uint32_t)nm, (uint32_t)fb);
	long nk = lupe_profile_add_node(p, (uint32_t)nb, (uint32_t)fk);
	long t = lupe_profile_add_thread(p, 10, 11, "demo");

	assert_true(ev >= 0 && ev2 >= 0 && fk >= 0 && nl >= 0 && nk >= 0 && t >= 0);
	/* the same node again is the same node */
	assert_int_equal(lupe_profile_add_node(p, (uint32_t)nm, (uint32_t)fa), na);
	for (int i = 0; i < leaf_weight; i++)
		assert_int_equal(lupe_profile_add_sample(p, (uint32_t)t, (uint32_t)nl, (uint32_t)ev, 0, 100 + i, 10, 1), 0);
	for (int i = 0; i < b_weight; i++)
		assert_int_equal(lupe_profile_add_sample(p, (uint32_t)t, (uint32_t)nb, (uint32_t)ev, 0, 200 + i, 10, 1), 0);
	assert_int_equal(lupe_profile_add_sample(p, (uint32_t)t, (uint32_t)nk, (uint32_t)ev2, 0, 300, 1, 1), 0);
	return p;
}

static void test_folded(void **state)
{
	struct lupe_profile *p = small_profile(3, 1);
	struct lupe_folded *f;
	size_t nr;

	assert_int_equal(lupe_profile_folded(p, &f, &nr), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(f[0].stack, "demo;main;a;leaf");
	assert_int_equal(f[0].weight, 30);
	assert_string_equal(f[0].kinds, "cuuu");
	assert_string_equal(f[1].stack, "demo;main;b");
	assert_int_equal(f[1].weight, 10);
	lupe_folded_delete(f, nr);
	lupe_profile_delete(p);
}

/* The text of a FILE * written by fn. */
static char *capture(int (*fn)(const struct lupe_profile *, FILE *), const struct lupe_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(fn(p, out), 0);
	fclose(out);
	return buf;
}

/* The width attribute of the rect of the frame named n. */
static double frame_width(const char *svg, const char *n, char *fill, size_t fill_size)
{
	char key[128];
	const char *g, *w, *c;

	snprintf(key, sizeof(key), "data-n=\"%s\"", n);
	g = strstr(svg, key);
	assert_non_null(g);
	w = strstr(g, "width=\"");
	assert_non_null(w);
	if (fill) {
		c = strstr(g, "fill=\"");
		assert_non_null(c);
		snprintf(fill, fill_size, "%.*s", (int)(strchr(c + 6, '"') - c - 6), c + 6);
	}
	return atof(w + 7);
}

static void test_flame(void **state)
{
	struct lupe_profile *p = small_profile(3, 1), *q = small_profile(1, 3);
	struct lupe_folded *f, *b;
	size_t nr, nb, len = 0;
	LUPE_OPTS(lupe_flame_opts, o, .width = 420);
	char *svg = NULL, fill[64];
	FILE *out;

	assert_int_equal(lupe_profile_folded(p, &f, &nr), 0);
	assert_int_equal(lupe_profile_folded(q, &b, &nb), 0);
	out = open_memstream(&svg, &len);
	assert_int_equal(lupe_flame_write(f, nr, NULL, 0, &o, out), 0);
	fclose(out);
	/* 400 pixels between the pads: leaf 3/4 of them, b 1/4 */
	assert_true(frame_width(svg, "leaf", NULL, 0) == 300.0);
	assert_true(frame_width(svg, "b", NULL, 0) == 100.0);
	assert_true(frame_width(svg, "main", NULL, 0) == 400.0);
	assert_non_null(strstr(svg, "function search("));
	free(svg);
	/* diff: before (q) had b 3/4, after (p) leaf 3/4: leaf red, b blue */
	out = open_memstream(&svg, &len);
	assert_int_equal(lupe_flame_write(f, nr, b, nb, &o, out), 0);
	fclose(out);
	frame_width(svg, "leaf", fill, sizeof(fill));
	assert_string_equal(fill, "rgb(255,0,0)");
	frame_width(svg, "b", fill, sizeof(fill));
	assert_string_equal(fill, "rgb(0,0,255)");
	free(svg);
	lupe_folded_delete(f, nr);
	lupe_folded_delete(b, nb);
	lupe_profile_delete(p);
	lupe_profile_delete(q);
}

static void test_json(void **state)
{
	struct lupe_profile *p = small_profile(3, 1);
	char *s = capture(lupe_profile_write_speedscope, p);

	assert_non_null(strstr(s, "\"samples\":[[0,1,3],[0,2]],\"weights\":[30,10]"));
	assert_non_null(strstr(s, "\"unit\":\"nanoseconds\""));
	free(s);
	s = capture(lupe_profile_write_gecko, p);
	/* stacks: main, main>a, main>a>leaf, main>b; samples in time order */
	assert_non_null(strstr(s, "\"data\":[[null,0],[0,1],[1,2],[0,3]]"));
	assert_non_null(strstr(s, "\"data\":[[2,0.000000,0],[2,0.000001,0],[2,0.000002,0],[3,0.000100,0]"));
	assert_null(strstr(s, "lost"));
	free(s);
	p->nr_lost = 7;
	s = capture(lupe_profile_write_gecko, p);
	assert_non_null(strstr(s, "\"name\":\"lost 7 samples\""));
	assert_non_null(strstr(s, "\"stringTable\":[\"lost samples\""));
	free(s);
	lupe_profile_delete(p);
}

/* The browser view's data: the main event's samples as base64 columns, names safe in HTML. */
static void test_web(void **state)
{
	struct lupe_profile *p = small_profile(3, 1);
	char *s;

	assert_true(lupe_profile_add_func(p, "x</script><b>&", 0, LUPE_PROF_USER, 9, 9) >= 0);
	s = capture(lupe_profile_write_web, p);
	/* nodes (parent + 1, func): main, main>a, main>a>leaf, main>b, main>b>do_syscall_64 */
	assert_non_null(strstr(s, "\"nr_nodes\":5,\"nodes\":\"AAAAAAAAAAABAAAAAQAAAAIAAAADAAAAAQAAAAIAAAAEAAAABAAAAA==\""));
	/* cpu-clock only: times 100, 101, 102, 200 as deltas 0, 1, 1, 98 */
	assert_non_null(strstr(s, "\"nr_samples\":4,\"time_bytes\":4,\"time\":\"AAAAAAEAAAABAAAAYgAAAA==\""));
	assert_non_null(strstr(s, "\"thread_bytes\":2,\"thread\":\"AAAAAAAAAAA=\""));
	/* stacks: node + 1 (leaf 3 times, b once) */
	assert_non_null(strstr(s, "\"stack\":\"AwAAAAMAAAADAAAABAAAAA==\""));
	/* every period 10: sent once */
	assert_non_null(strstr(s, "\"period_bytes\":0,\"period\":10}"));
	assert_non_null(strstr(s, "\"threads\":[[10,11,\"demo\"]]"));
	assert_non_null(strstr(s, "[\"x\\u003c/script\\u003e\\u003cb\\u003e\\u0026\",0,0]"));
	assert_null(strchr(s, '<'));
	free(s);
	lupe_profile_delete(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded_names),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_flame),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_web),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
