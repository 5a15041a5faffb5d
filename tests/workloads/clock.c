// SPDX-License-Identifier: GPL-2.0
/*
 * clock: reads the monotonic clock in a loop, so that nearly every sample
 * lands in the vdso (__vdso_clock_gettime): the [vdso] DSO's symbols and
 * its build-id cache copy. Usage: clock [CALLS] (default 3000000).
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
