/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading perf.data, file mode (mmap'ed, records are never copied) and pipe
 * mode ("-": records arrive on stdin, attrs and features as records).
 * COMPRESSED records are opened transparently: lupe_perf_file_next() yields
 * the records inside them.
 * Thread-safety: a perf file is read by one thread at a time.
 */
#ifndef LUPE_PERFDATA_H
#define LUPE_PERFDATA_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <lupe/core.h>
#include <lupe/evlist.h>

/* The file's events are evsels (lupe/evlist.h), the one event type of lupe. */
struct lupe_evsel;
struct lupe_evlist;

struct lupe_perf_file;

/*
 * Open path ("-" for stdin, pipe mode) for reading. Unless force, a file not
 * owned by the caller (or root) is refused with -EPERM, as perf does. Reads
 * the header, the attrs and the feature table. NULL + errno on failure (a
 * LUPE_ERR_* value for a bad file; lupe_perf_file_error() then says where).
 */
LUPE_API struct lupe_perf_file *lupe_perf_file_open(const char *path, int force);
LUPE_API void lupe_perf_file_delete(struct lupe_perf_file *f);

/* A sentence about the last format error (with its offset), or "". */
LUPE_API const char *lupe_perf_file_error(const struct lupe_perf_file *f);

LUPE_API int lupe_perf_file_is_pipe(const struct lupe_perf_file *f);
LUPE_API size_t lupe_perf_file_nr_evsels(const struct lupe_perf_file *f);
LUPE_API struct lupe_evsel *lupe_perf_file_evsel(struct lupe_perf_file *f, size_t idx);
/* The file's events as a list (owned by the file; pipe mode: grows as attrs come). */
LUPE_API struct lupe_evlist *lupe_perf_file_evlist(struct lupe_perf_file *f);

/* The evsel a sample id belongs to (the first when the file has one). */
LUPE_API struct lupe_evsel *lupe_perf_file_evsel_by_id(struct lupe_perf_file *f, uint64_t id);

/* The evsel a record belongs to, found by its sample id as perf does. */
LUPE_API struct lupe_evsel *lupe_perf_file_record_evsel(struct lupe_perf_file *f,
							const struct perf_event_header *ev);

/*
 * A feature section's bytes (file mode: in the map; pipe mode: once its
 * HEADER_FEATURE record was read). NULL when the file lacks it.
 */
LUPE_API const void *lupe_perf_file_feature(const struct lupe_perf_file *f, int feat,
					    size_t *size);

/* The file header's data section (file mode); offset and size. */
LUPE_API void lupe_perf_file_data_section(const struct lupe_perf_file *f, uint64_t *offset,
					  uint64_t *size);

/*
 * The next record. *ev points into the map (file mode) or into a buffer
 * valid until the next call (*stable is then 0). *offset is the record's
 * file offset (of its COMPRESSED record for decompressed ones). Returns 1
 * with a record, 0 at the end, a negative error for a broken file (the
 * records before it were valid; lupe_perf_file_error() says what and where).
 */
LUPE_API int lupe_perf_file_next(struct lupe_perf_file *f, const struct perf_event_header **ev,
				 uint64_t *offset, int *stable);

/* The *offset lupe_perf_file_next() gave with its last record (0 before the first). */
LUPE_API uint64_t lupe_perf_file_last_offset(const struct lupe_perf_file *f);

/* The COMPRESSED records read so far (their inflated records are what next() yields). */
LUPE_API uint64_t lupe_perf_file_nr_compressed(const struct lupe_perf_file *f);

/*
 * File mode: the records before ptr (or all read so far when ptr is NULL)
 * are no longer needed; their pages leave memory. Keeps the peak memory of
 * a long read near that of one round of records.
 */
LUPE_API void lupe_perf_file_release(struct lupe_perf_file *f, const void *ptr);

/* The tep_handle of the file's TRACING_DATA, NULL without it or libtraceevent. */
LUPE_API void *lupe_perf_file_tep(struct lupe_perf_file *f);

/*
 * A tracepoint sample's fields as text, the way perf prints them
 * (libtraceevent's TEP_PRINT_INFO). Writes at most size bytes with a NUL;
 * returns the full length, or a negative error when the event has no
 * format (no TRACING_DATA, or lupe built without libtraceevent).
 */
struct lupe_sample;
LUPE_API int lupe_evsel_format_trace(const struct lupe_evsel *evsel,
				     const struct lupe_sample *sample, char *buf, size_t size);

/*
 * Read in (a file or a pipe-mode file, cut or whole) to its last whole
 * record and write it to out as a finalized file-mode perf.data: header
 * with the data size, attrs, records (inflated), features (EVENT_DESC made
 * from the attrs when in lacks it). out may be in: it is replaced only once
 * the copy is complete; "-" writes a pipe-mode stream to stdout instead.
 * in "-" reads stdin, copied first to an unnamed temporary file (a stream's
 * attrs must be known before the data). *nr_records gets the records
 * written. Returns 0 or -errno (a LUPE_ERR_* for a broken input).
 */
LUPE_API int lupe_perf_file_rewrite(const char *in, const char *out, int force,
				    uint64_t *nr_records);

#endif
