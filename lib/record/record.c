// SPDX-License-Identifier: GPL-2.0
/*
 * The record pipeline: events opened per CPU x thread, one ring per CPU
 * (the other events of that CPU redirect into it), each pass over the
 * rings written to the perf.data writer and closed by FINISHED_ROUND.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <lupe/evsel.h>
#include <lupe/record.h>
#include "data/features.h"
#include "data/tracing-data.h"
#include "data/writer.h"
#include "record/attr.h"
#include "record/hitdsos.h"
#include "sampling/ring.h"
#include "session/sample.h"
#include "session/synthesize.h"
#include "util/util.h"

#define DEFAULT_PAGES 128 /* 512 KiB, what perf_event_mlock_kb allows per CPU */
#define MAX_WAKE 4

struct rev {
	struct perf_event_attr attr;
	char *name;
	char *filter; /* tracepoint filter set after open; NULL if none */
	uint64_t *ids;
	size_t nr_ids;
	uint64_t lost;
};

struct lupe_record {
	struct lupe_record_opts opts;
	char *output;
	struct rev *evs;
	size_t nr_evs;
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads;
	int nr_cpus, nr_threads;
	int *fds;            /* [ev][cpu][thread], -1 where not opened */
	struct ring *rings;  /* one per CPU, or per thread when the CPU map is "any" */
	int nr_rings, per_thread;
	struct pollfd *pfd;  /* rings' fds, every other fd (for POLLHUP), wake fds */
	int nr_pfd, nr_task_fds, nr_hup;
	int wake[MAX_WAKE], nr_wake;
	struct perf_writer *w;
	int out_fd, pipe, created;
	struct hitdsos *hit;
	char **tp_names;
	size_t nr_tp;
	uint64_t first_time, last_time;
	struct lupe_record_stats st;
	int stopped;
	struct id_ev { uint64_t id; size_t ev; } *id_map; /* sorted by id */
	size_t nr_id_map;
};

static int *fd_at(struct lupe_record *r, size_t ev, int cpu, int thr)
{
	return &r->fds[(ev * r->nr_cpus + cpu) * r->nr_threads + thr];
}

struct lupe_record *lupe_record_new(const struct lupe_record_opts *opts,
				    const struct lupe_event *events, size_t nr_events,
				    struct lupe_cpu_map *cpus, struct lupe_thread_map *threads)
{
	struct lupe_record *r;

	if (!opts || opts->sz < sizeof(size_t) || !nr_events || !cpus || !threads)
		return err_ptr(-EINVAL);
	r = calloc(1, sizeof(*r));
	if (!r)
		return err_ptr(-ENOMEM);
	memcpy(&r->opts, opts, opts->sz < sizeof(r->opts) ? opts->sz : sizeof(r->opts));
	r->out_fd = -1;
	r->output = strdup(opts->output ? opts->output : "perf.data");
	r->evs = calloc(nr_events, sizeof(*r->evs));
	r->hit = lupe_hitdsos_new();
	if (!r->output || !r->evs || !r->hit)
		goto nomem;
	r->nr_evs = nr_events;
	for (size_t i = 0; i < nr_events; i++) {
		r->evs[i].attr = events[i].attr;
		r->evs[i].name = strdup(events[i].name ? events[i].name : "");
		if (!r->evs[i].name)
			goto nomem;
		if (events[i].filter && !(r->evs[i].filter = strdup(events[i].filter)))
			goto nomem;
		if (events[i].attr.type == PERF_TYPE_TRACEPOINT && strchr(r->evs[i].name, ':')) {
			char **n = realloc(r->tp_names, (r->nr_tp + 1) * sizeof(*n));

			if (!n)
				goto nomem;
			r->tp_names = n;
			n[r->nr_tp] = strdup(r->evs[i].name);
			if (!n[r->nr_tp])
				goto nomem;
			/* "sys:name:modifiers" keeps only sys:name */
			n[r->nr_tp][strcspn(n[r->nr_tp], ":") + 1 +
				    strcspn(strchr(n[r->nr_tp], ':') + 1, ":/")] = '\0';
			r->nr_tp++;
		}
	}
	r->cpus = lupe_cpu_map_get(cpus);
	r->threads = lupe_thread_map_get(threads);
	r->nr_cpus = lupe_cpu_map_nr(cpus);
	/*
	 * Per-thread events (cpu -1) cannot share a ring across tasks, and the
	 * kernel refuses to mmap an inherited one: they get a ring each, and
	 * only without inherit. Otherwise one ring per CPU takes every thread.
	 */
	r->per_thread = !opts->system_wide && r->nr_cpus == 1 && lupe_cpu_map_cpu(cpus, 0) == -1;
	if (r->per_thread && !opts->no_inherit) {
		lupe_record_delete(r);
		return err_ptr(-EINVAL);
	}
	r->nr_threads = opts->system_wide ? 1 : lupe_thread_map_nr(threads);
	r->nr_rings = r->per_thread ? r->nr_threads : r->nr_cpus;
	if (!r->opts.mmap_pages)
		r->opts.mmap_pages = DEFAULT_PAGES;
	if (r->opts.mmap_pages & (r->opts.mmap_pages - 1)) {
		lupe_record_delete(r);
		return err_ptr(-EINVAL);
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
	if (r->fds) {
		for (int i = 0; i < (int)r->nr_evs * r->nr_cpus * r->nr_threads; i++)
			if (r->fds[i] >= 0)
				close(r->fds[i]);
		free(r->fds);
	}
	if (r->rings) {
		for (int i = 0; i < r->nr_rings; i++)
			lupe_ring_unmap(&r->rings[i]);
		free(r->rings);
	}
	lupe_perf_writer_delete(r->w); /* closes out_fd */
	if (!r->w && r->out_fd > 1)
		close(r->out_fd);
	for (size_t i = 0; r->evs && i < r->nr_evs; i++) {
		free(r->evs[i].name);
		free(r->evs[i].filter);
		free(r->evs[i].ids);
	}
	for (size_t i = 0; i < r->nr_tp; i++)
		free(r->tp_names[i]);
	free(r->tp_names);
	free(r->evs);
	free(r->pfd);
	free(r->id_map);
	lupe_hitdsos_delete(r->hit);
	lupe_cpu_map_put(r->cpus);
	lupe_thread_map_put(r->threads);
	free(r->output);
	free(r);
}

/* perf keeps the previous output as FILE.old, but only a non-empty one. */
static int create_output(struct lupe_record *r)
{
	struct stat st;
	char *old = NULL;
	int rotated = 0;

	if (!strcmp(r->output, "-")) {
		r->out_fd = STDOUT_FILENO;
		r->pipe = 1;
		return 0;
	}
	if (!stat(r->output, &st) && st.st_size && S_ISREG(st.st_mode)) {
		if (asprintf(&old, "%s.old", r->output) < 0)
			return -ENOMEM;
		if (rename(r->output, old) == 0)
			rotated = 1;
	}
	r->out_fd = open(r->output, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0600);
	if (r->out_fd < 0) {
		int err = -errno;

		if (rotated)
			rename(old, r->output);
		free(old);
		return err;
	}
	free(old);
	r->created = 1;
	return 0;
}

static int open_one(struct lupe_record *r, size_t ev, int c, int t)
{
	struct perf_event_attr *a = &r->evs[ev].attr;
	pid_t pid = r->opts.system_wide ? -1 : lupe_thread_map_pid(r->threads, t);
	int cpu = lupe_cpu_map_cpu(r->cpus, c), fd;

	for (;;) {
		fd = lupe_perf_event_open(a, pid, cpu, -1, 0);
		if (fd >= 0)
			break;
		/* Kernels before 6.0 lack PERF_FORMAT_LOST: count without it. */
		if (fd == -EINVAL && (a->read_format & PERF_FORMAT_LOST)) {
			a->read_format &= ~PERF_FORMAT_LOST;
			continue;
		}
		if ((fd == -EACCES || fd == -EPERM) && lupe_record_attr_exclude_kernel_fallback(a)) {
			/* once per process: the default event may be opened twice */
			static int warned;

			if (!warned++)
				pr_warn("kernel.perf_event_paranoid forbids kernel samples: recording user space only");
			continue;
		}
		return fd;
	}
	if (r->evs[ev].filter) {
		int err = lupe_event_fd_set_filter(fd, r->evs[ev].filter);

		if (err) {
			close(fd);
			return err;
		}
	}
	*fd_at(r, ev, c, t) = fd;
	return 0;
}

static int add_id(struct rev *e, int fd)
{
	uint64_t id, *n;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -errno;
	n = realloc(e->ids, (e->nr_ids + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	e->ids = n;
	n[e->nr_ids++] = id;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct id_ev *)a)->id, y = ((const struct id_ev *)b)->id;

	return x < y ? -1 : x > y;
}

/* Samples name their event by id: one sorted table for every CPU and thread. */
static int build_id_map(struct lupe_record *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_evs; i++)
		n += r->evs[i].nr_ids;
	r->id_map = malloc((n ? n : 1) * sizeof(*r->id_map));
	if (!r->id_map)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_evs; i++)
		for (size_t j = 0; j < r->evs[i].nr_ids; j++)
			r->id_map[r->nr_id_map++] = (struct id_ev){ r->evs[i].ids[j], i };
	qsort(r->id_map, r->nr_id_map, sizeof(*r->id_map), cmp_id);
	return 0;
}

int lupe_record_open(struct lupe_record *r, int *failed)
{
	size_t nfd = r->nr_evs * r->nr_cpus * r->nr_threads;
	int err = 0;

	if (failed)
		*failed = -1;
	for (size_t i = 0; i < r->nr_evs; i++)
		lupe_record_attr_config(&r->evs[i].attr, &r->opts, i == 0, r->nr_evs > 1);
	r->fds = malloc(nfd * sizeof(*r->fds));
	r->rings = calloc(r->nr_rings, sizeof(*r->rings));
	r->pfd = calloc(nfd + MAX_WAKE, sizeof(*r->pfd));
	if (!r->fds || !r->rings || !r->pfd)
		return -ENOMEM;
	for (size_t i = 0; i < nfd; i++)
		r->fds[i] = -1;
	for (int i = 0; i < r->nr_rings; i++)
		r->rings[i].fd = -1;

	for (int c = 0; c < r->nr_cpus && !err; c++) {
		for (int t = 0; t < r->nr_threads && !err; t++) {
			for (size_t e = 0; e < r->nr_evs && !err; e++) {
				struct ring *ring;
				int fd;

				err = open_one(r, e, c, t);
				/* a thread of -p that exited meanwhile is not an error */
				if (err == -ESRCH && !r->opts.system_wide && r->nr_threads > 1) {
					err = 0;
					continue;
				}
				if (err) {
					if (failed)
						*failed = (int)e;
					break;
				}
				fd = *fd_at(r, e, c, t);
				ring = &r->rings[r->per_thread ? t : c];
				if (ring->fd < 0) {
					err = lupe_ring_mmap(ring, fd, lupe_cpu_map_cpu(r->cpus, c),
							r->opts.mmap_pages);
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) < 0) {
					err = -errno;
				}
				if (!err)
					err = add_id(&r->evs[e], fd);
				if (!err) {
					r->pfd[r->nr_pfd].fd = fd;
					r->pfd[r->nr_pfd++].events = POLLIN;
				}
			}
		}
	}
	if (err)
		return err;
	r->nr_task_fds = r->nr_pfd;
	err = build_id_map(r);
	return err ? err : create_output(r);
}

int lupe_record_add_wake_fd(struct lupe_record *r, int fd)
{
	if (r->nr_wake == MAX_WAKE)
		return -ENOSPC;
	r->wake[r->nr_wake++] = fd;
	return 0;
}

static const struct rev *ev_of(const struct lupe_record *r, const struct perf_event_header *h)
{
	struct id_ev key, *found;

	if (r->nr_evs == 1)
		return &r->evs[0];
	/* More than one event: every sample starts with PERF_SAMPLE_IDENTIFIER. */
	if (h->type != PERF_RECORD_SAMPLE || h->size < 16)
		return NULL;
	key.id = ((const uint64_t *)(h + 1))[0];
	found = bsearch(&key, r->id_map, r->nr_id_map, sizeof(key), cmp_id);
	return found ? &r->evs[found->ev] : NULL;
}

static void note_sample(struct lupe_record *r, const struct perf_event_header *h)
{
	const struct rev *e = ev_of(r, h);
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

static int on_record(const struct perf_event_header *h, void *arg)
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
	return lupe_perf_writer_write(r->w, h, h->size);
}

static int on_synth(const struct perf_event_header *h, void *arg)
{
	return on_record(h, arg);
}

static int synthesize(struct lupe_record *r)
{
	struct synth s = { on_synth, r, lupe_sample_id_size(&r->evs[0].attr), r->evs[0].attr.mmap_data };
	int err = 0, kernel = 0;

	for (size_t i = 0; i < r->nr_evs; i++)
		kernel |= !r->evs[i].attr.exclude_kernel;
	if (kernel) {
		err = lupe_synth_kernel(&s);
		if (err == -EPERM) {
			pr_warn("kernel addresses are hidden (kernel.kptr_restrict): kernel samples will not resolve");
			err = 0;
		}
		if (err)
			return err;
	}
	if (r->opts.system_wide)
		return lupe_synth_all(&s);
	for (int t = 0; t < lupe_thread_map_nr(r->threads) && !err; t++) {
		pid_t pid = lupe_thread_map_pid(r->threads, t);

		if (r->opts.workload) {
			err = lupe_synth_comm(&s, pid, pid, "lupe-exec");
		} else {
			err = lupe_synth_thread(&s, pid);
			if (err == -ESRCH)
				err = 0;
		}
	}
	return err;
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

int lupe_record_start(struct lupe_record *r)
{
	struct perf_event_header fin = { PERF_RECORD_FINISHED_INIT, 0, sizeof(fin) };
	int err;

	r->w = lupe_perf_writer_new(r->out_fd, r->pipe);
	if (!r->w)
		return -errno;
	for (size_t i = 0; i < r->nr_evs; i++) {
		err = lupe_perf_writer_add_attr(r->w, &r->evs[i].attr, r->evs[i].ids, r->evs[i].nr_ids,
					   r->evs[i].name);
		if (err)
			return err;
	}
	if (r->opts.comp_level && (err = lupe_perf_writer_set_compression(r->w, r->opts.comp_level)))
		return err;
	err = lupe_perf_writer_start(r->w);
	if (!err && r->pipe) {
		struct feat_env env = {
			.version = r->opts.version, .argc = r->opts.argc, .argv = r->opts.argv,
			.comp_level = r->opts.comp_level, .comp_ratio = 1, .comp_mmap_len = 65536,
		};

		err = lupe_features_write(r->w, &env, 1);
		if (!err && r->nr_tp)
			err = pipe_tracing_data(r);
	}
	if (!err)
		err = synthesize(r);
	if (!err)
		err = lupe_perf_writer_write_raw(r->w, &fin, sizeof(fin));
	if (err)
		return err;
	if (!r->opts.workload || r->opts.system_wide) {
		for (int i = 0; i < r->nr_task_fds; i++)
			if (ioctl(r->pfd[i].fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
				return -errno;
	}
	return 0;
}

static int drain(struct lupe_record *r)
{
	uint64_t before = lupe_perf_writer_bytes_in(r->w);

	for (int i = 0; i < r->nr_rings; i++) {
		long n = lupe_ring_read(&r->rings[i], on_record, r);

		if (n < 0)
			return (int)n;
	}
	if (lupe_perf_writer_bytes_in(r->w) != before)
		return lupe_perf_writer_round(r->w);
	return 0;
}

int lupe_record_poll(struct lupe_record *r, int timeout_ms)
{
	int n = r->nr_task_fds, ret;

	for (int i = 0; i < r->nr_wake; i++) {
		r->pfd[n + i].fd = r->wake[i];
		r->pfd[n + i].events = POLLIN;
	}
	ret = poll(r->pfd, n + r->nr_wake, timeout_ms);
	if (ret < 0 && errno != EINTR)
		return -errno;
	if (ret > 0) {
		int data = 0;

		/* A hung-up event (its task exited) stays out of the next polls. */
		for (int i = 0; i < n; i++) {
			data |= r->pfd[i].fd >= 0 && (r->pfd[i].revents & POLLIN);
			if (r->pfd[i].fd >= 0 && (r->pfd[i].revents & (POLLHUP | POLLERR))) {
				r->pfd[i].fd = ~r->pfd[i].fd;
				r->nr_hup++;
			}
		}
		/* perf's "woken up": the kernel said a ring has data */
		r->st.wakeups += data;
	}
	ret = drain(r);
	if (ret)
		return ret;
	return !r->opts.system_wide && r->nr_hup == n ? 1 : 0;
}

/* LOST_SAMPLES for each event that lost any, with the event's id in its trailer. */
static int write_lost_samples(struct lupe_record *r)
{
	for (size_t e = 0; e < r->nr_evs; e++) {
		struct rev *ev = &r->evs[e];
		uint64_t buf[8];
		char rec[sizeof(struct perf_record_lost_samples) + 64] = { 0 };
		struct perf_record_lost_samples *ls = (void *)rec;
		size_t idsz = lupe_sample_id_size(&ev->attr);
		int pos;

		if (!(ev->attr.read_format & PERF_FORMAT_LOST))
			continue;
		for (int i = 0; i < (int)(r->nr_cpus * r->nr_threads); i++) {
			int fd = r->fds[e * r->nr_cpus * r->nr_threads + i];

			/* value, id, lost */
			if (fd >= 0 && read(fd, buf, sizeof(buf)) >= 24)
				ev->lost += buf[2];
		}
		if (!ev->lost)
			continue;
		r->st.lost += ev->lost;
		ls->header.type = PERF_RECORD_LOST_SAMPLES;
		ls->header.size = (uint16_t)(sizeof(*ls) + idsz);
		ls->lost = ev->lost;
		pos = lupe_sample_id_pos(ev->attr.sample_type, 0);
		if (pos < 0 && ev->nr_ids)
			memcpy(rec + ls->header.size + pos, &ev->ids[0], 8);
		lupe_perf_writer_write(r->w, ls, ls->header.size);
	}
	return 0;
}

int lupe_record_stop(struct lupe_record *r)
{
	struct fbuf bids = { 0 }, td = { 0 };
	struct stat st;
	int err;

	if (r->stopped || !r->w)
		return -EINVAL;
	r->stopped = 1;
	for (int i = 0; i < (int)(r->nr_evs * r->nr_cpus * r->nr_threads); i++)
		if (r->fds[i] >= 0)
			ioctl(r->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	err = drain(r);
	if (!err)
		err = write_lost_samples(r);
	if (!err && !r->pipe) {
		uint64_t in = lupe_perf_writer_bytes_in(r->w), out;
		struct feat_env env = {
			.version = r->opts.version, .argc = r->opts.argc, .argv = r->opts.argv,
			.first_sample_time = r->first_time, .last_sample_time = r->last_time,
			.build_ids = &bids, .tracing_data = &td,
			.comp_level = r->opts.comp_level, .comp_mmap_len = 65536,
		};

		if (r->nr_tp)
			err = lupe_tracing_data_build(&td, r->tp_names, r->nr_tp);
		lupe_hitdsos_build_ids(r->hit, &bids);
		/* the ratio perf prints: bytes in per byte out */
		out = lupe_perf_writer_data_size(r->w);
		env.comp_ratio = out ? (uint32_t)((in + out / 2) / out) : 1;
		if (!err)
			err = lupe_features_write(r->w, &env, 0);
	}
	if (!err)
		err = lupe_perf_writer_finish(r->w);
	lupe_fbuf_free(&bids);
	lupe_fbuf_free(&td);
	r->st.bytes_written = lupe_perf_writer_data_size(r->w);
	r->st.bytes_in = lupe_perf_writer_bytes_in(r->w);
	if (!r->pipe && !fstat(r->out_fd, &st))
		r->st.file_size = st.st_size;
	if (err)
		lupe_record_abort(r);
	return err;
}

void lupe_record_abort(struct lupe_record *r)
{
	if (r->created) {
		unlink(r->output);
		r->created = 0;
	}
}

void lupe_record_get_stats(const struct lupe_record *r, struct lupe_record_stats *st)
{
	*st = r->st;
	if (r->w) {
		st->bytes_written = lupe_perf_writer_data_size(r->w);
		st->bytes_in = lupe_perf_writer_bytes_in(r->w);
	}
}

const char *lupe_record_output(const struct lupe_record *r)
{
	return r->output;
}
