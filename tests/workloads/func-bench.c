// SPDX-License-Identifier: GPL-2.0
/*
 * func-bench: the calls scripts/bench/func instruments.
 *   -t N   call tiny() N times (a few instructions; its first, push %rbp, the
 *          kernel emulates at a uprobe on x86)
 *   -T N   call stepped() N times: the same work, but its first instruction is
 *          one the kernel single-steps out of line at a uprobe (the slow case)
 *   -b N   call burn() N times (a fixed amount of work per call, about 1 ms)
 *   -w S   for S seconds, call tiny() every millisecond (a program to attach to)
 *   -z N   call naps() N times: it sleeps 1 ms five times (five context
 *          switches, and CPU time far below its time inside)
 * With -t or -T, prints on stderr "cpu-ns N": the CPU time of the whole
 * process (CLOCK_PROCESS_CPUTIME_ID), what probe traps in it cost it.
 * With -b, prints on stderr the mean CPU time of one burn() call measured
 * by the program itself (CLOCK_THREAD_CPUTIME_ID around the whole loop
 * divided by N): the ground truth to compare lupe's per-call task-clock with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

unsigned long tiny(unsigned long x)
{
	volatile unsigned long y = x;

	return y + 1;
}

#if defined(__x86_64__)
unsigned long stepped(unsigned long x);
__asm__(".text\n"
	".globl stepped\n"
	".type stepped, @function\n"
	"stepped:\n"
	"	lea 1(%rdi), %rax\n"
	"	ret\n"
	".size stepped, .-stepped\n");
#else
unsigned long stepped(unsigned long x)
{
	return tiny(x);
}
#endif

unsigned long burn(unsigned long steps)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < steps; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

unsigned long naps(void)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 5; i++)
		nanosleep(&ms, NULL);
	return 1;
}

static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void print_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	fprintf(stderr, "cpu-ns %.0f\n", ts.tv_sec * 1e9 + ts.tv_nsec);
}

int main(int argc, char **argv)
{
	long tiny_n = 0, stepped_n = 0, burn_n = 0, steps = 400000, wait_s = 0, naps_n = 0;
	double t0;
	int c, timed = 0;

	while ((c = getopt(argc, argv, "t:T:b:s:w:z:")) != -1) {
		if (c == 't')
			tiny_n = atol(optarg), timed = 1;
		else if (c == 'T')
			stepped_n = atol(optarg), timed = 1;
		else if (c == 'b')
			burn_n = atol(optarg);
		else if (c == 's')
			steps = atol(optarg);
		else if (c == 'w')
			wait_s = atol(optarg);
		else if (c == 'z')
			naps_n = atol(optarg);
		else
			return 2;
	}
	if (timed)
		atexit(print_cpu);
	for (long i = 0; i < tiny_n; i++)
		sink += tiny((unsigned long)i);
	for (long i = 0; i < stepped_n; i++)
		sink += stepped((unsigned long)i);
	if (burn_n) {
		t0 = thread_ns();
		for (long i = 0; i < burn_n; i++)
			sink += burn((unsigned long)steps);
		fprintf(stderr, "burn-ns-per-call %.0f\n", (thread_ns() - t0) / burn_n);
	}
	for (long i = 0; i < naps_n; i++)
		sink += naps();
	for (long i = 0; i < wait_s * 1000; i++) {
		struct timespec ms = { 0, 1000000 };

		sink += tiny((unsigned long)i);
		nanosleep(&ms, NULL);
	}
	return 0;
}
