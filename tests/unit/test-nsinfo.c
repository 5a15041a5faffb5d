// SPDX-License-Identifier: GPL-2.0
/*
 * Files of processes in other namespaces (lib/symbols/nsinfo.c): our own
 * process shares our namespaces, so its paths stay as they are; a DSO whose
 * file is gone is found in the build-id cache by build-id.
 */
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
#include <lupe/symbols.h>
#include "symbols/nsinfo.h"
#include "symbols/symbols.h"

static void test_own_process(void **state)
{
	char buf[256];
	const char *name = "/bin/sh";

	(void)state;
	assert_int_equal(lupe_ns_other_mnt(getpid()), 0);
	assert_true(lupe_ns_other_mnt(0x7ffffff0) < 0); /* no such process */
	assert_true(lupe_ns_other_mnt(0) < 0);
	assert_ptr_equal(lupe_ns_path(getpid(), name, buf, sizeof(buf)), name);
	assert_ptr_equal(lupe_ns_path(0x7ffffff0, name, buf, sizeof(buf)), name);
	/* our pid in our innermost PID namespace is the one getpid() gives */
	assert_int_equal(lupe_ns_pid(getpid()), getpid());
	assert_int_equal(lupe_ns_pid(0x7ffffff0), 0x7ffffff0);
}

static void test_cache_by_build_id(void **state)
{
	char dir[] = "/tmp/lupe-nsinfo-XXXXXX", path[512], out[512];
	uint8_t id[20];
	struct lupe_dso dso = { 0 };
	FILE *f;

	(void)state;
	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(0xa0 + i);
	assert_non_null(mkdtemp(dir));
	lupe_buildid_dir_set(dir);
	assert_int_equal(lupe_ns_cached(id, 20, out, sizeof(out)), -ENOENT);
	snprintf(path, sizeof(path), "%s/.build-id", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/.build-id/a0", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/.build-id/a0/a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/elf");
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(lupe_ns_cached(id, 20, out, sizeof(out)), 0);
	assert_string_equal(out, path);
	assert_int_equal(lupe_ns_cached(id, 0, out, sizeof(out)), -ENOENT);

	/* a file gone (its container too): the cache's copy; one that exists: itself */
	dso.long_name = (char *)"/lupe-no-such-dir/app";
	dso.pid = 0x7ffffff0;
	memcpy(dso.build_id, id, 20);
	dso.build_id_size = 20;
	assert_string_equal(lupe_ns_dso_path(&dso, out, sizeof(out)), path);
	dso.build_id_size = 0;
	assert_ptr_equal(lupe_ns_dso_path(&dso, out, sizeof(out)), dso.long_name);
	dso.long_name = (char *)"/bin/sh";
	dso.pid = getpid();
	dso.build_id_size = 20;
	assert_ptr_equal(lupe_ns_dso_path(&dso, out, sizeof(out)), dso.long_name);
	/* a JIT map of a process sharing our namespaces: its own name */
	dso.long_name = (char *)"/tmp/perf-1.map";
	assert_ptr_equal(lupe_ns_perf_map(&dso, out, sizeof(out)), dso.long_name);

	unlink(path);
	*strrchr(path, '/') = 0;
	rmdir(path);
	*strrchr(path, '/') = 0;
	rmdir(path);
	*strrchr(path, '/') = 0;
	rmdir(path);
	rmdir(dir);
	lupe_buildid_dir_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_process),
		cmocka_unit_test(test_cache_by_build_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
