/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A record source: where a session's perf records come from. One interface
 * for a perf.data file or pipe (lupe_source_file()) and for live rings
 * (lupe_live_source(), lupe/record.h). A source hands each record to an
 * emit callback; the session behind the callback orders, decodes and
 * dispatches them the same way whatever the source.
 * Thread-safety: a source is read by one thread at a time.
 */
#ifndef LUPE_SOURCE_H
#define LUPE_SOURCE_H

#include <stdint.h>
#include <linux/perf_event.h>
#include <lupe/core.h>
#include <lupe/evlist.h>
#include <lupe/perfdata.h>

/*
 * Take one record. stable: ev stays valid until the source is released
 * past it (a file's map); otherwise it is valid only during the call.
 * Return 0 to go on, non-zero to make the source stop and return that.
 */
typedef int (*lupe_emit_fn)(void *arg, const struct perf_event_header *ev, int stable);

struct lupe_source;

struct lupe_source_ops {
	/* The events the records belong to (owned by the source). */
	struct lupe_evlist *(*evlist)(struct lupe_source *src);
	/*
	 * Emit records until the input ends (0), emit returns non-zero (that
	 * value), or an error (negative; the records before it were valid).
	 * Rounds are marked with PERF_RECORD_FINISHED_ROUND records.
	 */
	int (*read)(struct lupe_source *src, lupe_emit_fn emit, void *arg);
	/* The records before ptr are no longer needed (may be NULL). */
	void (*release)(struct lupe_source *src, const void *ptr);
	/* The perf.data behind a file source, else NULL (may be NULL). */
	struct lupe_perf_file *(*perf_file)(struct lupe_source *src);
	void (*destroy)(struct lupe_source *src);
	/* Live data: no end of round is final; order by a time window too. */
	int live;
};

/* A source is its ops followed by the implementation's state. */
struct lupe_source {
	const struct lupe_source_ops *ops;
};

/*
 * A perf.data file or pipe ("-": stdin) as a source. NULL + errno on
 * failure, the reason logged (lupe_perf_file_open()).
 */
LUPE_API struct lupe_source *lupe_source_file(const char *path, int force);

/* The perf.data behind src, or NULL for a live source. */
LUPE_API struct lupe_perf_file *lupe_source_perf_file(struct lupe_source *src);
LUPE_API struct lupe_evlist *lupe_source_evlist(struct lupe_source *src);
LUPE_API int lupe_source_read(struct lupe_source *src, lupe_emit_fn emit, void *arg);
/* Close the source; NULL is ok. */
LUPE_API void lupe_source_delete(struct lupe_source *src);

#endif
