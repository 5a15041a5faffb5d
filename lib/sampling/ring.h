/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One perf mmap ring buffer: the control page, then 2^n data pages that the
 * kernel fills and we drain. The kernel publishes data_head; we read it with
 * acquire order (records before it are complete), and hand back data_tail
 * with release order once we are done with the bytes, so the kernel never
 * overwrites what we still read.
 */
#ifndef LUPE_SAMPLING_RING_H
#define LUPE_SAMPLING_RING_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ring {
	void *base;       /* the control page; data follows it */
	size_t data_size; /* bytes of data pages, a power of two */
	int fd;           /* the event whose ring this is (others redirect to it) */
	int cpu;
	char *bounce;     /* a record that wraps the edge is copied here */
};

/*
 * mmap pages data pages (a power of two) plus the control page of fd.
 * Returns 0 or -errno (-EPERM past perf_event_mlock_kb, -EINVAL).
 */
int lupe_ring_mmap(struct ring *r, int fd, int cpu, size_t pages);
void lupe_ring_unmap(struct ring *r);

/*
 * Add fd to ring r, the one ring step of every live reader: the first fd
 * of a ring (r zeroed, base NULL) maps it with pages data pages, every
 * later one redirects its records into it (PERF_EVENT_IOC_SET_OUTPUT; the
 * kernel needs the same CPU, or the same task when per thread). Returns 0
 * or -errno; r stays unmapped when the first mapping failed.
 */
int lupe_ring_attach(struct ring *r, int fd, int cpu, size_t pages);

/*
 * Call fn(rec, arg) for each whole record available, in order, then free
 * their space for the kernel. A record that wraps the buffer's edge is
 * handed over as one contiguous copy. fn returning non-zero stops the walk
 * after that record (the rest stays for the next call) and is returned.
 * Returns the number of bytes consumed when fn never stopped it.
 */
typedef int (*ring_fn)(const struct perf_event_header *rec, void *arg);
long lupe_ring_read(struct ring *r, ring_fn fn, void *arg);

/* Whether the ring holds unread bytes. */
int lupe_ring_pending(const struct ring *r);

#endif
