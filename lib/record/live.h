/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live source's steps, for the consumers that drive it themselves
 * (record: live source -> perf.data writer). Others read it as any source
 * through lupe_source_read() (lupe/source.h).
 */
#ifndef LUPE_RECORD_LIVE_H
#define LUPE_RECORD_LIVE_H

#include <lupe/record.h>
#include <lupe/source.h>

/* Records that existed before the start (kernel maps, threads), then FINISHED_INIT. */
int lupe_live_synthesize(struct lupe_source *src, lupe_emit_fn emit, void *arg);

/*
 * The same for a perf.data file, in perf record's order: ID_INDEX, the
 * kernel maps, (in a pipe, each event's name as EVENT_UPDATE), THREAD_MAP,
 * CPU_MAP, the threads, FINISHED_INIT.
 */
int lupe_live_synthesize_record(struct lupe_source *src, lupe_emit_fn emit, void *arg, int pipe);

/*
 * Wait up to timeout_ms for data or a wake fd, drain every ring once and
 * close the pass with a FINISHED_ROUND when it emitted anything. Returns 0,
 * 1 when every monitored thread has exited, a negative error, or what emit
 * returned when non-zero.
 */
int lupe_live_poll(struct lupe_source *src, int timeout_ms, lupe_emit_fn emit, void *arg);

/* Drain every ring once (with its FINISHED_ROUND). */
int lupe_live_drain(struct lupe_source *src, lupe_emit_fn emit, void *arg);

/* Samples the kernel dropped for evsel (PERF_FORMAT_LOST), summed over its fds. */
uint64_t lupe_live_lost_samples(struct lupe_source *src, const struct lupe_evsel *evsel);

/* Polls that found data (perf's "woken up"). */
uint64_t lupe_live_wakeups(const struct lupe_source *src);

#endif
