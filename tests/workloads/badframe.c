// SPDX-License-Identifier: GPL-2.0
// lupe-cflags: -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-inline -fno-ipa-icf -mno-red-zone
/*
 * badframe: frame-pointer chains with a corrupt context marker in them,
 * as perf finds in gcc's cc1 and in system-wide files, for the readers'
 * rule (perf drops the whole chain, and counts the sample at its ip).
 *
 *   main -> run -> good -> spin          an honest chain
 *               -> bad  -> spin          bad calls spin with rbp on a fake
 *                                        frame: spin's frame links to it,
 *                                        and the kernel's walk records
 *                                        spin, bad, 0xffffffffffffffc0
 *
 * Built without a red zone: bad's fake frame is below its stack pointer
 * otherwise, where the call would write. Usage: badframe [ITERS]
 * (default 40; each spins both for a few ms)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned long spin(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

__attribute__((noinline)) unsigned long good(unsigned long n)
{
	return spin(n) + 1;
}

__attribute__((noinline)) unsigned long bad(unsigned long n)
{
	/* both words: whichever the kernel reads as the return address */
	volatile uint64_t fake[2] = { 0xffffffffffffffc0ULL, 0xffffffffffffffc0ULL };
	unsigned long r;

	__asm__ volatile("push %%rbp\n\t"
			 "mov %[fake], %%rbp\n\t"
			 "sub $8, %%rsp\n\t"
			 "call spin\n\t"
			 "add $8, %%rsp\n\t"
			 "pop %%rbp"
			 : "=a"(r), "+D"(n)
			 : [fake] "b"(fake)
			 : "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory", "cc");
	return r + 2;
}

__attribute__((noinline)) unsigned long run(int iters)
{
	unsigned long acc = 0;

	for (int i = 0; i < iters; i++)
		acc += good(3000000) + bad(3000000);
	return acc;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 40;

	printf("%lu\n", run(iters) & 1);
	return 0;
}
