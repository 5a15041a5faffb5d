// SPDX-License-Identifier: GPL-2.0
#include <unistd.h>
#include <stdlib.h>
#include <lupe/evsel.h>
#include "record/attr.h"
#include "util/util.h"
#if defined(__x86_64__)
#include <asm/perf_regs.h>
/* Every general register but the segment ones, as perf asks on x86_64. */
#define USER_REGS_MASK (((1ULL << PERF_REG_X86_64_MAX) - 1) & \
			~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) | \
			  (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS)))
#elif defined(__aarch64__)
#include <asm/perf_regs.h>
#define USER_REGS_MASK ((1ULL << PERF_REG_ARM64_MAX) - 1)
#else
#define USER_REGS_MASK 0 /* NEEDSWORK: the register set of other arches */
#endif

void lupe_record_attr_config(struct perf_event_attr *a, const struct lupe_record_opts *o,
			int tracking, int many)
{
	int tracepoint = a->type == PERF_TYPE_TRACEPOINT;

	a->size = sizeof(*a);
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (o->system_wide || o->sample_cpu || tracepoint)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (tracepoint)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (many)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;

	/* A tracepoint samples every hit unless -F or -c says otherwise. */
	if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else if (tracepoint && !o->freq) {
		a->freq = 0;
		a->sample_period = a->sample_period ? a->sample_period : 1;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : 4000;
	}

	if (o->callgraph != LUPE_CALLGRAPH_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->callgraph == LUPE_CALLGRAPH_DWARF && USER_REGS_MASK) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = USER_REGS_MASK;
		a->sample_stack_user = o->stack_size ? o->stack_size : 8192;
		/* the kernel part stays a callchain; the user part is unwound later */
		a->exclude_callchain_user = 1;
	}

	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->disabled = 1;
	/* system-wide events are not the workload's: they start at once */
	a->enable_on_exec = o->workload && !o->system_wide;
	a->inherit = !o->no_inherit;
	a->sample_id_all = 1;
	if (tracking) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/* dwarf unwinding reads .eh_frame_hdr from the read-only maps */
		a->mmap_data = o->callgraph == LUPE_CALLGRAPH_DWARF;
	}
}
