// SPDX-License-Identifier: GPL-2.0
/*
 * The detached close of slow perf fds (lib/counting/close.c), with pipes in
 * their place: the caller's copies are closed at once, the closer closes
 * its own (the read ends see EOF), and it holds no other file of ours.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <cmocka.h>
#include "counting/close.h"

/* 1 when fd reads EOF within ms milliseconds */
static int eof_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	return poll(&p, 1, ms) == 1 && read(fd, &c, 1) == 0;
}

static void test_detached(void **state)
{
	int r[6], w[6], other[2];

	assert_int_equal(pipe(other), 0);
	for (int i = 0; i < 6; i++) {
		int p[2];

		assert_int_equal(pipe(p), 0);
		r[i] = p[0];
		w[i] = p[1];
	}
	lupe_close_slow_fds(w, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(fcntl(w[i], F_GETFD), -1);
		assert_int_equal(errno, EBADF);
	}
	/* the closer took the write ends and closes them */
	for (int i = 0; i < 6; i++) {
		assert_true(eof_within(r[i], 5000));
		close(r[i]);
	}
	/* it never held the rest: our last write end of another pipe gives EOF now */
	close(other[1]);
	assert_true(eof_within(other[0], 1000));
	close(other[0]);
}

static void test_few_close_here(void **state)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	lupe_close_slow_fds(&p[1], 1);
	assert_int_equal(fcntl(p[1], F_GETFD), -1);
	assert_true(eof_within(p[0], 0));
	close(p[0]);
}

static void test_slow_kinds(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT };

	assert_true(lupe_close_is_slow(&a));
	a.type = PERF_TYPE_SOFTWARE;
	assert_false(lupe_close_is_slow(&a));
	a.type = PERF_TYPE_HARDWARE;
	assert_false(lupe_close_is_slow(&a));
	a.type = PERF_TYPE_MAX + 3; /* a dynamic PMU such as uprobe */
	assert_true(lupe_close_is_slow(&a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detached),
		cmocka_unit_test(test_few_close_here),
		cmocka_unit_test(test_slow_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
