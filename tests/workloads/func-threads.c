// SPDX-License-Identifier: GPL-2.0
/*
 * func-threads: sets up a large array (page faults: one per page, all in
 * main before any thread starts), then calls sum() N times from each of 4
 * threads. lupe stat --func sum must count exactly 4N calls and none of the
 * setup's faults.
 *
 * Usage: func-threads [-n N] [-m MB]   (default N 1000, MB 64)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define THREADS 4

static long *array;
static size_t nr_elems;
static int calls = 1000;
static volatile long sink;

/* A page's worth of stride: touches every page of the array once per call. */
long sum(const long *a, size_t n)
{
	volatile long s = 0;

	for (size_t i = 0; i < n; i += 512)
		s += a[i];
	return s;
}

static void *run(void *arg)
{
	long t = 0;

	for (int i = 0; i < calls; i++)
		t += sum(array, nr_elems);
	sink = t;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[THREADS];
	size_t mb = 64;
	int c;

	while ((c = getopt(argc, argv, "n:m:")) != -1) {
		if (c == 'n')
			calls = atoi(optarg);
		else if (c == 'm')
			mb = strtoul(optarg, NULL, 10);
		else
			return 2;
	}
	nr_elems = mb * 1024 * 1024 / sizeof(long);
	array = malloc(nr_elems * sizeof(long));
	if (!array)
		return 1;
	for (size_t i = 0; i < nr_elems; i++)
		array[i] = (long)i;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, run, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	free(array);
	return 0;
}
