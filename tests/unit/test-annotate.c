// SPDX-License-Identifier: GPL-2.0
/* Annotation: periods per instruction of a symbol, symbol order, and the disassembler's listing of this test's own code (AVX-512 and undecodable bytes included). */
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fcntl.h>
#include <unistd.h>
#include "symbols/symbols.h"
#include "util/elf-func.h"
#include <lupe/annotate.h>
#include <lupe/session.h>

static void test_add_and_sort(void **state)
{
	struct lupe_annotation a = { 0 };
	struct lupe_symbol cold = { 0x1000, 0x1010, "cold" }, hot = { 0x2000, 0x2040, "hot" };

	assert_int_equal(lupe_annotation_add(&a, NULL, &cold, 0x1004, 10), 0);
	assert_int_equal(lupe_annotation_add(&a, NULL, &hot, 0x2000, 5), 0);
	assert_int_equal(lupe_annotation_add(&a, NULL, &hot, 0x2000, 7), 0);
	assert_int_equal(lupe_annotation_add(&a, NULL, &hot, 0x203f, 1), 0);
	/* outside the symbol: not counted */
	assert_int_equal(lupe_annotation_add(&a, NULL, &hot, 0x2040, 100), 0);
	lupe_annotation_sort(&a);
	assert_int_equal(a.nr, 2);
	assert_ptr_equal(a.syms[0].sym, &hot);
	assert_int_equal(a.syms[0].nr_samples, 3);
	assert_int_equal(a.syms[0].total_period, 13);
	assert_int_equal(a.syms[0].period[0], 12);
	assert_int_equal(a.syms[0].samples[0], 2);
	assert_int_equal(a.syms[0].period[0x3f], 1);
	assert_int_equal(a.syms[1].total_period, 10);
	lupe_annotation_clear(&a);
	assert_int_equal(a.nr, 0);
}

/* a callee without samples: found by address, added with none, the sampled one kept */
static void test_sym_at(void **state)
{
	struct symtab_build b = { 0 };
	struct lupe_dso dso = { 0 };
	struct lupe_annotation a = { 0 };
	struct lupe_annotated_sym *as;
	const struct lupe_symbol *caller;

	assert_int_equal(lupe_symtab_add(&b, 0x1000, 0x20, "caller", 6, 1), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x2000, 0x10, "callee", 6, 1), 0);
	assert_int_equal(lupe_symtab_finish(&b, &dso), 0);
	caller = lupe_dso_find_symbol(&dso, 0x1000);
	assert_int_equal(lupe_annotation_add(&a, &dso, caller, 0x1004, 3), 0);
	as = lupe_annotation_sym_at(&a, &dso, 0x2008);
	assert_non_null(as);
	assert_string_equal(as->sym->name, "callee");
	assert_int_equal(as->nr_samples, 0);
	assert_int_equal(as->len, 0x10);
	assert_int_equal(a.nr, 2);
	/* again, and the sampled one: the same entries */
	assert_ptr_equal(lupe_annotation_sym_at(&a, &dso, 0x2000), as);
	as = lupe_annotation_sym_at(&a, &dso, 0x101f);
	assert_ptr_equal(as->sym, caller);
	assert_int_equal(as->total_period, 3);
	assert_int_equal(a.nr, 2);
	/* no symbol there */
	assert_null(lupe_annotation_sym_at(&a, &dso, 0x3000));
	lupe_annotation_clear(&a);
	free(dso.syms);
	free(dso.strtab);
}

/* a function with a loop, so that the listing has a jump back into it */
__attribute__((noinline)) unsigned long annotate_me(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i;
	return acc;
}

/* AVX-512 (EVEX) code and a byte invalid in 64-bit mode, jumped over: never run */
__attribute__((noinline)) unsigned long evex_me(unsigned long n)
{
	__asm__ volatile("jmp 1f\n\t"
			 "vpxord %%zmm16, %%zmm17, %%zmm18\n\t"
			 "vpcmpeqb (%%rsi), %%ymm17, %%k1%{%%k2%}\n\t"
			 ".byte 0x06\n\t"
			 "vmovdqu64 (%%rdi), %%ymm19\n"
			 "1:" : "+r"(n) : : "memory");
	return n + 1;
}

/* This executable's path and load bias, and the extent of its function name. */
static void self_func(const char *name, uintptr_t fn, char *path, size_t size, uint64_t *start, uint64_t *end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long lo, off, base = 0;
	int fd;
	Elf *elf;
	GElf_Addr addr;
	GElf_Xword len;

	/* the load bias: the first mapping's start minus its offset */
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%*x %*s %lx %*s %*s %255s", &lo, &off, path) == 3 &&
		    strstr(path, "test-annotate")) {
			base = lo - off;
			break;
		}
	}
	fclose(f);
	assert_true(base != 0 && strlen(path) < size);
	fd = open(path, O_RDONLY);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_int_equal(lupe_elf_find_func(elf, name, &addr, &len), 0);
	elf_end(elf);
	close(fd);
	*start = addr;
	*end = addr + len;
	assert_int_equal(*start, fn - base);
}

/*
 * Every byte of a function with EVEX instructions is listed: the EVEX
 * ones spelled as objdump spells them, the undecodable byte as "(bad)",
 * and what follows them (capstone 4 stopped at the first EVEX one).
 */
static void test_disasm_evex(void **state)
{
	struct lupe_listing l;
	char path[256] = "";
	uint64_t start, end;
	int bad = 0, evex = 0, err;

	self_func("evex_me", (uintptr_t)evex_me, path, sizeof(path), &start, &end);
	err = lupe_disasm(path, "evex_me", start, end, LUPE_DISASM_NO_SOURCE, &l);
	if (err == -LUPE_ERR_NOT_SUPPORTED)
		skip();
	assert_int_equal(err, 0);
	assert_true(l.nr > 5);
	for (size_t i = 0; i < l.nr; i++) {
		if (i)
			assert_int_equal(l.insns[i].addr, l.insns[i - 1].addr + l.insns[i - 1].size);
		if (!strcmp(l.insns[i].text, "(bad)")) {
			assert_int_equal(l.insns[i].size, 1);
			bad++;
		}
		evex += !strcmp(l.insns[i].text, "vpxord %zmm16,%zmm17,%zmm18") ||
			!strcmp(l.insns[i].text, "vpcmpeqb (%rsi),%ymm17,%k1{%k2}") ||
			!strcmp(l.insns[i].text, "vmovdqu64 (%rdi),%ymm19");
	}
	assert_int_equal(l.insns[l.nr - 1].addr + l.insns[l.nr - 1].size, end);
	assert_int_equal(bad, 1);
	assert_int_equal(evex, 3);
	lupe_listing_clear(&l);
}

static void test_disasm_self(void **state)
{
	struct lupe_listing l;
	char path[256] = "";
	int jumps = 0, sourced = 0, err;
	uint64_t start, end;

	self_func("annotate_me", (uintptr_t)annotate_me, path, sizeof(path), &start, &end);
	err = lupe_disasm(path, "annotate_me", start, end, 0, &l);
	if (err == -LUPE_ERR_NOT_SUPPORTED)
		skip();
	assert_int_equal(err, 0);
	assert_true(l.nr >= 3);
	assert_int_equal(l.insns[0].addr, start);
	for (size_t i = 0; i < l.nr; i++) {
		assert_true(l.insns[i].text[0] != '\0');
		jumps += l.insns[i].jump;
		sourced += l.insns[i].line > 0;
		if (i)
			assert_int_equal(l.insns[i].addr, l.insns[i - 1].addr + l.insns[i - 1].size);
	}
	assert_true(sourced > 0);
	assert_non_null(strstr(l.files[0], "test-annotate.c"));
	lupe_listing_clear(&l);
	err = lupe_disasm(path, "annotate_me", start, end, LUPE_DISASM_NO_SOURCE, &l);
	assert_int_equal(err, 0);
	for (size_t i = 0; i < l.nr; i++)
		assert_int_equal(l.insns[i].line, 0);
	lupe_listing_clear(&l);
	assert_true(jumps > 0); /* the loop */
	assert_int_equal(lupe_disasm("/nonexistent", "x", 0x1000, 0x1010, 0, &l), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_and_sort),
		cmocka_unit_test(test_sym_at),
		cmocka_unit_test(test_disasm_self),
		cmocka_unit_test(test_disasm_evex),
	};

	annotate_me(3);
	evex_me(3);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
