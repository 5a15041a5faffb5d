// SPDX-License-Identifier: GPL-2.0
// lupe-cflags: -O2 -g -fno-omit-frame-pointer
/*
 * inline: an -O2 workload whose hot helpers are inlined, for DWARF
 * unwinding and inlined frames (built with the flags on the line above,
 * not the -O1 -fno-inline of the other workloads).
 *
 *   main -> run (noinline) -> hot (noinline) -> mix (inlined) -> step (inlined)
 *                          -> cold (noinline) -> step (inlined)
 *
 * Usage: inline [ITERS]
 */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned long step(unsigned long x)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x ^ (x << 17);
}

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		x = step(x + i);
	return x;
}

__attribute__((noinline)) unsigned long hot(unsigned long seed)
{
	return mix(seed, 3000000);
}

__attribute__((noinline)) unsigned long cold(unsigned long seed)
{
	unsigned long x = seed;

	for (unsigned long i = 0; i < 1000000; i++)
		x = step(x) + i;
	return x;
}

__attribute__((noinline)) unsigned long run(int iters)
{
	unsigned long acc = 1;

	for (int i = 0; i < iters; i++)
		acc += hot(acc) + cold(acc);
	return acc;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 40;

	printf("%lu\n", run(iters) & 1);
	return 0;
}
