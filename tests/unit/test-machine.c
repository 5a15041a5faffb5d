// SPDX-License-Identifier: GPL-2.0
/*
 * The machine model on records a mutated file can hold: threads that are
 * their own parent or leader, reused tids, maps over maps, a BPF program's
 * KSYMBOL inside the kernel's map. Run under
 * AddressSanitizer too (test-machine-asan): none of these may touch freed
 * memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "data/format.h"
#include "session/machine.h"

static void comm_misc(struct machine *m, uint32_t pid, uint32_t tid, const char *name, uint16_t misc)
{
	union {
		struct perf_record_comm c;
		char buf[64];
	} r = { 0 };

	r.c.header.type = PERF_RECORD_COMM;
	r.c.header.misc = misc;
	r.c.header.size = sizeof(r.c) + 16;
	r.c.pid = pid;
	r.c.tid = tid;
	snprintf(r.c.comm, 16, "%s", name);
	assert_int_equal(lupe_machine_process(m, &r.c.header), 0);
}

static void comm(struct machine *m, uint32_t pid, uint32_t tid, const char *name)
{
	comm_misc(m, pid, tid, name, 0);
}

static int fork_rec(struct machine *m, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct perf_record_fork r = { { PERF_RECORD_FORK, 0, sizeof(r) }, pid, ppid, tid, ptid, 0 };

	return lupe_machine_process(m, &r.header);
}

static void exit_at(struct machine *m, uint32_t pid, uint32_t tid, uint64_t time)
{
	struct perf_record_fork r = { { PERF_RECORD_EXIT, 0, sizeof(r) }, pid, pid, tid, tid, time };

	assert_int_equal(lupe_machine_process(m, &r.header), 0);
}

static void exit_rec(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct perf_record_fork r = { { PERF_RECORD_EXIT, 0, sizeof(r) }, pid, pid, tid, tid, 0 };

	assert_int_equal(lupe_machine_process(m, &r.header), 0);
}

static void mmap2(struct machine *m, uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
		  const char *file)
{
	union {
		struct perf_record_mmap2 r;
		char buf[sizeof(struct perf_record_mmap2) + 64];
	} u = { 0 };

	u.r.header.type = PERF_RECORD_MMAP2;
	u.r.header.misc = PERF_RECORD_MISC_USER;
	u.r.header.size = sizeof(u);
	u.r.pid = pid;
	u.r.tid = tid;
	u.r.start = start;
	u.r.len = len;
	snprintf(u.r.filename, 64, "%s", file);
	assert_int_equal(lupe_machine_process(m, &u.r.header), 0);
}

/* The 788-byte fuzzer find: FORK tid == ptid after the thread had a comm. */
static void test_fork_self_parent(void **state)
{
	struct machine *m = lupe_machine_new();
	struct lupe_thread *t;

	comm(m, 42, 42, "worker");
	assert_int_equal(fork_rec(m, 42, 42, 42, 42), 0);
	t = lupe_machine_findnew_thread(m, 42, 42);
	assert_string_equal(t->comm, "worker");
	/* before any comm, and with pid != tid */
	assert_int_equal(fork_rec(m, 7, 7, 8, 8), 0);
	assert_int_equal(fork_rec(m, 9, 9, 9, 9), 0);
	t = lupe_machine_findnew_thread(m, 9, 9);
	assert_non_null(t->comm);
	lupe_machine_delete(m);
}

/* A thread whose process is itself, forked from a thread of its own process. */
static void test_own_leader(void **state)
{
	struct machine *m = lupe_machine_new();
	struct lupe_thread *t, *leader;

	comm(m, 10, 10, "leader");
	mmap2(m, 10, 10, 0x1000, 0x1000, "/bin/a");
	assert_int_equal(fork_rec(m, 10, 10, 11, 10), 0);
	/* the leader forks again from its own thread, and reuses tid 10 */
	assert_int_equal(fork_rec(m, 10, 10, 10, 11), 0);
	leader = lupe_machine_findnew_thread(m, 10, 10);
	t = lupe_machine_findnew_thread(m, 10, 11);
	assert_non_null(leader->maps);
	assert_non_null(t->maps);
	/* a thread first seen without its pid joins a process that is itself */
	t = lupe_machine_findnew_thread(m, -1, 12);
	assert_ptr_equal(lupe_machine_findnew_thread(m, 12, 12), t);
	/* a fork whose child is its parent's leader */
	assert_int_equal(fork_rec(m, 20, 20, 21, 21), 0);
	assert_int_equal(fork_rec(m, 21, 20, 20, 21), 0);
	assert_int_equal(fork_rec(m, 20, 21, 21, 20), 0);
	lupe_machine_delete(m);
}

/* Maps over themselves: the same range again, a map inside one, one over many. */
static void test_maps_self(void **state)
{
	struct machine *m = lupe_machine_new();
	struct lupe_thread *t;

	mmap2(m, 5, 5, 0x1000, 0x3000, "/bin/a");
	mmap2(m, 5, 5, 0x1000, 0x3000, "/bin/a");
	mmap2(m, 5, 5, 0x2000, 0x1000, "/bin/b");
	mmap2(m, 5, 5, 0x0, 0x10000, "/bin/c");
	mmap2(m, 5, 5, 0xfffffffffffff000ULL, 0x1000, "//anon");
	t = lupe_machine_findnew_thread(m, 5, 5);
	assert_int_equal(t->maps->nr, 2);
	assert_string_equal(lupe_maps_find(t->maps, 0x2800)->dso->long_name, "/bin/c");
	/* a child forked from a process whose maps it then shares, then replaces */
	assert_int_equal(fork_rec(m, 6, 5, 6, 5), 0);
	assert_int_equal(fork_rec(m, 6, 6, 6, 6), 0);
	assert_int_equal(fork_rec(m, 5, 6, 5, 6), 0);
	t = lupe_machine_findnew_thread(m, 6, 6);
	assert_int_equal(t->maps->nr, 2);
	lupe_machine_delete(m);
}

/*
 * DSOs go with their last map unless a lookup handed them out: 5,000
 * distinct names re-mapping one address (the zstd amplification file's
 * shape) leave one DSO, plus the one a lookup pinned; a split map holds
 * its DSO twice; a fork's copy holds it too; the hash finds what is left.
 */
static void test_dsos_freed(void **state)
{
	struct machine *m = lupe_machine_new();
	struct lupe_dso *pinned;
	struct lupe_thread *t;
	char name[64];

	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "/lib/amp%d.so", i);
		mmap2(m, 7, 7, 0x10000, 0x1000, name);
		if (i == 100) {
			t = lupe_machine_findnew_thread(m, 7, 7);
			pinned = lupe_maps_find(t->maps, 0x10010)->dso;
		}
	}
	assert_int_equal(m->dsos.nr, 2);
	assert_string_equal(pinned->long_name, "/lib/amp100.so");
	assert_ptr_equal(lupe_machine_findnew_dso(m, "/lib/amp100.so"), pinned);
	/* one map split in two by another inside it: its DSO lives while either half does */
	mmap2(m, 8, 8, 0x20000, 0x3000, "/lib/outer.so");
	mmap2(m, 8, 8, 0x21000, 0x1000, "/lib/inner.so");
	assert_int_equal(fork_rec(m, 9, 8, 9, 8), 0);
	mmap2(m, 8, 8, 0x20000, 0x1000, "/lib/x.so");
	mmap2(m, 8, 8, 0x22000, 0x1000, "/lib/y.so");
	t = lupe_machine_findnew_thread(m, 9, 9);
	assert_string_equal(lupe_maps_find(t->maps, 0x22010)->dso->long_name, "/lib/outer.so");
	assert_int_equal(m->dsos.nr, 2 + 4); /* outer, inner, x, y */
	lupe_machine_delete(m);
}

/* perf's thread__fork: only a comm given (by COMM or inherited) passes to a child */
static void test_fork_comm(void **state)
{
	struct machine *m = lupe_machine_new();

	assert_int_equal(fork_rec(m, 31, 30, 31, 30), 0); /* parent 30 never named */
	assert_string_equal(lupe_machine_findnew_thread(m, 31, 31)->comm, ":31");
	comm(m, 40, 40, "bash");
	assert_int_equal(fork_rec(m, 41, 40, 41, 40), 0);
	assert_int_equal(fork_rec(m, 42, 41, 42, 41), 0); /* a grandchild before any exec */
	assert_string_equal(lupe_machine_findnew_thread(m, 42, 42)->comm, "bash");
	/* a reused tid forgets its old comm */
	assert_int_equal(fork_rec(m, 42, 31, 42, 31), 0);
	assert_string_equal(lupe_machine_findnew_thread(m, 42, 42)->comm, ":42");
	/* perf's comm__override: the first name renames the placeholder, a later one does not */
	assert_null(lupe_machine_findnew_thread(m, 42, 42)->comm_renamed);
	comm(m, 42, 42, "sh");
	comm(m, 42, 42, "md5sum");
	assert_string_equal(lupe_machine_findnew_thread(m, 42, 42)->comm_renamed, "sh");
	assert_string_equal(lupe_machine_findnew_thread(m, 41, 41)->comm_renamed, "bash");
	lupe_machine_delete(m);
}

/*
 * exec keeps the old image's maps (as perf does) but says so: the
 * unwinder must not take the old image's modules for the new one's
 */
static void test_exec(void **state)
{
	struct machine *m = lupe_machine_new();
	struct lupe_thread *t;
	uint32_t gen;

	comm(m, 50, 50, "sh");
	mmap2(m, 50, 50, 0x7f0000001000, 0x1000, "/lib/libc.so.6");
	t = lupe_machine_findnew_thread(m, 50, 50);
	gen = t->maps->gen;
	comm(m, 50, 50, "sh2"); /* prctl(PR_SET_NAME): no exec */
	assert_int_equal(t->maps->execs, 0);
	assert_int_equal(t->maps->gen, gen);
	comm_misc(m, 50, 50, "md5sum", PERF_RECORD_MISC_COMM_EXEC);
	assert_int_equal(t->maps->execs, 1);
	assert_true(t->maps->gen != gen);
	assert_string_equal(lupe_maps_find(t->maps, 0x7f0000001800)->dso->long_name, "/lib/libc.so.6");
	lupe_machine_delete(m);
}

/*
 * An exited process: its maps go in time order when no other thread of it
 * is left (under a new generation, so that nothing keyed by the old one
 * matches), stay otherwise, and stay for a reader out of time order; a
 * reference taken on them (the unwinder's) keeps them readable.
 */
static void test_exit_drops_maps(void **state)
{
	struct machine *m = lupe_machine_new();
	struct lupe_thread *t, *u;
	struct lupe_maps *maps;
	uint32_t gen;

	m->drop_exited = 1;
	mmap2(m, 50, 50, 0x400000, 0x1000, "/bin/a");
	t = lupe_machine_findnew_thread(m, 50, 50);
	maps = t->maps;
	lupe_maps_get(maps);
	gen = maps->gen;
	assert_non_null(lupe_maps_find(maps, 0x400800));
	/* a thread's exit is not its process's */
	assert_int_equal(fork_rec(m, 50, 50, 51, 50), 0);
	exit_rec(m, 50, 51);
	assert_int_equal(maps->exited, 0);
	assert_non_null(lupe_maps_find(maps, 0x400800));
	/* the main thread's, with another thread of it known: marked, kept */
	exit_rec(m, 50, 50);
	assert_int_equal(maps->exited, 1);
	assert_non_null(lupe_maps_find(maps, 0x400800));
	assert_int_equal(maps->gen, gen);
	/* a process of one thread: dropped a second after its EXIT (samples in the exit path come after it) */
	mmap2(m, 60, 60, 0x400000, 0x1000, "/bin/a");
	u = lupe_machine_findnew_thread(m, 60, 60);
	gen = u->maps->gen;
	exit_at(m, 60, 60, 5000000000ULL);
	assert_int_equal(u->maps->exited, 1);
	assert_non_null(lupe_maps_find(u->maps, 0x400800));
	mmap2(m, 61, 61, 0x400000, 0x1000, "/bin/a");
	exit_at(m, 61, 61, 5900000000ULL);
	assert_non_null(lupe_maps_find(u->maps, 0x400800));
	mmap2(m, 62, 62, 0x400000, 0x1000, "/bin/a");
	exit_at(m, 62, 62, 6000000000ULL);
	assert_null(lupe_maps_find(u->maps, 0x400800));
	assert_int_not_equal(u->maps->gen, gen);
	/* 61's second has not passed */
	assert_non_null(lupe_maps_find(lupe_machine_findnew_thread(m, 61, 61)->maps, 0x400800));
	/* out of time order: kept */
	m->drop_exited = 0;
	mmap2(m, 70, 70, 0x400000, 0x1000, "/bin/a");
	u = lupe_machine_findnew_thread(m, 70, 70);
	exit_rec(m, 70, 70);
	assert_int_equal(u->maps->exited, 1);
	assert_non_null(lupe_maps_find(u->maps, 0x400800));
	lupe_maps_put(maps);
	lupe_machine_delete(m);
}

static void ksymbol_flags(struct machine *m, uint64_t addr, uint32_t len, const char *name, uint16_t flags)
{
	union {
		struct perf_record_ksymbol r;
		char buf[sizeof(struct perf_record_ksymbol) + 64];
	} u = { 0 };

	u.r.header.type = PERF_RECORD_KSYMBOL;
	u.r.header.misc = PERF_RECORD_MISC_KERNEL;
	u.r.header.size = sizeof(u);
	u.r.addr = addr;
	u.r.len = len;
	u.r.ksym_type = 1; /* BPF */
	u.r.flags = flags;
	snprintf(u.r.name, 64, "%s", name);
	assert_int_equal(lupe_machine_process(m, &u.r.header), 0);
}

static void ksymbol(struct machine *m, uint64_t addr, uint32_t len, const char *name)
{
	ksymbol_flags(m, addr, len, name, 0);
}

/*
 * The kernel's map reaches past its MMAP record's end (_etext) to
 * kallsyms' last symbol, as perf's does once kallsyms is loaded (.init
 * text: start_kernel), and no further: BPF JIT code at 0xffffffffc0000000
 * is in no map, perf's [unknown]. kallsyms comes from a copy in the
 * build-id cache under $HOME, as perf record keeps one.
 */
static void test_kernel_map_end(void **state)
{
	char home[] = "/tmp/lupe-test-machine.XXXXXX", path[256];
	const char *old_home = getenv("HOME");
	char *saved = old_home ? strdup(old_home) : NULL;
	union {
		struct perf_record_mmap r;
		char buf[sizeof(struct perf_record_mmap) + 64];
	} u = { 0 };
	struct machine *m = lupe_machine_new();
	FILE *f;

	assert_non_null(mkdtemp(home));
	snprintf(path, sizeof(path), "mkdir -p '%s/.debug/[kernel.kallsyms]/0102030405'", home);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]/0102030405/kallsyms", home);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _text\nffffffff81000100 T schedule\n"
		   "ffffffff81000200 t helper extra\nffffffff81000300 W weakfn\n"
		   "ffffffff81000400 a absolute\n"
		   "ffffffff82000000 T _etext\nffffffff83000000 T start_kernel\n"
		   "ffffffff83100000 D last_data\nffffffffc0008000 t bpf_prog_x\t[bpf]\n");
	fclose(f);
	setenv("HOME", home, 1);
	memcpy(m->kernel_id, "\x01\x02\x03\x04\x05", 5);
	m->kernel_id_size = 5;
	u.r.header.type = PERF_RECORD_MMAP;
	u.r.header.misc = PERF_RECORD_MISC_KERNEL;
	u.r.header.size = sizeof(u);
	u.r.pid = (uint32_t)-1;
	u.r.start = 0xffffffff81000000;
	u.r.len = 0x1000000; /* to _etext */
	u.r.pgoff = 0xffffffff81000000;
	snprintf(u.r.filename, 64, "[kernel.kallsyms]_text");
	assert_int_equal(lupe_machine_process(m, &u.r.header), 0);
	assert_non_null(lupe_maps_find(m->kmaps, 0xffffffff81000110));
	assert_non_null(lupe_maps_find(m->kmaps, 0xffffffff83000010));
	/* the last symbol ends a page past its own page, as perf's symbols__fixup_end has it */
	assert_non_null(lupe_maps_find(m->kmaps, 0xffffffff83100fff));
	assert_null(lupe_maps_find(m->kmaps, 0xffffffff83101000));
	assert_null(lupe_maps_find(m->kmaps, 0xffffffffc0008880));
	/*
	 * The copy's names stay in its mapping until looked up, then end
	 * where kallsyms_line() ends them (a blank, a tab); an 'a' symbol is
	 * not kept, so weakfn reaches to _etext.
	 */
	{
		const struct lupe_dso *k = lupe_maps_find(m->kmaps, 0xffffffff81000110)->dso;

		assert_string_equal(lupe_dso_find_symbol(k, 0xffffffff81000210)->name, "helper");
		assert_string_equal(lupe_dso_find_symbol(k, 0xffffffff81000480)->name, "weakfn");
		assert_string_equal(lupe_dso_find_symbol(k, 0xffffffff83100010)->name, "last_data");
	}
	ksymbol(m, 0xffffffffc0008800, 0x100, "bpf_prog_0123456789abcdef_sys_exit");
	/* a BPF program's KSYMBOL: a map and DSO of its name, one symbol */
	{
		struct lupe_map *map = lupe_maps_find(m->kmaps, 0xffffffffc0008880);
		const struct lupe_symbol *sym;

		assert_non_null(map);
		assert_string_equal(map->dso->short_name, "bpf_prog_0123456789abcdef_sys_exit");
		assert_int_equal(lupe_dso_load(map->dso), 0);
		sym = lupe_dso_find_symbol(map->dso, 0xffffffffc0008880 - map->start + map->pgoff);
		assert_non_null(sym);
		assert_string_equal(sym->name, "bpf_prog_0123456789abcdef_sys_exit");
		assert_int_equal(0xffffffffc0008880 - map->start + map->pgoff - sym->start, 0x80);
	}
	/* the same program loaded again elsewhere: named too (one DSO of its name) */
	ksymbol(m, 0xffffffffc0010000, 0x100, "bpf_prog_0123456789abcdef_sys_exit");
	{
		struct lupe_map *map = lupe_maps_find(m->kmaps, 0xffffffffc0010010);
		const struct lupe_symbol *sym;

		assert_non_null(map);
		sym = lupe_dso_find_symbol(map->dso, 0xffffffffc0010010 - map->start + map->pgoff);
		assert_non_null(sym);
		assert_string_equal(sym->name, "bpf_prog_0123456789abcdef_sys_exit");
		assert_int_equal(0xffffffffc0010010 - map->start + map->pgoff - sym->start, 0x10);
	}
	/* unloaded: its map goes (the kernel's stays), the other load's stays */
	ksymbol_flags(m, 0xffffffffc0010000, 0x100, "bpf_prog_0123456789abcdef_sys_exit", 1);
	assert_null(lupe_maps_find(m->kmaps, 0xffffffffc0010010));
	assert_non_null(lupe_maps_find(m->kmaps, 0xffffffffc0008880));
	ksymbol_flags(m, 0xffffffff81000000, 0x100, "x", 1);
	assert_non_null(lupe_maps_find(m->kmaps, 0xffffffff81000110));
	assert_null(lupe_maps_find(m->kmaps, 0xffffffffc0008900));
	assert_non_null(lupe_maps_find(m->kmaps, 0xffffffff83000010));
	lupe_machine_delete(m);
	/* the copy's read starts with the map: a machine that goes unused stops it (ASan: nothing leaks) */
	m = lupe_machine_new();
	memcpy(m->kernel_id, "\x01\x02\x03\x04\x05", 5);
	m->kernel_id_size = 5;
	assert_int_equal(lupe_machine_process(m, &u.r.header), 0);
	lupe_machine_delete(m);
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
	snprintf(path, sizeof(path), "rm -rf '%s'", home);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_self_parent),
		cmocka_unit_test(test_own_leader),
		cmocka_unit_test(test_maps_self),
		cmocka_unit_test(test_dsos_freed),
		cmocka_unit_test(test_fork_comm),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_kernel_map_end),
		cmocka_unit_test(test_exit_drops_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
