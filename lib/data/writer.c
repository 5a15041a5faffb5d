// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer. Records are copied into one output buffer and
 * leave in large writes; with compression they first gather in a batch of
 * whole records that becomes one zstd frame, so perf's reader never has to
 * join a record across two PERF_RECORD_COMPRESSED.
 */
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
};

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

static int out_flush(struct perf_writer *w)
{
	int err = w->out_len ? write_all(w, w->out, w->out_len) : w->err;

	w->out_len = 0;
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

	/* The header stays zero (not a perf.data yet) until finish. */
	{
		struct perf_file_header zero = { 0 };

		w->off = 0;
		write_all(w, &zero, sizeof(zero));
	}
	uint64_t *id_offs = calloc(w->nr_attrs ? w->nr_attrs : 1, sizeof(*id_offs));

	if (!id_offs)
		return w->err = -ENOMEM;
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
	return 0;
}

int lupe_perf_writer_write_raw(struct perf_writer *w, const void *rec, size_t len)
{
	if (w->zstd)
		batch_flush(w);
	w->bytes_in += len;
	return out_add(w, rec, len);
}

int lupe_perf_writer_round(struct perf_writer *w)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(h) };

	return lupe_perf_writer_write_raw(w, &h, sizeof(h));
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

int lupe_perf_writer_finish(struct perf_writer *w)
{
	struct perf_file_header h = { 0 };
	struct perf_file_section *sec;
	uint64_t data_end, at;
	int nr = 0, i = 0;

	if (w->zstd)
		batch_flush(w);
	if (out_flush(w) || w->pipe)
		return w->err;
	data_end = w->data_end = w->off;

	for (int f = 1; f < HEADER_LAST_FEATURE; f++)
		if (w->feats[f].data)
			nr++;
	sec = calloc(nr ? nr : 1, sizeof(*sec));
	if (!sec)
		return w->err = -ENOMEM;
	at = data_end + nr * sizeof(*sec);
	for (int f = 1; f < HEADER_LAST_FEATURE; f++) {
		if (!w->feats[f].data)
			continue;
		h.adds_features[f / 64] |= 1ULL << (f % 64);
		sec[i].offset = at;
		sec[i].size = w->feats[f].len;
		at += w->feats[f].len;
		i++;
	}
	write_all(w, sec, nr * sizeof(*sec));
	free(sec);
	for (int f = 1; f < HEADER_LAST_FEATURE; f++)
		if (w->feats[f].data)
			write_all(w, w->feats[f].data, w->feats[f].len);
	if (w->err)
		return w->err;

	h.magic = PERF_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(struct perf_file_attr);
	h.attrs.offset = w->data_offset - w->nr_attrs * sizeof(struct perf_file_attr);
	h.attrs.size = w->nr_attrs * sizeof(struct perf_file_attr);
	h.data.offset = w->data_offset;
	h.data.size = data_end - w->data_offset;
	w->off = 0;
	return write_all(w, &h, sizeof(h));
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
