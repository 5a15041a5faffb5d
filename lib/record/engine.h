/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live engine: every live reader's events, opened per CPU and thread,
 * and their rings (one per CPU, or one per thread), polled and drained.
 * The live source (record, top), trace's tracepoint fallback and stat
 * --func's record groups open through lupe_live_rings_open() and read
 * through lupe_live_rings_read(); what the fds are (an evlist's, raw
 * tracepoints, a counting group's members) is the caller's, through one
 * callback. Private to lib/.
 */
#ifndef LUPE_RECORD_ENGINE_H
#define LUPE_RECORD_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <lupe/cpumap.h>

struct lupe_live_rings;

/*
 * A caller's opener: the fd of event e on CPU index c and thread index t,
 * which the engine adds to its ring and polls (the caller keeps owning
 * it); LUPE_LIVE_SKIP for none there (an fd that is not to be read from a
 * ring, a thread gone meanwhile); a negative errno stops the open.
 */
#define LUPE_LIVE_SKIP (-0x40000000)
typedef int (*lupe_live_open_fn)(void *arg, int c, int t, int e);

struct lupe_live_open {
	struct lupe_cpu_map *cpus;          /* the loop: its CPUs, then threads, then events */
	int nr_threads, nr_events;
	int per_thread;                     /* ring t (else ring c) */
	lupe_live_open_fn open;
	void *arg;
};

/* nr_rings rings of pages data pages each (a power of two), none mapped yet. NULL and errno. */
struct lupe_live_rings *lupe_live_rings_new(int nr_rings, size_t pages);
/* Unmap the rings; the fds are the caller's. NULL is fine. */
void lupe_live_rings_delete(struct lupe_live_rings *lr);

/*
 * Open what o describes: each fd into its ring (the ring step: the first
 * maps it, the others redirect into it). Several calls add to the same
 * rings (trace's targets). Returns 0 or the first negative errno.
 */
int lupe_live_rings_open(struct lupe_live_rings *lr, const struct lupe_live_open *o);

/* Polled besides the events (a workload's exit, a signal fd): at most 4. */
int lupe_live_rings_add_wake_fd(struct lupe_live_rings *lr, int fd);

/* The event fds added, in order (for an enable ioctl on each). */
int lupe_live_rings_nr_fds(const struct lupe_live_rings *lr);
int lupe_live_rings_fd(const struct lupe_live_rings *lr, int i);

/*
 * Wait up to timeout_ms for a ring with data or a wake fd. A hung-up event
 * (its task exited) stays out of later polls. Returns 1 when woken, 0 on
 * time out, -EINTR on a signal, another negative errno.
 */
int lupe_live_rings_poll(struct lupe_live_rings *lr, int timeout_ms);

/* Whether every event fd has hung up (every monitored thread exited). */
int lupe_live_rings_all_hup(const struct lupe_live_rings *lr);

/* Polls that found data (perf's "woken up"). */
uint64_t lupe_live_rings_wakeups(const struct lupe_live_rings *lr);

/*
 * Hand every whole record of every ring to fn (with its ring's index),
 * ring after ring, once. Records are valid during the call only. Returns
 * 0, what fn returned when non-zero (the rest stays for the next read),
 * or a negative errno.
 */
typedef int (*lupe_live_read_fn)(const struct perf_event_header *h, int ring, void *arg);
int lupe_live_rings_read(struct lupe_live_rings *lr, lupe_live_read_fn fn, void *arg);

#endif
