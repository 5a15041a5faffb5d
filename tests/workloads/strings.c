// SPDX-License-Identifier: GPL-2.0
// lupe-cflags: -O1 -g -fno-omit-frame-pointer -fno-inline -fno-builtin
/*
 * strings: strcmp, strlen and memcpy on long strings in a loop, so that
 * most samples land in libc's vector string functions (the *_evex ones
 * on an AVX-512 machine, *_avx2 on others), and a loop, jump_over, whose
 * body holds AVX-512 (EVEX) instructions and an undecodable byte that it
 * jumps over: it runs on any x86-64, and annotate must list what follows
 * them with its samples (capstone 4 stopped at the first EVEX instruction).
 *
 *   strings [-n MILLISECONDS]   (default 500)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LEN (64 * 1024)

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) unsigned long jump_over(unsigned long n)
{
	unsigned long acc = 1;

	for (unsigned long i = 0; i < n; i++) {
		acc += i ^ (acc >> 3);
		/* never run: EVEX code and 0x06 (invalid in 64-bit mode) */
		__asm__ volatile("jmp 1f\n\t"
				 "vpxord %%zmm16, %%zmm17, %%zmm18\n\t"
				 "vpcmpeqb (%%rsi), %%ymm17, %%k1%{%%k2%}\n\t"
				 ".byte 0x06\n\t"
				 "vmovdqu64 (%%rdi), %%ymm19\n"
				 "1:" : "+r"(acc) : : "memory");
		acc = acc * 31 + (acc >> 7);
		acc ^= acc << 5;
	}
	return acc;
}

int main(int argc, char **argv)
{
	char *a = malloc(LEN), *b = malloc(LEN), *c = malloc(LEN);
	double ms = 500, end;
	unsigned long sum = 0;
	int opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: strings [-n MILLISECONDS]\n");
			return 2;
		}
		ms = atof(optarg);
	}
	if (!a || !b || !c)
		return 1;
	memset(a, 'x', LEN - 1);
	a[LEN - 1] = '\0';
	memcpy(b, a, LEN);
	b[LEN - 2] = 'y';
	end = now_ms() + ms;
	while (now_ms() < end) {
		for (int i = 0; i < 16; i++) {
			sum += strcmp(a, b) < 0;
			sum += strlen(a);
			memcpy(c, a, LEN);
			sum += c[i];
		}
		sum += jump_over(20000);
	}
	printf("%lu\n", sum & 1);
	return 0;
}
