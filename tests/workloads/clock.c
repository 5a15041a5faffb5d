// SPDX-License-Identifier: GPL-2.0
// lupe-cflags: -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-inline -fno-plt
/*
 * clock: reads the monotonic clock in a loop, so that nearly every sample
 * lands in the vdso (__vdso_clock_gettime): the [vdso] DSO's symbols and
 * its build-id cache copy. Usage: clock [CALLS] (default 3000000).
 *
 * Built with -fno-plt: libc's clock_gettime is called through the GOT, with
 * no PLT stub for a sample to land in. perf 6.1 names such a sample _init
 * (a zero-sized _init stretched over .plt by its symbol fixup, found before
 * the synthesized clock_gettime@plt); lupe names it clock_gettime@plt, and
 * whether a sample landed there was chance for tests comparing with perf.
 */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 3000000, sum = 0;
	struct timespec ts;

	for (long i = 0; i < calls; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec & 1;
	}
	return sum < 0;
}
