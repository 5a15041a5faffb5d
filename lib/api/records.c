// SPDX-License-Identifier: GPL-2.0
/*
 * The typed records of the sampler and the perf.data reader: one session
 * tool that turns the session's samples (thread known, callchain complete)
 * and side-band records into struct lupe_rec, resolving the ip through the
 * session's cache. The sampler puts lupe record's live source in front of
 * it, the reader a perf.data file: the same pipeline as top and report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/perf-format.h>
#include <lupe/reader.h>
#include <lupe/record.h>
#include <lupe/sampler.h>
#include <lupe/session.h>
#include <lupe/source.h>
#include "counting/evsel.h"
#include "sampling/sample.h"
#include "util/util.h"

struct rec_tool {
	struct lupe_tool tool;
	lupe_rec_fn fn;
	void *arg;
};

/* What lupe_rec_callchain() needs besides the record: only during the callback. */
struct rec_ctx {
	struct lupe_rec rec;
	struct lupe_session *s;
	struct lupe_thread *thread;
};

static void frame_names(const struct lupe_frame *f, const char **dso, const char **sym,
			uint64_t *off)
{
	*dso = f->map && f->map->dso ? lupe_dso_long_name(f->map->dso) : NULL;
	*sym = f->sym ? f->sym->name : NULL;
	*off = f->sym ? f->vaddr - f->sym->start : 0;
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct rec_tool *rt = (struct rec_tool *)tool;
	struct rec_ctx ctx = { .s = s, .thread = thread };
	struct lupe_rec *r = &ctx.rec;
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct lupe_frame f;

	r->type = ev->type;
	r->misc = ev->misc;
	r->raw = ev;
	r->pid = sample->pid;
	r->tid = sample->tid;
	r->time = sample->time;
	r->cpu = sample->cpu;
	r->evsel = evsel;
	r->event = evsel->name;
	r->sample = sample;
	r->ip = sample->ip;
	r->period = sample->period;
	r->comm = thread->comm;
	r->kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	lupe_session_resolve_ip(s, thread, sample->ip, r->kernel, &f);
	frame_names(&f, &r->dso, &r->sym, &r->sym_off);
	return rt->fn(r, rt->arg);
}

int lupe_rec_callchain(const struct lupe_rec *rec, struct lupe_rec_frame *frames, int max)
{
	const struct rec_ctx *ctx = (const struct rec_ctx *)rec;
	struct lupe_frame *f;
	int n;

	if (!rec || rec->type != PERF_RECORD_SAMPLE || max < 0)
		return -EINVAL;
	f = calloc(max ? max : 1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	n = lupe_session_resolve(ctx->s, ctx->thread, rec->sample,
				 rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, f, max);
	for (int i = 0; i < n; i++) {
		frames[i].ip = f[i].ip;
		frames[i].kernel = f[i].kernel;
		frame_names(&f[i], &frames[i].dso, &frames[i].sym, &frames[i].sym_off);
	}
	free(f);
	return n;
}

/* The fixed part of a record after its header, or NULL when it is shorter. */
static const void *body(const struct perf_event_header *ev, size_t need)
{
	return ev->size >= sizeof(*ev) + need ? (const void *)(ev + 1) : NULL;
}

/* A NUL-terminated string at off in the body, or "" when the record lacks one. */
static const char *body_str(const struct perf_event_header *ev, size_t off)
{
	const char *p = (const char *)(ev + 1) + off;
	size_t room = ev->size - sizeof(*ev);

	return off < room && memchr(p, '\0', room - off) ? p : "";
}

static int decode_other(const struct perf_event_header *ev, struct lupe_rec *r)
{
	const uint32_t *u32;
	const uint64_t *u64;

	switch (ev->type) {
	case PERF_RECORD_COMM:
		if (!(u32 = body(ev, 8)))
			return -1;
		r->pid = u32[0];
		r->tid = u32[1];
		r->comm = body_str(ev, 8);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		int two = ev->type == PERF_RECORD_MMAP2;

		if (!(u32 = body(ev, two ? 64 : 32)))
			return -1;
		u64 = (const uint64_t *)(u32 + 2);
		r->pid = u32[0];
		r->tid = u32[1];
		r->mmap.start = u64[0];
		r->mmap.len = u64[1];
		r->mmap.pgoff = u64[2];
		r->mmap.prot = two ? u32[14] : 0;
		r->mmap.flags = two ? u32[15] : 0;
		r->mmap.filename = body_str(ev, two ? 64 : 32);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (!(u32 = body(ev, 24)))
			return -1;
		r->pid = u32[0];
		r->fork.ppid = u32[1];
		r->tid = u32[2];
		r->fork.ptid = u32[3];
		r->time = *(const uint64_t *)(u32 + 4);
		break;
	case PERF_RECORD_LOST:
		if (!(u64 = body(ev, 16)))
			return -1;
		r->lost.id = u64[0];
		r->lost.lost = u64[1];
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (!(u64 = body(ev, 8)))
			return -1;
		r->lost.lost = u64[0];
		break;
	}
	return 0;
}

static int on_other(struct lupe_tool *tool, struct lupe_session *s,
		    const struct perf_event_header *ev)
{
	struct rec_tool *rt = (struct rec_tool *)tool;
	struct rec_ctx ctx = { .s = s };
	struct lupe_rec *r = &ctx.rec;
	struct lupe_evlist *evlist = lupe_session_evlist(s);
	struct lupe_evsel *evsel;

	/* the kernel's records only: attrs, features and rounds are the file's business */
	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	r->type = ev->type;
	r->misc = ev->misc;
	r->raw = ev;
	/* time and cpu from the sample_id trailer, when the events carry one */
	evsel = evlist ? lupe_evlist_record_evsel(evlist, ev) : NULL;
	if (evsel && evsel->attr.sample_id_all) {
		struct lupe_sample id = { 0 };

		if (!lupe_sample_id_parse(&evsel->attr, ev, &id)) {
			r->pid = id.pid;
			r->tid = id.tid;
			r->time = id.time;
			r->cpu = id.cpu;
		}
	}
	if (decode_other(ev, r))
		return 0; /* too short to decode: the session counted it already */
	return rt->fn(r, rt->arg);
}

/*
 * fn on each record of src (NULL: the session's own file) through session
 * s: the one tool of the sampler and the reader.
 */
static int rec_read(struct lupe_session *s, struct lupe_source *src, lupe_rec_fn fn, void *arg)
{
	struct rec_tool rt = {
		.tool = { .sample = on_sample, .other = on_other, .ordered = 1 },
		.fn = fn,
		.arg = arg,
	};

	return src ? lupe_session_read(s, src, &rt.tool) : lupe_session_process(s, &rt.tool);
}

/* ---- sampler ---- */

struct lupe_sampler {
	struct lupe_event_list events;
	struct lupe_source *src;
	struct lupe_session *session;
};

struct lupe_sampler *lupe_sampler_new(const char *spec, pid_t pid, int cpu,
				      const struct lupe_sampler_opts *user_opts)
{
	struct lupe_sampler_opts o;
	LUPE_OPTS(lupe_record_opts, ro);
	struct lupe_parse_error perr = { .pos = -1 };
	struct lupe_cpu_map *cpus = NULL;
	struct lupe_thread_map *threads = NULL;
	struct lupe_sampler *s;
	char cpulist[16];
	int err, failed = -1;

	if (lupe_opts_load(&o, user_opts))
		return err_ptr(lupe_set_error(-EINVAL, "lupe_sampler_opts: unknown options set "
					      "(sz too large, or a newer header)"));
	if (!spec)
		return err_ptr(lupe_set_error(-EINVAL, "no event spec given"));
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_ptr(lupe_set_error(-ENOMEM, "out of memory"));
	err = lupe_events_parse(&s->events, spec, &perr);
	if (err) {
		lupe_set_error(err, "cannot parse event spec '%s': %s (%s)", spec,
			       err == -LUPE_ERR_PARSE ? perr.msg : lupe_strerror(err),
			       perr.help[0] ? perr.help : "'lupe list' shows the events");
		goto fail;
	}
	snprintf(cpulist, sizeof(cpulist), "%d", cpu);
	cpus = lupe_cpu_map_new(cpu < 0 ? NULL : cpulist);
	threads = lupe_thread_map_new_one(pid);
	if (!cpus || !threads) {
		err = -errno;
		lupe_set_error(err, "cannot sample task %d on CPU %d: %s", (int)pid, cpu,
			       lupe_strerror(err));
		goto fail;
	}
	ro.freq = o.freq;
	ro.period = o.period;
	ro.callgraph = o.callchain ? LUPE_CALLGRAPH_FP : LUPE_CALLGRAPH_NONE;
	ro.mmap_pages = o.mmap_pages;
	ro.workload = o.enable_on_exec;
	ro.system_wide = pid == -1;
	s->src = lupe_live_source_new(&ro, s->events.events, s->events.nr, cpus, threads);
	if (!s->src) {
		err = -errno;
		lupe_set_error(err, "cannot sample '%s': %s", spec, lupe_strerror(err));
		goto fail;
	}
	err = lupe_live_open(s->src, &failed);
	if (err) {
		char buf[400];
		const struct lupe_event *ev = failed >= 0 ? &s->events.events[failed] : NULL;

		if (ev)
			lupe_open_strerror(err, &ev->attr, ev->name, cpu, pid, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "cannot map the sampling rings: %s%s",
				 lupe_strerror(err), err == -EPERM ?
				 " (past kernel.perf_event_mlock_kb: use fewer mmap_pages)" : "");
		lupe_set_error(err, "%s", buf);
		goto fail;
	}
	err = lupe_live_start(s->src);
	if (err) {
		lupe_set_error(err, "cannot start sampling: %s", lupe_strerror(err));
		goto fail;
	}
	s->session = lupe_session_new_empty();
	if (!s->session) {
		err = lupe_set_error(-ENOMEM, "out of memory");
		goto fail;
	}
	lupe_cpu_map_put(cpus);
	lupe_thread_map_put(threads);
	return s;
fail:
	lupe_cpu_map_put(cpus);
	lupe_thread_map_put(threads);
	lupe_sampler_delete(s);
	return err_ptr(err);
}

int lupe_sampler_read(struct lupe_sampler *s, lupe_rec_fn fn, void *arg)
{
	int err;

	if (!s || !fn)
		return lupe_set_error(-EINVAL, "lupe_sampler_read needs a sampler and a callback");
	err = rec_read(s->session, s->src, fn, arg);
	if (err < 0)
		lupe_set_error(err, "sampling stopped: %s", lupe_strerror(err));
	return err;
}

void lupe_sampler_stop(struct lupe_sampler *s)
{
	lupe_live_stop(s->src);
}

void lupe_sampler_delete(struct lupe_sampler *s)
{
	if (!s)
		return;
	lupe_session_delete(s->session);
	lupe_source_delete(s->src);
	lupe_event_list_clear(&s->events);
	free(s);
}

/* ---- perf.data reader ---- */

struct lupe_reader {
	struct lupe_session *session;
	char *path;
};

struct lupe_reader *lupe_reader_open(const char *path)
{
	struct lupe_reader *r;
	int err;

	if (!path)
		return err_ptr(lupe_set_error(-EINVAL, "no perf.data path given"));
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		return err_ptr(lupe_set_error(-ENOMEM, "out of memory"));
	}
	r->session = lupe_session_open(path, 0);
	if (!r->session) {
		err = -errno;
		lupe_set_error(err, "cannot read '%s': %s%s", path, lupe_strerror(err),
			       err == -EPERM ? " (the file is not yours: chown it, or read it as its owner)"
			       : err <= -LUPE_ERR_BASE ? " (is it a perf.data file? lupe record writes one)"
			       : "");
		lupe_reader_delete(r);
		return err_ptr(err);
	}
	return r;
}

int lupe_reader_read(struct lupe_reader *r, lupe_rec_fn fn, void *arg)
{
	int err;

	if (!r || !fn)
		return lupe_set_error(-EINVAL, "lupe_reader_read needs a reader and a callback");
	err = rec_read(r->session, NULL, fn, arg);
	if (err < 0) {
		struct lupe_perf_file *f = lupe_session_file(r->session);
		const char *where = f ? lupe_perf_file_error(f) : "";

		lupe_set_error(err, "cannot read all of '%s': %s", r->path,
			       where && where[0] ? where : lupe_strerror(err));
	}
	return err;
}

void lupe_reader_delete(struct lupe_reader *r)
{
	if (!r)
		return;
	lupe_session_delete(r->session);
	free(r->path);
	free(r);
}
