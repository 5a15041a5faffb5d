// SPDX-License-Identifier: GPL-2.0
/*
 * lupe bench mem memcpy and memset: the bytes per second of a copy (a fill)
 * of -s bytes, -l times, after one untimed pass that faults the pages in,
 * for each function -f names (all by default). The functions are glibc's
 * and, on x86-64, the string instructions (rep movsq/movsb, rep
 * stosq/stosb); perf's hand-unrolled copies of the kernel's assembly are
 * not here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "builtin.h"
#include "options.h"
#include "bench.h"

typedef void *(*memcpy_fn)(void *, const void *, size_t);
typedef void *(*memset_fn)(void *, int, size_t);

#if defined(__x86_64__)
static void *copy_movsq(void *dst, const void *src, size_t len)
{
	void *d = dst;
	size_t q = len / 8, r = len % 8;

	__asm__ volatile("rep movsq" : "+D"(d), "+S"(src), "+c"(q) : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(r) : : "memory");
	return dst;
}

static void *copy_movsb(void *dst, const void *src, size_t len)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(len) : : "memory");
	return dst;
}

static void *fill_stosq(void *dst, int c, size_t len)
{
	void *d = dst;
	size_t q = len / 8, r = len % 8;
	unsigned long v = 0x0101010101010101UL * (unsigned char)c;

	__asm__ volatile("rep stosq" : "+D"(d), "+c"(q) : "a"(v) : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(r) : "a"(v) : "memory");
	return dst;
}

static void *fill_stosb(void *dst, int c, size_t len)
{
	void *d = dst;

	__asm__ volatile("rep stosb" : "+D"(d), "+c"(len) : "a"(c) : "memory");
	return dst;
}
#endif

struct function {
	const char *name, *desc;
	memcpy_fn copy;
	memset_fn fill;
};

static const struct function copies[] = {
	{ "default", "Default memcpy() provided by glibc", memcpy, NULL },
#if defined(__x86_64__)
	{ "x86-64-movsq", "movsq-based memcpy(), rep movsq", copy_movsq, NULL },
	{ "x86-64-movsb", "movsb-based memcpy(), rep movsb", copy_movsb, NULL },
#endif
	{ 0 }
};

static const struct function fills[] = {
	{ "default", "Default memset() provided by glibc", NULL, memset },
#if defined(__x86_64__)
	{ "x86-64-stosq", "movsq-based memset(), rep stosq", NULL, fill_stosq },
	{ "x86-64-stosb", "movsb-based memset(), rep stosb", NULL, fill_stosb },
#endif
	{ 0 }
};

struct mem_opts {
	const char *size, *function;
	int loops;
};

#define CMD_OPTS struct mem_opts
static const struct cmd_option options[] = {
	OPT_STRING('f', "function", "NAME", function, "Specify the function to run, \"all\" runs all available functions, \"help\" lists them"),
	OPT_INT('l', "nr_loops", "N", loops, 1, 1000000000, "Specify the number of loops to run. (default: 1)"),
	OPT_STRING('s', "size", "SIZE", size, "Specify the size of the memory buffers (default 1MB). Available units: B, KB, MB, GB and TB (case insensitive)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, NULL,
	"Copy (fill) a buffer with each function and print the bytes per second." };

/* perf's sizes: a number and B, KB, MB, GB or TB, any case; a bare number is bytes */
static int parse_size(const char *s, unsigned long long *out)
{
	static const char *const units[] = { "b", "kb", "mb", "gb", "tb" };
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	if (*end) {
		size_t i;

		for (i = 0; i < 5; i++)
			if (!strcasecmp(end, units[i]))
				break;
		if (i == 5)
			return -1;
		for (; i; i--) {
			if (v > ~0ULL / 1024)
				return -1;
			v *= 1024;
		}
	}
	*out = v;
	return v ? 0 : -1;
}

static void print_rate(double bps)
{
	if (bench_format == BENCH_FORMAT_SIMPLE)
		printf("%lf\n", bps);
	else if (bps < 1024)
		printf(" %14lf bytes/sec\n", bps);
	else if (bps < 1024.0 * 1024)
		printf(" %14lf KB/sec\n", bps / 1024);
	else if (bps < 1024.0 * 1024 * 1024)
		printf(" %14lf MB/sec\n", bps / 1024 / 1024);
	else
		printf(" %14lf GB/sec\n", bps / 1024 / 1024 / 1024);
}

static int run_one(const struct function *f, const struct mem_opts *o, unsigned long long size)
{
	char *src = NULL, *dst = calloc(1, size);
	uint64_t start, us;

	if (f->copy)
		src = calloc(1, size);
	if (!dst || (f->copy && !src)) {
		free(dst);
		return error("cannot allocate two buffers of %s: out of memory (try a smaller -s)", o->size), 1;
	}
	printf("# function '%s' (%s)\n", f->name, f->desc);
	if (bench_format == BENCH_FORMAT_DEFAULT)
		printf("# Copying %s bytes ...\n\n", o->size);
	/* the first pass faults the pages in: it is not timed */
	if (f->copy) {
		memset(src, 0, size);
		f->copy(dst, src, size);
		start = bench_now_us();
		for (int i = 0; i < o->loops; i++)
			f->copy(dst, src, size);
	} else {
		f->fill(dst, -1, size);
		start = bench_now_us();
		for (int i = 0; i < o->loops; i++)
			f->fill(dst, i, size);
	}
	us = bench_now_us() - start;
	/* a copy under the clock's grain: count a microsecond */
	print_rate((double)size * o->loops / ((us ? us : 1) / 1e6));
	free(src);
	free(dst);
	return 0;
}

static int run(int argc, char **argv, const struct function *fns, const char *what)
{
	struct mem_opts o = { .size = "1MB", .function = "all", .loops = 1 };
	unsigned long long size;
	int idx, ret = 0, found = 0;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (parse_size(o.size, &size) || size > (size_t)-1 / 2)
		return error("invalid size '%s': give a number and B, KB, MB, GB or TB (1MB)", o.size), EXIT_USAGE;
	if (strcmp(o.function, "all") && strcmp(o.function, "help"))
		for (const struct function *f = fns; f->name; f++)
			found |= !strcmp(f->name, o.function);
	if (!strcmp(o.function, "help") || (strcmp(o.function, "all") && !found)) {
		if (strcmp(o.function, "help"))
			fprintf(stderr, "lupe: unknown %s function '%s'\n", what, o.function);
		printf("Available functions:\n");
		for (const struct function *f = fns; f->name; f++)
			printf("\t%s ... %s\n", f->name, f->desc);
		return strcmp(o.function, "help") ? 1 : 0;
	}
	for (const struct function *f = fns; f->name && !ret; f++)
		if (!strcmp(o.function, "all") || !strcmp(o.function, f->name))
			ret = run_one(f, &o, size);
	return ret;
}

int bench_mem_memcpy(int argc, char **argv)
{
	return run(argc, argv, copies, "memcpy");
}

int bench_mem_memset(int argc, char **argv)
{
	return run(argc, argv, fills, "memset");
}
