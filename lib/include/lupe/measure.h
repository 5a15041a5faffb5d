/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting around code in your own process: a one-shot measurement of a
 * callback (open, enable, call, disable, read, close), and a counter kept
 * open for hot loops (start/stop/read cost a syscall each, or none at all
 * when the kernel lets user space read a hardware counter with rdpmc).
 *
 *   struct lupe_evlist *ev = lupe_evlist_parse("task-clock,instructions");
 *   struct lupe_measure_result res;
 *   if (lupe_measure(ev, work, arg, &res) < 0)
 *           fprintf(stderr, "%s\n", lupe_last_error());
 *   for (int i = 0; i < res.nr; i++)
 *           printf("%s %llu\n", res.values[i].name, res.values[i].val);
 *
 * Thread-safety: an evlist or a counter is used by one thread at a time
 * (they hold fds and buffers, unlocked); distinct ones may be used from
 * distinct threads at once. The events count the calling thread only
 * (pid 0, any CPU, no inherit): threads the callback starts are not counted.
 */
#ifndef LUPE_MEASURE_H
#define LUPE_MEASURE_H

#include <stdint.h>
#include <sys/types.h>
#include <lupe/core.h>
#include <lupe/evlist.h>

/* How many values a result holds: a longer list fails with -E2BIG. */
#define LUPE_MEASURE_MAX 32

enum lupe_value_status {
	LUPE_VALUE_COUNTED = 0,   /* ran all the time it was enabled */
	LUPE_VALUE_SCALED,        /* multiplexed: val is raw * ena / run */
	LUPE_VALUE_NOT_COUNTED,   /* enabled but never on a counter: val is 0 */
	LUPE_VALUE_NOT_SUPPORTED, /* the machine lacks the event (no hardware PMU) */
};

/* One event's value. */
struct lupe_value {
	const char *name;         /* the event's name, owned by the list or counter */
	uint64_t val;             /* the count, scaled when multiplexed */
	uint64_t raw;             /* the count as the kernel gave it */
	uint64_t ena, run;        /* ns enabled, ns on a counter */
	enum lupe_value_status status;
};

struct lupe_measure_result {
	int nr;                   /* values[0..nr), in the list's order */
	uint64_t wall_ns;         /* wall time of the counting window around the call (CLOCK_MONOTONIC) */
	struct lupe_value values[LUPE_MEASURE_MAX];
};

typedef void (*lupe_measure_fn)(void *arg);

/*
 * Count events (from lupe_evlist_parse()) on the calling thread while fn(arg)
 * runs, and fill *res. Groups are read in one go. An event the machine
 * lacks is LUPE_VALUE_NOT_SUPPORTED, not an error. Returns 0, or a negative
 * errno with lupe_last_error() saying what to do (-EACCES: the paranoid
 * level; -E2BIG: more than LUPE_MEASURE_MAX events). The list is opened and
 * closed by the call and may be measured with again.
 */
LUPE_API int lupe_measure(struct lupe_evlist *events, lupe_measure_fn fn, void *arg,
			  struct lupe_measure_result *res);

/*
 * A counter kept open: the events of spec on a task and CPU (pid 0 and cpu
 * -1: the calling thread; see lupe_evlist_open_task()), stopped and zeroed.
 * Returns NULL with errno set and lupe_last_error() filled.
 */
struct lupe_counter;
LUPE_API struct lupe_counter *lupe_counter_new(const char *spec, pid_t pid, int cpu);
/* Close it; NULL is ok. */
LUPE_API void lupe_counter_delete(struct lupe_counter *c);

/* Start, stop and zero counting: an ioctl(2) per group. 0 or a negative errno. */
LUPE_API int lupe_counter_start(struct lupe_counter *c);
LUPE_API int lupe_counter_stop(struct lupe_counter *c);
LUPE_API int lupe_counter_reset(struct lupe_counter *c);

/*
 * Read the values counted since the last reset into vals[0..max): with
 * rdpmc when every event is a hardware counter the kernel lets user space
 * read (lupe_counter_rdpmc()) and counting is on, else one read(2) per
 * group. Returns the number of values (lupe_counter_nr()) or a negative
 * errno (-ENOSPC: max is too small).
 */
LUPE_API int lupe_counter_read(struct lupe_counter *c, struct lupe_value *vals, int max);

/* How many values a read gives: the events of the spec. */
LUPE_API int lupe_counter_nr(const struct lupe_counter *c);

/*
 * 1 when reads go through rdpmc (every event a hardware counter, the
 * mmapped page's cap_user_rdpmc set, the counter on the calling thread:
 * pid 0), 0 when they use read(2). rdpmc reads are valid only on the
 * thread that created the counter.
 */
LUPE_API int lupe_counter_rdpmc(const struct lupe_counter *c);

/* The counter's events, for lupe_evsel_name() and the like (owned by c). */
LUPE_API struct lupe_evlist *lupe_counter_evlist(struct lupe_counter *c);

#endif
