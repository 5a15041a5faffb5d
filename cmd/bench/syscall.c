// SPDX-License-Identifier: GPL-2.0
/*
 * lupe bench syscall basic: the cost of the cheapest system call,
 * getppid(2) made directly (syscall(2), no libc cache), -l times.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "builtin.h"
#include "options.h"
#include "bench.h"

struct syscall_opts {
	int loops;
};

#define CMD_OPTS struct syscall_opts
static const struct cmd_option options[] = {
	OPT_INT('l', "loop", "N", loops, 1, 2000000000, "Specify number of loops (default: 10000000)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, NULL,
	"Call getppid(2) in a loop and print the time per call." };

int bench_syscall_basic(int argc, char **argv)
{
	struct syscall_opts o = { .loops = 10000000 };
	int loops, idx;
	uint64_t start, us;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	loops = o.loops;
	start = bench_now_us();
	for (int i = 0; i < loops; i++)
		syscall(SYS_getppid);
	us = bench_now_us() - start;
	if (bench_format == BENCH_FORMAT_DEFAULT) {
		printf("# Executed %d getppid() calls\n", loops);
		bench_print_total(us);
		printf("\n %14lf usecs/op\n", (double)us / loops);
		printf(" %14d ops/sec\n", (int)((double)loops / ((us ? us : 1) / 1e6)));
	} else {
		bench_print_total(us);
	}
	return 0;
}
