/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data files of counts, as `perf stat record` writes them and `perf
 * stat report` reads them: the attrs (with an id per CPU x thread slot),
 * then EVENT_UPDATE (unit, scale; the name in pipe mode), THREAD_MAP,
 * CPU_MAP and STAT_CONFIG records, one STAT record per slot and read, and
 * a STAT_ROUND after each read (INTERVAL for -I, FINAL at the end). File
 * mode ends with the header features (CMDLINE, which perf stat report
 * names the count by, and STAT); pipe mode ("-") has none.
 *
 * Thread-safety: a writer or reader is used by one thread at a time.
 */
#ifndef LUPE_STATFILE_H
#define LUPE_STATFILE_H

#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>
#include <lupe/evlist.h>

struct lupe_stat_writer;

struct lupe_stat_writer_opts {
	size_t sz;            /* sizeof(struct lupe_stat_writer_opts) */
	enum lupe_aggr aggr;  /* STAT_CONFIG's aggr_mode, as perf numbers it */
	uint64_t interval_ms; /* -I, 0 without */
	int inherit;          /* the attrs as opened: children counted */
	int enable_on_exec;   /* a workload's counters */
	const char *version;  /* VERSION feature ("lupe 0.1.0"); NULL: "lupe" */
	int argc;             /* CMDLINE: the words after the program ("stat", "record", ...) */
	char **argv;
};

/*
 * Start a file of counts at path ("-": stdout, pipe mode) for evlist, which
 * is open (its CPU and thread maps are those of the file; a tool event is
 * left out). Writes the header and attrs. NULL + errno.
 */
LUPE_API struct lupe_stat_writer *lupe_stat_writer_new(const char *path,
						       struct lupe_evlist *evlist,
						       const struct lupe_stat_writer_opts *opts);
/* EVENT_UPDATE records for the event at idx: its unit ("" for none) and scale. 0 or -errno. */
LUPE_API int lupe_stat_writer_event(struct lupe_stat_writer *w, int idx, const char *unit,
				    double scale);
/*
 * STAT records of the last lupe_evlist_read(), one per open counter (the
 * maps and config before the first). 0 or -errno.
 */
LUPE_API int lupe_stat_writer_counts(struct lupe_stat_writer *w);
/* STAT_ROUND: final (1) or an interval (0), at time_ns since the count started. */
LUPE_API int lupe_stat_writer_round(struct lupe_stat_writer *w, int final, uint64_t time_ns);
/* Finish the file (features, header) and free w; returns the first error met. NULL is ok. */
LUPE_API int lupe_stat_writer_delete(struct lupe_stat_writer *w);

struct lupe_stat_reader;

/* Open a file of counts (lupe's or perf's, "-" for stdin). NULL + errno, lupe_last_error() says why. */
LUPE_API struct lupe_stat_reader *lupe_stat_reader_open(const char *path);
/*
 * Read the records; after each STAT_ROUND call fn (the counts of the
 * round are then in the evlist, as lupe_evlist_read() leaves them).
 * Returns 0, fn's non-zero value, or a negative error.
 */
typedef int (*lupe_stat_round_fn)(void *arg, int final, uint64_t time_ns);
LUPE_API int lupe_stat_reader_read(struct lupe_stat_reader *r, lupe_stat_round_fn fn, void *arg);
/* The events with their maps and counts (owned by the reader); NULL before the maps came. */
LUPE_API struct lupe_evlist *lupe_stat_reader_evlist(struct lupe_stat_reader *r);
/* STAT_CONFIG: the aggregation and interval the count was recorded with. */
LUPE_API enum lupe_aggr lupe_stat_reader_aggr(const struct lupe_stat_reader *r);
LUPE_API uint64_t lupe_stat_reader_interval(const struct lupe_stat_reader *r);
/* The recording's command line, words joined by spaces; NULL in pipe mode. */
LUPE_API const char *lupe_stat_reader_cmdline(const struct lupe_stat_reader *r);
/* The command of thread idx of the file's THREAD_MAP ("" when none). */
LUPE_API const char *lupe_stat_reader_comm(const struct lupe_stat_reader *r, int idx);
LUPE_API void lupe_stat_reader_delete(struct lupe_stat_reader *r);

#endif
