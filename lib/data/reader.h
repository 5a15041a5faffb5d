/* SPDX-License-Identifier: GPL-2.0 */
/* Private pieces of the perf.data reader shared by its files. */
#ifndef LUPE_DATA_READER_H
#define LUPE_DATA_READER_H

#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer. */
struct rbuf {
	uint8_t *p;
	size_t len, cap;
};

int lupe_rbuf_reserve(struct rbuf *b, size_t more);

/*
 * Streaming zstd decompression of COMPRESSED records, bounded: feed gives
 * the payload of one record (it must stay valid until run returns 0); each
 * run appends at most max inflated bytes to out and returns 1, or 0 once the
 * payload is used up, or a negative error (-LUPE_ERR_NOT_SUPPORTED when lupe
 * was built without zstd, -LUPE_ERR_CORRUPT for a bad frame).
 */
struct decomp;
struct decomp *lupe_decomp_new(void);
void lupe_decomp_delete(struct decomp *d);
void lupe_decomp_feed(struct decomp *d, const void *src, size_t n);
int lupe_decomp_run(struct decomp *d, struct rbuf *out, size_t max);

/* Parse TRACING_DATA into a tep_handle (NULL + errno without libtraceevent). */
void *lupe_tracing_data_parse(const void *data, size_t size);
void lupe_tracing_data_free(void *tep);
/* The tep_event for a tracepoint id, or NULL. */
void *lupe_tracing_event(void *tep, uint64_t id, const char **sys, const char **name);

#endif
