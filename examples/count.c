// SPDX-License-Identifier: GPL-2.0
/*
 * count: count events around one function call with lupe_measure().
 *
 *   count [EVENTS] [MS]
 *
 * burns MS milliseconds (default 50) of this thread's CPU time in work()
 * and prints each event's count the way `perf stat` does, then the CPU
 * time the thread itself saw (the ground truth task-clock must match).
 * Build: cc count.c $(pkg-config --cflags --libs lupe)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <lupe/lupe.h>

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct work {
	double ms;      /* CPU time to burn */
	double seen_ms; /* what the thread's clock says it took */
};

/* The known work: spin until the thread has used w->ms of CPU. */
static void work(void *arg)
{
	struct work *w = arg;
	double t0 = thread_cpu_ms(), t;
	volatile unsigned long x = 0;

	do {
		for (int i = 0; i < 10000; i++)
			x += i ^ (x >> 3);
		t = thread_cpu_ms();
	} while (t - t0 < w->ms);
	w->seen_ms = t - t0;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "task-clock,page-faults,instructions";
	struct work w = { .ms = argc > 2 ? atof(argv[2]) : 50 };
	struct lupe_measure_result res;
	struct lupe_evlist *events;

	events = lupe_evlist_parse(spec);
	if (!events) {
		fprintf(stderr, "count: %s\n", lupe_last_error());
		return 1;
	}
	if (lupe_measure(events, work, &w, &res) < 0) {
		fprintf(stderr, "count: %s\n", lupe_last_error());
		lupe_evlist_delete(events);
		return 1;
	}
	for (int i = 0; i < res.nr; i++) {
		const struct lupe_value *v = &res.values[i];

		if (v->status == LUPE_VALUE_NOT_SUPPORTED)
			printf("%20s      %s\n", "<not supported>", v->name);
		else if (v->status == LUPE_VALUE_NOT_COUNTED)
			printf("%20s      %s\n", "<not counted>", v->name);
		else
			printf("%20llu      %s%s\n", (unsigned long long)v->val, v->name,
			       v->status == LUPE_VALUE_SCALED ? " (scaled)" : "");
	}
	printf("%20.0f      thread-cputime-ns (ground truth)\n", w.seen_ms * 1e6);
	printf("%20llu      wall-ns\n", (unsigned long long)res.wall_ns);
	lupe_evlist_delete(events);
	return 0;
}
