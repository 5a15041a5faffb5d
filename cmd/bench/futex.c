// SPDX-License-Identifier: GPL-2.0
/*
 * lupe bench futex hash and futex wake.
 *
 * hash: -t threads (one per CPU by default, each pinned) call FUTEX_WAIT
 * on each of their -f futexes with a value that never matches, so each
 * call hashes, locks a bucket and returns EAGAIN; ops/sec per thread over
 * -r seconds, their mean and relative standard error.
 *
 * wake: -t threads block on one futex; the clock runs while FUTEX_WAKE
 * wakes -w of them at a time until all are up; -r (the common option)
 * runs, their mean and relative standard error.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "builtin.h"
#include "options.h"
#include "bench.h"

struct futex_opts {
	int threads, nfutexes, runtime, nwakes;
	int shared, silent, mlock;
};

static long futex(uint32_t *uaddr, int op, uint32_t val, int shared)
{
	return syscall(SYS_futex, uaddr, op | (shared ? 0 : FUTEX_PRIVATE_FLAG), val, NULL, NULL, 0);
}

/* the mean and its relative standard error in percent, as perf's stats */
static double mean_rel_err(const double *v, int n, double *rel)
{
	double mean = 0, m2 = 0;

	for (int i = 0; i < n; i++)
		mean += v[i];
	mean /= n ? n : 1;
	for (int i = 0; i < n; i++)
		m2 += (v[i] - mean) * (v[i] - mean);
	*rel = n > 1 && mean ? 100.0 * sqrt(m2 / (n - 1) / n) / mean : 0;
	return mean;
}

#define CMD_OPTS struct futex_opts
static const struct cmd_option hash_options[] = {
	OPT_INT('f', "futexes", "N", nfutexes, 1, 1 << 24, "Specify amount of futexes per threads (default 1024)"),
	OPT_BOOL('m', "mlockall", mlock, "Lock all current and future memory"),
	OPT_INT('r', "runtime", "SECS", runtime, 1, 86400, "Specify runtime (in seconds, default 10)"),
	OPT_BOOL('S', "shared", shared, "Use shared futexes instead of private ones"),
	OPT_BOOL('s', "silent", silent, "Silent mode: do not display data/details"),
	OPT_INT('t', "threads", "N", threads, 1, 100000, "Specify amount of threads (default: one per CPU)"),
	OPT_INT('w', "nwakes", "N", nwakes, 1, INT_MAX, "Specify amount of threads to wake at once (wake; default 1)"),
	OPT_END()
};

static int parse(int argc, char **argv, struct futex_opts *o, int wake)
{
	struct cmd_option opts[sizeof(hash_options) / sizeof(hash_options[0])];
	struct cmd_argp argp = { .options = opts };
	int n = 0, idx;

	/* one table, each benchmark keeps the options perf gives it */
	for (const struct cmd_option *p = hash_options; p->type != CMD_OPT_END; p++)
		if (wake ? !strchr("fr", p->row.key) : p->row.key != 'w')
			opts[n++] = *p;
	opts[n] = (struct cmd_option)OPT_END();
	argp.doc = wake ? "Block threads on one futex and time waking them all."
			: "Each thread calls FUTEX_WAIT on its futexes with a value that never matches.";
	if (cmd_parse_options(&argp, argc, argv, 0, &idx, o))
		return -1;
	if (!o->threads)
		o->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (o->mlock && mlockall(MCL_CURRENT | MCL_FUTURE))
		return error("cannot lock memory (mlockall): %s", strerror(errno));
	return 0;
}

struct hasher {
	pthread_t tid;
	uint32_t *futex;
	int nfutexes, shared;
	unsigned long ops;
};

static volatile int hash_done;
static pthread_barrier_t hash_barrier;

static void *hasher_run(void *arg)
{
	struct hasher *h = arg;
	unsigned long ops = 0;

	pthread_barrier_wait(&hash_barrier);
	while (!hash_done) {
		for (int i = 0; i < h->nfutexes; i++, ops++)
			futex(&h->futex[i], FUTEX_WAIT, 1234, h->shared);
	}
	h->ops = ops;
	return NULL;
}

int bench_futex_hash(int argc, char **argv)
{
	struct futex_opts o = { .nfutexes = 1024, .runtime = 10 };
	struct hasher *h;
	double *rates, avg, rel;
	uint64_t start, us;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	int started = 0;

	if (parse(argc, argv, &o, 0))
		return EXIT_USAGE;
	h = calloc(o.threads, sizeof(*h));
	rates = calloc(o.threads, sizeof(*rates));
	if (!h || !rates)
		return free(h), free(rates), error("cannot allocate %d threads: out of memory", o.threads), 1;
	printf("Run summary [PID %d]: %d threads, each operating on %d [%s] futexes for %d secs.\n\n",
	       getpid(), o.threads, o.nfutexes, o.shared ? "shared" : "private", o.runtime);
	hash_done = 0;
	pthread_barrier_init(&hash_barrier, NULL, o.threads + 1);
	for (; started < o.threads; started++) {
		h[started].futex = calloc(o.nfutexes, sizeof(uint32_t));
		h[started].nfutexes = o.nfutexes;
		h[started].shared = o.shared;
		if (!h[started].futex || pthread_create(&h[started].tid, NULL, hasher_run, &h[started]))
			break;
		if (ncpus > 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(started % ncpus, &set);
			pthread_setaffinity_np(h[started].tid, sizeof(set), &set);
		}
	}
	if (started < o.threads) {
		/* the barrier counts every thread: the ones made still wait there */
		error("cannot start thread %d: %s", started, strerror(errno ? errno : EAGAIN));
		_exit(1);
	}
	pthread_barrier_wait(&hash_barrier);
	start = bench_now_us();
	sleep(o.runtime);
	hash_done = 1;
	for (int i = 0; i < o.threads; i++)
		pthread_join(h[i].tid, NULL);
	us = bench_now_us() - start;
	pthread_barrier_destroy(&hash_barrier);
	for (int i = 0; i < o.threads; i++) {
		unsigned long secs = us / 1000000;

		rates[i] = secs ? (double)(h[i].ops / secs) : 0;
		if (o.silent)
			continue;
		if (o.nfutexes == 1)
			printf("[thread %2d] futex: %p [ %ld ops/sec ]\n", i, (void *)h[i].futex, (long)rates[i]);
		else
			printf("[thread %2d] futexes: %p ... %p [ %ld ops/sec ]\n", i, (void *)h[i].futex,
			       (void *)&h[i].futex[o.nfutexes - 1], (long)rates[i]);
	}
	avg = mean_rel_err(rates, o.threads, &rel);
	printf("%sAveraged %ld operations/sec (+- %.2f%%), total secs = %d\n", o.silent ? "" : "\n",
	       (long)avg, rel, (int)(us / 1000000));
	for (int i = 0; i < o.threads; i++)
		free(h[i].futex);
	free(h);
	free(rates);
	return 0;
}

static uint32_t wake_futex;
static int wake_shared;
static pthread_barrier_t wake_barrier;

static void *waiter_run(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&wake_barrier);
	/* 0 is woken; EAGAIN is a wake that came first; EINTR waits again */
	while (futex(&wake_futex, FUTEX_WAIT, 0, wake_shared) && errno == EINTR)
		;
	return NULL;
}

int bench_futex_wake(int argc, char **argv)
{
	struct futex_opts o = { .nwakes = 1 };
	pthread_t *tids;
	double *ms, avg, rel;

	if (parse(argc, argv, &o, 1))
		return EXIT_USAGE;
	tids = calloc(o.threads, sizeof(*tids));
	ms = calloc(bench_repeat, sizeof(*ms));
	if (!tids || !ms)
		return free(tids), free(ms), error("cannot allocate %d threads: out of memory", o.threads), 1;
	wake_shared = o.shared;
	printf("Run summary [PID %d]: blocking on %d threads (at [%s] futex %p), waking up %d at a time.\n\n",
	       getpid(), o.threads, o.shared ? "shared" : "private", (void *)&wake_futex, o.nwakes);
	for (int run = 0; run < bench_repeat; run++) {
		int woken = 0, started = 0;
		uint64_t start;

		pthread_barrier_init(&wake_barrier, NULL, o.threads + 1);
		for (; started < o.threads; started++)
			if (pthread_create(&tids[started], NULL, waiter_run, NULL))
				break;
		if (started < o.threads) {
			error("cannot start thread %d: %s", started, strerror(errno ? errno : EAGAIN));
			_exit(1);
		}
		pthread_barrier_wait(&wake_barrier);
		usleep(100000); /* let them block on the futex */
		start = bench_now_us();
		while (woken < o.threads) {
			long n = futex(&wake_futex, FUTEX_WAKE, o.nwakes, o.shared);

			if (n > 0)
				woken += (int)n;
		}
		ms[run] = (bench_now_us() - start) / 1000.0;
		if (!o.silent)
			printf("[Run %d]: Wokeup %d of %d threads in %.4f ms\n", run + 1, woken, o.threads, ms[run]);
		for (int i = 0; i < o.threads; i++)
			pthread_join(tids[i], NULL);
		pthread_barrier_destroy(&wake_barrier);
	}
	avg = mean_rel_err(ms, bench_repeat, &rel);
	printf("Wokeup %d of %d threads in %.4f ms (+-%.2f%%)\n", o.threads, o.threads, avg, rel);
	free(tids);
	free(ms);
	return 0;
}
