// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader. File mode maps the whole file and hands out
 * pointers into the map, so a record that is only looked at is never
 * copied (a thread maps its pages ahead of the reader and gives back those
 * behind: see "Read-ahead"); pipe mode reads records one at a time into a
 * buffer. Every length in the file is checked against the bytes that hold
 * it before it is used: a broken file yields an error naming the offset,
 * never a read out of bounds.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lupe/perfdata.h>
#include "data/format.h"
#include "data/reader.h"
#include "counting/evsel.h"
#include "sampling/sample.h"
#include "util/util.h"

struct feature {
	const void *data;
	size_t size;
	void *owned; /* pipe mode: a copy */
};

struct lupe_perf_file {
	int fd;
	int pipe;
	const uint8_t *map;
	size_t map_size;
	uint64_t data_off, data_end, pos;
	uint64_t released; /* pages below this offset were given back */
	int copied;        /* the last record was copied out of the map to align it */
	struct perf_file_header hdr;
	struct lupe_evlist *evlist; /* the file's events: the one evsel type */
	struct feature features[HEADER_LAST_FEATURE];
	void *tep;
	int tep_tried;
	/* pipe mode */
	FILE *in;
	struct rbuf rec;
	/* COMPRESSED: the records inflated from the current one */
	struct decomp *decomp;
	struct rbuf out;
	size_t out_pos;
	uint64_t comp_off;
	uint64_t last_off, nr_compressed; /* for lupe_perf_file_last_offset(), _nr_compressed() */
	int inflating; /* the last COMPRESSED record may inflate further */
	/*
	 * A file whose header names no features was not finalized (lupe's
	 * writer adds them last), one whose data runs past its end was cut:
	 * both are read to their last whole record, then say how many.
	 */
	const char *cut; /* why, or NULL for a whole file */
	uint64_t sure_end;  /* up to here the header vouches for the data */
	uint64_t nr_records;
	char *path;
	char errbuf[256];
	struct ahead *ahead; /* file mode on several CPUs: the read-ahead thread */
	uint64_t ahead_kick; /* wake it when pos gets here */
};

/* COMPRESSED records are inflated this much at a time, whatever they claim. */
#define INFLATE_SLICE (256u * 1024)

int lupe_rbuf_reserve(struct rbuf *b, size_t more)
{
	if (more > SIZE_MAX - b->len)
		return -ENOMEM;
	return lupe_grow(&b->p, &b->cap, b->len + more, 1);
}

__attribute__((format(printf, 3, 4)))
static int bad(struct lupe_perf_file *f, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->errbuf, sizeof(f->errbuf), fmt, ap);
	va_end(ap);
	return err;
}

const char *lupe_perf_file_error(const struct lupe_perf_file *f)
{
	return f ? f->errbuf : "";
}

int lupe_perf_file_is_pipe(const struct lupe_perf_file *f)
{
	return f->pipe;
}

size_t lupe_perf_file_nr_evsels(const struct lupe_perf_file *f)
{
	return (size_t)f->evlist->nr;
}

struct lupe_evsel *lupe_perf_file_evsel(struct lupe_perf_file *f, size_t idx)
{
	return idx < (size_t)f->evlist->nr ? f->evlist->evsels[idx] : NULL;
}

struct lupe_evlist *lupe_perf_file_evlist(struct lupe_perf_file *f)
{
	return f->evlist;
}

const void *lupe_perf_file_feature(const struct lupe_perf_file *f, int feat, size_t *size)
{
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE || !f->features[feat].data)
		return NULL;
	*size = f->features[feat].size;
	return f->features[feat].data;
}

void lupe_perf_file_data_section(const struct lupe_perf_file *f, uint64_t *offset,
				 uint64_t *size)
{
	*offset = f->data_off;
	*size = f->data_end - f->data_off;
}

static struct lupe_evsel *add_evsel(struct lupe_perf_file *f, const void *attr, size_t attr_size)
{
	struct perf_event_attr a = { 0 };

	memcpy(&a, attr, attr_size < sizeof(a) ? attr_size : sizeof(a));
	return lupe_evlist_add(f->evlist, &a, NULL);
}

struct lupe_evsel *lupe_perf_file_evsel_by_id(struct lupe_perf_file *f, uint64_t id)
{
	return lupe_evlist_evsel_by_id(f->evlist, id);
}

struct lupe_evsel *lupe_perf_file_record_evsel(struct lupe_perf_file *f,
					       const struct perf_event_header *ev)
{
	return lupe_evlist_record_evsel(f->evlist, ev);
}

/* EVENT_DESC: names (and ids) for the attrs. */
static void apply_event_desc(struct lupe_perf_file *f, const uint8_t *p, size_t size)
{
	const uint8_t *end = p + size;
	uint32_t nr, attr_size;

	if (size < 8)
		return;
	memcpy(&nr, p, 4);
	memcpy(&attr_size, p + 4, 4);
	p += 8;
	for (uint32_t i = 0; i < nr; i++) {
		struct perf_event_attr attr;
		uint32_t nr_ids, len;
		struct lupe_evsel *e;

		if (attr_size < PERF_ATTR_SIZE_VER0 || (size_t)(end - p) < (size_t)attr_size + 8)
			return;
		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, p, attr_size < sizeof(attr) ? attr_size : sizeof(attr));
		p += attr_size;
		memcpy(&nr_ids, p, 4);
		memcpy(&len, p + 4, 4);
		p += 8;
		if ((size_t)(end - p) < len || (size_t)(end - p - len) / 8 < nr_ids)
			return;
		e = i < (size_t)f->evlist->nr ? f->evlist->evsels[i] : NULL;
		if (e && len) {
			free(e->name);
			e->name = strndup((const char *)p, len);
		}
		p += len;
		if (e && !e->nr_ids)
			lupe_evsel_set_ids(e, (const uint64_t *)p, nr_ids);
		p += 8 * (size_t)nr_ids;
	}
}

static void name_evsels(struct lupe_perf_file *f)
{
	size_t size;
	const void *d = lupe_perf_file_feature(f, HEADER_EVENT_DESC, &size);

	if (d)
		apply_event_desc(f, d, size);
	for (size_t i = 0; i < (size_t)f->evlist->nr; i++) {
		struct lupe_evsel *e = f->evlist->evsels[i];

		if (e->attr.type == PERF_TYPE_TRACEPOINT) {
			const char *sys, *name;
			void *tep = lupe_perf_file_tep(f);

			e->tp_format = tep ? lupe_tracing_event(tep, e->attr.config, &sys, &name) : NULL;
			if (!e->name && e->tp_format && asprintf(&e->name, "%s:%s", sys, name) < 0)
				e->name = NULL;
		}
		if (!e->name)
			e->name = lupe_evsel_name_from_attr(&e->attr);
	}
}

void *lupe_perf_file_tep(struct lupe_perf_file *f)
{
	size_t size;
	const void *d;

	if (f->tep || f->tep_tried)
		return f->tep;
	d = lupe_perf_file_feature(f, HEADER_TRACING_DATA, &size);
	if (!d)
		return NULL;
	f->tep_tried = 1;
	f->tep = lupe_tracing_data_parse(d, size);
	if (!f->tep && errno != LUPE_ERR_CORRUPT) /* a corrupt one was said already */
		pr_warn("cannot parse the tracing data: tracepoint fields are not shown");
	return f->tep;
}

static int read_features(struct lupe_perf_file *f)
{
	uint64_t off = f->hdr.data.offset + f->hdr.data.size;
	int nr = 0;

	for (int i = 0; i < HEADER_FEAT_BITS; i++)
		nr += !!(f->hdr.adds_features[i / 64] & (1ULL << (i % 64)));
	if (!nr)
		return 0;
	if (off > f->map_size || (f->map_size - off) / sizeof(struct perf_file_section) < (size_t)nr) {
		pr_warn("the feature table at offset %#llx is missing: header information is not shown",
			(unsigned long long)off);
		return 0;
	}
	/* the table follows the data, whose size need not be a multiple of 8: copy each entry */
	for (int i = 0; i < HEADER_FEAT_BITS; i++) {
		struct perf_file_section sec;

		if (!(f->hdr.adds_features[i / 64] & (1ULL << (i % 64))))
			continue;
		memcpy(&sec, f->map + off, sizeof(sec));
		off += sizeof(sec);
		if (i >= HEADER_LAST_FEATURE)
			continue;
		if (sec.offset > f->map_size || sec.size > f->map_size - sec.offset)
			pr_warn("feature %d at offset %#llx runs past the end of the file: ignored",
				i, (unsigned long long)sec.offset);
		else
			f->features[i] = (struct feature){ f->map + sec.offset, sec.size, NULL };
	}
	return 0;
}

/*
 * Read-ahead, in file mode on a machine of more than one CPU: a thread
 * maps the data section's pages a window ahead of the reader
 * (MADV_POPULATE_READ) and gives back the pages behind it
 * (lupe_perf_file_release()'s MADV_DONTNEED), so that the reader's thread
 * takes no page faults and makes no madvise calls. On the bench's dwarf
 * file (379 MB, in the page cache) those were a third of `lupe script`'s
 * time on its one thread: page faults 18%, the madvise calls 9%. The
 * thread only changes which pages are mapped, never what the reader sees
 * (a page given back or not yet mapped faults in from the file); it costs
 * up to its window more bytes resident: AHEAD, or a 64th of the data on a
 * smaller file. On the bench's many-process file (21 MB, read in 0.4 s) a
 * window of AHEAD cost 4-5 MB of lupe's ~30 MB peak for no wall gain; a
 * 64th of the data keeps the thread's price in proportion to what it can
 * save, the time of faulting the data's pages in.
 */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#define AHEAD (3u << 20)
#define AHEAD_STEP (1u << 20)
#define AHEAD_MIN_DATA (16u << 20) /* smaller files: not worth a thread */
#define AHEAD_SHARE 64 /* the window is at most this fraction of the data */

struct ahead {
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	uint8_t *map;
	uint64_t window, step; /* map this far ahead of the reader, this much at a time */
	uint64_t end;          /* of the data, rounded up to a page */
	uint64_t want, done;   /* map up to want; mapped up to done */
	uint64_t drop, dropped; /* give back up to drop; given back up to dropped */
	int stop;
};

static void *ahead_thread(void *arg)
{
	struct ahead *a = arg;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		uint64_t from, to;
		int advice;

		while (!a->stop && a->done >= a->want && a->dropped >= a->drop)
			pthread_cond_wait(&a->wake, &a->lock);
		if (a->stop)
			break;
		if (a->dropped < a->drop) {
			from = a->dropped;
			to = a->drop;
			advice = MADV_DONTNEED;
		} else {
			from = a->done > a->dropped ? a->done : a->dropped;
			to = from + a->step < a->want ? from + a->step : a->want;
			advice = MADV_POPULATE_READ;
		}
		pthread_mutex_unlock(&a->lock);
		/* a kernel without MADV_POPULATE_READ (before 5.14): the reader faults as before */
		if (to > from && madvise(a->map + from, to - from, advice) && advice == MADV_POPULATE_READ)
			to = a->end;
		pthread_mutex_lock(&a->lock);
		if (advice == MADV_DONTNEED && to > a->dropped)
			a->dropped = to;
		else if (advice == MADV_POPULATE_READ)
			a->done = to;
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void ahead_start(struct lupe_perf_file *f)
{
	struct ahead *a;
	uint64_t page = 4096;

	if (f->data_end - f->data_off < AHEAD_MIN_DATA || sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    !(a = calloc(1, sizeof(*a))))
		return;
	a->map = (uint8_t *)f->map;
	a->window = (f->data_end - f->data_off) / AHEAD_SHARE;
	if (a->window > AHEAD)
		a->window = AHEAD;
	/* three steps a window, as AHEAD_STEP is to AHEAD */
	a->step = (a->window / (AHEAD / AHEAD_STEP)) & ~(page - 1);
	a->window = a->step * (AHEAD / AHEAD_STEP);
	a->end = (f->data_end + page - 1) & ~(page - 1);
	a->done = a->dropped = a->drop = f->data_off & ~(page - 1);
	a->want = a->done + a->window < a->end ? a->done + a->window : a->end;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	if (pthread_create(&a->th, NULL, ahead_thread, a)) {
		pthread_cond_destroy(&a->wake);
		pthread_mutex_destroy(&a->lock);
		free(a);
		return;
	}
	f->ahead = a;
	f->ahead_kick = f->data_off + a->step;
}

/*
 * Ask the thread to map its window past pos, and to give back what is
 * below drop (if not 0). When the thread is behind with giving back (it
 * waits for a CPU the machine's other work took), this thread gives back
 * itself: the pages would stay resident while the reader goes on.
 */
static void ahead_ask(struct lupe_perf_file *f, uint64_t drop)
{
	struct ahead *a = f->ahead;
	uint64_t want = (f->pos + a->window) & ~(uint64_t)4095, from = 0;

	pthread_mutex_lock(&a->lock);
	if (want > a->want)
		a->want = want < a->end ? want : a->end;
	if (drop > a->drop && a->drop > a->dropped + a->step) {
		from = a->dropped;
		a->dropped = a->drop = drop;
	} else if (drop > a->drop) {
		a->drop = drop;
	}
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	if (from)
		madvise(a->map + from, drop - from, MADV_DONTNEED);
	f->ahead_kick = f->pos + a->step;
}

static void ahead_stop(struct lupe_perf_file *f)
{
	struct ahead *a = f->ahead;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = 1;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->th, NULL);
	pthread_cond_destroy(&a->wake);
	pthread_mutex_destroy(&a->lock);
	free(a);
	f->ahead = NULL;
}

static int open_file_mode(struct lupe_perf_file *f, const char *path)
{
	const struct perf_file_header *h;
	struct stat st;

	if (fstat(f->fd, &st))
		return -errno;
	if (!st.st_size)
		return bad(f, -LUPE_ERR_FORMAT, "'%s' is empty: nothing to report", path);
	f->map_size = st.st_size;
	if (f->map_size < sizeof(*h))
		return bad(f, -LUPE_ERR_TRUNCATED,
			   "'%s' is too short for a perf.data header (%zu bytes, needs %zu)", path,
			   f->map_size, sizeof(*h));
	f->map = mmap(NULL, f->map_size, PROT_READ, MAP_PRIVATE, f->fd, 0);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return -errno;
	}
	madvise((void *)f->map, f->map_size, MADV_SEQUENTIAL);
	h = (const void *)f->map;
	if (h->magic == PERF_MAGIC2_SWAPPED)
		return bad(f, -LUPE_ERR_NOT_SUPPORTED,
			   "'%s' was written on a machine of the other byte order: not supported yet", path);
	if (h->magic != PERF_MAGIC2)
		return bad(f, -LUPE_ERR_FORMAT, "'%s' is not a perf.data file (no PERFILE2 magic at offset 0)", path);
	if (h->size != sizeof(*h) && h->size != sizeof(struct perf_pipe_file_header))
		return bad(f, -LUPE_ERR_CORRUPT, "'%s': header size %llu at offset 8 is not %zu", path,
			   (unsigned long long)h->size, sizeof(*h));
	if (h->size == sizeof(struct perf_pipe_file_header))
		return 1; /* a pipe-mode stream saved to a file */
	f->hdr = *h;
	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) ||
	    h->attr_size > 4096)
		return bad(f, -LUPE_ERR_CORRUPT, "'%s': attr size %llu at offset 16 is impossible", path,
			   (unsigned long long)h->attr_size);
	if (h->attrs.offset > f->map_size || h->attrs.size > f->map_size - h->attrs.offset ||
	    h->attrs.size % h->attr_size || !h->attrs.size || h->attrs.offset % 8 || h->attr_size % 8)
		return bad(f, -LUPE_ERR_CORRUPT, "'%s': the attrs section (offset %#llx, size %llu) is outside the file",
			   path, (unsigned long long)h->attrs.offset, (unsigned long long)h->attrs.size);
	for (uint64_t off = h->attrs.offset; off < h->attrs.offset + h->attrs.size; off += h->attr_size) {
		const struct perf_file_section *ids =
			(const void *)(f->map + off + h->attr_size - sizeof(*ids));
		const struct perf_event_attr *a = (const void *)(f->map + off);
		size_t asz = h->attr_size - sizeof(*ids);
		struct lupe_evsel *e;

		if (a->size && a->size < asz)
			asz = a->size;
		e = add_evsel(f, a, asz);
		if (!e)
			return -ENOMEM;
		if (ids->offset > f->map_size || ids->size > f->map_size - ids->offset || ids->size % 8 ||
		    ids->offset % 8)
			return bad(f, -LUPE_ERR_CORRUPT, "'%s': the ids of attr at offset %#llx lie outside the file",
				   path, (unsigned long long)off);
		if (lupe_evsel_set_ids(e, (const uint64_t *)(f->map + ids->offset), ids->size / 8))
			return -ENOMEM;
	}
	f->data_off = h->data.offset;
	if (h->data.offset % 8)
		return bad(f, -LUPE_ERR_CORRUPT, "'%s': the data section offset %#llx is not 8-byte aligned",
			   path, (unsigned long long)h->data.offset);
	if (h->data.offset > f->map_size)
		return bad(f, -LUPE_ERR_TRUNCATED, "'%s': the data section starts at %#llx, past the end of the file (%zu bytes)",
			   path, (unsigned long long)h->data.offset, f->map_size);
	int any_feature = 0;

	for (int i = 0; i < 4; i++)
		any_feature |= !!h->adds_features[i];
	f->sure_end = h->data.size <= f->map_size - h->data.offset ? h->data.offset + h->data.size
								     : h->data.offset;
	if (!h->data.size || !any_feature) {
		/* lupe record killed before its end, or perf record before its header */
		f->cut = "was not finalized";
		f->data_end = f->map_size;
	} else if (h->data.size > f->map_size - h->data.offset) {
		pr_warn("'%s' is truncated: its data section ends at %#llx but the file at %#zx", path,
			(unsigned long long)(h->data.offset + h->data.size), f->map_size);
		f->cut = "is truncated";
		f->data_end = f->map_size;
	} else {
		f->data_end = h->data.offset + h->data.size;
		read_features(f);
	}
	f->pos = f->data_off;
	ahead_start(f);
	return 0;
}

static int open_pipe_mode(struct lupe_perf_file *f, const char *path)
{
	struct perf_pipe_file_header h;

	if (f->map) {
		/* A pipe stream saved to a file: read it through stdio as well. */
		ahead_stop(f);
		munmap((void *)f->map, f->map_size);
		f->map = NULL;
		lseek(f->fd, 0, SEEK_SET);
	}
	f->pipe = 1;
	f->in = fdopen(f->fd, "r");
	if (!f->in)
		return -errno;
	f->fd = -1;
	if (fread(&h, sizeof(h), 1, f->in) != 1)
		return bad(f, -LUPE_ERR_FORMAT, "'%s' holds no perf.data header: nothing to report", path);
	if (h.magic != PERF_MAGIC2)
		return bad(f, -LUPE_ERR_FORMAT, "'%s' is not a perf.data stream (no PERFILE2 magic at offset 0)", path);
	if (h.size != sizeof(h))
		return bad(f, -LUPE_ERR_CORRUPT, "'%s': pipe header size %llu at offset 8 is not 16", path,
			   (unsigned long long)h.size);
	f->pos = sizeof(h);
	return 0;
}

struct lupe_perf_file *lupe_perf_file_open(const char *path, int force)
{
	struct lupe_perf_file *f = calloc(1, sizeof(*f));
	struct stat st;
	int err;

	if (!f)
		return NULL;
	f->fd = -1;
	f->evlist = lupe_evlist_new_empty();
	if (!f->evlist) {
		free(f);
		return err_ptr(-ENOMEM);
	}
	if (!strcmp(path, "-")) {
		f->fd = dup(0);
		if (f->fd < 0)
			goto fail_errno;
		err = open_pipe_mode(f, "stdin");
	} else {
		f->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			goto fail_errno;
		if (fstat(f->fd, &st))
			goto fail_errno;
		if (!force && st.st_uid && st.st_uid != geteuid()) {
			bad(f, -EPERM, "'%s' is not owned by you or root (use -f to read it anyway)", path);
			err = -EPERM;
			goto fail;
		}
		if (S_ISFIFO(st.st_mode))
			err = open_pipe_mode(f, path);
		else if ((err = open_file_mode(f, path)) == 1)
			err = open_pipe_mode(f, path);
	}
	if (err)
		goto fail;
	if (!(f->path = strdup(path))) {
		err = -ENOMEM;
		goto fail;
	}
	f->decomp = NULL;
	if (!f->pipe)
		name_evsels(f);
	return f;
fail_errno:
	err = -errno;
	snprintf(f->errbuf, sizeof(f->errbuf), "cannot open '%s': %s", path, strerror(errno));
fail:
	if (!f->errbuf[0])
		snprintf(f->errbuf, sizeof(f->errbuf), "cannot read '%s': %s", path, lupe_strerror(err));
	lupe_log(LUPE_LOG_ERROR, "%s", f->errbuf);
	lupe_perf_file_delete(f);
	return err_ptr(err);
}

void lupe_perf_file_delete(struct lupe_perf_file *f)
{
	if (!f)
		return;
	lupe_evlist_delete(f->evlist);
	for (int i = 0; i < HEADER_LAST_FEATURE; i++)
		free(f->features[i].owned);
	lupe_tracing_data_free(f->tep);
	ahead_stop(f);
	if (f->map)
		munmap((void *)f->map, f->map_size);
	if (f->in)
		fclose(f->in);
	if (f->fd >= 0)
		close(f->fd);
	free(f->rec.p);
	free(f->out.p);
	lupe_decomp_delete(f->decomp);
	free(f->path);
	free(f);
}

static uint64_t release_step(const struct lupe_perf_file *f)
{
	uint64_t step = ((f->data_end - f->data_off) / AHEAD_SHARE) & ~(uint64_t)4095;

	return step < (64u << 10) ? 64u << 10 : step > (1u << 20) ? 1u << 20 : step;
}

void lupe_perf_file_release(struct lupe_perf_file *f, const void *ptr)
{
	uint64_t upto, page = 4096;

	if (f->pipe || !f->map)
		return;
	upto = ptr ? (uint64_t)((const uint8_t *)ptr - f->map) : f->pos;
	if (upto > f->data_end)
		upto = f->data_end;
	upto &= ~(page - 1);
	if (f->released < (f->data_off & ~(page - 1)))
		f->released = f->data_off & ~(page - 1);
	/*
	 * give back in steps of 1 MiB (each madvise costs a system call), or
	 * of a 64th of the data on a smaller file, as the window ahead
	 */
	if (upto < f->released + release_step(f))
		return;
	if (f->ahead)
		ahead_ask(f, upto);
	else
		madvise((void *)(f->map + f->released), upto - f->released, MADV_DONTNEED);
	f->released = upto;
}

/* Pipe mode: the records that describe the stream are taken in here. */
static int pipe_meta(struct lupe_perf_file *f, const struct perf_event_header *ev, uint64_t off)
{
	switch (ev->type) {
	case PERF_RECORD_HEADER_ATTR: {
		const struct perf_event_attr *a = (const void *)(ev + 1);
		size_t room = ev->size - sizeof(*ev), asz;
		struct lupe_evsel *e;

		if (room < PERF_ATTR_SIZE_VER0)
			return bad(f, -LUPE_ERR_CORRUPT, "the attr record at offset %#llx is too short",
				   (unsigned long long)off);
		asz = a->size ? a->size : PERF_ATTR_SIZE_VER0;
		if (asz > room)
			return bad(f, -LUPE_ERR_CORRUPT, "the attr record at offset %#llx is too short",
				   (unsigned long long)off);
		e = add_evsel(f, a, asz);
		if (!e || lupe_evsel_set_ids(e, (const uint64_t *)((const char *)a + asz), (room - asz) / 8))
			return -ENOMEM;
		e->name = NULL;
		return 0;
	}
	case PERF_RECORD_HEADER_FEATURE: {
		const struct perf_record_header_feature *r = (const void *)ev;
		size_t n;
		void *copy;

		if (ev->size < sizeof(*r))
			return bad(f, -LUPE_ERR_CORRUPT, "the feature record at offset %#llx is too short",
				   (unsigned long long)off);
		if (r->feat_id == 0 || r->feat_id >= HEADER_LAST_FEATURE)
			return 0;
		n = ev->size - sizeof(*r);
		copy = malloc(n ? n : 1);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, r->data, n);
		free(f->features[r->feat_id].owned);
		f->features[r->feat_id] = (struct feature){ copy, n, copy };
		return 0;
	}
	default:
		return 0;
	}
}

/*
 * Pipe mode: TRACING_DATA's payload follows its record outside its size.
 * The size is a claim of up to 4 GiB: the buffer grows with what the
 * stream really holds, never to the claim at once.
 */
static int pipe_tracing_data(struct lupe_perf_file *f, const struct perf_event_header *ev)
{
	struct rbuf b = { 0 };
	uint32_t size;
	size_t padded;

	if (ev->size < sizeof(*ev) + 4)
		return -LUPE_ERR_CORRUPT;
	memcpy(&size, ev + 1, 4);
	padded = ((size_t)size + 7) & ~(size_t)7;
	while (b.len < padded) {
		size_t step = padded - b.len < (1u << 20) ? padded - b.len : (1u << 20);

		if (lupe_rbuf_reserve(&b, step)) {
			free(b.p);
			return -ENOMEM;
		}
		if (fread(b.p + b.len, 1, step, f->in) != step) {
			free(b.p);
			return bad(f, -LUPE_ERR_TRUNCATED, "the tracing data at offset %#llx is cut short",
				   (unsigned long long)f->pos);
		}
		b.len += step;
	}
	if (!b.p && !(b.p = malloc(1)))
		return -ENOMEM;
	f->pos += padded;
	free(f->features[HEADER_TRACING_DATA].owned);
	f->features[HEADER_TRACING_DATA] = (struct feature){ b.p, size, b.p };
	return 0;
}

/*
 * Pipe mode: the stream ends inside a record (its writer was killed, the
 * disk filled up): what came before is good. Said once; the end.
 */
static int stream_cut(struct lupe_perf_file *f)
{
	pr_warn("the stream '%s' ends inside the record at offset %#llx: %llu records recovered",
		f->path ? f->path : "-", (unsigned long long)f->pos, (unsigned long long)f->nr_records);
	return 0;
}

static int next_raw(struct lupe_perf_file *f, const struct perf_event_header **out, uint64_t *off)
{
	const struct perf_event_header *ev;
	size_t n;

	if (!f->pipe) {
		if (f->pos >= f->data_end)
			return 0;
		if (f->data_end - f->pos < sizeof(*ev))
			return f->cut && f->pos >= f->sure_end ? 0 : bad(f, -LUPE_ERR_TRUNCATED, "the file ends inside a record header at offset %#llx",
						(unsigned long long)f->pos);
		struct perf_event_header hd;
		/*
		 * Past what the header vouches for, a cut file may hold anything
		 * after its last whole record (a half-written tail, features cut
		 * short, zeros after a power loss): that ends it.
		 */
		int tail = f->cut && f->pos >= f->sure_end;

		/* COMPRESSED records need not be a multiple of 8 long: read such a header by copy */
		memcpy(&hd, f->map + f->pos, sizeof(hd));
		if (hd.size < sizeof(hd))
			return tail ? 0 : bad(f, -LUPE_ERR_CORRUPT, "the record at offset %#llx has an impossible size %u",
						(unsigned long long)f->pos, hd.size);
		if (hd.size > f->data_end - f->pos)
			return tail ? 0 : bad(f, -LUPE_ERR_TRUNCATED, "the record at offset %#llx (%u bytes) runs past the end of the data at %#llx",
						(unsigned long long)f->pos, hd.size, (unsigned long long)f->data_end);
		ev = (const void *)(f->map + f->pos);
		f->copied = 0;
		if (f->pos % 8) {
			if (lupe_rbuf_reserve(&f->rec, hd.size))
				return -ENOMEM;
			memcpy(f->rec.p, ev, hd.size);
			ev = (const void *)f->rec.p;
			f->copied = 1;
		}
		*off = f->pos;
		f->pos += hd.size;
		*out = ev;
		/*
		 * The lines a sample is read by later (its fields, registers, the
		 * top of a stack copy, and its end: the copy's dyn size), fetched
		 * now: delivered a round later, it finds them in the caches more
		 * often than not. Those reads waiting on memory were three
		 * quarters of the unwinder's time and a third of the sample
		 * parser's on the bench file; with these, about 10% less CPU.
		 */
		for (unsigned o = 64; o < hd.size && o < 1024; o += 64)
			__builtin_prefetch((const char *)ev + o);
		__builtin_prefetch((const char *)ev + hd.size - 1);
		if (f->ahead && f->pos >= f->ahead_kick)
			ahead_ask(f, 0);
		return 1;
	}
	if (lupe_rbuf_reserve(&f->rec, 65536))
		return -ENOMEM;
	f->rec.len = 0;
	n = fread(f->rec.p, 1, sizeof(*ev), f->in);
	if (n != sizeof(*ev)) {
		if (ferror(f->in))
			return -errno;
		return n ? stream_cut(f) : 0; /* a clean end between records, or a torn header */
	}
	ev = (const void *)f->rec.p;
	if (ev->size < sizeof(*ev))
		return bad(f, -LUPE_ERR_CORRUPT, "the record at offset %#llx has an impossible size %u",
			   (unsigned long long)f->pos, ev->size);
	if (fread(f->rec.p + sizeof(*ev), 1, ev->size - sizeof(*ev), f->in) != ev->size - sizeof(*ev))
		return ferror(f->in) ? -errno : stream_cut(f);
	*off = f->pos;
	f->pos += ev->size;
	*out = ev;
	return 1;
}

/* The next whole record left in the inflated buffer, if any. */
static int next_inflated(struct lupe_perf_file *f, const struct perf_event_header **out)
{
	const struct perf_event_header *ev;
	size_t left = f->out.len - f->out_pos;

	if (left < sizeof(*ev))
		return 0;
	ev = (const void *)(f->out.p + f->out_pos);
	if (ev->size < sizeof(*ev) || ev->size % 8)
		return bad(f, -LUPE_ERR_CORRUPT, "a record inflated from offset %#llx has an impossible size %u",
			   (unsigned long long)f->comp_off, ev->size);
	if (ev->size > left)
		return 0;
	f->out_pos += ev->size;
	*out = ev;
	return 1;
}

int lupe_perf_file_next(struct lupe_perf_file *f, const struct perf_event_header **out,
			uint64_t *offset, int *stable)
{
	const struct perf_event_header *ev = NULL;
	int ret;

	for (;;) {
		ret = next_inflated(f, out);
		if (ret) {
			*offset = f->last_off = f->comp_off;
			*stable = 0;
			f->nr_records += ret > 0;
			return ret;
		}
		if (f->inflating) {
			size_t keep = f->out.len - f->out_pos;

			/* A record may straddle two slices or two COMPRESSED records: keep its head. */
			if (keep)
				memmove(f->out.p, f->out.p + f->out_pos, keep);
			f->out.len = keep;
			f->out_pos = 0;
			ret = lupe_decomp_run(f->decomp, &f->out, INFLATE_SLICE);
			if (ret == -LUPE_ERR_NOT_SUPPORTED)
				return bad(f, ret, "the file is compressed (perf record -z) and lupe was built without zstd");
			if (ret < 0)
				return bad(f, ret, "the compressed record at offset %#llx does not inflate",
					   (unsigned long long)f->comp_off);
			f->inflating = ret;
			continue;
		}
		ret = next_raw(f, &ev, offset);
		if (ret <= 0) {
			if (!ret && f->out.len > f->out_pos && !f->cut)
				return bad(f, -LUPE_ERR_TRUNCATED, "the compressed data ends inside a record (last compressed record at %#llx)",
					   (unsigned long long)f->comp_off);
			if (!ret && f->cut) {
				pr_warn("file '%s' %s: %llu records recovered (up to offset %#llx); 'lupe inject -i %s -o NEW' writes a finalized copy",
					f->path, f->cut, (unsigned long long)f->nr_records,
					(unsigned long long)f->pos, f->path);
				f->cut = NULL;
				f->pos = f->data_end;
			}
			return ret;
		}
		if (ev->type == PERF_RECORD_COMPRESSED) {
			f->comp_off = *offset;
			f->nr_compressed++;
			if (!f->decomp && !(f->decomp = lupe_decomp_new()))
				return -ENOMEM;
			lupe_decomp_feed(f->decomp, ev + 1, ev->size - sizeof(*ev));
			f->inflating = 1;
			continue;
		}
		if (f->pipe) {
			if (ev->type == PERF_RECORD_HEADER_TRACING_DATA) {
				if ((ret = pipe_tracing_data(f, ev)))
					return ret;
			} else if ((ret = pipe_meta(f, ev, *offset))) {
				return ret;
			}
			if (ev->type == PERF_RECORD_HEADER_ATTR || ev->type == PERF_RECORD_HEADER_FEATURE ||
			    ev->type == PERF_RECORD_HEADER_TRACING_DATA) {
				/* names may now be known; the first sample needs them */
				for (size_t i = 0; i < (size_t)f->evlist->nr; i++) {
					free(f->evlist->evsels[i]->name);
					f->evlist->evsels[i]->name = NULL;
				}
				name_evsels(f);
			}
		}
		*out = ev;
		*stable = !f->pipe && !f->copied;
		f->last_off = *offset;
		f->nr_records++;
		return 1;
	}
}

uint64_t lupe_perf_file_last_offset(const struct lupe_perf_file *f)
{
	return f->last_off;
}

uint64_t lupe_perf_file_nr_compressed(const struct lupe_perf_file *f)
{
	return f->nr_compressed;
}
