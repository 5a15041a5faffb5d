// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of record's off-cpu program (offcpu.bpf.c, embedded through its
 * bpftool skeleton), and the source of its sums as offcpu-time samples.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <lupe/events.h>
#include "bpf/offcpu-rec.h"
#include "bpf/prog.h"
#include "bpf/stacks.h"
#include "counting/evsel.h"
#include "offcpu.skel.h"
#include "record/offcpu.h"
#include "util/util.h"

/* perf's time of every off-cpu sample: after any real one, so they sort last */
#define OFFCPU_TIME (~0ULL << 32)

struct lupe_offcpu {
	struct lupe_source src;     /* the sums */
	struct lupe_offcpu_bpf *skel; /* the program's, not owned */
	struct lupe_evlist *evlist; /* offcpu-time alone */
	uint64_t type, id;          /* its sample_type and sample id */
	int done;                   /* the sums were read: a source that has ended */
};

/* Before the load: which tasks (system_wide, an int). */
static int offcpu_setup(void *skel, const void *arg)
{
	struct lupe_offcpu_bpf *s = skel;

	s->rodata->trace_all = *(const int *)arg;
	s->rodata->self_pid = (__u32)getpid();
	return 0;
}

/* no what: record says why the program did not load (lupe_record_open's -2) */
LUPE_BPF_PROG(offcpu_prog, lupe_offcpu_bpf, NULL, offcpu_setup);

struct lupe_bpf_prog *lupe_offcpu_load(int system_wide)
{
	return lupe_bpf_prog_load(&offcpu_prog, &system_wide);
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

static int offcpu_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	struct lupe_offcpu *o = (struct lupe_offcpu *)src;
	int fd_sums = bpf_map__fd(o->skel->maps.off_cpu), fd_stacks = bpf_map__fd(o->skel->maps.stacks);
	struct offcpu_key key, next, *prev = NULL;
	uint64_t buf[16 + OFFCPU_MAX_STACK + 2];
	uint64_t type = o->type;
	int err = 0;

	if (o->done)
		return 0;
	o->done = 1;
	while (!err && !bpf_map_get_next_key(fd_sums, prev, &next)) {
		uint64_t total, stack[OFFCPU_MAX_STACK] = { 0 };
		struct perf_event_header *h = (void *)buf;
		size_t n = 1, len = 0;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd_sums, &key, &total))
			continue;
		lupe_bpf_stack_read(fd_stacks, key.stack_id, stack, OFFCPU_MAX_STACK);
		while (len < OFFCPU_MAX_STACK && stack[len])
			len++;
		if (type & PERF_SAMPLE_IDENTIFIER)
			buf[n++] = o->id;
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
		err = emit(arg, h, 0);
	}
	return err;
}

static struct lupe_evlist *offcpu_evlist(struct lupe_source *src)
{
	return ((struct lupe_offcpu *)src)->evlist;
}

static void offcpu_destroy(struct lupe_source *src)
{
	struct lupe_offcpu *o = (struct lupe_offcpu *)src;

	lupe_evlist_delete(o->evlist);
	free(o);
}

static const struct lupe_source_ops offcpu_ops = {
	.evlist = offcpu_evlist,
	.read = offcpu_read,
	.destroy = offcpu_destroy,
};

struct lupe_source *lupe_offcpu_source(struct lupe_bpf_prog *prog,
				       const struct perf_event_attr *attr, uint64_t id)
{
	char name[] = "offcpu-time";
	struct lupe_event ev = { .attr = *attr, .name = name };
	struct lupe_offcpu *o = calloc(1, sizeof(*o));

	if (!o)
		return err_ptr(-ENOMEM);
	o->src.ops = &offcpu_ops;
	o->skel = prog->skel;
	o->type = attr->sample_type;
	o->id = id;
	if (!(o->evlist = lupe_evlist_new_empty()) || !lupe_evlist_add_event(o->evlist, &ev)) {
		offcpu_destroy(&o->src);
		return err_ptr(-ENOMEM);
	}
	return &o->src;
}
