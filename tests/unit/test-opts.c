// SPDX-License-Identifier: GPL-2.0
/*
 * Options structs across versions (lupe/core.h's LUPE_OPTS, util.h's
 * lupe_opts_load()): a caller built against an older, shorter struct is
 * neither read past nor refused, and one built against a newer, longer
 * struct is refused when its unknown tail is not zero. The older caller's
 * struct ends at a PROT_NONE page, so a library that reads one byte past
 * its sz crashes the test instead of passing it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/diff.h>
#include <lupe/export.h>
#include <lupe/hierarchy.h>
#include <lupe/hist.h>
#include <lupe/report.h>
#include <lupe/trace.h>
#include "util/util.h"

/* A copy of size bytes of src that ends where an unreadable page begins. */
static void *at_page_end(const void *src, size_t size)
{
	static char *pages;
	long pg = sysconf(_SC_PAGESIZE);

	if (!pages) {
		pages = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		assert_true(pages != MAP_FAILED);
		assert_int_equal(mprotect(pages + pg, pg, PROT_NONE), 0);
	}
	assert_int_equal(size % sizeof(size_t), 0);
	memcpy(pages + pg - size, src, size);
	return pages + pg - size;
}

/* The prefixes an older caller was built with: sz and the first fields. */
struct old_report_opts {
	size_t sz;
	const char *sort;
};
struct old_hist_opts {
	size_t sz;
	enum lupe_sort_key keys[8];
	int nr_keys;
};
struct old_diff_opts {
	size_t sz;
	enum lupe_diff_compute compute;
};
struct old_flame_opts {
	size_t sz;
	const char *title;
};
struct old_trace_model_opts {
	size_t sz;
	bool summary;
};

static int no_call(struct lupe_trace_model *m, const struct lupe_trace_call *c, void *arg)
{
	return 0;
}

static void test_older_caller(void **state)
{
	struct old_report_opts ro = { sizeof(ro), "sym" }, bad = { sizeof(bad), "nokey" };
	struct old_hist_opts ho = { sizeof(ho), { LUPE_SORT_SYM }, 1 };
	struct old_diff_opts dopt = { sizeof(dopt), LUPE_DIFF_DELTA };
	struct old_flame_opts fo = { sizeof(fo), "old title" };
	struct old_trace_model_opts mo = { sizeof(mo), true };
	size_t only_sz = sizeof(size_t);
	enum lupe_sort_key key = LUPE_SORT_SYM;
	struct lupe_folded f = { .stack = "main;work", .weight = 3 };
	struct lupe_report *rep;
	struct lupe_hists *h;
	struct lupe_diff *d;
	struct lupe_trace_model *m;
	struct lupe_hierarchy *hier;
	char *svg = NULL;
	size_t len = 0;
	FILE *out;

	assert_int_equal(lupe_report_check_opts(at_page_end(&ro, sizeof(ro))), 0);
	/* the fields it has are read: a wrong sort key is still refused */
	assert_int_equal(lupe_report_check_opts(at_page_end(&bad, sizeof(bad))), -EINVAL);
	rep = lupe_report_new(at_page_end(&ro, sizeof(ro)));
	assert_non_null(rep);
	lupe_report_delete(rep);

	h = lupe_hists_new(at_page_end(&ho, sizeof(ho)));
	assert_non_null(h);
	lupe_hists_delete(h);

	d = lupe_diff_new(at_page_end(&dopt, sizeof(dopt)));
	assert_non_null(d);
	lupe_diff_delete(d);

	m = lupe_trace_model_new(at_page_end(&mo, sizeof(mo)), no_call, NULL);
	assert_non_null(m);
	lupe_trace_model_delete(m);

	hier = lupe_hierarchy_new_opts(NULL, 0, &key, 1, at_page_end(&only_sz, sizeof(only_sz)));
	assert_non_null(hier);
	lupe_hierarchy_delete(hier);

	/* the missing fields take their defaults: width 1200 */
	out = open_memstream(&svg, &len);
	assert_non_null(out);
	assert_int_equal(lupe_flame_write(&f, 1, NULL, 0, at_page_end(&fo, sizeof(fo)), out), 0);
	fclose(out);
	assert_non_null(strstr(svg, "old title"));
	assert_non_null(strstr(svg, "width=\"1200\""));
	free(svg);
}

/* A newer caller: this build's struct and one more field. */
#define NEWER(type) struct { struct type o; uint64_t added; }

static void test_newer_caller(void **state)
{
	NEWER(lupe_report_opts) r = { { .sz = sizeof(r) }, 1 };
	NEWER(lupe_hist_opts) h = { { .sz = sizeof(h), .nr_keys = 1 }, 1 };
	NEWER(lupe_diff_opts) d = { { .sz = sizeof(d) }, 1 };
	NEWER(lupe_flame_opts) f = { { .sz = sizeof(f) }, 1 };
	NEWER(lupe_trace_model_opts) m = { { .sz = sizeof(m) }, 1 };
	NEWER(lupe_hierarchy_opts) y = { { .sz = sizeof(y) }, 1 };
	enum lupe_sort_key key = LUPE_SORT_SYM;
	struct lupe_report *rep;
	struct lupe_hists *hs;
	struct lupe_diff *df;
	struct lupe_hierarchy *hier;
	FILE *out = fopen("/dev/null", "w");

	assert_non_null(out);
	/* an option this library does not know is set: refused */
	assert_int_equal(lupe_report_check_opts(&r.o), -EINVAL);
	errno = 0;
	assert_null(lupe_report_new(&r.o));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(lupe_hists_new(&h.o));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(lupe_diff_new(&d.o));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(lupe_flame_write(NULL, 0, NULL, 0, &f.o, out), -EINVAL);
	errno = 0;
	assert_null(lupe_trace_model_new(&m.o, no_call, NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(lupe_hierarchy_new_opts(NULL, 0, &key, 1, &y.o));
	assert_int_equal(errno, EINVAL);

	/* the same newer struct with the new option unset: accepted */
	r.added = h.added = d.added = f.added = y.added = 0;
	assert_int_equal(lupe_report_check_opts(&r.o), 0);
	assert_non_null(rep = lupe_report_new(&r.o));
	lupe_report_delete(rep);
	assert_non_null(hs = lupe_hists_new(&h.o));
	lupe_hists_delete(hs);
	assert_non_null(df = lupe_diff_new(&d.o));
	lupe_diff_delete(df);
	assert_int_equal(lupe_flame_write(NULL, 0, NULL, 0, &f.o, out), 0);
	assert_non_null(hier = lupe_hierarchy_new_opts(NULL, 0, &key, 1, &y.o));
	lupe_hierarchy_delete(hier);
	fclose(out);
}

/* sz must at least hold itself; 0 is the classic forgotten sz. */
static void test_bad_size(void **state)
{
	struct lupe_report_opts r = { .sz = 0, .sort = "sym" };

	assert_int_equal(lupe_report_check_opts(&r), -EINVAL);
	r.sz = sizeof(size_t) - 1;
	assert_int_equal(lupe_report_check_opts(&r), -EINVAL);
}

/* LUPE_OPTS sets sz and zeroes the rest, padding included. */
static void test_lupe_opts_macro(void **state)
{
	LUPE_OPTS(lupe_flame_opts, o, .width = 5);
	struct lupe_flame_opts zero;

	assert_int_equal(o.sz, sizeof(struct lupe_flame_opts));
	assert_int_equal(o.width, 5);
	assert_null(o.title);
	memset(&zero, 0, sizeof(zero));
	zero.sz = o.sz;
	zero.width = 5;
	assert_memory_equal(&o, &zero, sizeof(o));
}

/* The loader: a copy of this build's size, sz set to it, defaults elsewhere. */
static void test_opts_load(void **state)
{
	struct old_flame_opts old = { sizeof(old), "t" };
	struct lupe_flame_opts o;

	memset(&o, 0xff, sizeof(o));
	assert_int_equal(lupe_opts_load(&o, (const struct lupe_flame_opts *)at_page_end(&old, sizeof(old))), 0);
	assert_int_equal(o.sz, sizeof(o));
	assert_string_equal(o.title, "t");
	assert_null(o.subtitle);
	assert_int_equal(o.width, 0);
	memset(&o, 0xff, sizeof(o));
	assert_int_equal(lupe_opts_load(&o, (const struct lupe_flame_opts *)NULL), 0);
	assert_int_equal(o.sz, sizeof(o));
	assert_null(o.title);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_older_caller),
		cmocka_unit_test(test_newer_caller),
		cmocka_unit_test(test_bad_size),
		cmocka_unit_test(test_lupe_opts_macro),
		cmocka_unit_test(test_opts_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
