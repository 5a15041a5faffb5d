// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: COMPRESSED records (record -z), read by the session as
 * report and script read them. The first byte picks what the rest is:
 *   even: the records themselves (the bytes that matter to the reader),
 *         compressed here into two zstd frames, one COMPRESSED record each,
 *         split where the first byte says (a record may straddle the two);
 *   odd:  the zstd payload itself, cut into COMPRESSED records of 64 KiB
 *         (broken frames, bombs).
 * Either way the file has the COMPRESSED feature, as record -z writes it.
 * The memory bound is on the DECOMPRESSED bytes, the records the reader
 * really walks (the input's size when even; counted here when odd, up to
 * 1 GiB): a bound on the compressed size could not tell a bomb that
 * inflates 64 KiB to 1 GiB of records from a leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <lupe/session.h>
#ifdef LUPE_HAVE_ZSTD
#include <zstd.h>
#endif
#include "membound.h"

#define REC_MAX 65527 /* a COMPRESSED record's payload: a u16 size less its header */
#define INFLATED_MAX (1ULL << 30)

struct out {
	uint8_t *p;
	size_t len, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		size_t cap = (o->len + n) * 2;
		uint8_t *np = realloc(o->p, cap);

		if (!np)
			abort();
		o->p = np;
		o->cap = cap;
	}
	memcpy(o->p + o->len, p, n);
	o->len += n;
}

static void put_u32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void put_u64(struct out *o, uint64_t v) { put(o, &v, 8); }

static void compressed_record(struct out *o, const uint8_t *p, size_t n)
{
	uint32_t type = 81; /* PERF_RECORD_COMPRESSED */
	uint16_t misc = 0, sz = (uint16_t)(8 + n);

	put(o, &type, 4);
	put(o, &misc, 2);
	put(o, &sz, 2);
	put(o, p, n);
}

#ifdef LUPE_HAVE_ZSTD
/* Bytes the zstd payload inflates to, at most INFLATED_MAX. */
static size_t inflated_size(const uint8_t *p, size_t n)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	ZSTD_inBuffer in = { p, n, 0 };
	static uint8_t buf[1 << 17];
	size_t total = 0;

	if (!z)
		return 0;
	ZSTD_initDStream(z);
	/*
	 * the reader's window bound (lib/data/decompress+ZSTD.c): a frame that
	 * asks for more inflates to nothing there, and its window would count
	 * this counter's own heap against the reader's bound (a 1,504-byte
	 * input made zstd allocate 67 MB here)
	 */
	ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, 25); /* WINDOW_LOG_MAX there */
	while (in.pos < in.size && total < INFLATED_MAX) {
		ZSTD_outBuffer out = { buf, sizeof(buf), 0 };
		size_t r = ZSTD_decompressStream(z, &out, &in);

		total += out.pos;
		if (ZSTD_isError(r) || (!out.pos && r && in.pos == in.size))
			break;
		if (!r && in.pos < in.size)
			ZSTD_initDStream(z); /* the next frame */
		else if (!out.pos && !r)
			break;
	}
	ZSTD_freeDStream(z);
	return total;
}

static void compress_into(struct out *o, const uint8_t *p, size_t n)
{
	size_t cap = ZSTD_compressBound(n), len;
	uint8_t *z = malloc(cap ? cap : 1);

	if (!z)
		abort();
	len = ZSTD_compress(z, cap, p, n, 1);
	if (!ZSTD_isError(len) && len <= REC_MAX)
		compressed_record(o, z, len);
	free(z);
}
#endif

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin(), inflated = 0, data_off = 104 + 144 + 8, data_end;
	struct lupe_tool tool = { .sample = on_sample, .ordered = 1 };
	struct out o = { 0 };
	struct lupe_session *s;
	char path[64];
	int fd;

	if (size < 1)
		goto done;
#ifdef LUPE_HAVE_ZSTD
	{
		/* the header and one cpu-clock attr (IP|TID|TIME|PERIOD, sample_id_all), id 1 */
		uint8_t attr[128] = { 0 };
		uint32_t type = 1, asize = 128;
		uint64_t period = 4000, sample_type = 0x107, flags = 1ULL << 18;
		const uint8_t *p = data + 1;
		size_t n = size - 1;

		put(&o, "PERFILE2", 8);
		put_u64(&o, 104);
		put_u64(&o, 144);
		put_u64(&o, 104);
		put_u64(&o, 144);
		put_u64(&o, data_off);
		put_u64(&o, 0); /* the data's size, below */
		put_u64(&o, 0);
		put_u64(&o, 0);
		put_u64(&o, (1ULL << 3) | (1ULL << 27)); /* HOSTNAME, COMPRESSED */
		put_u64(&o, 0);
		put_u64(&o, 0);
		put_u64(&o, 0);
		memcpy(attr, &type, 4);
		memcpy(attr + 4, &asize, 4);
		memcpy(attr + 16, &period, 8);
		memcpy(attr + 24, &sample_type, 8);
		memcpy(attr + 40, &flags, 8);
		put(&o, attr, sizeof(attr));
		put_u64(&o, 104 + 144);
		put_u64(&o, 8);
		put_u64(&o, 1);
		if (!(data[0] & 1)) {
			size_t split = n * (data[0] >> 1) / 128;

			inflated = n;
			if (split)
				compress_into(&o, p, split);
			if (n > split)
				compress_into(&o, p + split, n - split);
		} else {
			inflated = inflated_size(p, n);
			for (size_t off = 0; off < n; off += REC_MAX)
				compressed_record(&o, p + off, n - off < REC_MAX ? n - off : REC_MAX);
		}
		data_end = o.len;
		memcpy(o.p + 48, &(uint64_t){ data_end - data_off }, 8);
		/* the features: HOSTNAME "fuzz", COMPRESSED v0 zstd level 1 ratio 1 mmap_len 64 KiB */
		put_u64(&o, data_end + 32);
		put_u64(&o, 12);
		put_u64(&o, data_end + 44);
		put_u64(&o, 20);
		put_u32(&o, 8);
		put(&o, "fuzz\0\0\0\0", 8);
		put_u32(&o, 0);
		put_u32(&o, 1);
		put_u32(&o, 1);
		put_u32(&o, 1);
		put_u32(&o, 65536);
	}
	fd = memfd_create("fuzz-compressed", 0);
	if (fd < 0)
		goto done;
	if (write(fd, o.p, o.len) == (ssize_t)o.len) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if ((s = lupe_session_open(path, 1))) {
			lupe_session_process(s, &tool);
			lupe_session_delete(s);
		}
	}
	close(fd);
#endif
done:
	free(o.p);
	fuzz_mem_end(base, inflated > size ? inflated : size);
	return 0;
}
