/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lupe_perf_file_rewrite with hooks, for injection (lib/record/inject.c):
 * a record hook sees each record before it is copied and may write records
 * of its own ahead of it, or take it instead of the copy (to write it
 * later, changed: online unwinding, which also changes the attrs and
 * writes what it still holds at the end); a build-id hook fills the BUILD_ID feature when
 * the input has none (a stream). "-" as input reads stdin (spooled to an
 * unnamed temporary file: a stream is read twice), as output writes a
 * pipe-mode stream to stdout.
 */
#ifndef LUPE_DATA_REWRITE_H
#define LUPE_DATA_REWRITE_H

#include <stdint.h>
#include <lupe/perfdata.h>
#include "data/writer.h"

struct rewrite_hook {
	/* Before ev is copied; returns 0, 1 (ev taken: not copied) or -errno (stops the copy). */
	int (*record)(void *arg, struct perf_writer *w, struct lupe_perf_file *f,
		      const struct perf_event_header *ev);
	/* Each attr before it is written (may be NULL). */
	void (*attr)(void *arg, struct perf_event_attr *attr);
	/* After the last record, before the features: 0 or -errno (may be NULL). */
	int (*end)(void *arg, struct perf_writer *w);
	/* Append BUILD_ID entries to b (file output, input without the feature). */
	void (*build_ids)(void *arg, struct fbuf *b);
	void *arg;
};

int lupe_perf_file_rewrite_hook(const char *in, const char *out, int force,
				const struct rewrite_hook *hook, uint64_t *nr_records);

#endif
