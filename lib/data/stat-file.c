// SPDX-License-Identifier: GPL-2.0
/*
 * Files of counts: perf stat record's records (lupe/statfile.h) written
 * through the perf.data writer and read through the perf.data reader. The
 * ids of the attrs are lupe's own, one per CPU x thread slot of each event
 * (stable over reopens, which kernel ids are not); perf's reader only
 * matches them, as lupe's does with perf's kernel ids.
 *
 * Layouts, from perf's tools/lib/perf/include/perf/event.h:
 *   THREAD_MAP   u64 nr; { u64 pid; char comm[16]; } [nr]
 *   CPU_MAP      u16 type; type 0: u16 nr, u16 cpu[nr]; 1: u16 nr, u16 long_size,
 *                mask; 2: u8 any_cpu, u8 pad, u16 start, u16 end
 *   STAT_CONFIG  u64 nr; { u64 tag, val } [nr]   tags: 0 aggr mode, 1 interval, 2 scale
 *   STAT         u64 id; u32 cpu; u32 thread; u64 val, ena, run
 *   STAT_ROUND   u64 type (0 interval, 1 final); u64 time
 *   EVENT_UPDATE u64 type (0 unit, 1 scale, 2 name); u64 id; data
 */
#include <fcntl.h>
#include <lupe/output.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/perfdata.h>
#include <lupe/statfile.h>
#include "counting/evsel.h"
#include "data/features.h"
#include "data/format.h"
#include "data/maps-write.h"
#include "data/writer.h"
#include "util/util.h"

enum { STAT_ROUND_INTERVAL, STAT_ROUND_FINAL };
enum { CONFIG_AGGR, CONFIG_INTERVAL, CONFIG_SCALE };

/* perf's enum aggr_mode (tools/perf/util/stat.h, 6.1) against lupe's */
static const struct {
	uint64_t perf;
	enum lupe_aggr lupe;
} aggr_modes[] = {
	{ 0, LUPE_AGGR_CPU }, { 1, LUPE_AGGR_GLOBAL }, { 2, LUPE_AGGR_SOCKET },
	{ 3, LUPE_AGGR_DIE }, { 4, LUPE_AGGR_CORE }, { 5, LUPE_AGGR_THREAD },
	{ 7, LUPE_AGGR_NODE },
};

struct stat_rec {
	struct perf_event_header header;
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct lupe_stat_writer {
	struct perf_writer *w;
	struct lupe_evlist *evlist;
	struct lupe_stat_writer_opts opts;
	int pipe;
	int maps_written;
	int err;
};

/* The id of an event's slot: 1 + the slots of the events before it + slot. */
static uint64_t slot_id(const struct lupe_evlist *evlist, int idx, int slot)
{
	return 1 + (uint64_t)idx * evlist->ncpus * evlist->nthreads + slot;
}

/* The id EVENT_UPDATE names an event by: its first open slot's; 0 when none is open. */
static uint64_t first_id(const struct lupe_evlist *evlist, const struct lupe_evsel *evsel)
{
	for (int s = 0; evsel->fds && s < evlist->ncpus * evlist->nthreads; s++)
		if (evsel->fds[s] >= 0)
			return slot_id(evlist, evsel->idx, s);
	return 0;
}

static int write_rec(struct lupe_stat_writer *w, struct fbuf *b, uint32_t type)
{
	struct perf_event_header *h = (struct perf_event_header *)b->data;
	int err;

	if (b->err) {
		err = b->err;
	} else {
		lupe_fbuf_zero(b, (8 - b->len % 8) % 8);
		h = (struct perf_event_header *)b->data;
		h->type = type;
		h->misc = 0;
		h->size = b->len;
		err = lupe_perf_writer_write_raw(w->w, b->data, b->len);
	}
	lupe_fbuf_free(b);
	if (err && !w->err)
		w->err = err;
	return err;
}

static void begin(struct fbuf *b)
{
	memset(b, 0, sizeof(*b));
	lupe_fbuf_zero(b, sizeof(struct perf_event_header));
}

static void write_maps(struct lupe_stat_writer *w);

struct lupe_stat_writer *lupe_stat_writer_new(const char *path, struct lupe_evlist *evlist,
					      const struct lupe_stat_writer_opts *user_opts)
{
	struct lupe_stat_writer_opts o;
	struct lupe_stat_writer *w;
	int pipe = !strcmp(path, "-"), fd, err = 0;
	struct lupe_output out;

	if (!user_opts || lupe_opts_load(&o, user_opts))
		return err_ptr(-EINVAL);
	w = calloc(1, sizeof(*w));
	if (!w)
		return err_ptr(-ENOMEM);
	w->opts = o;
	w->evlist = evlist;
	w->pipe = pipe;
	/* as perf stat record: PATH.old first, a device or FIFO written in place */
	err = lupe_output_open(&out, path, LUPE_OUTPUT_BACKUP | LUPE_OUTPUT_PRIVATE);
	if (!err && (err = lupe_output_commit(&out))) {
		close(out.fd);
		lupe_output_abort(&out);
	}
	lupe_output_release(&out);
	fd = err ? -1 : out.fd;
	if (err) {
		free(w);
		return err_ptr(lupe_set_error(err, "cannot write '%s': %s", path, strerror(-err)));
	}
	w->w = lupe_perf_writer_new(fd, pipe);
	if (!w->w) {
		err = -errno;
		close(fd);
		free(w);
		return err_ptr(err);
	}
	for (int i = 0; i < evlist->nr && !err; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];
		int n = evlist->ncpus * evlist->nthreads, nr = 0;
		uint64_t *ids = calloc(n + 1, sizeof(*ids));
		struct perf_event_attr attr = evsel->attr;

		if (evsel->tool) {
			free(ids);
			continue;
		}
		if (!ids) {
			err = -ENOMEM;
			break;
		}
		for (int s = 0; evsel->fds && s < n; s++)
			if (evsel->fds[s] >= 0)
				ids[nr++] = slot_id(evlist, i, s);
		/* as perf stat opens them */
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr.sample_type = PERF_SAMPLE_IDENTIFIER;
		attr.sample_period = 0;
		attr.disabled = 1;
		attr.inherit = w->opts.inherit;
		attr.enable_on_exec = w->opts.enable_on_exec;
		err = lupe_perf_writer_add_attr(w->w, &attr, ids, nr, evsel->name);
		free(ids);
	}
	if (!err)
		err = lupe_perf_writer_start(w->w);
	if (err) {
		lupe_perf_writer_delete(w->w);
		free(w);
		return err_ptr(err);
	}
	/* pipe mode has no EVENT_DESC: perf names the events by records */
	for (int i = 0; pipe && i < evlist->nr; i++) {
		struct fbuf b;
		const char *name = evlist->evsels[i]->name ? evlist->evsels[i]->name : "";

		/* one without a count has no id: perf would rename its first event */
		if (evlist->evsels[i]->tool || !first_id(evlist, evlist->evsels[i]))
			continue;
		begin(&b);
		lupe_fbuf_u64(&b, PERF_EVENT_UPDATE__NAME);
		lupe_fbuf_u64(&b, first_id(evlist, evlist->evsels[i]));
		lupe_fbuf_add(&b, name, strlen(name) + 1);
		write_rec(w, &b, PERF_RECORD_EVENT_UPDATE);
	}
	/* now, while the threads live: their comms go into THREAD_MAP */
	write_maps(w);
	return w;
}

int lupe_stat_writer_event(struct lupe_stat_writer *w, int idx, const char *unit, double scale)
{
	struct fbuf b;

	if (idx < 0 || idx >= w->evlist->nr || w->evlist->evsels[idx]->tool)
		return -EINVAL;
	if (!first_id(w->evlist, w->evlist->evsels[idx]))
		return 0; /* no id to name it by (perf's reader would take its first event) */
	if (unit && *unit) {
		begin(&b);
		lupe_fbuf_u64(&b, PERF_EVENT_UPDATE__UNIT);
		lupe_fbuf_u64(&b, first_id(w->evlist, w->evlist->evsels[idx]));
		lupe_fbuf_add(&b, unit, strlen(unit) + 1);
		write_rec(w, &b, PERF_RECORD_EVENT_UPDATE);
	}
	if (scale != 1.0) {
		begin(&b);
		lupe_fbuf_u64(&b, PERF_EVENT_UPDATE__SCALE);
		lupe_fbuf_u64(&b, first_id(w->evlist, w->evlist->evsels[idx]));
		lupe_fbuf_add(&b, &scale, sizeof(scale));
		write_rec(w, &b, PERF_RECORD_EVENT_UPDATE);
	}
	return w->err;
}

static uint64_t perf_aggr_mode(enum lupe_aggr mode)
{
	for (size_t i = 0; i < sizeof(aggr_modes) / sizeof(*aggr_modes); i++)
		if (aggr_modes[i].lupe == mode)
			return aggr_modes[i].perf;
	return 1;
}

static void write_maps(struct lupe_stat_writer *w)
{
	struct lupe_evlist *evlist = w->evlist;
	struct fbuf b;
	int err;

	memset(&b, 0, sizeof(b));
	lupe_thread_map_record(&b, evlist->threads, 1);
	lupe_cpu_map_record(&b, evlist->cpus);
	err = b.err ? b.err : lupe_perf_writer_write_raw(w->w, b.data, b.len);
	if (err && !w->err)
		w->err = err;
	lupe_fbuf_free(&b);

	begin(&b);
	lupe_fbuf_u64(&b, 3);
	lupe_fbuf_u64(&b, CONFIG_AGGR);
	lupe_fbuf_u64(&b, perf_aggr_mode(w->opts.aggr));
	lupe_fbuf_u64(&b, CONFIG_INTERVAL);
	lupe_fbuf_u64(&b, w->opts.interval_ms);
	lupe_fbuf_u64(&b, CONFIG_SCALE);
	lupe_fbuf_u64(&b, 1);
	write_rec(w, &b, PERF_RECORD_STAT_CONFIG);
	w->maps_written = 1;
}

int lupe_stat_writer_counts(struct lupe_stat_writer *w)
{
	struct lupe_evlist *evlist = w->evlist;
	int n = evlist->ncpus * evlist->nthreads;

	if (!w->maps_written)
		write_maps(w);
	for (int i = 0; i < evlist->nr; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];

		if (evsel->tool || !evsel->fds || !evsel->counts)
			continue;
		for (int s = 0; s < n; s++) {
			struct stat_rec r = { .header = { PERF_RECORD_STAT, 0, sizeof(r) } };

			if (evsel->fds[s] < 0)
				continue;
			r.id = slot_id(evlist, i, s);
			/* perf writes the CPU itself (-1: any) and the thread's index */
			r.cpu = (uint32_t)lupe_cpu_map_cpu(evlist->cpus, s / evlist->nthreads);
			r.thread = s % evlist->nthreads;
			r.val = evsel->counts[s].val;
			r.ena = evsel->counts[s].ena;
			r.run = evsel->counts[s].run;
			if (lupe_perf_writer_write_raw(w->w, &r, sizeof(r)) && !w->err)
				w->err = -EIO;
		}
	}
	return w->err;
}

int lupe_stat_writer_round(struct lupe_stat_writer *w, int final, uint64_t time_ns)
{
	struct {
		struct perf_event_header header;
		uint64_t type, time;
	} r = { { PERF_RECORD_STAT_ROUND, 0, sizeof(r) },
		final ? STAT_ROUND_FINAL : STAT_ROUND_INTERVAL, time_ns };
	int err = lupe_perf_writer_write_raw(w->w, &r, sizeof(r));

	if (!err)
		err = lupe_perf_writer_flush(w->w);
	if (err && !w->err)
		w->err = err;
	return w->err;
}

int lupe_stat_writer_delete(struct lupe_stat_writer *w)
{
	int err;

	if (!w)
		return 0;
	err = w->err;
	if (!w->pipe) {
		struct feat_env env = {
			.version = w->opts.version, .argc = w->opts.argc, .argv = w->opts.argv,
		};
		struct fbuf stat = { 0 };
		int e = lupe_features_write(w->w, &env, 0);

		if (e && !err)
			err = e;
		/* HEADER_STAT says "counts": an empty section, as perf writes it */
		stat.data = malloc(1);
		stat.cap = stat.data ? 1 : 0;
		stat.err = stat.data ? 0 : -ENOMEM;
		e = lupe_perf_writer_add_feature(w->w, HEADER_STAT, &stat);
		if (e && !err)
			err = e;
	}
	{
		int e = lupe_perf_writer_finish(w->w);

		if (e && !err)
			err = e;
	}
	lupe_perf_writer_delete(w->w);
	free(w);
	return err;
}
