// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/bench/api's program: liblupe's one-shot lupe_measure() and a
 * reused lupe_counter (start/stop/read) against the bare syscalls doing the
 * same work (perf_event_open, ioctl ENABLE/DISABLE, read with times, close),
 * rounds interleaved so that load hits both alike; medians of per-call time
 * over rounds. Prints one table row per pair: "name lupe_ns bare_ns ratio".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <lupe/lupe.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static volatile unsigned long sink;
static void work(void *arg)
{
	sink++;
}

static int bare_open(const char *what)
{
	struct perf_event_attr a = { .size = sizeof(a), .disabled = 1, .exclude_guest = 1,
				     .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
						    PERF_FORMAT_TOTAL_TIME_RUNNING };

	if (!strcmp(what, "instructions")) {
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_INSTRUCTIONS;
	} else {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
	}
	return syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The bare one-shot: what lupe_measure() needs the kernel for. */
static void bare_measure(void)
{
	uint64_t v[3];
	int fd = bare_open("task-clock");

	if (fd < 0) {
		perror("perf_event_open");
		exit(1);
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(NULL);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, v, sizeof(v)) != sizeof(v))
		exit(1);
	sink += v[0];
	close(fd);
}

static void row(const char *name, double lupe, double bare)
{
	printf("%-28s %10.0f %10.0f %7.2fx\n", name, lupe, bare, lupe / bare);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	int shots = 200, loops = 5000;
	double *l = calloc(rounds, sizeof(double)), *b = calloc(rounds, sizeof(double));
	struct lupe_evlist *ev = lupe_evlist_parse("task-clock");
	struct lupe_measure_result res;
	struct lupe_counter *c;
	struct lupe_value vals[4];
	int fd;

	if (!ev || !l || !b) {
		fprintf(stderr, "bench-api: %s\n", lupe_last_error());
		return 1;
	}
	printf("%-28s %10s %10s %8s\n", "# per call", "lupe ns", "bare ns", "ratio");

	/* one-shot measurement of an empty function */
	/*
	 * Each batch runs in a fresh child. Sharing one process, the lupe side
	 * measured about 3x the bare side although strace shows the same five
	 * syscalls with the same attr, and a profile puts the time in the
	 * kernel (IPIs of perf's event_function_call); each side alone in its
	 * own process measures the same. NEEDSWORK: find what state the kernel
	 * keeps between the sides.
	 */
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < 2; k++) {
			int bare = (k + r) % 2, p[2];
			double t = 0;

			if (pipe(p))
				return 1;
			if (fork() == 0) {
				double t0 = now_ns();

				for (int i = 0; i < shots; i++) {
					if (bare)
						bare_measure();
					else if (lupe_measure(ev, work, NULL, &res)) {
						fprintf(stderr, "bench-api: %s\n", lupe_last_error());
						_exit(1);
					}
				}
				t = (now_ns() - t0) / shots;
				_exit(write(p[1], &t, sizeof(t)) != sizeof(t));
			}
			close(p[1]);
			if (read(p[0], &t, sizeof(t)) != sizeof(t))
				return 1;
			close(p[0]);
			wait(NULL);
			(bare ? b : l)[r] = t;
		}
	}
	row("one-shot measure", median(l, rounds), median(b, rounds));

	/* a reused counter: start, stop, read */
	c = lupe_counter_new("task-clock", 0, -1);
	fd = bare_open("task-clock");
	if (!c || fd < 0) {
		fprintf(stderr, "bench-api: %s\n", c ? strerror(errno) : lupe_last_error());
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		double t0 = now_ns();

		for (int i = 0; i < loops; i++) {
			lupe_counter_start(c);
			work(NULL);
			lupe_counter_stop(c);
			lupe_counter_read(c, vals, 4);
		}
		l[r] = (now_ns() - t0) / loops;
		t0 = now_ns();
		for (int i = 0; i < loops; i++) {
			uint64_t v[3];

			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			work(NULL);
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
			if (read(fd, v, sizeof(v)) != sizeof(v))
				return 1;
		}
		b[r] = (now_ns() - t0) / loops;
	}
	row("counter start/stop/read", median(l, rounds), median(b, rounds));
	lupe_counter_delete(c);
	close(fd);

	/* rdpmc: a hardware counter read in user space while it counts */
	c = lupe_counter_new("instructions", 0, -1);
	if (!c) {
		printf("# rdpmc: skipped: %s\n", lupe_last_error());
	} else if (!lupe_evsel_supported(lupe_evlist_evsel(lupe_counter_evlist(c), 0))) {
		printf("# rdpmc: skipped: 'instructions' is not supported here (no hardware PMU)\n");
		lupe_counter_delete(c);
	} else if (!lupe_counter_rdpmc(c)) {
		printf("# rdpmc: skipped: the kernel does not allow rdpmc here (cap_user_rdpmc 0; see /sys/devices/cpu/rdpmc)\n");
		lupe_counter_delete(c);
	} else {
		fd = bare_open("instructions");
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		lupe_counter_start(c);
		for (int r = 0; r < rounds; r++) {
			double t0 = now_ns();

			for (int i = 0; i < loops; i++)
				lupe_counter_read(c, vals, 4);
			l[r] = (now_ns() - t0) / loops;
			t0 = now_ns();
			for (int i = 0; i < loops; i++) {
				uint64_t v[3];

				if (read(fd, v, sizeof(v)) != sizeof(v))
					return 1;
			}
			b[r] = (now_ns() - t0) / loops;
		}
		row("read (rdpmc vs read(2))", median(l, rounds), median(b, rounds));
		lupe_counter_delete(c);
		close(fd);
	}
	lupe_evlist_delete(ev);
	return 0;
}
