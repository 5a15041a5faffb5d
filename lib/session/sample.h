/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of PERF_RECORD_SAMPLE and of the sample_id trailer that other
 * records carry when attr.sample_id_all is set. Shared by record (build-ids
 * of the DSOs samples hit) and by the readers. Pointers in the decoded
 * sample point into the record: nothing is copied.
 */
#ifndef LUPE_SESSION_SAMPLE_H
#define LUPE_SESSION_SAMPLE_H

#include <stdint.h>
#include <stddef.h>
#include <linux/perf_event.h>

struct lupe_sample {
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t period;
	const struct perf_event_attr *attr; /* the event this sample belongs to; set by the caller */
	const uint64_t *read;        /* PERF_SAMPLE_READ values, raw */
	size_t read_size;
	uint64_t nr_callchain;
	const uint64_t *callchain;   /* nr_callchain entries, with PERF_CONTEXT_* markers */
	uint32_t raw_size;
	const void *raw;             /* tracepoint data */
	uint64_t nr_branch;
	const void *branch;
	uint64_t user_abi;
	const uint64_t *user_regs;   /* popcount(sample_regs_user) values */
	uint64_t user_stack_size;
	const void *user_stack;
	uint64_t user_stack_dyn;
	uint64_t weight;
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size, code_page_size;
};

/*
 * Decode a PERF_RECORD_SAMPLE (event->type must be it) for an event whose
 * attr is attr. Returns 0 or -LUPE_ERR_CORRUPT when a field would run past
 * the record's end.
 */
int sample_parse(const struct perf_event_attr *attr, const struct perf_event_header *event,
		 struct lupe_sample *s);

/*
 * Decode the sample_id trailer of a non-sample record (sample_id_all): pid,
 * tid, time, id, stream_id, cpu where sample_type asks for them. Returns 0,
 * or -LUPE_ERR_CORRUPT if the record is too short to hold one.
 */
int sample_id_parse(const struct perf_event_attr *attr, const struct perf_event_header *event,
		    struct lupe_sample *s);

/* Bytes of the sample_id trailer for sample_type (0 without sample_id_all). */
size_t sample_id_size(const struct perf_event_attr *attr);

/*
 * Where to find the sample id in any record, as perf does it: a sample
 * carries it at the position of PERF_SAMPLE_IDENTIFIER (first) or of
 * PERF_SAMPLE_ID; other records at the end of their trailer. Returns the
 * byte offset (from the record start for samples; negative from the end for
 * others); 0 when sample_type has no id (0 is never a valid position).
 */
int sample_id_pos(uint64_t sample_type, int is_sample);

#endif
