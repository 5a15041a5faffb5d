/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of PERF_RECORD_SAMPLE and of the sample_id trailer that other
 * records carry when attr.sample_id_all is set. Shared by record (build-ids
 * of the DSOs samples hit) and by the readers. Pointers in the decoded
 * sample point into the record: nothing is copied.
 */
#ifndef LUPE_SAMPLING_SAMPLE_H
#define LUPE_SAMPLING_SAMPLE_H

#include <stdint.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <lupe/sample.h> /* struct lupe_sample */


/*
 * Decode a PERF_RECORD_SAMPLE (event->type must be it) for an event whose
 * attr is attr. Returns 0 or -LUPE_ERR_CORRUPT when a field would run past
 * the record's end.
 */
int lupe_sample_parse(const struct perf_event_attr *attr, const struct perf_event_header *event,
		 struct lupe_sample *s);

/*
 * Decode the sample_id trailer of a non-sample record (sample_id_all): pid,
 * tid, time, id, stream_id, cpu where sample_type asks for them. Returns 0,
 * or -LUPE_ERR_CORRUPT if the record is too short to hold one.
 */
int lupe_sample_id_parse(const struct perf_event_attr *attr, const struct perf_event_header *event,
		    struct lupe_sample *s);

/* Bytes of the sample_id trailer for sample_type (0 without sample_id_all). */
size_t lupe_sample_id_size(const struct perf_event_attr *attr);

/*
 * Where to find the sample id in any record, as perf does it: a sample
 * carries it at the position of PERF_SAMPLE_IDENTIFIER (first) or of
 * PERF_SAMPLE_ID; other records at the end of their trailer. Returns the
 * byte offset (from the record start for samples; negative from the end for
 * others); 0 when sample_type has no id (0 is never a valid position).
 */
int lupe_sample_id_pos(uint64_t sample_type, int is_sample);

#endif
