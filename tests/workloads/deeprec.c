// SPDX-License-Identifier: GPL-2.0
// lupe-cflags: -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls
/*
 * deeprec: a recursion deeper than perf's default --max-stack (the sysctl
 * kernel.perf_event_max_stack, 127), and one function inlined on two
 * paths, for --call-graph dwarf (built -O2: spin, left and right are
 * inlined into work).
 *
 *   main -> down (noinline, 200 deep) -> work (noinline) -> left (inlined) -> spin (inlined)
 *                                                        -> right (inlined) -> spin (inlined)
 *
 * left spins three times as long as right. Usage: deeprec [ITERS] (default 40)
 */
#include <stdio.h>
#include <stdlib.h>

#define DEPTH 200

static inline __attribute__((always_inline)) unsigned long spin(unsigned long x, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

static inline __attribute__((always_inline)) unsigned long left(unsigned long x)
{
	return spin(x, 3000000);
}

static inline __attribute__((always_inline)) unsigned long right(unsigned long x)
{
	return spin(x + 1, 1000000);
}

__attribute__((noinline)) unsigned long work(unsigned long x)
{
	return left(x) + right(x);
}

/* no locals: a frame of 16 bytes, 200 of them in the 8 KiB stack copy */
__attribute__((noinline)) unsigned long down(int depth, unsigned long x)
{
	if (!depth)
		return work(x);
	return down(depth - 1, x) + 1;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 40;
	unsigned long acc = 1;

	for (int i = 0; i < iters; i++)
		acc += down(DEPTH, acc);
	printf("%lu\n", acc & 1);
	return 0;
}
