// SPDX-License-Identifier: GPL-2.0
/* lupe_callchain_cut(): perf's --max-stack on recorded and unwound chains, callee and caller order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/hist.h>
#include <lupe/session.h>

#define K PERF_CONTEXT_KERNEL
#define U PERF_CONTEXT_USER
#define W LUPE_CONTEXT_USER_UNWOUND

static void check(const uint64_t *in, uint32_t nr, unsigned max, int caller,
		  const uint64_t *want, uint32_t want_nr, int want_lost)
{
	uint64_t out[32];
	int lost = -1;
	uint32_t n = lupe_callchain_cut(in, nr, max, caller, out, &lost);

	assert_int_equal(n, want_nr);
	assert_memory_equal(out, want, want_nr * sizeof(*want));
	assert_int_equal(lost, want_lost);
}

/* a frame-pointer chain: kernel and user parts counted together */
static void test_recorded(void **state)
{
	const uint64_t in[] = { K, 1, 2, U, 3, 4, 5 };

	(void)state;
	/* callee order: the innermost, markers stay */
	check(in, 7, 3, 0, (const uint64_t[]){ K, 1, 2, U, 3 }, 5, 0);
	/* caller order: the outermost, the sample's own address is gone */
	check(in, 7, 3, 1, (const uint64_t[]){ K, U, 3, 4, 5 }, 5, 1);
	check(in, 7, 1, 1, (const uint64_t[]){ K, U, 5 }, 3, 1);
	/* enough room: all of it either way */
	check(in, 7, 5, 1, in, 7, 0);
	check(in, 7, 9, 0, in, 7, 0);
	/* none: the markers only */
	check(in, 7, 0, 0, (const uint64_t[]){ K, U }, 2, 1);
}

/* a dwarf chain: the kernel part and the unwound user part each get max, the latter its innermost */
static void test_unwound(void **state)
{
	const uint64_t in[] = { K, 1, 2, 3, W, 10, 11, 12 };
	const uint64_t user[] = { W, 10, 11, 12 };

	(void)state;
	check(in, 8, 2, 0, (const uint64_t[]){ K, 1, 2, W, 10, 11 }, 6, 0);
	check(in, 8, 2, 1, (const uint64_t[]){ K, 2, 3, W, 10, 11 }, 6, 1);
	/* a user sample: its ip is the unwound part's first, kept in caller order too */
	check(user, 4, 2, 1, (const uint64_t[]){ W, 10, 11 }, 3, 0);
}

/* a corrupt marker (B): perf walking from the innermost stops at max addresses, before it */
static void test_corrupt(void **state)
{
	const uint64_t B = 0xffffffffffffffc0ULL;
	const uint64_t in[] = { U, 1, 2, B, 3 };

	(void)state;
	check(in, 5, 2, 0, (const uint64_t[]){ U, 1, 2 }, 3, 0);
	check(in, 5, 3, 0, in, 5, 0);
	/* in caller order it counts, whatever max is */
	check(in, 5, 1, 1, (const uint64_t[]){ U, B, 3 }, 3, 1);
	check(in, 5, 3, 1, in, 5, 0);
	check((const uint64_t[]){ U, 1, 2, B }, 4, 2, 1, (const uint64_t[]){ U, 1, 2, B }, 4, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_unwound),
		cmocka_unit_test(test_corrupt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
