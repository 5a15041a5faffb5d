// SPDX-License-Identifier: GPL-2.0
/*
 * Build-id injection and hit scanning of a perf.data, what perf inject -b
 * and perf buildid-list --with-hits do: follow the maps (MMAP, FORK,
 * COMM exec) and put a HEADER_BUILD_ID record ahead of the first sample
 * that hits each DSO, as perf does (misc the sample's cpumode, the id's
 * 20 bytes, no size). The hit tracking is record's (record/hitdsos.c).
 * Cost: one pass over the records, one ELF read per DSO hit.
 */
#include <string.h>
#include <lupe/record.h>
#include <lupe/symbols.h>
#include "counting/evsel.h"
#include "data/rewrite.h"
#include "record/hitdsos.h"
#include "sampling/sample.h"
#include "symbols/build-id.h"
#include "unwind/online.h"
#include "util/util.h"

struct inject {
	struct hitdsos *hit;
	int all;
	lupe_hit_fn fn;
	void *arg;
};

static int entry(struct fbuf *b, uint16_t misc, const char *name)
{
	struct perf_record_header_build_id e;
	size_t n = strlen(name) + 1, padded = (n + 63) & ~(size_t)63;
	uint8_t id[BUILD_ID_MAX];
	int len = !strcmp(name, "[kernel.kallsyms]") ? lupe_build_id_kernel(id)
						      : lupe_build_id_read(name, id);

	if (len <= 0)
		return 0; /* nothing to say about a DSO without one */
	memset(&e, 0, sizeof(e));
	e.header.type = PERF_RECORD_HEADER_BUILD_ID;
	e.header.misc = misc;
	e.header.size = (uint16_t)(sizeof(e) + padded);
	e.pid = -1; /* the host machine */
	memcpy(e.data, id, len);
	lupe_fbuf_add(b, &e, sizeof(e));
	lupe_fbuf_add(b, name, n);
	lupe_fbuf_zero(b, padded - n);
	return 1;
}

/* The first hit's DSO, if this sample is one; NULL otherwise. */
static const char *first_hit(struct inject *in, struct lupe_perf_file *f,
			     const struct perf_event_header *ev)
{
	const struct lupe_evsel *e;
	struct lupe_sample s;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
	case PERF_RECORD_COMM:
		lupe_hitdsos_event(in->hit, ev);
		return NULL;
	case PERF_RECORD_SAMPLE:
		e = lupe_perf_file_record_evsel(f, ev);
		if (!e || lupe_sample_parse(&e->attr, ev, &s))
			return NULL;
		return lupe_hitdsos_hit(in->hit, s.pid, s.ip, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	default:
		return NULL;
	}
}

static int inject_record(void *arg, struct perf_writer *w, struct lupe_perf_file *f,
			 const struct perf_event_header *ev)
{
	struct inject *in = arg;
	const char *name = first_hit(in, f, ev);
	struct fbuf b = { 0 };
	int err = 0;

	if (!name)
		return 0;
	if (entry(&b, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK, name))
		err = b.err ? b.err : lupe_perf_writer_write_raw(w, b.data, b.len);
	lupe_fbuf_free(&b);
	return err;
}

static void inject_build_ids(void *arg, struct fbuf *b)
{
	lupe_hitdsos_build_ids(((struct inject *)arg)->hit, b);
}

int lupe_inject_build_ids(const char *in, const char *out, int force, uint64_t *nr_records)
{
	struct inject st = { .hit = lupe_hitdsos_new(0) };
	struct rewrite_hook hook = { .record = inject_record, .build_ids = inject_build_ids, .arg = &st };
	int err;

	if (!st.hit)
		return -ENOMEM;
	err = lupe_perf_file_rewrite_hook(in, out, force, &hook, nr_records);
	lupe_hitdsos_delete(st.hit);
	return err;
}

/* --unwind: the online unwinding stage between the file and the writer. */
struct inject_unwind {
	struct lupe_online *online;
	struct lupe_perf_file *f;
	struct perf_writer *w;
};

static const struct perf_event_attr *unwind_attr_of(void *arg, const struct perf_event_header *ev)
{
	const struct lupe_evsel *e = lupe_perf_file_record_evsel(((struct inject_unwind *)arg)->f, ev);

	return e ? &e->attr : NULL;
}

static int unwind_emit(void *arg, const struct perf_event_header *ev)
{
	return lupe_perf_writer_write_raw(((struct inject_unwind *)arg)->w, ev, ev->size);
}

static int unwind_record(void *arg, struct perf_writer *w, struct lupe_perf_file *f,
			 const struct perf_event_header *ev)
{
	struct inject_unwind *in = arg;
	int err;

	in->w = w;
	in->f = f;
	/* the file's pages go at each round: what waits for the next one is copied */
	err = lupe_online_record(in->online, ev, 0);
	return err ? err : 1;
}

static void unwind_attr(void *arg, struct perf_event_attr *attr)
{
	(void)arg;
	lupe_online_attr(attr);
}

static int unwind_end(void *arg, struct perf_writer *w)
{
	struct inject_unwind *in = arg;

	in->w = w;
	return lupe_online_flush(in->online);
}

int lupe_inject_unwind(const char *in, const char *out, int force, uint64_t *nr_records,
		       uint64_t *unwound, uint64_t *failed)
{
	struct inject_unwind st = { 0 };
	struct rewrite_hook hook = {
		.record = unwind_record, .attr = unwind_attr, .end = unwind_end, .arg = &st,
	};
	struct lupe_online_stats os;
	int err;

	st.online = lupe_online_new(unwind_attr_of, unwind_emit, &st);
	if (!st.online)
		return -errno;
	err = lupe_perf_file_rewrite_hook(in, out, force, &hook, nr_records);
	lupe_online_get_stats(st.online, &os);
	if (unwound)
		*unwound = os.samples;
	if (failed)
		*failed = os.failed;
	lupe_online_delete(st.online);
	return err;
}

int lupe_perf_file_hits(const char *path, int force, lupe_hit_fn fn, void *arg)
{
	struct lupe_perf_file *f = lupe_perf_file_open(path, force);
	struct inject st = { .hit = lupe_hitdsos_new(0) };
	const struct perf_event_header *ev;
	uint64_t off;
	int stable, ret = 0;

	if (!f || !st.hit) {
		ret = f ? -ENOMEM : -errno;
		goto out;
	}
	while ((ret = lupe_perf_file_next(f, &ev, &off, &stable)) > 0) {
		const char *name = first_hit(&st, f, ev);

		if (name && (ret = fn(arg, name)))
			break;
		if (ev->type == PERF_RECORD_FINISHED_ROUND)
			lupe_perf_file_release(f, NULL);
	}
out:
	lupe_hitdsos_delete(st.hit);
	lupe_perf_file_delete(f);
	return ret < 0 ? ret : (ret > 0 ? ret : 0);
}
