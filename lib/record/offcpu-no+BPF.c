// SPDX-License-Identifier: GPL-2.0
/* Built without libbpf, clang or bpftool: record --off-cpu is not supported. */
#include "record/offcpu.h"
#include "util/util.h"

struct lupe_offcpu *lupe_offcpu_new(int system_wide)
{
	(void)system_wide;
	return err_ptr(-LUPE_ERR_NOT_SUPPORTED);
}

int lupe_offcpu_add_pid(struct lupe_offcpu *o, pid_t pid)
{
	(void)o, (void)pid;
	return -LUPE_ERR_NOT_SUPPORTED;
}

int lupe_offcpu_start(struct lupe_offcpu *o)
{
	(void)o;
	return -LUPE_ERR_NOT_SUPPORTED;
}

void lupe_offcpu_attr(struct perf_event_attr *attr, int system_wide)
{
	(void)attr, (void)system_wide;
}

int lupe_offcpu_write(struct lupe_offcpu *o, const struct perf_event_attr *attr, uint64_t id,
		      int (*emit)(void *arg, const struct perf_event_header *h), void *arg)
{
	(void)o, (void)attr, (void)id, (void)emit, (void)arg;
	return -LUPE_ERR_NOT_SUPPORTED;
}

void lupe_offcpu_delete(struct lupe_offcpu *o)
{
	(void)o;
}
