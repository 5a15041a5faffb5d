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
#include "bench.h"

static const struct argp_option options[] = {
	{ "loop", 'l', "N", 0, "Specify number of loops (default: 10000000)", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	int *loops = state->input;

	switch (key) {
	case 'l': *loops = (int)opt_int(state, "--loop", arg, 1, 2000000000); return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.doc = "Call getppid(2) in a loop and print the time per call.",
};

int bench_syscall_basic(int argc, char **argv)
{
	int loops = 10000000, idx;
	uint64_t start, us;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &loops))
		return EXIT_USAGE;
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
