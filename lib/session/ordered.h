/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time ordering of records, perf's ordered_events idea. Records are queued
 * with their time and delivered in time order when it is safe:
 *   - by rounds (files, and the live source after each pass over its
 *     rings): at each FINISHED_ROUND, deliver what is older than the newest
 *     time seen at the previous round;
 *   - by a time window (live data): deliver what is older than the newest
 *     time minus the window.
 * Records that may move (pipes, decompressed, live rings) are copied into
 * 1 MiB chunks, freed once all their records were delivered; records in a
 * file's map are not copied.
 *
 * This is the one place that orders events by time: files (session.c),
 * the live engine's consumers (top, trace's perf rings, stat --func's
 * records) and the BPF events merged with tracepoints (trace -e) all queue
 * here (tests/shell/one-engine.sh checks that no other lib file sorts by
 * time).
 */
#ifndef LUPE_SESSION_ORDERED_H
#define LUPE_SESSION_ORDERED_H

#include <stdint.h>
#include <linux/perf_event.h>

/*
 * Deliver one record with the offset it was queued with; non-zero stops
 * delivery (negative: an error).
 */
typedef int (*lupe_ordered_deliver_fn)(void *arg, const struct perf_event_header *ev,
				       uint64_t offset);

struct lupe_ordered;

struct lupe_ordered *lupe_ordered_new(lupe_ordered_deliver_fn deliver, void *arg);
void lupe_ordered_delete(struct lupe_ordered *o);

/* Flush by a time window of ns (0: rounds only, the default). */
void lupe_ordered_set_window(struct lupe_ordered *o, uint64_t ns);

/*
 * Queue ev with its time and its offset in the input (handed back to
 * deliver); stable: ev stays valid until it is delivered (else it is
 * copied). With a window, delivers what fell out of it. Returns 0, or what
 * deliver returned when non-zero.
 */
int lupe_ordered_queue(struct lupe_ordered *o, const struct perf_event_header *ev, int stable,
		       uint64_t time, uint64_t offset);

/* FINISHED_ROUND: deliver what is older than the newest time of the previous round. */
int lupe_ordered_round(struct lupe_ordered *o);

/* Deliver everything queued (the end of the input). */
int lupe_ordered_flush_all(struct lupe_ordered *o);

/*
 * Deliver what is at most limit ns old, whatever the rounds say: a live
 * reader that knows its own cut-off (every ring read, less what a writer
 * may not have committed yet).
 */
int lupe_ordered_flush_upto(struct lupe_ordered *o, uint64_t limit);

/*
 * Queue an event that is not a perf record (a BPF ring's, already decoded,
 * kept alive by the caller until delivered): deliver gets a NULL ev and
 * handle as the offset. Ordered with the records by time, then by arrival.
 */
int lupe_ordered_queue_item(struct lupe_ordered *o, uint64_t time, uint64_t handle);

/* The lowest address of a queued stable record, or NULL: what the file must keep mapped. */
const void *lupe_ordered_lowest_stable(const struct lupe_ordered *o);

/* Records that came older than what was already delivered. */
uint64_t lupe_ordered_nr_unordered(const struct lupe_ordered *o);

#endif
