// SPDX-License-Identifier: GPL-2.0
/*
 * epilogue: samples in an epilogue, after a pop, for the dwarf unwinder.
 *
 *   main -> caller -> popped_spin
 *
 * popped_spin pushes and pops rbp, then spins before its ret. Its CFI
 * keeps "rbp saved at CFA-16" after the pop, as glibc's epilogues do, so
 * the slot lies below the sampled sp, outside the stack copy; caller keeps
 * its CFA in rbp (frame pointers). An unwinder that reads the saved rbp
 * from the copy loses it there and ends the chain at caller; the right
 * answer takes rbp from the register, which the pop restored.
 * Usage: epilogue [ITERS] (default 200; each spins for about 5 ms)
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long popped_spin(unsigned long n);
__asm__(".text\n"
	".globl popped_spin\n"
	".type popped_spin, @function\n"
	"popped_spin:\n"
	".cfi_startproc\n"
	"push %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"pop %rbp\n"
	".cfi_def_cfa_offset 8\n"
	"mov %rdi, %rax\n"
	"1: dec %rdi\n"
	"jnz 1b\n"
	"ret\n"
	".cfi_endproc\n"
	".size popped_spin, .-popped_spin\n");

__attribute__((noinline)) unsigned long caller(unsigned long n)
{
	return popped_spin(n) + 1;
}

int main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 200, sum = 0;

	for (unsigned long i = 0; i < iters; i++)
		sum += caller(10000000);
	printf("%lu\n", sum);
	return 0;
}
