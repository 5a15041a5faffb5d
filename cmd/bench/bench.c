// SPDX-License-Identifier: GPL-2.0
/*
 * lupe bench: perf bench's microbenchmarks of the scheduler, IPC, memory
 * copies, system calls and futexes, with perf's output text so scripts
 * that read `perf bench` read ours. This file is the dispatcher: the
 * collections, their listings, the common options (-f, -r) and the
 * "# Running ..." headers; each benchmark is a file beside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "builtin.h"
#include "options.h"
#include "bench.h"

enum bench_format bench_format = BENCH_FORMAT_DEFAULT;
int bench_repeat = 10;

struct bench {
	const char *name, *summary;
	int (*fn)(int argc, char **argv);
};

struct collection {
	const char *name, *summary;
	const struct bench *benches;
};

static const struct bench sched_benches[] = {
	{ "messaging", "Benchmark for scheduling and IPC", bench_sched_messaging },
	{ "pipe", "Benchmark for pipe() between two processes", bench_sched_pipe },
	{ "all", "Run all scheduler benchmarks", NULL },
	{ 0 }
};

static const struct bench syscall_benches[] = {
	{ "basic", "Benchmark for basic getppid(2) calls", bench_syscall_basic },
	{ "all", "Run all syscall benchmarks", NULL },
	{ 0 }
};

static const struct bench mem_benches[] = {
	{ "memcpy", "Benchmark for memcpy() functions", bench_mem_memcpy },
	{ "memset", "Benchmark for memset() functions", bench_mem_memset },
	{ "all", "Run all memory access benchmarks", NULL },
	{ 0 }
};

static const struct bench futex_benches[] = {
	{ "hash", "Benchmark for futex hash table", bench_futex_hash },
	{ "wake", "Benchmark for futex wake calls", bench_futex_wake },
	{ "all", "Run all futex benchmarks", NULL },
	{ 0 }
};

static const struct collection collections[] = {
	{ "sched", "Scheduler and IPC benchmarks", sched_benches },
	{ "syscall", "System call benchmarks", syscall_benches },
	{ "mem", "Memory access benchmarks", mem_benches },
	{ "futex", "Futex stressing benchmarks", futex_benches },
	{ "all", "All benchmarks", NULL },
	{ 0 }
};

uint64_t bench_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void bench_print_total(uint64_t us)
{
	if (bench_format == BENCH_FORMAT_SIMPLE)
		printf("%lu.%03lu\n", (unsigned long)(us / 1000000), (unsigned long)(us % 1000000 / 1000));
	else
		printf("     Total time: %lu.%03lu [sec]\n", (unsigned long)(us / 1000000),
		       (unsigned long)(us % 1000000 / 1000));
}

/* the options of every benchmark, into bench_format and bench_repeat once parsed */
struct bench_opts {
	enum bench_format format;
	int repeat;
};

static error_t set_format(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	enum bench_format *f = cmd_opt_field(state, opt);

	if (strcmp(arg, "default") && strcmp(arg, "simple"))
		argp_error(state, "unknown format '%s': give default or simple", arg);
	*f = strcmp(arg, "simple") ? BENCH_FORMAT_DEFAULT : BENCH_FORMAT_SIMPLE;
	return 0;
}

#define CMD_OPTS struct bench_opts
static const struct cmd_option options[] = {
	OPT_CALLBACK_FIELD('f', "format", "default|simple", 0, format, set_format, "Specify the output formatting style"),
	OPT_INT('r', "repeat", "N", repeat, 1, 1000000, "Specify amount of times to repeat the run (futex wake; default 10)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, "[COLLECTION [BENCHMARK [OPTIONS...]]]",
	"Run perf bench's benchmarks: sched messaging and pipe, mem memcpy and memset, "
	"syscall basic, futex hash and wake. With no collection, list them." };

static void print_usage(void)
{
	printf("Usage: \n\tlupe bench [<common options>] <collection> <benchmark> [<options>]\n\n");
	printf("        # List of all available benchmark collections:\n\n");
	for (const struct collection *c = collections; c->name; c++)
		printf("%14s: %s\n", c->name, c->summary);
	printf("\n");
}

static void print_collection(const struct collection *c)
{
	printf("\n        # List of available benchmarks for collection '%s':\n\n", c->name);
	for (const struct bench *b = c->benches; b->name; b++)
		printf("%14s: %s\n", b->name, b->summary);
	printf("\n");
}

/* run one benchmark: argv[0] is its name, options follow */
static int run_bench(const struct collection *c, const struct bench *b, int argc, char **argv, int all)
{
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "bench %s %s", c->name, b->name);
	if (all)
		printf("# Running %s/%s benchmark...\n", c->name, b->name);
	else if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Running '%s/%s' benchmark:\n", c->name, b->name);
	fflush(stdout);
	argv[0] = name;
	ret = b->fn(argc, argv);
	if (all)
		printf("\n");
	fflush(stdout);
	return ret;
}

static int run_collection(const struct collection *c)
{
	char *argv[] = { NULL, NULL };
	int ret = 0;

	for (const struct bench *b = c->benches; b->name; b++)
		if (b->fn && run_bench(c, b, 1, argv, 1))
			ret = 1;
	return ret;
}

int cmd_bench(int argc, char **argv)
{
	const struct collection *c;
	struct bench_opts o = { bench_format, bench_repeat };
	int idx, ret = 0;

	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		return EXIT_USAGE;
	bench_format = o.format;
	bench_repeat = o.repeat;
	if (idx >= argc) {
		print_usage();
		return 0;
	}
	for (c = collections; c->name; c++)
		if (!strcmp(c->name, argv[idx]))
			break;
	if (!strcmp(argv[idx], "all")) {
		for (c = collections; c->benches; c++)
			ret |= run_collection(c);
		return ret;
	}
	if (!c->name)
		return error("unknown collection '%s' (run 'lupe bench' for the list)", argv[idx]), 1;
	if (idx + 1 >= argc) {
		print_collection(c);
		return 0;
	}
	if (!strcmp(argv[idx + 1], "all"))
		return run_collection(c);
	for (const struct bench *b = c->benches; b->name; b++)
		if (!strcmp(b->name, argv[idx + 1]))
			return run_bench(c, b, argc - idx - 1, argv + idx + 1, 0);
	return error("unknown benchmark '%s' for collection '%s' (run 'lupe bench %s' for the list)",
		     argv[idx + 1], c->name, c->name), 1;
}
