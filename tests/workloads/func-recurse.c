// SPDX-License-Identifier: GPL-2.0
/*
 * func-recurse: known call counts for lupe stat --func.
 *   rec(depth)      called -n N times from main, each recursing DEPTH (10)
 *                   deep: N outermost calls, N * DEPTH calls in all
 *   escape()        called -j J times; leaves by longjmp: J unfinished calls
 *   range_work()    called N times; its loop (lines marked RANGE) is a
 *                   source range to count
 *   squared()       exists only inlined (always_inline): no symbol to probe
 *
 * Usage: func-recurse [-n N] [-j J] [-s SECONDS_TO_SLEEP_AFTER]
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define DEPTH 10

static jmp_buf env;
static volatile long sink;

static inline __attribute__((always_inline)) long squared(long x)
{
	return x * x;
}

long rec(int depth)
{
	volatile long here = depth;

	if (depth <= 1)
		return here;
	return here + rec(depth - 1);
}

void escape(int i)
{
	volatile int here = i;

	if (here >= 0)
		longjmp(env, 1);
}

long range_work(int n)
{
	long s = 0;

	for (int i = 0; i < n; i++) /* RANGE-BEGIN */
		s += squared(i) ^ sink;
	sink = s; /* RANGE-END */
	return s;
}

int main(int argc, char **argv)
{
	static int n = 100, j = 5;
	int c;
	static unsigned s;

	while ((c = getopt(argc, argv, "n:j:s:")) != -1) {
		if (c == 'n')
			n = atoi(optarg);
		else if (c == 'j')
			j = atoi(optarg);
		else if (c == 's')
			s = (unsigned)atoi(optarg);
		else
			return 2;
	}
	for (int i = 0; i < n; i++)
		sink += rec(DEPTH);
	for (volatile int i = 0; i < j; i++)
		if (!setjmp(env))
			escape(i);
	for (int i = 0; i < n; i++)
		sink += range_work(100);
	if (s)
		sleep(s);
	return 0;
}
