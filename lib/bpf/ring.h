/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF ring buffer map (BPF_MAP_TYPE_RINGBUF) read as a live record
 * source (lupe/source.h), the one way lupe's BPF programs' records reach
 * their consumers (trace's syscall capture, stat --func's calls). The
 * kernel side stays bpf_ringbuf_reserve/submit, the cheapest output for
 * the traced program; in user space each ring record becomes a
 * PERF_RECORD_SAMPLE of one synthesized event, sample_type
 * TID | TIME | RAW, the ring record its RAW bytes: the shape trace's
 * raw_syscalls fallback reads, so both go through the same queue
 * (session/ordered.c) and the same reader. Records the program had no
 * room for (its own counter, read by lost_fn) come as PERF_RECORD_LOST.
 */
#ifndef LUPE_BPF_RING_H
#define LUPE_BPF_RING_H

#include <stddef.h>
#include <stdint.h>
#include <lupe/source.h>

/* What a sample carries besides the record: the writer's ids and its CLOCK_MONOTONIC time. */
struct lupe_bpf_ring_stamp {
	uint32_t pid, tid;
	uint64_t time;
};

/* Read the stamp out of a ring record: 0, or non-zero to leave the record out. */
typedef int (*lupe_bpf_ring_stamp_fn)(const void *rec, size_t size, struct lupe_bpf_ring_stamp *st);
/* The program's count of records it had no room for, so far (may be NULL). */
typedef uint64_t (*lupe_bpf_ring_lost_fn)(void *arg);

/* The samples' RAW bytes start here in the record (after TID, TIME and the u32 size: not 8-aligned). */
struct lupe_bpf_ring_sample {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t raw_size;
} __attribute__((packed));

/*
 * The ring of map_fd (kept open by the caller, which outlives the source)
 * as a live source. NULL and errno on failure.
 */
struct lupe_source *lupe_bpf_ring_source_new(int map_fd, lupe_bpf_ring_stamp_fn stamp,
					     lupe_bpf_ring_lost_fn lost, void *lost_arg);

/*
 * Wait up to timeout_ms for the program's wake-up (it wakes the reader
 * only past a watermark: a caller drains on its timer too). 0, -EINTR or
 * a negative errno.
 */
int lupe_bpf_ring_wait(struct lupe_source *src, int timeout_ms);

/*
 * Emit the records the ring holds, a slice of at most a thousand or so
 * at a time, then a FINISHED_ROUND; once the ring is empty, before the
 * round, a LOST record when the count of records dropped grew. Records
 * are not stable (the ring's space is reused). Returns 0 when the ring
 * was emptied, 1 when a slice ended and more may be there (deliver what
 * was queued, read again), what emit returned when non-zero (lupe's
 * consumers return only negative errnos), or a negative errno.
 */
int lupe_bpf_ring_read(struct lupe_source *src, lupe_emit_fn emit, void *arg);

#endif
