// SPDX-License-Identifier: GPL-2.0
/*
 * The recording: the live source (record/live.c) feeding the perf.data
 * writer. The writer is a consumer like any other: it takes each record
 * the source emits, and ends each pass over the rings with the
 * FINISHED_ROUND the source marks. On the way, samples name the DSOs
 * they hit (for the BUILD_ID feature) and the sample times. With
 * --call-graph dwarf, the online unwinding stage (unwind/online.h) sits
 * between the source and the writer, unless opts.dwarf_raw.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <lupe/evlist.h>
#include <lupe/output.h>
#include <lupe/record.h>
#include <lupe/symbols.h>
#include "bpf/prog.h"
#include "counting/evsel.h"
#include "data/features.h"
#include "data/tracing-data.h"
#include "data/writer.h"
#include "record/hitdsos.h"
#include "record/live.h"
#include "record/offcpu.h"
#include "sampling/sample.h"
#include "unwind/online.h"
#include "util/util.h"

struct lupe_record {
	struct lupe_record_opts opts;
	char *output;
	struct lupe_source *live;
	struct lupe_evlist *evlist; /* the live source's */
	struct perf_writer *w;
	int out_fd, pipe;
	struct lupe_output out; /* renamed to output once the recording started */
	struct hitdsos *hit;
	char **tp_names;
	size_t nr_tp;
	uint64_t first_time, last_time;
	uint64_t bytes_before; /* data of the files --switch-output finished */
	struct feat_env clock;  /* --clockid: its resolution and reference times */
	struct lupe_thread_map *threads;
	struct lupe_bpf_prog *offcpu; /* --off-cpu */
	struct lupe_source *offcpu_src; /* its sums, read at the end */
	struct lupe_online *online; /* dwarf samples unwound on the way to the writer, or NULL */
	struct perf_event_attr offcpu_attr;
	uint64_t offcpu_id;
	struct lupe_record_stats st;
	int stopped;
};

static struct lupe_evsel *ev_at(const struct lupe_record *r, size_t i)
{
	return lupe_evlist_evsel(r->evlist, (int)i);
}

struct lupe_record *lupe_record_new(const struct lupe_record_opts *opts,
				    const struct lupe_event *events, size_t nr_events,
				    struct lupe_cpu_map *cpus, struct lupe_thread_map *threads)
{
	/* the live source checks the arguments and the opts, as record would */
	struct lupe_source *live = lupe_live_source_new(opts, events, nr_events, cpus, threads);
	struct lupe_record *r;

	if (!live)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		lupe_source_delete(live);
		return err_ptr(-ENOMEM);
	}
	lupe_opts_load(&r->opts, opts); /* cannot fail: the source took them */
	opts = &r->opts; /* the caller's struct is not read again */
	r->out_fd = -1;
	r->live = live;
	r->evlist = lupe_source_evlist(r->live);
	r->threads = lupe_thread_map_get(threads);
	r->output = strdup(opts->output ? opts->output : LUPE_RECORD_DEFAULT_OUTPUT);
	r->hit = lupe_hitdsos_new(1);
	if (!r->output || !r->hit)
		goto nomem;
	for (size_t i = 0; i < nr_events; i++) {
		const char *name = events[i].name ? events[i].name : "";

		if (events[i].attr.type == PERF_TYPE_TRACEPOINT && strchr(name, ':')) {
			char **n = realloc(r->tp_names, (r->nr_tp + 1) * sizeof(*n));

			if (!n)
				goto nomem;
			r->tp_names = n;
			n[r->nr_tp] = strdup(name);
			if (!n[r->nr_tp])
				goto nomem;
			/* "sys:name:modifiers" keeps only sys:name */
			n[r->nr_tp][strcspn(n[r->nr_tp], ":") + 1 +
				    strcspn(strchr(n[r->nr_tp], ':') + 1, ":/")] = '\0';
			r->nr_tp++;
		}
	}
	return r;
nomem:
	lupe_record_delete(r);
	return err_ptr(-ENOMEM);
}

void lupe_record_delete(struct lupe_record *r)
{
	if (!r)
		return;
	lupe_source_delete(r->live);
	lupe_source_delete(r->offcpu_src);
	lupe_bpf_prog_delete(r->offcpu);
	lupe_online_delete(r->online);
	lupe_thread_map_put(r->threads);
	lupe_perf_writer_delete(r->w); /* closes out_fd */
	if (!r->w && r->out_fd > 1)
		close(r->out_fd);
	for (size_t i = 0; i < r->nr_tp; i++)
		free(r->tp_names[i]);
	free(r->tp_names);
	lupe_hitdsos_delete(r->hit);
	free(r->output);
	lupe_output_release(&r->out); /* a file never started is removed */
	free(r);
}

/*
 * The output (lupe/output.h) is first a temporary file beside FILE; it
 * takes FILE's name once the recording has started (the first poll, after
 * the workload was found), and only then does a non-empty FILE become
 * FILE.old, as perf keeps it. A record whose workload is not found leaves
 * both alone, so a second such mistake cannot overwrite the saved .old.
 * A device or a FIFO is written in place; a link is never written through.
 */
static int create_output(struct lupe_record *r)
{
	int err;

	r->pipe = !strcmp(r->output, "-");
	err = lupe_output_open(&r->out, r->output, LUPE_OUTPUT_BACKUP | LUPE_OUTPUT_PRIVATE);
	if (err)
		return lupe_set_error(err, "cannot write '%s': %s", r->output, strerror(-err));
	r->out_fd = r->out.fd;
	return 0;
}

/* The recording started: rotate FILE to FILE.old, the temporary file to FILE. */
static int commit_output(struct lupe_record *r)
{
	return lupe_output_commit(&r->out);
}

/* --off-cpu: the BPF program, for the recorded processes (all with -a). */
static int offcpu_open(struct lupe_record *r)
{
	int err = 0;

	r->offcpu = lupe_offcpu_load(r->opts.system_wide);
	if (!r->offcpu) {
		err = -errno;
		return err ? err : -EINVAL;
	}
	for (int i = 0; !r->opts.system_wide && i < lupe_thread_map_nr(r->threads) && !err; i++)
		err = lupe_bpf_prog_add_pid(r->offcpu, lupe_thread_map_pid(r->threads, i));
	lupe_offcpu_attr(&r->offcpu_attr, r->opts.system_wide);
	/* an id no event of the file has: one past the kernel's */
	for (int i = 0; i < lupe_evlist_nr(r->evlist); i++)
		for (size_t j = 0; j < ev_at(r, i)->nr_ids; j++)
			if (ev_at(r, i)->ids[j] >= r->offcpu_id)
				r->offcpu_id = ev_at(r, i)->ids[j] + 1;
	if (!err && !(r->offcpu_src = lupe_offcpu_source(r->offcpu, &r->offcpu_attr, r->offcpu_id)))
		err = -errno;
	return err;
}

int lupe_record_open(struct lupe_record *r, int *failed)
{
	int err = lupe_live_open(r->live, failed);

	if (!err && r->opts.off_cpu && (err = offcpu_open(r)) && failed)
		*failed = -2;
	return err ? err : create_output(r);
}

int lupe_record_add_wake_fd(struct lupe_record *r, int fd)
{
	return lupe_live_add_wake_fd(r->live, fd);
}

static void note_sample(struct lupe_record *r, const struct perf_event_header *h)
{
	const struct lupe_evsel *e = lupe_evlist_record_evsel(r->evlist, h);
	struct lupe_sample s;

	r->st.samples++;
	if (!e || lupe_sample_parse(&e->attr, h, &s))
		return;
	if (s.time != (uint64_t)-1) {
		if (!r->first_time || s.time < r->first_time)
			r->first_time = s.time;
		if (s.time > r->last_time)
			r->last_time = s.time;
	}
	lupe_hitdsos_hit(r->hit, s.pid, s.ip, h->misc & PERF_RECORD_MISC_CPUMODE_MASK);
}

/* The writer, after the online unwinding stage when there is one. */
static int write_out(void *arg, const struct perf_event_header *h)
{
	struct lupe_record *r = arg;

	switch (h->type) {
	case PERF_RECORD_FINISHED_ROUND:
		return lupe_perf_writer_round(r->w);
	case PERF_RECORD_FINISHED_INIT:
		return lupe_perf_writer_write_raw(r->w, h, h->size);
	}
	return lupe_perf_writer_write(r->w, h, h->size);
}

/* The writer as a consumer of the live source: the records as recorded are noted. */
static int write_record(void *arg, const struct perf_event_header *h, int stable)
{
	struct lupe_record *r = arg;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		note_sample(r, h);
		break;
	case PERF_RECORD_LOST:
		r->st.lost_chunks++;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
	case PERF_RECORD_COMM:
		lupe_hitdsos_event(r->hit, h);
		break;
	}
	if (r->online)
		return lupe_online_record(r->online, h, stable);
	return write_out(r, h);
}

static const struct perf_event_attr *record_attr(void *arg, const struct perf_event_header *h)
{
	const struct lupe_evsel *e = lupe_evlist_record_evsel(((struct lupe_record *)arg)->evlist, h);

	return e ? &e->attr : NULL;
}

/* The live source read to its end, and what the online stage still holds. */
static int drain(struct lupe_record *r)
{
	int err = lupe_live_drain(r->live, write_record, r);

	return !err && r->online ? lupe_online_flush(r->online) : err;
}

static int pipe_tracing_data(struct lupe_record *r)
{
	struct fbuf b = { 0 };
	struct perf_record_header_tracing_data ev;
	size_t padded;
	int err = lupe_tracing_data_build(&b, r->tp_names, r->nr_tp);

	padded = (b.len + 7) & ~(size_t)7;
	lupe_fbuf_zero(&b, padded - b.len);
	if (!err)
		err = b.err;
	if (!err) {
		ev.header = (struct perf_event_header){ PERF_RECORD_HEADER_TRACING_DATA, 0, sizeof(ev) };
		ev.size = (uint32_t)padded;
		lupe_perf_writer_write_raw(r->w, &ev, sizeof(ev));
		err = lupe_perf_writer_write_raw(r->w, b.data, padded);
	}
	lupe_fbuf_free(&b);
	return err;
}

/* The writer on out_fd, its attrs, compression and aio; the header when a file. */
static int writer_begin(struct lupe_record *r)
{
	int err;

	r->w = lupe_perf_writer_new(r->out_fd, r->pipe);
	if (!r->w)
		return -errno;
	for (int i = 0; i < lupe_evlist_nr(r->evlist); i++) {
		struct lupe_evsel *e = ev_at(r, i);
		struct perf_event_attr attr = e->attr;

		if (r->online)
			lupe_online_attr(&attr);
		err = lupe_perf_writer_add_attr(r->w, &attr, e->ids, e->nr_ids, e->name);
		if (err)
			return err;
	}
	if (r->offcpu &&
	    (err = lupe_perf_writer_add_attr(r->w, &r->offcpu_attr, &r->offcpu_id, 1, "offcpu-time")))
		return err;
	if (r->opts.comp_level && (err = lupe_perf_writer_set_compression(r->w, r->opts.comp_level)))
		return err;
	/* positioned writes: pipe mode writes in order */
	if (r->opts.aio && !r->pipe && (err = lupe_perf_writer_set_aio(r->w, r->opts.aio)))
		return err;
	return lupe_perf_writer_start(r->w);
}

/*
 * --clockid: the clock's resolution and one instant as time of day and on
 * the clock, taken at the start as perf takes them.
 */
static void clock_init(struct lupe_record *r)
{
	struct timespec res, ref;
	struct timeval tod;

	if (!clock_getres(r->opts.clockid, &res))
		r->clock.clockid_res_ns = (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
	if (!gettimeofday(&tod, NULL) && !clock_gettime(r->opts.clockid, &ref)) {
		r->clock.clock_tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_usec * 1000ULL;
		r->clock.clock_ref_ns = (uint64_t)ref.tv_sec * 1000000000ULL + (uint64_t)ref.tv_nsec;
	}
}

static void clock_env(const struct lupe_record *r, struct feat_env *env)
{
	if (!r->opts.use_clockid)
		return;
	env->use_clockid = 1;
	env->clockid = r->opts.clockid;
	env->clockid_res_ns = r->clock.clockid_res_ns;
	env->clock_tod_ns = r->clock.clock_tod_ns;
	env->clock_ref_ns = r->clock.clock_ref_ns;
}

int lupe_record_start(struct lupe_record *r)
{
	int err;

	if (r->opts.use_clockid)
		clock_init(r);
	for (int i = 0; !r->opts.dwarf_raw && !r->online && i < lupe_evlist_nr(r->evlist); i++)
		if (lupe_online_wants(&ev_at(r, i)->attr) &&
		    !(r->online = lupe_online_new(record_attr, write_out, r))) {
			if (errno != ENOTSUP)
				return -errno;
			pr_warn("lupe was built without an unwinder: dwarf samples keep their stack copies");
			r->opts.dwarf_raw = 1;
		}
	err = writer_begin(r);

	if (!err && r->pipe) {
		struct feat_env env = {
			.version = r->opts.version, .argc = r->opts.argc, .argv = r->opts.argv,
			.comp_level = r->opts.comp_level, .comp_ratio = 1, .comp_mmap_len = 65536,
		};

		clock_env(r, &env);
		err = lupe_features_write(r->w, &env, 1);
		if (!err && r->nr_tp)
			err = pipe_tracing_data(r);
	}
	if (!err)
		err = lupe_live_synthesize_record(r->live, write_record, r, r->pipe);
	/* the threads and maps reach the disk before any sample: a killed record keeps them */
	if (!err)
		err = lupe_perf_writer_flush(r->w);
	/* before the events: the workload's exec enables those */
	if (!err && r->offcpu)
		err = lupe_bpf_prog_start(r->offcpu);
	return err ? err : lupe_live_start(r->live);
}

int lupe_record_poll(struct lupe_record *r, int timeout_ms)
{
	int err;

	if (r->out.tmp && (err = commit_output(r)))
		return err;
	return lupe_live_poll(r->live, timeout_ms, write_record, r);
}

/* LOST_SAMPLES for each event that lost any, with the event's id in its trailer. */
static int write_lost_samples(struct lupe_record *r)
{
	for (int e = 0; e < lupe_evlist_nr(r->evlist); e++) {
		struct lupe_evsel *ev = ev_at(r, e);
		char rec[sizeof(struct perf_record_lost_samples) + 64] = { 0 };
		struct perf_record_lost_samples *ls = (void *)rec;
		size_t idsz = lupe_sample_id_size(&ev->attr);
		uint64_t lost = lupe_live_lost_samples(r->live, ev);
		int pos;

		if (!lost)
			continue;
		r->st.lost += lost;
		ls->header.type = PERF_RECORD_LOST_SAMPLES;
		ls->header.size = (uint16_t)(sizeof(*ls) + idsz);
		ls->lost = lost;
		pos = lupe_sample_id_pos(ev->attr.sample_type, 0);
		if (pos < 0 && ev->nr_ids)
			memcpy(rec + ls->header.size + pos, &ev->ids[0], 8);
		lupe_perf_writer_write(r->w, ls, ls->header.size);
	}
	return 0;
}

/* The features (file mode) and the final header of the output so far. */
static int finish_file(struct lupe_record *r)
{
	struct fbuf bids = { 0 }, td = { 0 };
	int err = 0;

	if (!r->pipe) {
		uint64_t in = lupe_perf_writer_bytes_in(r->w), out;
		struct feat_env env = {
			.version = r->opts.version, .argc = r->opts.argc, .argv = r->opts.argv,
			.first_sample_time = r->first_time, .last_sample_time = r->last_time,
			.build_ids = &bids, .tracing_data = &td,
			.comp_level = r->opts.comp_level, .comp_mmap_len = 65536,
		};

		if (r->nr_tp)
			err = lupe_tracing_data_build(&td, r->tp_names, r->nr_tp);
		if (r->opts.buildid_all)
			lupe_hitdsos_mark_all(r->hit);
		if (!r->opts.no_buildid)
			lupe_hitdsos_build_ids(r->hit, &bids);
		/* as perf: the binaries hit go in the build-id cache, for report on another day */
		if (!r->opts.no_buildid && !r->opts.no_buildid_cache && lupe_hitdsos_cache(r->hit))
			pr_warn("cannot fill the build-id cache '%s' (record with -N to skip it)",
				lupe_buildid_dir());
		/* the ratio perf prints: bytes in per byte out */
		out = lupe_perf_writer_data_size(r->w);
		env.comp_ratio = out ? (uint32_t)((in + out / 2) / out) : 1;
		clock_env(r, &env);
		if (!err)
			err = lupe_features_write(r->w, &env, 0);
	}
	if (!err)
		err = lupe_perf_writer_finish(r->w);
	lupe_fbuf_free(&bids);
	lupe_fbuf_free(&td);
	return err;
}

int lupe_record_switch_output(struct lupe_record *r, const char *new_name)
{
	int err;

	if (r->pipe || !r->w || r->stopped)
		return -EINVAL;
	if ((err = commit_output(r)))
		return err;
	err = drain(r);
	if (!err)
		err = finish_file(r);
	if (err)
		return err;
	r->bytes_before += lupe_perf_writer_data_size(r->w);
	lupe_perf_writer_delete(r->w); /* closes out_fd */
	r->w = NULL;
	r->out_fd = -1;
	/* a device or FIFO output is never renamed: the next file goes to it too */
	if (!r->out.in_place && rename(r->output, new_name))
		return -errno;
	lupe_output_release(&r->out);
	r->first_time = r->last_time = 0;
	/* the name is free now: the new file takes it at once, no .old */
	if ((err = create_output(r)) || (err = commit_output(r)))
		return err;
	return writer_begin(r);
}

int lupe_record_size_limit_reached(const struct lupe_record *r)
{
	return r->opts.max_size && r->w &&
	       lupe_perf_writer_data_size(r->w) >= r->opts.max_size;
}

int lupe_record_stop(struct lupe_record *r)
{
	struct stat st;
	int err;

	if (r->stopped || !r->w)
		return -EINVAL;
	r->stopped = 1;
	if ((err = commit_output(r)))
		return err;
	lupe_live_stop(r->live);
	err = drain(r);
	/* a full disk: the writer keeps what reached it and still finalizes the file */
	if (err == -ENOSPC)
		err = 0;
	if (!err && r->offcpu_src)
		err = lupe_source_read(r->offcpu_src, write_record, r);
	if (!err)
		err = write_lost_samples(r);
	if (!err)
		err = finish_file(r);
	r->st.bytes_written = lupe_perf_writer_data_size(r->w);
	r->st.bytes_in = lupe_perf_writer_bytes_in(r->w);
	if (!r->pipe && !fstat(r->out_fd, &st))
		r->st.file_size = st.st_size;
	if (err == -ENOSPC)
		r->st.samples = lupe_perf_writer_samples(r->w);
	else if (err)
		lupe_record_abort(r);
	return err;
}

void lupe_record_abort(struct lupe_record *r)
{
	lupe_output_abort(&r->out);
}

void lupe_record_get_stats(const struct lupe_record *r, struct lupe_record_stats *st)
{
	*st = r->st;
	if (r->online) {
		struct lupe_online_stats os;

		lupe_online_get_stats(r->online, &os);
		st->unwound = os.samples;
		st->unwind_failed = os.failed;
	}
	st->wakeups = lupe_live_wakeups(r->live);
	if (r->w) {
		st->bytes_written = lupe_perf_writer_data_size(r->w);
		st->bytes_in = lupe_perf_writer_bytes_in(r->w);
	}
}

const char *lupe_record_output(const struct lupe_record *r)
{
	return r->output;
}
