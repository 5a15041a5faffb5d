// SPDX-License-Identifier: GPL-2.0
// lupe-cflags: -O1 -g -fomit-frame-pointer -fno-inline -fno-ipa-icf -fno-optimize-sibling-calls
/*
 * nofp: a leaf called through one caller, built without frame pointers,
 * so that only DWARF unwinding (--call-graph dwarf) finds the caller:
 *
 *   main -> nofp_caller -> nofp_leaf   (all the time)
 *
 * Usage: nofp [SECONDS]   (default 5)
 */
#include <stdlib.h>
#include <time.h>

unsigned long nofp_leaf(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

unsigned long nofp_caller(unsigned long n)
{
	return nofp_leaf(n) + 1;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 5;
	struct timespec t0, t;
	unsigned long sum = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sum += nofp_caller(1000000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return (int)(sum & 1);
}
