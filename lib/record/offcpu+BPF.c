// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of record's off-cpu program (offcpu.bpf.c, embedded through its
 * bpftool skeleton), and the writer of its sums as offcpu-time samples.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpf/offcpu-rec.h"
#include "bpf/tasks.h"
#include "offcpu.skel.h"
#include "record/offcpu.h"
#include "util/util.h"

/* perf's time of every off-cpu sample: after any real one, so they sort last */
#define OFFCPU_TIME (~0ULL << 32)

struct lupe_offcpu {
	struct lupe_offcpu_bpf *skel;
};

struct lupe_offcpu *lupe_offcpu_new(int system_wide)
{
	struct lupe_offcpu *o = calloc(1, sizeof(*o));
	int err;

	if (!o)
		return err_ptr(-ENOMEM);
	o->skel = lupe_offcpu_bpf__open();
	if (!o->skel) {
		err = -errno;
		goto fail;
	}
	o->skel->rodata->trace_all = system_wide;
	o->skel->rodata->self_pid = (__u32)getpid();
	err = lupe_offcpu_bpf__load(o->skel);
	if (err)
		goto fail;
	return o;
fail:
	lupe_offcpu_delete(o);
	return err_ptr(err < 0 ? err : -EINVAL);
}

int lupe_offcpu_add_pid(struct lupe_offcpu *o, pid_t pid)
{
	return lupe_bpf_tgid_add(o->skel->maps.tgids, pid);
}

int lupe_offcpu_start(struct lupe_offcpu *o)
{
	int err = lupe_offcpu_bpf__attach(o->skel);

	return err < 0 ? err : err ? -err : 0;
}

void lupe_offcpu_attr(struct perf_event_attr *attr, int system_wide)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_BPF_OUTPUT;
	attr->size = sizeof(*attr);
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	if (system_wide)
		attr->sample_type |= PERF_SAMPLE_CPU;
	attr->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	attr->disabled = 1;
	attr->sample_id_all = 1;
	attr->exclude_guest = 1;
}

int lupe_offcpu_write(struct lupe_offcpu *o, const struct perf_event_attr *attr, uint64_t id,
		      int (*emit)(void *arg, const struct perf_event_header *h), void *arg)
{
	int fd_sums = bpf_map__fd(o->skel->maps.off_cpu), fd_stacks = bpf_map__fd(o->skel->maps.stacks);
	struct offcpu_key key, next, *prev = NULL;
	uint64_t buf[16 + OFFCPU_MAX_STACK + 2];
	uint64_t type = attr->sample_type;
	int err = 0;

	while (!err && !bpf_map_get_next_key(fd_sums, prev, &next)) {
		uint64_t total, stack[OFFCPU_MAX_STACK] = { 0 };
		struct perf_event_header *h = (void *)buf;
		size_t n = 1, len = 0;
		__u32 sid;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd_sums, &key, &total))
			continue;
		sid = (__u32)key.stack_id;
		if (key.stack_id < 0 || bpf_map_lookup_elem(fd_stacks, &sid, stack))
			memset(stack, 0, sizeof(stack));
		while (len < OFFCPU_MAX_STACK && stack[len])
			len++;
		if (type & PERF_SAMPLE_IDENTIFIER)
			buf[n++] = id;
		if (type & PERF_SAMPLE_IP)
			buf[n++] = len ? stack[0] : 0;
		if (type & PERF_SAMPLE_TID)
			buf[n++] = (uint64_t)key.tgid | (uint64_t)key.pid << 32;
		if (type & PERF_SAMPLE_TIME)
			buf[n++] = OFFCPU_TIME;
		if (type & PERF_SAMPLE_CPU)
			buf[n++] = 0;
		if (type & PERF_SAMPLE_PERIOD)
			buf[n++] = total;
		if (type & PERF_SAMPLE_CALLCHAIN) {
			buf[n++] = len + 1;
			buf[n++] = PERF_CONTEXT_USER;
			memcpy(&buf[n], stack, len * sizeof(stack[0]));
			n += len;
		}
		h->type = PERF_RECORD_SAMPLE;
		h->misc = PERF_RECORD_MISC_USER;
		h->size = (uint16_t)(n * sizeof(uint64_t));
		err = emit(arg, h);
	}
	return err;
}

void lupe_offcpu_delete(struct lupe_offcpu *o)
{
	if (!o)
		return;
	lupe_offcpu_bpf__destroy(o->skel);
	free(o);
}
