// SPDX-License-Identifier: GPL-2.0
/*
 * demo: a CPU-bound workload with a known call tree and time split, for the
 * demo in the README and for tests that assert what a profile must show.
 *
 *   main -> run -> compute_a -> leaf_a   about 50% of the work
 *               -> compute_b -> leaf_b   about 30%
 *               -> compute_c             about 20% (self time)
 *
 * Usage: demo [-n ITERS] [-s SECONDS] [-t THREADS] [-w A,B,C]
 *   -n  fixed work: ITERS rounds per thread (default 200), so overhead shows as wall time
 *   -s  run for about SECONDS instead of a fixed amount of work
 *   -t  run the tree on THREADS threads at once (default 1)
 *   -w  units of work of compute_a, compute_b and compute_c in a round
 *       (default 5,3,2: the 50/30/20 split); changes the split
 *
 * Leaves keep a volatile local so that gcc gives them a frame (see
 * ../shared/DESIGN.md: a frameless leaf hides its caller from fp unwinding).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define UNIT 100000UL /* loop steps in one unit of work: about 0.1 ms */

static unsigned long spin(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

unsigned long leaf_a(unsigned long n)
{
	volatile unsigned long slot = n;

	return spin(slot) + 1;
}

unsigned long leaf_b(unsigned long n)
{
	volatile unsigned long slot = n;

	return spin(slot) + 2;
}

static unsigned long work_a = 5, work_b = 3, work_c = 2;

unsigned long compute_a(void)
{
	return leaf_a(work_a * UNIT);
}

unsigned long compute_b(void)
{
	return leaf_b(work_b * UNIT);
}

unsigned long compute_c(void)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < work_c * UNIT; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

static long iters = 200;
static double seconds;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

unsigned long run(void)
{
	unsigned long sum = 0;
	double end = now() + seconds;

	for (long i = 0; seconds > 0 ? now() < end : i < iters; i++)
		sum += compute_a() + compute_b() + compute_c();
	return sum;
}

static void *thread_main(void *arg)
{
	*(unsigned long *)arg = run();
	return NULL;
}

int main(int argc, char **argv)
{
	int opt, threads = 1;
	unsigned long sum = 0, *res;
	pthread_t *tids;

	while ((opt = getopt(argc, argv, "n:s:t:w:")) != -1) {
		switch (opt) {
		case 'n': iters = atol(optarg); break;
		case 's': seconds = atof(optarg); break;
		case 't': threads = atoi(optarg); break;
		case 'w':
			if (sscanf(optarg, "%lu,%lu,%lu", &work_a, &work_b, &work_c) == 3)
				break;
			/* fall through */
		default:
			fprintf(stderr, "usage: demo [-n ITERS] [-s SECONDS] [-t THREADS] [-w A,B,C]\n");
			return 2;
		}
	}
	if (threads < 1)
		threads = 1;
	tids = calloc(threads, sizeof(*tids));
	res = calloc(threads, sizeof(*res));
	if (!tids || !res)
		return 1;
	for (int i = 1; i < threads; i++)
		pthread_create(&tids[i], NULL, thread_main, &res[i]);
	res[0] = run();
	for (int i = 1; i < threads; i++)
		pthread_join(tids[i], NULL);
	for (int i = 0; i < threads; i++)
		sum += res[i];
	printf("demo: done (%lu)\n", sum & 0xff);
	return 0;
}
