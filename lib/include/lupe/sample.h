/* SPDX-License-Identifier: GPL-2.0 */
/* A decoded PERF_RECORD_SAMPLE: pointers point into the record, nothing is copied. */
#ifndef LUPE_SAMPLE_H
#define LUPE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
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
	uint64_t intr_abi;
	const uint64_t *intr_regs;   /* popcount(sample_regs_intr) values (PERF_SAMPLE_REGS_INTR) */
};

#endif
