// SPDX-License-Identifier: GPL-2.0
/* The lock contention model (perf 6.1's pairing, averages and sort) and the tracefs field parser lib/lock and lib/sched read formats with. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/events.h>
#include <lupe/lock.h>
#include "ftrace/field.h"

static void test_pairing(void **state)
{
	struct lupe_lock *l = lupe_lock_new(LUPE_LOCK_AGGR_CALLER);
	struct lupe_lock_stat **v;
	size_t nr;

	(void)state;
	assert_non_null(l);
	/* tid 1 waits 100 ns on lock 0xa from caller key 7 */
	assert_int_equal(lupe_lock_begin(l, 1, 1000, 0xa, LUPE_LCB_F_SPIN, 7, "f+0x1"), 0);
	/* a nested begin (spin, then sleep) does not restart the wait */
	assert_int_equal(lupe_lock_begin(l, 1, 1050, 0xa, LUPE_LCB_F_SPIN, 7, "f+0x1"), 0);
	assert_int_equal(lupe_lock_end(l, 1, 1100, 0xa, 7), 0);
	/* tid 2: a contention whose end has another key counts no wait */
	assert_int_equal(lupe_lock_begin(l, 2, 2000, 0xa, LUPE_LCB_F_SPIN, 7, "f+0x1"), 0);
	assert_int_equal(lupe_lock_end(l, 2, 2500, 0xa, 99), 0);
	/* key 8: one wait of 300 */
	assert_int_equal(lupe_lock_begin(l, 3, 3000, 0xb, LUPE_LCB_F_WRITE, 8, "g"), 0);
	assert_int_equal(lupe_lock_end(l, 3, 3300, 0xb, 8), 0);

	assert_int_equal(lupe_lock_sorted(l, "wait_total", &v, &nr), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(v[0]->name, "g");
	assert_int_equal(v[0]->wait_total, 300);
	assert_string_equal(v[1]->name, "f+0x1");
	assert_int_equal(v[1]->nr_contended, 2);
	assert_int_equal(v[1]->nr_acquired, 1);
	assert_int_equal(v[1]->wait_total, 100);
	/* perf's average: over the acquisitions, not the contentions */
	assert_int_equal(v[1]->avg_wait, 100);
	assert_string_equal(lupe_lock_type_str(v[0]->flags), "rwsem:W");
	assert_string_equal(lupe_lock_type_str(v[1]->flags), "spinlock");
	free(v);

	assert_int_equal(lupe_lock_sorted(l, "contended", &v, &nr), 0);
	assert_string_equal(v[0]->name, "f+0x1");
	free(v);
	assert_int_equal(lupe_lock_sorted(l, "bogus", &v, &nr), -EINVAL);
	lupe_lock_delete(l);
}

static void test_add(void **state)
{
	struct lupe_lock *l = lupe_lock_new(LUPE_LOCK_AGGR_CALLER);
	struct lupe_lock_stat **v;
	size_t nr;

	(void)state;
	assert_int_equal(lupe_lock_add(l, 1, "m[1] 0x10", LUPE_LCB_F_FUTEX, 4, 400, 200, 50), 0);
	assert_int_equal(lupe_lock_add(l, 1, "m[1] 0x10", LUPE_LCB_F_FUTEX, 1, 600, 600, 600), 0);
	assert_int_equal(lupe_lock_sorted(l, "wait_max", &v, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(v[0]->nr_contended, 5);
	assert_int_equal(v[0]->wait_total, 1000);
	assert_int_equal(v[0]->wait_max, 600);
	assert_int_equal(v[0]->wait_min, 50);
	assert_int_equal(v[0]->avg_wait, 200);
	assert_string_equal(lupe_lock_type_str(v[0]->flags), "futex");
	assert_string_equal(lupe_lock_type_str(0x40), "unknown");
	free(v);
	lupe_lock_delete(l);
	lupe_lock_delete(NULL);
}

static void test_field(void **state)
{
	char dir[] = "/tmp/lupe-test-field.XXXXXX", path[256];
	struct tp_field f = { -1, -1 };
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/events", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("name: sched_switch\nID: 372\nformat:\n"
	      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	      "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	      "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	      "\tfield:unsigned int flags;\toffset:40;\tsize:4;\tsigned:0;\n", fp);
	fclose(fp);
	assert_int_equal(lupe_events_set_tracefs(dir), 0);
	assert_int_equal(lupe_tp_field_find("sched", "sched_switch", "prev_comm", &f), 0);
	assert_int_equal(f.offset, 8);
	assert_int_equal(f.size, 16);
	assert_int_equal(lupe_tp_field_find("sched", "sched_switch", "prev_state", &f), 0);
	assert_int_equal(f.offset, 32);
	/* "flags", not common_flags */
	assert_int_equal(lupe_tp_field_find("sched", "sched_switch", "flags", &f), 0);
	assert_int_equal(f.offset, 40);
	f.offset = 77;
	assert_int_equal(lupe_tp_field_find("sched", "sched_switch", "next_pid", &f), -ENOENT);
	assert_int_equal(f.offset, 77);
	assert_int_equal(lupe_tp_field_find("sched", "no_such", "x", &f), -ENOENT);
	unlink(path);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
