// SPDX-License-Identifier: GPL-2.0
/*
 * Rewrite a perf.data as a finalized file: what `lupe inject` does. A file
 * cut by SIGKILL, power loss or a full disk is read to its last whole
 * record and written again with its data size and features, so that perf,
 * which reads only what a header vouches for, reads all of it. Pipe-mode
 * input becomes a file-mode output; COMPRESSED records leave inflated.
 *
 * Cost: one pass over the records (two for a pipe-mode file, whose attrs
 * come as records), written through the ordinary writer; memory is the
 * writer's buffer.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/output.h>
#include <lupe/perfdata.h>
#include "data/features.h"
#include "data/rewrite.h"
#include "data/writer.h"
#include "counting/evsel.h"
#include "util/util.h"

/* Records that describe a pipe-mode stream: the file's header holds them instead. */
static int pipe_only(uint32_t type)
{
	return type == PERF_RECORD_HEADER_ATTR || type == PERF_RECORD_HEADER_EVENT_TYPE ||
	       type == PERF_RECORD_HEADER_TRACING_DATA || type == PERF_RECORD_HEADER_BUILD_ID ||
	       type == PERF_RECORD_HEADER_FEATURE;
}

/* Pipe mode: tracing data is a record followed by its bytes, build-ids are records. */
static int pipe_feature(struct perf_writer *w, int feat, struct fbuf *b)
{
	if (feat == HEADER_TRACING_DATA) {
		struct perf_record_header_tracing_data ev = {
			.header = { PERF_RECORD_HEADER_TRACING_DATA, 0, sizeof(ev) },
		};
		size_t padded = (b->len + 7) & ~(size_t)7;

		lupe_fbuf_zero(b, padded - b->len);
		ev.size = (uint32_t)padded;
		lupe_perf_writer_write_raw(w, &ev, sizeof(ev));
		return lupe_perf_writer_write_raw(w, b->data, padded);
	}
	if (feat == HEADER_BUILD_ID) {
		/* the table's entries are HEADER_BUILD_ID records already */
		for (size_t off = 0; off + sizeof(struct perf_event_header) <= b->len;) {
			struct perf_event_header *h = (void *)(b->data + off);
			int err;

			if (h->size < sizeof(*h) || off + h->size > b->len)
				break;
			h->type = PERF_RECORD_HEADER_BUILD_ID;
			if ((err = lupe_perf_writer_write_raw(w, h, h->size)))
				return err;
			off += h->size;
		}
		return 0;
	}
	return lupe_perf_writer_pipe_feature(w, feat, b);
}

static int copy_features(struct perf_writer *w, const struct lupe_perf_file *f, int pipe,
			 const struct rewrite_hook *hook)
{
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		struct fbuf b = { 0 };
		const void *p;
		size_t size;
		int err;

		/* the output holds no COMPRESSED records, whatever the input held */
		if (feat == HEADER_COMPRESSED)
			continue;
		p = lupe_perf_file_feature(f, feat, &size);
		if (feat == HEADER_EVENT_DESC && !p) {
			lupe_features_event_desc(w, &b);
		} else if (p) {
			lupe_fbuf_add(&b, p, size);
		} else if (feat == HEADER_BUILD_ID && hook && hook->build_ids && !pipe) {
			hook->build_ids(hook->arg, &b);
			if (!b.len)
				continue;
		} else {
			continue;
		}
		err = pipe ? pipe_feature(w, feat, &b) : lupe_perf_writer_add_feature(w, feat, &b);
		lupe_fbuf_free(&b);
		if (err)
			return err;
	}
	return 0;
}

static int copy_records(struct perf_writer *w, struct lupe_perf_file *f, uint64_t *nr,
			const struct rewrite_hook *hook)
{
	const struct perf_event_header *ev;
	uint64_t off;
	int stable, ret;

	while ((ret = lupe_perf_file_next(f, &ev, &off, &stable)) > 0) {
		if (pipe_only(ev->type))
			continue;
		ret = hook && hook->record ? hook->record(hook->arg, w, f, ev) : 0;
		if (ret < 0)
			return ret;
		if (!ret && (ret = lupe_perf_writer_write_raw(w, ev, ev->size)))
			return ret;
		if (ev->type == PERF_RECORD_FINISHED_ROUND)
			lupe_perf_file_release(f, NULL);
		(*nr)++;
	}
	return ret ? ret : (hook && hook->end ? hook->end(hook->arg, w) : 0);
}

/* Pipe mode: attrs and features arrive as records; read them all first. */
static int read_meta(struct lupe_perf_file *f)
{
	const struct perf_event_header *ev;
	uint64_t off;
	int stable, ret;

	while ((ret = lupe_perf_file_next(f, &ev, &off, &stable)) > 0)
		;
	return ret;
}

/* stdin copied to an unnamed file: a stream is read twice (attrs first). */
static int spool_stdin(char *path, size_t size)
{
	char buf[65536];
	FILE *t = tmpfile();
	ssize_t n;
	int fd;

	if (!t)
		return -errno;
	fd = dup(fileno(t));
	fclose(t);
	if (fd < 0)
		return -errno;
	while ((n = read(0, buf, sizeof(buf))) > 0)
		if (write(fd, buf, n) != n) {
			close(fd);
			return -EIO;
		}
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return fd;
}

int lupe_perf_file_rewrite(const char *in, const char *out, int force, uint64_t *nr_records)
{
	return lupe_perf_file_rewrite_hook(in, out, force, NULL, nr_records);
}

int lupe_perf_file_rewrite_hook(const char *in, const char *out, int force,
				const struct rewrite_hook *hook, uint64_t *nr_records)
{
	struct lupe_perf_file *meta = NULL, *f;
	struct perf_writer *w = NULL;
	struct lupe_output o = { .fd = -1 };
	char spool[64];
	int err, spool_fd = -1, pipe_out = !strcmp(out, "-");

	*nr_records = 0;
	if (!strcmp(in, "-")) {
		spool_fd = spool_stdin(spool, sizeof(spool));
		if (spool_fd < 0)
			return spool_fd;
		in = spool;
	}
	f = lupe_perf_file_open(in, force);
	if (!f) {
		err = -errno;
		if (spool_fd >= 0)
			close(spool_fd);
		return err;
	}
	if (lupe_perf_file_is_pipe(f)) {
		meta = f;
		err = read_meta(meta);
		if (err < 0)
			goto out;
		f = lupe_perf_file_open(in, force);
		if (!f) {
			err = -errno;
			goto out;
		}
	} else {
		meta = f;
	}
	/*
	 * A regular out is a new file renamed over it once whole (in may be
	 * out), the old one kept as out.old as perf does; a device or FIFO is
	 * written in place.
	 */
	err = lupe_output_open(&o, out, LUPE_OUTPUT_BACKUP | LUPE_OUTPUT_PRIVATE | LUPE_OUTPUT_REPLACE);
	if (err)
		goto out;
	w = lupe_perf_writer_new(o.fd, pipe_out);
	if (!w) {
		err = -errno;
		close(o.fd);
		goto out;
	}
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(meta); i++) {
		const struct lupe_evsel *e = lupe_perf_file_evsel(meta, i);
		struct perf_event_attr attr = e->attr;

		if (hook && hook->attr)
			hook->attr(hook->arg, &attr);
		err = lupe_perf_writer_add_attr(w, &attr, e->ids, e->nr_ids, e->name);
		if (err)
			goto out;
	}
	err = lupe_perf_writer_start(w);
	/* a stream says its features before its data; a file after */
	if (!err && pipe_out)
		err = copy_features(w, meta, 1, hook);
	if (!err)
		err = copy_records(w, f, nr_records, hook);
	if (!err && !pipe_out)
		err = copy_features(w, meta, 0, hook);
	if (!err)
		err = lupe_perf_writer_finish(w);
	if (!err)
		err = lupe_output_commit(&o);
out:
	if (err)
		lupe_output_abort(&o);
	lupe_output_release(&o);
	lupe_perf_writer_delete(w);
	if (meta != f)
		lupe_perf_file_delete(meta);
	lupe_perf_file_delete(f);
	if (spool_fd >= 0)
		close(spool_fd);
	return err;
}
