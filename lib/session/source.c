// SPDX-License-Identifier: GPL-2.0
/*
 * The file source: a perf.data file or pipe read record by record through
 * lupe_perf_file_next(), records in the map emitted without a copy.
 */
#include <stdlib.h>
#include <lupe/source.h>
#include "util/util.h"

struct file_source {
	struct lupe_source src;
	struct lupe_perf_file *f;
};

static struct lupe_evlist *file_evlist(struct lupe_source *src)
{
	return lupe_perf_file_evlist(((struct file_source *)src)->f);
}

static int file_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	struct lupe_perf_file *f = ((struct file_source *)src)->f;
	const struct perf_event_header *ev;
	uint64_t off;
	int stable, ret;

	while ((ret = lupe_perf_file_next(f, &ev, &off, &stable)) > 0) {
		int err = emit(arg, ev, stable);

		if (err)
			return err;
	}
	return ret;
}

static void file_release(struct lupe_source *src, const void *ptr)
{
	lupe_perf_file_release(((struct file_source *)src)->f, ptr);
}

static struct lupe_perf_file *file_perf_file(struct lupe_source *src)
{
	return ((struct file_source *)src)->f;
}

static void file_destroy(struct lupe_source *src)
{
	lupe_perf_file_delete(((struct file_source *)src)->f);
	free(src);
}

static const struct lupe_source_ops file_ops = {
	.evlist = file_evlist,
	.read = file_read,
	.release = file_release,
	.perf_file = file_perf_file,
	.destroy = file_destroy,
};

struct lupe_source *lupe_source_file(const char *path, int force)
{
	struct file_source *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return err_ptr(-ENOMEM);
	fs->f = lupe_perf_file_open(path, force);
	if (!fs->f) {
		int err = errno;

		free(fs);
		errno = err;
		return NULL;
	}
	fs->src.ops = &file_ops;
	return &fs->src;
}

struct lupe_perf_file *lupe_source_perf_file(struct lupe_source *src)
{
	return src->ops->perf_file ? src->ops->perf_file(src) : NULL;
}

struct lupe_evlist *lupe_source_evlist(struct lupe_source *src)
{
	return src->ops->evlist(src);
}

int lupe_source_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	return src->ops->read(src, emit, arg);
}

void lupe_source_delete(struct lupe_source *src)
{
	if (src)
		src->ops->destroy(src);
}
