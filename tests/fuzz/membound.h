/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory bound every fuzz input must keep: at its peak, the heap that
 * one input allocated (live bytes, through the sanitizer allocator's hooks:
 * libdw's and libtraceevent's allocations count too) is at most 16 times
 * the input's DECOMPRESSED size plus 64 MiB: the bytes of records the
 * reader walks, which a target of compressed input counts and passes to
 * fuzz_mem_end (the input's size elsewhere). An input over it aborts, so
 * libFuzzer keeps it as a crash. -malloc_limit_mb only caps one
 * allocation at a time.
 */
#ifndef LUPE_FUZZ_MEMBOUND_H
#define LUPE_FUZZ_MEMBOUND_H

#include <stdio.h>
#include <stdlib.h>
#include <sanitizer/allocator_interface.h>

static size_t fuzz_live, fuzz_peak;

static void fuzz_on_malloc(const volatile void *p, size_t size)
{
	size_t live = __atomic_add_fetch(&fuzz_live, size, __ATOMIC_RELAXED);
	size_t peak = __atomic_load_n(&fuzz_peak, __ATOMIC_RELAXED);

	while (live > peak && !__atomic_compare_exchange_n(&fuzz_peak, &peak, live, 1,
							   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void fuzz_on_free(const volatile void *p)
{
	if (p)
		__atomic_sub_fetch(&fuzz_live, __sanitizer_get_allocated_size((const void *)p),
				   __ATOMIC_RELAXED);
}

/* Before the input: hooks installed once, the peak restarted. */
static size_t fuzz_mem_begin(void)
{
	static int hooked;

	if (!hooked && !(hooked = __sanitizer_install_malloc_and_free_hooks(fuzz_on_malloc, fuzz_on_free))) {
		fprintf(stderr, "fuzz: cannot install the allocator hooks: no memory bound\n");
		abort();
	}
	__atomic_store_n(&fuzz_peak, __atomic_load_n(&fuzz_live, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
	return __atomic_load_n(&fuzz_live, __ATOMIC_RELAXED);
}

/* After it: abort when its peak passed the bound, of size decompressed bytes. */
static void fuzz_mem_end(size_t base, size_t size)
{
	size_t used = __atomic_load_n(&fuzz_peak, __ATOMIC_RELAXED) - base;
	size_t bound = 16 * size + (64 << 20);

	if (used > bound) {
		fprintf(stderr, "fuzz: an input of %zu bytes used %zu bytes of heap (bound %zu)\n",
			size, used, bound);
		abort();
	}
}

#endif
