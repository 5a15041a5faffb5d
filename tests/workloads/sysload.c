// SPDX-License-Identifier: GPL-2.0
/*
 * sysload: kernel activity at a known rate, for the exporter's tests.
 *
 * Usage: sysload [-r RATE] [-f PAGES] [-x] [-c CPU] -s SECONDS
 *   -r  make RATE getcpu(2) system calls a second (raw syscalls: glibc's
 *       sched_getcpu uses the vDSO, so hardly anything else enters the
 *       syscalls:sys_enter_getcpu tracepoint); paced by absolute deadlines
 *       every 10 ms, so that the average rate holds on a loaded machine
 *   -f  fault in PAGES fresh pages, unmap them, again, for the time given
 *   -x  ping-pong a byte with a child over two pipes (context switches)
 *   -c  run on CPU only (the child of -x too)
 * It prints what it did: "getcpu N", "faults N", "pingpong N".
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long getcpu_at(long rate, double secs)
{
	struct timespec next;
	long per_tick = rate / 100, ticks = (long)(secs * 100);
	unsigned long n = 0;
	unsigned cpu;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long t = 0; t < ticks; t++) {
		for (long i = 0; i < per_tick; i++, n++)
			syscall(SYS_getcpu, &cpu, NULL, NULL);
		next.tv_nsec += 10000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return n;
}

static unsigned long faults(long pages, double secs)
{
	long psz = sysconf(_SC_PAGESIZE);
	double end = now() + secs;
	unsigned long n = 0;

	while (now() < end) {
		char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return n;
		for (long i = 0; i < pages; i++, n++)
			p[i * psz] = 1;
		munmap(p, pages * psz);
	}
	return n;
}

static unsigned long pingpong(double secs)
{
	int a[2], b[2];
	double end = now() + secs;
	unsigned long n = 0;
	char c = 0;
	pid_t pid;

	if (pipe(a) || pipe(b))
		return 0;
	pid = fork();
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		while (read(a[0], &c, 1) == 1 && write(b[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	while (now() < end && write(a[1], &c, 1) == 1 && read(b[0], &c, 1) == 1)
		n++;
	close(a[1]);
	waitpid(pid, NULL, 0);
	return n;
}

int main(int argc, char **argv)
{
	long rate = 0, pages = 0;
	int cpu = -1, pp = 0, opt;
	double secs = 1;

	while ((opt = getopt(argc, argv, "r:f:xc:s:")) != -1) {
		switch (opt) {
		case 'r': rate = atol(optarg); break;
		case 'f': pages = atol(optarg); break;
		case 'x': pp = 1; break;
		case 'c': cpu = atoi(optarg); break;
		case 's': secs = atof(optarg); break;
		default:
			fprintf(stderr, "usage: sysload [-r RATE] [-f PAGES] [-x] [-c CPU] -s SECONDS\n");
			return 2;
		}
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sysload: sched_setaffinity");
			return 1;
		}
	}
	if (rate)
		printf("getcpu %lu\n", getcpu_at(rate, secs));
	if (pages)
		printf("faults %lu\n", faults(pages, secs));
	if (pp)
		printf("pingpong %lu\n", pingpong(secs));
	return 0;
}
