// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer. Records are copied into one output buffer and
 * leave in large writes; with compression they first gather in a batch of
 * whole records that becomes one zstd frame, so perf's reader never has to
 * join a record across two PERF_RECORD_COMPRESSED.
 *
 * Crash safety: in file mode a valid header is on disk from the start and
 * the data section only grows. Each round flushes the buffer and then
 * rewrites the header's data size (one 104-byte pwrite), so a file cut by
 * SIGKILL or power loss holds every round that reached the disk: perf reads
 * it to the last header update, lupe to the last whole record. The header
 * names its features only once they are written (finish), which is how a
 * reader tells a file that was not finalized.
 *
 * A full disk: the flush that failed is cut back to its last whole record,
 * then finish writes the header (in place, needing no new blocks) and the
 * features if they fit: the file holds what reached the disk, and
 * lupe_perf_writer_samples says how many samples that is.
 */
#include <aio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "data/features.h"
#include "data/writer.h"
#include "util/util.h"

#define OUT_BUF (1u << 20)
/*
 * A batch must compress into one record, whose size is a u16: zstd's bound
 * for 60 KiB stays under 64 KiB. perf's reader decompresses a record into
 * a buffer of the COMPRESSED feature's mmap_len, which we set to COMP_MMAP_LEN.
 */
#define COMP_BATCH (60u << 10)

struct wattr {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nr_ids;
	char *name;
};

struct perf_writer {
	int fd;
	int pipe;
	int err;         /* first error, sticky */
	uint64_t off;    /* where the next byte of output goes */
	uint64_t data_offset;
	uint64_t data_end; /* set by finish: the data section's end */
	uint64_t bytes_in; /* data bytes before compression */
	struct wattr *attrs;
	size_t nr_attrs;
	struct fbuf feats[HEADER_LAST_FEATURE];
	char *out;
	size_t out_len;
	struct zstd_frame_ctx *zstd;
	int comp_level;
	char *batch;
	size_t batch_len;
	char *cbuf;
	size_t cbuf_size;
	int data_started;   /* file mode: the header is on disk, data may follow */
	int full;           /* ENOSPC met: the file was cut back to whole records */
	uint64_t samples_out; /* SAMPLE records on disk */
	uint64_t buf_samples; /* SAMPLE records in out */
	uint64_t batch_samples;
	uint32_t *comp_samples; /* per COMPRESSED record in out: its samples */
	size_t nr_comp, cap_comp;
	struct aio_slot *aio; /* --aio: data flushes in flight, file mode */
	int nr_aio;
};

/* One asynchronous write of a flushed output buffer (perf record --aio). */
struct aio_slot {
	struct aiocb cb;
	char *buf;
	int busy;
};

/* SAMPLE records among the back-to-back records of rec. */
static uint64_t count_samples(const void *rec, size_t len)
{
	const char *p = rec, *end = p + len;
	uint64_t n = 0;

	while (p + sizeof(struct perf_event_header) <= end) {
		const struct perf_event_header *h = (const void *)p;

		if (h->size < sizeof(*h))
			break;
		n += h->type == PERF_RECORD_SAMPLE;
		p += h->size;
	}
	return n;
}

static int pwrite_full(int fd, const void *p, size_t len, uint64_t off)
{
	const char *c = p;

	while (len) {
		ssize_t n = pwrite(fd, c, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		c += n;
		len -= n;
		off += n;
	}
	return 0;
}

void lupe_fbuf_add(struct fbuf *b, const void *p, size_t len)
{
	if (b->err)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *n;

		while (cap < b->len + len)
			cap *= 2;
		n = realloc(b->data, cap);
		if (!n) {
			b->err = -ENOMEM;
			return;
		}
		b->data = n;
		b->cap = cap;
	}
	if (p)
		memcpy(b->data + b->len, p, len);
	else
		memset(b->data + b->len, 0, len);
	b->len += len;
}

void lupe_fbuf_u32(struct fbuf *b, uint32_t v)
{
	lupe_fbuf_add(b, &v, sizeof(v));
}

void lupe_fbuf_u64(struct fbuf *b, uint64_t v)
{
	lupe_fbuf_add(b, &v, sizeof(v));
}

void lupe_fbuf_zero(struct fbuf *b, size_t len)
{
	lupe_fbuf_add(b, NULL, len);
}

void lupe_fbuf_string(struct fbuf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	lupe_fbuf_u32(b, (uint32_t)padded);
	lupe_fbuf_add(b, s, n);
	lupe_fbuf_zero(b, padded - n);
}

void lupe_fbuf_free(struct fbuf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static int write_all(struct perf_writer *w, const void *p, size_t len)
{
	const char *c = p;

	if (w->err)
		return w->err;
	while (len) {
		ssize_t n = w->pipe ? write(w->fd, c, len) : pwrite(w->fd, c, len, w->off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return w->err = -errno;
		}
		if (n == 0)
			return w->err = -EIO;
		c += n;
		len -= n;
		w->off += n;
	}
	return 0;
}

static int write_header(struct perf_writer *w, uint64_t data_size, const uint64_t *features);

/*
 * Room kept for one small feature after a full disk: the bytes cut back
 * from what was written are blocks the filesystem gave us, so writing this
 * much again cannot fail. One feature in the header tells readers the file
 * was finalized.
 */
#define FEAT_ROOM 64

/*
 * The flush that met a full disk wrote part of out: keep its whole records
 * up to FEAT_ROOM bytes before the end of what was written, count their
 * samples, cut the rest off the file so that it ends on a record boundary.
 */
static void salvage(struct perf_writer *w, uint64_t start)
{
	size_t done = w->off - start, pos = 0, ci = 0;

	done = done > FEAT_ROOM ? done - FEAT_ROOM : 0;
	while (pos + sizeof(struct perf_event_header) <= done) {
		const struct perf_event_header *h = (const void *)(w->out + pos);

		if (h->size < sizeof(*h) || pos + h->size > done)
			break;
		if (h->type == PERF_RECORD_COMPRESSED)
			w->samples_out += ci < w->nr_comp ? w->comp_samples[ci++] : 0;
		else
			w->samples_out += h->type == PERF_RECORD_SAMPLE;
		pos += h->size;
	}
	w->off = start + pos;
	if (ftruncate(w->fd, (off_t)w->off)) {
		/* the tail stays: a reader stops at the last whole record anyway */
	}
	w->full = 1;
}

/* Wait for slot s's write; a short one is finished in place. Returns 0 or the sticky error. */
static int aio_reap(struct perf_writer *w, struct aio_slot *s)
{
	const struct aiocb *list[1] = { &s->cb };
	ssize_t n;
	int e;

	if (!s->busy)
		return w->err;
	while ((e = aio_error(&s->cb)) == EINPROGRESS)
		aio_suspend(list, 1, NULL);
	n = aio_return(&s->cb);
	s->busy = 0;
	if (!e && n >= 0 && (size_t)n < s->cb.aio_nbytes)
		e = -pwrite_full(w->fd, s->buf + n, s->cb.aio_nbytes - n, (uint64_t)s->cb.aio_offset + n);
	if (e && !w->err)
		w->err = -e;
	return w->err;
}

static int aio_wait_all(struct perf_writer *w)
{
	for (int i = 0; i < w->nr_aio; i++)
		aio_reap(w, &w->aio[i]);
	return w->err;
}

/* Where the data on disk ends for sure: the start of the first write in flight. */
static uint64_t aio_durable_end(const struct perf_writer *w)
{
	uint64_t end = w->off;

	for (int i = 0; i < w->nr_aio; i++)
		if (w->aio[i].busy && (uint64_t)w->aio[i].cb.aio_offset < end)
			end = (uint64_t)w->aio[i].cb.aio_offset;
	return end;
}

/*
 * Hand out to a free control block (waiting for the oldest when all are
 * busy) and continue in that block's buffer, as perf record --aio does
 * with its mmap copies. A refused aio_write is done synchronously.
 */
static int aio_flush(struct perf_writer *w)
{
	struct aio_slot *s = NULL;
	char *buf;

	for (int i = 0; i < w->nr_aio && !s; i++)
		if (!w->aio[i].busy)
			s = &w->aio[i];
	if (!s) {
		s = &w->aio[0];
		for (int i = 1; i < w->nr_aio; i++)
			if (w->aio[i].cb.aio_offset < s->cb.aio_offset)
				s = &w->aio[i];
		if (aio_reap(w, s))
			return w->err;
	}
	buf = s->buf;
	s->buf = w->out;
	w->out = buf;
	memset(&s->cb, 0, sizeof(s->cb));
	s->cb.aio_fildes = w->fd;
	s->cb.aio_buf = s->buf;
	s->cb.aio_nbytes = w->out_len;
	s->cb.aio_offset = (off_t)w->off;
	s->cb.aio_sigevent.sigev_notify = SIGEV_NONE;
	if (aio_write(&s->cb)) {
		if (pwrite_full(w->fd, s->buf, w->out_len, w->off) && !w->err)
			w->err = -errno;
	} else {
		s->busy = 1;
	}
	w->off += w->out_len;
	w->samples_out += w->buf_samples;
	w->out_len = 0;
	w->buf_samples = 0;
	w->nr_comp = 0;
	return w->err;
}

int lupe_perf_writer_set_aio(struct perf_writer *w, int nr)
{
	if (w->pipe || nr <= 0)
		return -EINVAL;
	w->aio = calloc(nr, sizeof(*w->aio));
	if (!w->aio)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		w->aio[i].buf = malloc(OUT_BUF);
		if (!w->aio[i].buf)
			return -ENOMEM;
		w->nr_aio = i + 1;
	}
	return 0;
}

static int out_flush(struct perf_writer *w)
{
	uint64_t start = w->off;
	int err;

	if (w->nr_aio && w->data_started && w->out_len && !w->err)
		return aio_flush(w);
	err = w->out_len ? write_all(w, w->out, w->out_len) : w->err;
	if (!err)
		w->samples_out += w->buf_samples;
	else if (err == -ENOSPC && w->data_started && !w->full)
		salvage(w, start);
	w->out_len = 0;
	w->buf_samples = 0;
	w->nr_comp = 0;
	return err;
}

static int out_add(struct perf_writer *w, const void *p, size_t len)
{
	if (w->err)
		return w->err;
	if (w->out_len + len > OUT_BUF && out_flush(w))
		return w->err;
	if (len > OUT_BUF)
		return write_all(w, p, len);
	memcpy(w->out + w->out_len, p, len);
	w->out_len += len;
	return 0;
}

struct perf_writer *lupe_perf_writer_new(int fd, int pipe)
{
	struct perf_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return err_ptr(-ENOMEM);
	w->out = malloc(OUT_BUF);
	if (!w->out) {
		free(w);
		return err_ptr(-ENOMEM);
	}
	w->fd = fd;
	w->pipe = pipe;
	return w;
}

void lupe_perf_writer_delete(struct perf_writer *w)
{
	if (!w)
		return;
	aio_wait_all(w);
	for (int i = 0; i < w->nr_aio; i++)
		free(w->aio[i].buf);
	free(w->aio);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	for (int f = 0; f < HEADER_LAST_FEATURE; f++)
		lupe_fbuf_free(&w->feats[f]);
	free(w->attrs);
	free(w->out);
	free(w->batch);
	free(w->cbuf);
	free(w->comp_samples);
	lupe_zstd_frame_delete(w->zstd);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}

int lupe_perf_writer_add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			 const uint64_t *ids, size_t nr_ids, const char *name)
{
	struct wattr *a = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	w->attrs = a;
	a += w->nr_attrs;
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = sizeof(a->attr);
	a->ids = malloc((nr_ids ? nr_ids : 1) * sizeof(*ids));
	a->name = strdup(name ? name : "");
	if (!a->ids || !a->name) {
		free(a->ids);
		free(a->name);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(*ids));
	a->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

const struct perf_event_attr *lupe_perf_writer_attr(const struct perf_writer *w, size_t i)
{
	return i < w->nr_attrs ? &w->attrs[i].attr : NULL;
}

size_t lupe_perf_writer_nr_attrs(const struct perf_writer *w)
{
	return w->nr_attrs;
}

int lupe_perf_writer_set_compression(struct perf_writer *w, int level)
{
	w->zstd = lupe_zstd_frame_new(level);
	if (!w->zstd)
		return errno == ENOTSUP ? -LUPE_ERR_NOT_SUPPORTED : -errno;
	w->cbuf_size = sizeof(struct perf_event_header) + lupe_zstd_frame_bound(COMP_BATCH);
	w->batch = malloc(COMP_BATCH);
	w->cbuf = malloc(w->cbuf_size);
	if (!w->batch || !w->cbuf)
		return -ENOMEM;
	w->comp_level = level;
	return 0;
}

int lupe_perf_writer_start(struct perf_writer *w)
{
	if (w->pipe) {
		struct perf_pipe_file_header h = { PERF_MAGIC2, sizeof(h) };

		write_all(w, &h, sizeof(h));
		for (size_t i = 0; i < w->nr_attrs; i++) {
			struct perf_event_header eh = {
				.type = PERF_RECORD_HEADER_ATTR,
				.size = sizeof(eh) + sizeof(w->attrs[i].attr) + w->attrs[i].nr_ids * 8,
			};

			out_add(w, &eh, sizeof(eh));
			out_add(w, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
			out_add(w, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
		}
		w->data_offset = sizeof(h);
		return out_flush(w);
	}

	/*
	 * A valid header from the first byte: its data size grows with each
	 * round, its features come with finish.
	 */
	uint64_t *id_offs = calloc(w->nr_attrs ? w->nr_attrs : 1, sizeof(*id_offs));

	if (!id_offs)
		return w->err = -ENOMEM;
	w->off = sizeof(struct perf_file_header);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		id_offs[i] = w->off;
		write_all(w, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	}
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct perf_file_attr fa = {
			.attr = w->attrs[i].attr,
			.ids = { id_offs[i], w->attrs[i].nr_ids * 8 },
		};

		write_all(w, &fa, sizeof(fa));
	}
	free(id_offs);
	w->data_offset = w->off;
	if (!w->err)
		w->err = write_header(w, 0, NULL);
	w->data_started = !w->err;
	return w->err;
}

static int batch_flush(struct perf_writer *w)
{
	struct perf_event_header *h = (void *)w->cbuf;
	long n;

	if (!w->batch_len)
		return w->err;
	n = lupe_zstd_frame_compress(w->zstd, h + 1, w->cbuf_size - sizeof(*h), w->batch, w->batch_len);
	w->batch_len = 0;
	if (n < 0)
		return w->err = (int)n;
	h->type = PERF_RECORD_COMPRESSED;
	h->misc = 0;
	/* Not padded to 8 bytes: perf hands exactly size - 8 bytes to zstd. */
	h->size = (uint16_t)(sizeof(*h) + n);
	if (w->out_len + h->size > OUT_BUF && out_flush(w))
		return w->err;
	if (lupe_grow(&w->comp_samples, &w->cap_comp, w->nr_comp + 1, sizeof(*w->comp_samples)))
		return w->err = -ENOMEM;
	w->comp_samples[w->nr_comp++] = (uint32_t)w->batch_samples;
	w->buf_samples += w->batch_samples;
	w->batch_samples = 0;
	return out_add(w, h, h->size);
}

int lupe_perf_writer_write(struct perf_writer *w, const void *rec, size_t len)
{
	if (w->err)
		return w->err;
	/* uncompressed, or too big for a batch: it goes out as it is */
	if (!w->zstd || len > COMP_BATCH)
		return lupe_perf_writer_write_raw(w, rec, len);
	w->bytes_in += len;
	if (w->batch_len + len > COMP_BATCH && batch_flush(w))
		return w->err;
	memcpy(w->batch + w->batch_len, rec, len);
	w->batch_len += len;
	w->batch_samples += count_samples(rec, len);
	return 0;
}

int lupe_perf_writer_write_raw(struct perf_writer *w, const void *rec, size_t len)
{
	int err;

	if (w->zstd)
		batch_flush(w);
	w->bytes_in += len;
	err = out_add(w, rec, len);
	if (!err)
		w->buf_samples += count_samples(rec, len);
	return err;
}

int lupe_perf_writer_flush(struct perf_writer *w)
{
	if (w->zstd)
		batch_flush(w);
	if (w->pipe || !w->data_started)
		return out_flush(w);
	if (out_flush(w))
		return w->err;
	/* the header counts only what is on disk: not the writes in flight */
	return w->err = write_header(w, aio_durable_end(w) - w->data_offset, NULL);
}

int lupe_perf_writer_round(struct perf_writer *w)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(h) };
	int err = lupe_perf_writer_write_raw(w, &h, sizeof(h));

	/* each round reaches the disk, and the header says so: a cut file keeps it */
	return err ? err : lupe_perf_writer_flush(w);
}

int lupe_perf_writer_pipe_feature(struct perf_writer *w, int feat, const struct fbuf *b)
{
	struct perf_record_header_feature r = {
		.header = { PERF_RECORD_HEADER_FEATURE, 0, 0 },
		.feat_id = feat,
	};
	size_t len = sizeof(r) + b->len;

	if (b->err)
		return b->err;
	if (len > UINT16_MAX)
		return -E2BIG;
	r.header.size = (uint16_t)len;
	out_add(w, &r, sizeof(r));
	return out_add(w, b->data, b->len);
}

int lupe_perf_writer_add_feature(struct perf_writer *w, int feat, struct fbuf *b)
{
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return -EINVAL;
	if (b->err)
		return b->err;
	lupe_fbuf_free(&w->feats[feat]);
	w->feats[feat] = *b;
	memset(b, 0, sizeof(*b));
	return 0;
}

/* The header at offset 0, written in place whatever error is pending. */
static int write_header(struct perf_writer *w, uint64_t data_size, const uint64_t *features)
{
	struct perf_file_header h = { 0 };

	h.magic = PERF_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(struct perf_file_attr);
	h.attrs.offset = w->data_offset - w->nr_attrs * sizeof(struct perf_file_attr);
	h.attrs.size = w->nr_attrs * sizeof(struct perf_file_attr);
	h.data.offset = w->data_offset;
	h.data.size = data_size;
	if (features)
		memcpy(h.adds_features, features, sizeof(h.adds_features));
	return pwrite_full(w->fd, &h, sizeof(h), 0);
}

/* Whether feature f goes out: all of them, or only the one named. */
static int feat_wanted(const struct perf_writer *w, int f, int only)
{
	return w->feats[f].data && (only < 0 || f == only);
}

/* The section table and the features (all, or only one) after the data; 0 or -errno. */
static int write_features(struct perf_writer *w, uint64_t *bits, int only)
{
	struct perf_file_section *sec;
	uint64_t at;
	int nr = 0, i = 0;

	for (int f = 1; f < HEADER_LAST_FEATURE; f++)
		if (feat_wanted(w, f, only))
			nr++;
	sec = calloc(nr ? nr : 1, sizeof(*sec));
	if (!sec)
		return w->err = -ENOMEM;
	at = w->data_end + nr * sizeof(*sec);
	for (int f = 1; f < HEADER_LAST_FEATURE; f++) {
		if (!feat_wanted(w, f, only))
			continue;
		bits[f / 64] |= 1ULL << (f % 64);
		sec[i].offset = at;
		sec[i].size = w->feats[f].len;
		at += w->feats[f].len;
		i++;
	}
	write_all(w, sec, nr * sizeof(*sec));
	free(sec);
	for (int f = 1; f < HEADER_LAST_FEATURE; f++)
		if (feat_wanted(w, f, only))
			write_all(w, w->feats[f].data, w->feats[f].len);
	return w->err;
}

int lupe_perf_writer_finish(struct perf_writer *w)
{
	uint64_t bits[4] = { 0 };
	int err;

	if (w->zstd)
		batch_flush(w);
	if (out_flush(w) && !w->full)
		return w->err;
	if (w->nr_aio && aio_wait_all(w) && !w->full)
		return w->err;
	if (w->pipe)
		return w->err;
	if (!w->data_started)
		return w->err ? w->err : -EINVAL;
	w->data_end = w->off;
	if (w->full) {
		/* the cut may have freed room for the features: try them */
		w->err = 0;
	}
	err = write_features(w, bits, -1);
	if (err == -ENOSPC) {
		/*
		 * No room for them all: the smallest alone (salvage kept room
		 * for it) marks the file as finalized; failing that (the disk
		 * filled up on the features themselves), a file without
		 * features, which perf and lupe read, lupe as not finalized.
		 * NEEDSWORK: cut the last records back then too.
		 */
		int small = -1;

		w->full = 1;
		for (int f = 1; f < HEADER_LAST_FEATURE; f++)
			if (w->feats[f].data && (small < 0 || w->feats[f].len < w->feats[small].len))
				small = f;
		memset(bits, 0, sizeof(bits));
		err = -ENOSPC;
		if (small > 0 && !ftruncate(w->fd, (off_t)w->data_end)) {
			w->err = 0;
			w->off = w->data_end;
			err = write_features(w, bits, small);
		}
		if (err) {
			memset(bits, 0, sizeof(bits));
			if (ftruncate(w->fd, (off_t)w->data_end)) {
				/* the header's data size still ends the data */
			}
		}
	} else if (err) {
		return err;
	}
	err = write_header(w, w->data_end - w->data_offset, bits);
	if (err)
		return w->err = err;
	return w->err = w->full ? -ENOSPC : 0;
}

uint64_t lupe_perf_writer_samples(const struct perf_writer *w)
{
	return w->samples_out;
}

uint64_t lupe_perf_writer_data_size(const struct perf_writer *w)
{
	if (w->data_end)
		return w->data_end - w->data_offset;
	return w->off + w->out_len - w->data_offset;
}

uint64_t lupe_perf_writer_bytes_in(const struct perf_writer *w)
{
	return w->bytes_in;
}

int lupe_perf_writer_comp_level(const struct perf_writer *w)
{
	return w->comp_level;
}

void lupe_features_event_desc(const struct perf_writer *w, struct fbuf *b)
{
	lupe_fbuf_u32(b, (uint32_t)w->nr_attrs);
	lupe_fbuf_u32(b, sizeof(struct perf_event_attr));
	for (size_t i = 0; i < w->nr_attrs; i++) {
		lupe_fbuf_add(b, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
		lupe_fbuf_u32(b, (uint32_t)w->attrs[i].nr_ids);
		lupe_fbuf_string(b, w->attrs[i].name);
		lupe_fbuf_add(b, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	}
}
