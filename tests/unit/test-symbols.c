// SPDX-License-Identifier: GPL-2.0
/*
 * The compact symbol table (struct ksymtab, lib/symbols/symbols.c):
 * built from the same kallsyms lines or ELF symbols as the array it
 * replaces, it answers every
 * lookup with the same start, end and name (at a start, inside, between
 * two, past the last, below the first, past 32 bits of offset), hands out one pointer per symbol however it is reached, stays
 * an array when the span exceeds 32 bits, and reads its names from the
 * kallsyms copy's lines as the kernel's DSO loads it, or from a mapped
 * ELF string table (demangled), with labels inside sized functions.
 */
#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include "symbols/symbols.h"

/*
 * Of aliases the last read wins (perf's fixup gave only it a size), global
 * or not; "helper extra" ends at the blank; an 'a' symbol is not kept;
 * the last symbol ends a page past its own page.
 */
static const char lines[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 t startup_64\n"
	"ffffffff81000100 T schedule\n"
	"ffffffff81000200 t helper extra\n"
	"ffffffff81000300 W weakfn\n"
	"ffffffff81000300 t weak_local\n"
	"ffffffff81000400 D some_data\n"
	"ffffffff81000400 a absolute\n"
	"ffffffff83000000 T start_kernel\n"
	"ffffffff83100000 B last_bss\n";

static const uint64_t probes[] = {
	0, 0xffffffff80ffffff, 0xffffffff81000000, 0xffffffff810000ff, 0xffffffff81000100,
	0xffffffff81000101, 0xffffffff810001ff, 0xffffffff81000200, 0xffffffff81000210,
	0xffffffff81000300, 0xffffffff81000301, 0xffffffff81000400, 0xffffffff82ffffff,
	0xffffffff83000000, 0xffffffff830fffff, 0xffffffff83100000, 0xffffffff83100fff,
	0xffffffff83101000, 0xffffffff83101001, 0xffffffffffffffff,
};

static char *write_lines(const char *dir_fmt, const char *dir)
{
	static char path[512];
	char cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), dir_fmt, dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
	strcat(path, "/kallsyms");
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(lines, f) >= 0, 1);
	fclose(f);
	return path;
}

static int add_line(uint64_t addr, char type, const char *name, size_t len, void *b)
{
	int binding = type == 'W' ? STB_WEAK : type >= 'a' ? STB_LOCAL : STB_GLOBAL;

	if (type == 'a')
		return 0;
	return lupe_symtab_add(b, addr, 0, name, len, binding);
}

/* The fixture's symbols (names copied) into dso, as a ksymtab when compact. */
static void build(const char *path, struct lupe_dso *dso, int compact)
{
	struct symtab_build b = { .kallsyms = 1, .compact = compact };

	assert_int_equal(lupe_kallsyms_foreach(path, add_line, &b), 0);
	assert_int_equal(lupe_symtab_finish(&b, dso), 0);
	lupe_symtab_build_free(&b);
}

/* Every probe answered alike by the two tables, and each symbol one pointer. */
static void same_answers_at(const struct lupe_dso *arr, const struct lupe_dso *k, const uint64_t *at,
			    size_t nr)
{
	assert_int_equal(arr->nr_syms, k->nr_syms);
	for (size_t i = 0; i < nr; i++) {
		const struct lupe_symbol *a = lupe_dso_find_symbol(arr, at[i]);
		const struct lupe_symbol *c = lupe_dso_find_symbol(k, at[i]);

		if (!a) {
			if (c)
				fail_msg("%#llx: array none, compact '%s'", (unsigned long long)at[i], c->name);
			continue;
		}
		if (!c)
			fail_msg("%#llx: array '%s', compact none", (unsigned long long)at[i], a->name);
		assert_int_equal(a->start, c->start);
		assert_int_equal(a->end, c->end);
		assert_string_equal(a->name, c->name);
		/* the same symbol again: the same pointer */
		assert_ptr_equal(lupe_dso_find_symbol(k, at[i]), c);
	}
	for (size_t i = 0; i < k->nr_syms; i++) {
		const struct lupe_symbol *s = lupe_dso_symbol(k, i);

		assert_non_null(s);
		assert_int_equal(lupe_dso_symbol_start(k, i), lupe_dso_symbol_start(arr, i));
		assert_int_equal(lupe_dso_symbol_end(k, i), lupe_dso_symbol_end(arr, i));
		assert_int_equal(s->start, lupe_dso_symbol_start(arr, i));
		assert_int_equal(s->end, lupe_dso_symbol_end(arr, i));
		assert_string_equal(s->name, lupe_dso_symbol(arr, i)->name);
		assert_ptr_equal(lupe_dso_symbol(k, i), s);
		/* at its start, its own (a label inside a function: the function's) */
		if (s->end > s->start && !(k->outer && k->outer[i]))
			assert_ptr_equal(lupe_dso_find_symbol(k, s->start), s);
	}
}

#define same_answers(arr, k) same_answers_at(arr, k, probes, sizeof(probes) / sizeof(probes[0]))

static void test_compact_as_array(void **state)
{
	char dir[] = "/tmp/lupe-test-symbols.XXXXXX", cmd[64];
	struct lupe_dso arr = { 0 }, k = { 0 };
	const struct lupe_symbol *s;
	const char *path;

	assert_non_null(mkdtemp(dir));
	path = write_lines("%s", dir);
	build(path, &arr, 0);
	build(path, &k, 1);
	assert_non_null(arr.syms);
	assert_null(arr.ktab);
	assert_null(k.syms);
	assert_non_null(k.ktab);
	/* aliases dropped, 'a' not kept */
	assert_int_equal(k.nr_syms, 7);
	same_answers(&arr, &k);
	/* what the fixture says, not only what the array says */
	assert_string_equal(lupe_dso_find_symbol(&k, 0xffffffff81000000)->name, "startup_64");
	assert_string_equal(lupe_dso_find_symbol(&k, 0xffffffff810000ff)->name, "startup_64");
	s = lupe_dso_find_symbol(&k, 0xffffffff81000210);
	assert_string_equal(s->name, "helper");
	assert_int_equal(s->start, 0xffffffff81000200);
	assert_int_equal(s->end, 0xffffffff81000300);
	assert_string_equal(lupe_dso_find_symbol(&k, 0xffffffff81000300)->name, "weak_local");
	assert_string_equal(lupe_dso_find_symbol(&k, 0xffffffff82ffffff)->name, "some_data");
	s = lupe_dso_find_symbol(&k, 0xffffffff83100fff);
	assert_string_equal(s->name, "last_bss");
	assert_int_equal(s->end, 0xffffffff83101000);
	assert_null(lupe_dso_find_symbol(&k, 0xffffffff83101000));
	assert_null(lupe_dso_find_symbol(&k, 0xffffffff80ffffff));
	lupe_dso_free_syms(&arr);
	lupe_dso_free_syms(&k);
	assert_null(k.ktab);
	assert_int_equal(k.nr_syms, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Symbols further apart than 32 bits of offset: the table stays an array, and answers. */
static void test_wide_span_stays_array(void **state)
{
	struct symtab_build b = { .kallsyms = 1, .compact = 1 };
	struct lupe_dso dso = { 0 };

	assert_int_equal(lupe_symtab_add(&b, 0x1000, 0, "low", 3, STB_GLOBAL), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x100001000, 0, "high", 4, STB_GLOBAL), 0);
	assert_int_equal(lupe_symtab_finish(&b, &dso), 0);
	assert_null(dso.ktab);
	assert_non_null(dso.syms);
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x100000fff)->name, "low");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x100001000)->name, "high");
	lupe_dso_free_syms(&dso);

	/* one byte less and it is compact */
	b = (struct symtab_build){ .kallsyms = 1, .compact = 1 };
	assert_int_equal(lupe_symtab_add(&b, 0x1000, 0, "low", 3, STB_GLOBAL), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x100000fff, 0, "high", 4, STB_GLOBAL), 0);
	assert_int_equal(lupe_symtab_finish(&b, &dso), 0);
	assert_non_null(dso.ktab);
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x100000ffe)->name, "low");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x100000fff)->name, "high");
	assert_int_equal(lupe_dso_find_symbol(&dso, 0x100001fff)->start, 0x100000fff);
	lupe_dso_free_syms(&dso);
}

/*
 * The kernel's DSO reads the kallsyms copy in the build-id cache on its
 * thread, its names left in the mapped lines: compact, with the answers
 * of the array built from the same file.
 */
static void test_kernel_copy_compact(void **state)
{
	char home[] = "/tmp/lupe-test-symbols.XXXXXX", cmd[64], name[] = "[kernel.kallsyms]";
	const char *old = getenv("HOME");
	char *saved = old ? strdup(old) : NULL;
	struct lupe_dso arr = { 0 }, k = { .long_name = name, .kernel = 1 };
	const struct lupe_symbol *s;
	const char *path;

	assert_non_null(mkdtemp(home));
	path = write_lines("%s/.debug/[kernel.kallsyms]/0102030405", home);
	build(path, &arr, 0);
	setenv("HOME", home, 1);
	lupe_dso_set_kernel_build_id(&k, (const uint8_t *)"\x01\x02\x03\x04\x05", 5);
	assert_int_equal(lupe_dso_load(&k), 0);
	assert_non_null(k.ktab);
	assert_non_null(k.names_map);
	same_answers(&arr, &k);
	s = lupe_dso_find_symbol(&k, 0xffffffff81000201);
	assert_string_equal(s->name, "helper");
	/* copied out of the mapping */
	assert_false(s->name >= k.names_map && s->name < k.names_map + k.names_map_len);
	lupe_dso_release(&k);
	lupe_dso_free_syms(&k);
	lupe_dso_free_syms(&arr);
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", home);
	assert_int_equal(system(cmd), 0);
}

/* An ELF-shaped table of n symbols into dso (names mapped from map, else copied), compact or not. */
static void build_elf(struct lupe_dso *dso, char *map, int compact)
{
	struct symtab_build b = { .compact = compact, .map = map, .map_len = map ? 4096 : 0 };
	char *dem = lupe_demangle("_Z3fooi");
	const char *want = dem ? dem : "_Z3fooi";

	/* a label inside a sized function: the function's up to its end, then the label's */
	assert_int_equal(lupe_symtab_add(&b, 0x1300, 0x19c, "Builtins_JSConstructStubGeneric", 31, STB_LOCAL), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x143a, 0, "construct_stub_invoke_deopt_addr", 32, STB_LOCAL), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x14c0, 0x40, "next_fn", 7, STB_LOCAL), 0);
	/* aliases: the global one is kept */
	assert_int_equal(lupe_symtab_add(&b, 0x2000, 0x10, "weak_alias", 10, STB_WEAK), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x2000, 0x10, "strong", 6, STB_GLOBAL), 0);
	/* a gap after each: past their ends, no symbol */
	assert_int_equal(lupe_symtab_add_raw(&b, 0x3000, 0x20, "plain", 5, map ? map : NULL, STB_GLOBAL), 0);
	assert_int_equal(lupe_symtab_add_raw(&b, 0x4000, 0x20, want, strlen(want), map ? map + 6 : NULL,
					     STB_GLOBAL), 0);
	assert_int_equal(lupe_symtab_finish(&b, dso), 0);
	lupe_symtab_build_free(&b);
	free(dem);
}

static const uint64_t elf_probes[] = {
	0, 0x12ff, 0x1300, 0x133b, 0x1402, 0x143a, 0x1440, 0x149b, 0x149c, 0x14bf, 0x14c0, 0x14ff,
	0x1500, 0x1fff, 0x2000, 0x200f, 0x2010, 0x3000, 0x301f, 0x3020, 0x4000, 0x401f, 0x4020,
	0x100004000, 0xffffffffffffffff,
};

/* ELF symbols (sizes, gaps, labels, mapped names demangled at lookup) answer as the array does. */
static void test_elf_compact_as_array(void **state)
{
	static const char strs[] = "plain\0_Z3fooi\0";
	char file[] = "/tmp/lupe-test-symbols.XXXXXX", *map[2];
	struct lupe_dso arr = { 0 }, k = { 0 };
	char *dem = lupe_demangle("_Z3fooi");
	const struct lupe_symbol *s;
	int fd = mkstemp(file);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, strs, sizeof(strs)), sizeof(strs));
	for (int i = 0; i < 2; i++) {
		/* the table owns its mapping */
		map[i] = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		assert_true(map[i] != MAP_FAILED);
	}
	close(fd);
	unlink(file);
	build_elf(&arr, map[0], 0);
	build_elf(&k, map[1], 1);
	assert_non_null(arr.syms);
	assert_null(k.syms);
	assert_non_null(k.ktab);
	assert_non_null(k.outer);
	same_answers_at(&arr, &k, elf_probes, sizeof(elf_probes) / sizeof(elf_probes[0]));
	assert_string_equal(lupe_dso_find_symbol(&k, 0x1440)->name, "Builtins_JSConstructStubGeneric");
	assert_string_equal(lupe_dso_find_symbol(&k, 0x149c)->name, "construct_stub_invoke_deopt_addr");
	assert_string_equal(lupe_dso_find_symbol(&k, 0x2000)->name, "strong");
	assert_null(lupe_dso_find_symbol(&k, 0x2010));
	s = lupe_dso_find_symbol(&k, 0x4004);
	assert_string_equal(s->name, dem ? dem : "_Z3fooi");
	assert_false(s->name >= map[1] && s->name < map[1] + 4096);
	assert_string_equal(lupe_dso_find_symbol(&k, 0x3000)->name, "plain");
	lupe_dso_free_syms(&arr);
	lupe_dso_free_syms(&k);
	assert_null(k.outer);

	/* names all copied (no mapping) */
	build_elf(&arr, NULL, 0);
	build_elf(&k, NULL, 1);
	assert_non_null(k.ktab);
	same_answers_at(&arr, &k, elf_probes, sizeof(elf_probes) / sizeof(elf_probes[0]));
	lupe_dso_free_syms(&arr);
	lupe_dso_free_syms(&k);
	free(dem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact_as_array),
		cmocka_unit_test(test_wide_span_stays_array),
		cmocka_unit_test(test_kernel_copy_compact),
		cmocka_unit_test(test_elf_compact_as_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
