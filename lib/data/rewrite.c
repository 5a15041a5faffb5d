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
#include <lupe/perfdata.h>
#include "data/features.h"
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

static int copy_features(struct perf_writer *w, const struct lupe_perf_file *f)
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
		} else if (!p) {
			continue;
		} else {
			lupe_fbuf_add(&b, p, size);
		}
		err = lupe_perf_writer_add_feature(w, feat, &b);
		lupe_fbuf_free(&b);
		if (err)
			return err;
	}
	return 0;
}

static int copy_records(struct perf_writer *w, struct lupe_perf_file *f, uint64_t *nr)
{
	const struct perf_event_header *ev;
	uint64_t off;
	int stable, ret;

	while ((ret = lupe_perf_file_next(f, &ev, &off, &stable)) > 0) {
		if (pipe_only(ev->type))
			continue;
		ret = lupe_perf_writer_write_raw(w, ev, ev->size);
		if (ret)
			return ret;
		if (ev->type == PERF_RECORD_FINISHED_ROUND)
			lupe_perf_file_release(f, NULL);
		(*nr)++;
	}
	return ret;
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

int lupe_perf_file_rewrite(const char *in, const char *out, int force, uint64_t *nr_records)
{
	struct lupe_perf_file *meta = NULL, *f;
	struct perf_writer *w = NULL;
	char *tmp = NULL;
	int fd = -1, err;

	*nr_records = 0;
	f = lupe_perf_file_open(in, force);
	if (!f)
		return -errno;
	if (lupe_perf_file_is_pipe(f)) {
		if (!strcmp(in, "-")) {
			err = -ESPIPE; /* the stream cannot be read twice */
			goto out;
		}
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
	/* a temporary file beside out, renamed over it at the end: in may be out */
	if (asprintf(&tmp, "%s.XXXXXX", out) < 0) {
		tmp = NULL;
		err = -ENOMEM;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	w = lupe_perf_writer_new(fd, 0);
	if (!w) {
		err = -errno;
		close(fd);
		goto out;
	}
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(meta); i++) {
		const struct lupe_evsel *e = lupe_perf_file_evsel(meta, i);

		err = lupe_perf_writer_add_attr(w, &e->attr, e->ids, e->nr_ids, e->name);
		if (err)
			goto out;
	}
	err = lupe_perf_writer_start(w);
	if (!err)
		err = copy_records(w, f, nr_records);
	if (!err)
		err = copy_features(w, meta);
	if (!err)
		err = lupe_perf_writer_finish(w);
	if (!err && rename(tmp, out))
		err = -errno;
out:
	if (err && tmp && fd >= 0)
		unlink(tmp);
	free(tmp);
	lupe_perf_writer_delete(w);
	if (meta != f)
		lupe_perf_file_close(meta);
	lupe_perf_file_close(f);
	return err;
}
