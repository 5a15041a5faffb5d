// SPDX-License-Identifier: GPL-2.0
/* Built without libbpf, clang or bpftool: record --off-cpu is not supported. */
#include "record/offcpu.h"
#include "util/util.h"

struct lupe_bpf_prog *lupe_offcpu_load(int system_wide)
{
	(void)system_wide;
	return err_ptr(-LUPE_ERR_NOT_SUPPORTED);
}

void lupe_offcpu_attr(struct perf_event_attr *attr, int system_wide)
{
	(void)attr, (void)system_wide;
}

struct lupe_source *lupe_offcpu_source(struct lupe_bpf_prog *prog,
				       const struct perf_event_attr *attr, uint64_t id)
{
	(void)prog, (void)attr, (void)id;
	return err_ptr(-LUPE_ERR_NOT_SUPPORTED);
}
