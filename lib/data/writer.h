/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf.data writer: file mode (a valid header from the start whose data
 * size follows each round, features and their bits in the header only at
 * finish: a cut file reads to its last round) and pipe mode (a 16-byte
 * header, then attrs and features as records). Records go
 * through a buffer; with compression they leave as PERF_RECORD_COMPRESSED.
 *
 * File layout written here: header | id arrays | attrs | data | feature
 * section table | feature contents. The first two parts are known before
 * the data starts, so data need never move.
 */
#ifndef LUPE_DATA_WRITER_H
#define LUPE_DATA_WRITER_H

#include <stdint.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include "data/format.h"

struct perf_writer;

/* A growable byte buffer for feature sections and pipe records. */
struct fbuf {
	char *data;
	size_t len, cap;
	int err; /* sticky: -ENOMEM once an append failed */
};

void lupe_fbuf_add(struct fbuf *b, const void *p, size_t len);
void lupe_fbuf_u32(struct fbuf *b, uint32_t v);
void lupe_fbuf_u64(struct fbuf *b, uint64_t v);
void lupe_fbuf_zero(struct fbuf *b, size_t len);
/* perf's header string: u32 length padded to 64 with the NUL, then the bytes. */
void lupe_fbuf_string(struct fbuf *b, const char *s);
void lupe_fbuf_free(struct fbuf *b);

/*
 * Create a writer on fd (owned from here: closed by lupe_perf_writer_delete).
 * pipe: stream mode, nothing is ever rewritten. Returns NULL and errno.
 */
struct perf_writer *lupe_perf_writer_new(int fd, int pipe);

/* Stop on the first write error of a file; delete closes fd. NULL is ok. */
void lupe_perf_writer_delete(struct perf_writer *w);

/*
 * Add one event: its attr (copied), its sample ids and its name (for
 * EVENT_DESC). Call before lupe_perf_writer_start. Returns 0 or -errno.
 */
int lupe_perf_writer_add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			 const uint64_t *ids, size_t nr_ids, const char *name);

/* Attr i as added, or NULL. */
const struct perf_event_attr *lupe_perf_writer_attr(const struct perf_writer *w, size_t i);
size_t lupe_perf_writer_nr_attrs(const struct perf_writer *w);

/*
 * Ask for PERF_RECORD_COMPRESSED records at zstd level (1..22). Returns 0,
 * or -LUPE_ERR_NOT_SUPPORTED when lupe was built without libzstd.
 */
int lupe_perf_writer_set_compression(struct perf_writer *w, int level);

/*
 * File mode: flush the data with up to nr POSIX AIO writes in flight, each
 * from its own buffer (perf record --aio). A round's header then counts
 * only the writes that completed. Returns 0 or -errno (-EINVAL in pipe mode).
 */
int lupe_perf_writer_set_aio(struct perf_writer *w, int nr);

/*
 * Write what precedes the data: in file mode the header (data size 0, no
 * features) the id arrays and attrs; in pipe mode the header and
 * one HEADER_ATTR record per attr. Returns 0 or -errno.
 */
int lupe_perf_writer_start(struct perf_writer *w);

/*
 * Pipe mode only: write a feature as a HEADER_FEATURE record (file mode
 * keeps features for the end). Returns 0 or -errno.
 */
int lupe_perf_writer_pipe_feature(struct perf_writer *w, int feat, const struct fbuf *b);

/*
 * Append one record (or several back to back) to the data. Errors are
 * sticky and come back from every later call and from finish.
 */
int lupe_perf_writer_write(struct perf_writer *w, const void *rec, size_t len);

/*
 * Append records that must not be compressed (user-type records perf reads
 * before decompression starts, FINISHED_ROUND). Flushes pending compressed
 * data first so that order is kept.
 */
int lupe_perf_writer_write_raw(struct perf_writer *w, const void *rec, size_t len);

/*
 * Put what is buffered on disk and, in file mode, the data size in the
 * header: a file cut after this holds it. Returns 0 or the sticky error.
 */
int lupe_perf_writer_flush(struct perf_writer *w);

/* Write FINISHED_ROUND (after each pass over the rings), then flush. */
int lupe_perf_writer_round(struct perf_writer *w);

/*
 * Add a feature section for finish (file mode): the writer takes b's data.
 * Features are written in bit order whatever the order of calls.
 */
int lupe_perf_writer_add_feature(struct perf_writer *w, int feat, struct fbuf *b);

/*
 * File mode: flush, write the feature sections, then the header, and fsync
 * nothing (perf does not either). Pipe mode: flush. Returns 0 or the first
 * error met since the writer was made. -ENOSPC is special: the file was cut
 * back to its last whole record and finalized (with its features when they
 * fit): it is a good perf.data holding lupe_perf_writer_samples samples.
 */
int lupe_perf_writer_finish(struct perf_writer *w);

/* SAMPLE records that reached the file (all of them after a good finish). */
uint64_t lupe_perf_writer_samples(const struct perf_writer *w);

/* Bytes of data written so far (after compression), and before it. */
uint64_t lupe_perf_writer_data_size(const struct perf_writer *w);
uint64_t lupe_perf_writer_bytes_in(const struct perf_writer *w);
/* The zstd level in use, 0 without compression. */
int lupe_perf_writer_comp_level(const struct perf_writer *w);

/*
 * Compression of one batch of whole records into one zstd frame: the
 * interface behind which libzstd sits (writer-zstd+ZSTD.c, or the fallback).
 */
struct zstd_frame_ctx;
struct zstd_frame_ctx *lupe_zstd_frame_new(int level); /* NULL + errno ENOTSUP without zstd */
/* Returns the compressed length or a negative error. */
long lupe_zstd_frame_compress(struct zstd_frame_ctx *z, void *dst, size_t dst_size,
			 const void *src, size_t len);
size_t lupe_zstd_frame_bound(size_t len);
void lupe_zstd_frame_delete(struct zstd_frame_ctx *z);

#endif
