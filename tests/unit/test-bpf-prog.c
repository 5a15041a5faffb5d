// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF program loader (bpf/prog.h) where no privilege is needed: a
 * skeleton that cannot be made comes back as NULL with the maker's error,
 * its setup hook never run, the failure logged under the program's name
 * only when it has one (trace, stat --func and record --off-cpu say their
 * own sentences). Built without BPF, every step is not supported and
 * deleting accepts anything. Loading a real program needs root and is the
 * shell tests' (lock-contention-bpf, record-off-cpu, trace-*, stat-func-*).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/core.h>
#include "bpf/prog.h"

static char logged[256];
static void keep_log(enum lupe_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	vsnprintf(logged, sizeof(logged), fmt, ap);
}

static int setups;
static int setup(void *skel, const void *arg)
{
	(void)skel, (void)arg;
	setups++;
	return 0;
}

/* a generated struct's first field is its struct bpf_object_skeleton pointer */
struct fake_skel {
	void *skeleton;
	int rest[4];
};

static int create_fails(void *skel)
{
	assert_null(((struct fake_skel *)skel)->skeleton); /* zeroed, as the generated open's calloc */
	return -E2BIG;
}

/* NULL: built without BPF (errno said so), and the stubs are checked */
static struct lupe_bpf_prog *load(const struct lupe_bpf_prog_ops *ops)
{
	struct lupe_bpf_prog *p;

	logged[0] = '\0';
	errno = 0;
	p = lupe_bpf_prog_load(ops, NULL);
	assert_null(p);
	if (errno == LUPE_ERR_NOT_SUPPORTED) {
		assert_int_equal(lupe_bpf_prog_add_pid(NULL, 1), -LUPE_ERR_NOT_SUPPORTED);
		assert_int_equal(lupe_bpf_prog_start(NULL), -LUPE_ERR_NOT_SUPPORTED);
		lupe_bpf_prog_stop(NULL);
		lupe_bpf_prog_delete(NULL);
		print_message("skipped: lupe is built without BPF\n");
		skip();
	}
	return p;
}

static void test_create_fails(void **state)
{
	static const struct lupe_bpf_prog_ops named = {
		"the test program", sizeof(struct fake_skel), create_fails, setup,
	};
	static const struct lupe_bpf_prog_ops unnamed = {
		NULL, sizeof(struct fake_skel), create_fails, setup,
	};

	(void)state;
	lupe_log_set(keep_log);
	load(&named);
	assert_int_equal(errno, E2BIG);
	assert_string_equal(logged, "cannot open the test program: Argument list too long");
	load(&unnamed);
	assert_int_equal(errno, E2BIG);
	assert_string_equal(logged, ""); /* the caller says it */
	assert_int_equal(setups, 0);
	lupe_bpf_prog_delete(NULL);
	lupe_log_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
