// SPDX-License-Identifier: GPL-2.0
/*
 * mutex: two threads taking turns on one pthread mutex, for lock
 * contention (lupe lock contention -b, tests/shell/lock-contention-bpf.sh).
 * Each acquisition first tries pthread_mutex_trylock; a failure is one
 * contended acquisition, counted, and then the thread blocks in
 * pthread_mutex_lock. The holder keeps the lock through a short sleep, so a
 * contended waiter sleeps in the kernel (a futex wait) rather than winning
 * a race, and after unlocking it lets a waiter in before it tries again,
 * so each contended acquisition is one futex wait, not several. Prints
 * "contended N at 0xADDR" (the mutex's address) at the end.
 *
 * The threads also map and unmap memory outside the lock, so the
 * process's mmap lock (a kernel rwsem) is contended too: the
 * lock:contention_begin/end tracepoints see that one.
 *
 * Usage: mutex [ITERS]   (default 200 per thread)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int iters = 200;
static long contended[2];
static int waiting[2];

static void hold(void)
{
	struct timespec ts = { 0, 200 * 1000 };

	nanosleep(&ts, NULL);
}

static void churn(void)
{
	for (int i = 0; i < 20; i++) {
		char *p = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			continue;
		p[0] = 1;
		munmap(p, 1 << 16);
	}
}

static void *worker(void *arg)
{
	int me = (int)(long)arg, other = !me;
	struct timespec nap = { 0, 20 * 1000 };

	for (int i = 0; i < iters; i++) {
		if (pthread_mutex_trylock(&lock)) {
			contended[me]++;
			__atomic_store_n(&waiting[me], 1, __ATOMIC_SEQ_CST);
			pthread_mutex_lock(&lock);
			__atomic_store_n(&waiting[me], 0, __ATOMIC_SEQ_CST);
		}
		hold();
		pthread_mutex_unlock(&lock);
		while (__atomic_load_n(&waiting[other], __ATOMIC_SEQ_CST))
			nanosleep(&nap, NULL);
		churn();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		iters = atoi(argv[1]);
	if (pthread_create(&t, NULL, worker, (void *)1L))
		return 1;
	worker((void *)0L);
	pthread_join(t, NULL);
	printf("contended %ld at %p\n", contended[0] + contended[1], (void *)&lock);
	return 0;
}
