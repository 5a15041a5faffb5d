// SPDX-License-Identifier: GPL-2.0
/* lib/util/output.c (every writer's output, as perf opens perf.data) and lib/util/number.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <lupe/number.h>
#include <lupe/output.h>

static void test_numbers(void **state)
{
	static const char *const bad[] = { "", " 5", "5 ", "5x", "x5", "+", "--5", "5,", NULL };
	uint64_t u;
	int64_t i;

	assert_int_equal(lupe_parse_i64("29845", 10, 1, LUPE_PID_MAX, &i), 0);
	assert_int_equal(i, 29845);
	assert_int_equal(lupe_parse_i64("4294997141", 10, 1, LUPE_PID_MAX, &i), -ERANGE);
	assert_int_equal(lupe_parse_i64("18446744073709551615", 10, 1, LUPE_PID_MAX, &i), -ERANGE);
	assert_int_equal(lupe_parse_i64("-1", 10, 1, LUPE_PID_MAX, &i), -ERANGE);
	assert_int_equal(lupe_parse_u64("18446744073709551615", 10, 0, UINT64_MAX, &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(lupe_parse_u64("18446744073709551616", 10, 0, UINT64_MAX, &u), -ERANGE);
	/* strtoull takes it as UINT64_MAX */
	assert_int_equal(lupe_parse_u64("-1", 10, 0, UINT64_MAX, &u), -EINVAL);
	assert_int_equal(lupe_parse_u64("0x10", 0, 0, 100, &u), 0);
	assert_int_equal(u, 16);
	for (int k = 0; bad[k]; k++) {
		assert_int_equal(lupe_parse_i64(bad[k], 10, INT64_MIN, INT64_MAX, &i), -EINVAL);
		assert_int_equal(lupe_parse_u64(bad[k], 10, 0, UINT64_MAX, &u), -EINVAL);
	}
	assert_int_equal(lupe_parse_i64n("12,3", 2, 10, 0, 100, &i), 0);
	assert_int_equal(i, 12);
	assert_int_equal(lupe_parse_i64n("12,3", 0, 10, 0, 100, &i), -EINVAL);
}

static char dir[] = "/tmp/lupe-test-output.XXXXXX";

static char *at(const char *name)
{
	static char path[4][256];
	static int n;
	char *p = path[n++ % 4];

	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void write_all(struct lupe_output *o, const char *text)
{
	assert_int_equal(write(o->fd, text, strlen(text)), (ssize_t)strlen(text));
	close(o->fd);
}

/* A new file, and an existing one kept as .old: the new one appears only at commit. */
static void test_regular(void **state)
{
	struct lupe_output o;
	struct stat st;

	assert_int_equal(lupe_output_open(&o, at("new.data"), LUPE_OUTPUT_PRIVATE), 0);
	assert_false(o.in_place);
	assert_int_equal(access(at("new.data"), F_OK), -1); /* not yet */
	write_all(&o, "one");
	assert_int_equal(lupe_output_commit(&o), 0);
	lupe_output_release(&o);
	assert_string_equal(get(at("new.data")), "one");
	assert_int_equal(stat(at("new.data"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	assert_int_equal(lupe_output_open(&o, at("new.data"), LUPE_OUTPUT_BACKUP), 0);
	write_all(&o, "two");
	assert_int_equal(lupe_output_commit(&o), 0);
	lupe_output_release(&o);
	assert_string_equal(get(at("new.data")), "two");
	assert_string_equal(get(at("new.data.old")), "one");

	/* a failed write: the temporary file goes, the old file stays */
	assert_int_equal(lupe_output_open(&o, at("new.data"), LUPE_OUTPUT_BACKUP), 0);
	write_all(&o, "three");
	lupe_output_abort(&o);
	lupe_output_release(&o);
	assert_string_equal(get(at("new.data")), "two");
	assert_string_equal(get(at("new.data.old")), "one");
	assert_int_equal(lupe_output_open(&o, dir, 0), -EISDIR);
}

/* A link at the path: replaced, its target never written (with BACKUP: the link becomes .old). */
static void test_link(void **state)
{
	struct lupe_output o;
	struct stat st;

	put(at("target"), "keep");
	assert_int_equal(symlink(at("target"), at("link")), 0);
	assert_int_equal(lupe_output_open(&o, at("link"), LUPE_OUTPUT_BACKUP | LUPE_OUTPUT_PRIVATE), 0);
	write_all(&o, "new");
	assert_int_equal(lupe_output_commit(&o), 0);
	lupe_output_release(&o);
	assert_string_equal(get(at("target")), "keep");
	assert_int_equal(lstat(at("link"), &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(get(at("link")), "new");
	assert_int_equal(lstat(at("link.old"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	/* without BACKUP the link is replaced; appending through one is refused */
	assert_int_equal(symlink(at("target"), at("link2")), 0);
	assert_int_equal(lupe_output_open(&o, at("link2"), 0), 0);
	write_all(&o, "x");
	assert_int_equal(lupe_output_commit(&o), 0);
	lupe_output_release(&o);
	assert_string_equal(get(at("target")), "keep");
	assert_int_equal(symlink(at("target"), at("link3")), 0);
	assert_int_equal(lupe_output_open(&o, at("link3"), LUPE_OUTPUT_APPEND), -ELOOP);
	assert_string_equal(get(at("target")), "keep");
}

/* A FIFO, directly or through our own link: written in place, never renamed or unlinked. */
static void test_fifo(void **state)
{
	const char *names[] = { "fifo", "fifo-link" };
	struct lupe_output o;
	struct stat st;
	char buf[16] = "";
	int rd;

	assert_int_equal(mkfifo(at("fifo"), 0600), 0);
	assert_int_equal(symlink(at("fifo"), at("fifo-link")), 0);
	for (int k = 0; k < 2; k++) {
		rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
		assert_true(rd >= 0);
		assert_int_equal(lupe_output_open(&o, at(names[k]), LUPE_OUTPUT_BACKUP), 0);
		assert_true(o.in_place);
		write_all(&o, "hi");
		assert_int_equal(read(rd, buf, sizeof(buf)), 2);
		close(rd);
		assert_int_equal(lupe_output_commit(&o), 0);
		lupe_output_abort(&o);
		lupe_output_release(&o);
		assert_int_equal(stat(at("fifo"), &st), 0);
		assert_true(S_ISFIFO(st.st_mode));
		assert_int_equal(lstat(at(names[k]), &st), 0);
		assert_true(k ? S_ISLNK(st.st_mode) : S_ISFIFO(st.st_mode));
	}
	assert_int_equal(access(at("fifo.old"), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_regular),
		cmocka_unit_test(test_link),
		cmocka_unit_test(test_fifo),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
