// SPDX-License-Identifier: GPL-2.0
/* The tasks model (report --tasks): perf's thread table order, group leaders, FORK replacing threads and stale parents. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/tasks.h>
#include "data/format.h"

static void comm(struct lupe_tasks *t, int pid, int tid, const char *name)
{
	union {
		struct perf_record_comm c;
		char buf[64];
	} r = { 0 };

	r.c.header.type = PERF_RECORD_COMM;
	r.c.header.size = (uint16_t)(sizeof(r.c) + 16);
	r.c.pid = (uint32_t)pid;
	r.c.tid = (uint32_t)tid;
	strcpy(r.c.comm, name);
	assert_int_equal(lupe_tasks_tool(t)->other(lupe_tasks_tool(t), NULL, &r.c.header), 0);
}

static void fork_(struct lupe_tasks *t, int ppid, int ptid, int pid, int tid)
{
	struct perf_record_fork f = {
		.header = { .type = PERF_RECORD_FORK, .size = sizeof(f) },
		.pid = (uint32_t)pid, .ppid = (uint32_t)ppid, .tid = (uint32_t)tid, .ptid = (uint32_t)ptid,
	};

	assert_int_equal(lupe_tasks_tool(t)->other(lupe_tasks_tool(t), NULL, &f.header), 0);
}

/* The list as "pid/tid/ppid/level/comm" lines, for one comparison. */
static const char *listed(struct lupe_tasks *t)
{
	static char buf[1024];
	const struct lupe_task *l;
	long n = lupe_tasks_finish(t, &l);
	size_t len = 0;

	assert_true(n >= 0);
	buf[0] = 0;
	for (long i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%d/%d/%d/%d/%s\n", l[i].pid, l[i].tid,
					l[i].ppid, l[i].level, l[i].comm);
	return buf;
}

static void test_idle_only(void **state)
{
	struct lupe_tasks *t = lupe_tasks_new();

	(void)state;
	assert_non_null(t);
	assert_string_equal(listed(t), "0/0/-1/0/swapper\n");
	lupe_tasks_delete(t);
}

/* Roots in tid % 256 order, then tid; a thread's COMM makes its leader (":PID"). */
static void test_table_order_and_leader(void **state)
{
	struct lupe_tasks *t = lupe_tasks_new();

	(void)state;
	comm(t, 300, 300, "a");
	comm(t, 5, 5, "b");
	comm(t, 256, 256, "c");
	comm(t, 10, 11, "d");
	assert_string_equal(listed(t), "0/0/-1/0/swapper\n256/256/-1/0/c\n5/5/-1/0/b\n"
				       "10/10/-1/0/:10\n10/11/-1/0/d\n300/300/-1/0/a\n");
	lupe_tasks_delete(t);
}

/* A child takes its parent's comm and sits under it; a FORK for a tid that came back replaces it. */
static void test_fork_tree(void **state)
{
	struct lupe_tasks *t = lupe_tasks_new();

	(void)state;
	comm(t, 10, 10, "p");
	comm(t, 5, 5, "q");
	fork_(t, 10, 10, 20, 20);
	fork_(t, 20, 20, 21, 21);
	assert_string_equal(listed(t), "0/0/-1/0/swapper\n5/5/-1/0/q\n10/10/-1/0/p\n20/20/10/1/p\n"
				       "21/21/20/2/p\n");
	comm(t, 20, 20, "c");
	fork_(t, 5, 5, 20, 20);
	assert_string_equal(listed(t), "0/0/-1/0/swapper\n5/5/-1/0/q\n20/20/5/1/q\n21/21/20/2/p\n"
				       "10/10/-1/0/p\n");
	lupe_tasks_delete(t);
}

/* A parent known with another pid is stale: a new one (no comm yet) takes its place. */
static void test_stale_parent(void **state)
{
	struct lupe_tasks *t = lupe_tasks_new();

	(void)state;
	comm(t, 31, 30, "old");
	fork_(t, 30, 30, 40, 40);
	assert_string_equal(listed(t), "0/0/-1/0/swapper\n30/30/-1/0/:30\n40/40/30/1/:40\n31/31/-1/0/:31\n");
	lupe_tasks_delete(t);
}

/* perf's FORK with tid == ptid replaces the thread by its own child: it is never listed. */
static void test_self_fork(void **state)
{
	struct lupe_tasks *t = lupe_tasks_new();

	(void)state;
	comm(t, 50, 50, "s");
	fork_(t, 50, 50, 50, 50);
	assert_string_equal(listed(t), "0/0/-1/0/swapper\n");
	lupe_tasks_delete(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_only),
		cmocka_unit_test(test_table_order_and_leader),
		cmocka_unit_test(test_fork_tree),
		cmocka_unit_test(test_stale_parent),
		cmocka_unit_test(test_self_fork),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
