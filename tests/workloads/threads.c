// SPDX-License-Identifier: GPL-2.0
/*
 * threads: two threads with different call trees, for unwinding each
 * thread's stack through libc's thread start (start_thread, clone3).
 *
 *   start_thread -> worker_a -> busy_a -> spin    (thread A)
 *   start_thread -> worker_b -> busy_b -> spin    (thread B)
 *   main -> busy_main -> spin                      (main thread)
 *
 * Usage: threads [ITERS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int iters = 30;

unsigned long spin(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

unsigned long busy_a(void)
{
	volatile unsigned long slot = 0;

	for (int i = 0; i < iters; i++)
		slot += spin(10000000);
	return slot;
}

unsigned long busy_b(void)
{
	volatile unsigned long slot = 0;

	for (int i = 0; i < iters; i++)
		slot += spin(5000000);
	return slot;
}

unsigned long busy_main(void)
{
	volatile unsigned long slot = 0;

	for (int i = 0; i < iters; i++)
		slot += spin(2500000);
	return slot;
}

void *worker_a(void *arg)
{
	return (void *)busy_a();
}

void *worker_b(void *arg)
{
	return (void *)busy_b();
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	void *ra, *rb;

	if (argc > 1)
		iters = atoi(argv[1]);
	if (pthread_create(&a, NULL, worker_a, NULL) || pthread_create(&b, NULL, worker_b, NULL))
		return 1;
	busy_main();
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	printf("%lu\n", ((unsigned long)ra + (unsigned long)rb) & 1);
	return 0;
}
