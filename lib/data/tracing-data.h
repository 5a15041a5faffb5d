/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TRACING_DATA blob perf stores for tracepoint events: the formats that
 * let a reader decode each sample's raw data (perf's trace-event-info.c
 * layout, version 0.6).
 */
#ifndef LUPE_DATA_TRACING_DATA_H
#define LUPE_DATA_TRACING_DATA_H

#include <stddef.h>
#include "data/writer.h"

/*
 * Append the blob for the tracepoints named "system:event" to b. Returns 0,
 * -LUPE_ERR_NO_TRACEFS without tracefs, -ENOENT for an unknown tracepoint.
 */
int lupe_tracing_data_build(struct fbuf *b, char *const *names, size_t nr);

/*
 * A tracepoint record's fields as perf prints them (libtraceevent's
 * TEP_PRINT_INFO; tep is a struct tep_handle, which finds the event by the
 * record's type), into buf with a NUL. Returns the full length. With libtraceevent only.
 */
int lupe_tep_print_info(void *tep, int cpu, const void *raw, size_t len, char *buf,
			size_t size);

#endif
