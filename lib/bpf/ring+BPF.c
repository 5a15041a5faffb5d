// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF ring buffer source (bpf/ring.h): libbpf's ring_buffer drained
 * into synthesized samples. Why the kernel side stays a ring buffer and
 * not perf samples (bpf_perf_event_output into a BPF output event per
 * CPU, tried on branch s9-bpfsrc): a perf output cost the traced program
 * more, +0.25 us a record and more with TID and TIME (trace's slowdown
 * against perf trace's 0.06 -> 0.10, stat --func's tiny() 1.0 -> 1.4).
 * Here the price is in lupe, not in the traced program: each record is
 * copied once into the sample (and once more by a consumer's time queue,
 * as perf rings' records are). Measured on trace of 90k calls (180k
 * records, load 1.5): lupe's CPU 141 -> 151 ms, about 55 ns a record,
 * page faults +560 (the queue's two chunks).
 *
 * NEEDSWORK: the copy into the sample could go if the programs reserved
 * the sample's header (28 bytes) in front of their record and wrote TID
 * and TIME there: the ring record would then be the sample, emitted in
 * place (a few bytes more written by the traced program, to be measured).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <bpf/libbpf.h>
#include <lupe/events.h>
#include <lupe/perf-format.h>
#include "bpf/ring.h"
#include "counting/evsel.h"
#include "util/util.h"

/* A perf record's size is 16 bits: the sample is built here, whole. */
#define SAMPLE_MAX 65528
/*
 * Records a read emits at most: a consumer that queues them by time
 * delivers each slice while its copies are still in the cache, and its
 * queue stays small (a whole ring's worth, 4 MiB between wake-ups, cost
 * it thousands of page faults a pass)
 */
#define SLICE 1024

struct ring_source {
	struct lupe_source src;
	struct lupe_evlist *evlist; /* the synthesized event */
	struct ring_buffer *rb;
	lupe_bpf_ring_stamp_fn stamp;
	lupe_bpf_ring_lost_fn lost;
	void *lost_arg;
	uint64_t lost_said;         /* of the program's count, what LOST records said */
	uint64_t too_big;           /* records past SAMPLE_MAX (none of lupe's programs writes one) */
	lupe_emit_fn emit;          /* of the poll in progress */
	void *arg;
	int emit_ret;
	int nread;                  /* by the read in progress */
	uint64_t buf[SAMPLE_MAX / 8];
};

/* libbpf's callback: one ring record, as one sample; a negative return stops the drain. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct ring_source *rs = ctx;
	struct perf_event_header *h = (struct perf_event_header *)rs->buf;
	struct lupe_bpf_ring_sample *s = (struct lupe_bpf_ring_sample *)(h + 1);
	/* RAW's size counts the padding that ends the sample 8-aligned, as the kernel's does */
	size_t raw = ((size + 4 + 7) & ~(size_t)7) - 4, need = sizeof(*h) + sizeof(*s) + raw;
	struct lupe_bpf_ring_stamp st;
	int ret;

	if (need > SAMPLE_MAX) {
		rs->too_big++;
		return 0;
	}
	if (rs->stamp(data, size, &st))
		return 0;
	*h = (struct perf_event_header){ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (__u16)need };
	*s = (struct lupe_bpf_ring_sample){ st.pid, st.tid, st.time, (uint32_t)raw };
	memcpy(s + 1, data, size);
	memset((char *)(s + 1) + size, 0, raw - size);
	ret = rs->emit(rs->arg, h, 0);
	if (ret)
		rs->emit_ret = ret;
	/* libbpf stops after this record on a negative return */
	return ret || ++rs->nread == SLICE ? -ECANCELED : 0;
}

/* A LOST record for what the program and this reader dropped since the last one. */
static int say_lost(struct ring_source *rs)
{
	uint64_t n = (rs->lost ? rs->lost(rs->lost_arg) : 0) + rs->too_big;
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} rec = { { PERF_RECORD_LOST, 0, sizeof(rec) }, 0, n - rs->lost_said };

	if (n <= rs->lost_said)
		return 0;
	rs->lost_said = n;
	return rs->emit(rs->arg, &rec.h, 0);
}

int lupe_bpf_ring_wait(struct lupe_source *src, int timeout_ms)
{
	struct ring_source *rs = (struct ring_source *)src;
	struct epoll_event ev;

	if (epoll_wait(ring_buffer__epoll_fd(rs->rb), &ev, 1, timeout_ms) < 0)
		return -errno;
	return 0;
}

int lupe_bpf_ring_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	struct ring_source *rs = (struct ring_source *)src;
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(round) };
	int err;

	rs->emit = emit;
	rs->arg = arg;
	rs->emit_ret = 0;
	rs->nread = 0;
	err = ring_buffer__consume(rs->rb);
	if (rs->emit_ret)
		return rs->emit_ret;
	if (err < 0 && rs->nread < SLICE)
		return err;
	if (rs->nread == SLICE) {
		err = emit(arg, &round, 0);
		return err ? err : 1;
	}
	err = say_lost(rs);
	return err ? err : emit(arg, &round, 0);
}

static struct lupe_evlist *ring_evlist(struct lupe_source *src)
{
	return ((struct ring_source *)src)->evlist;
}

/*
 * Until emit says stop: the ring never ends by itself (a live source).
 * A wait before each read that emptied the ring, slices read at once.
 */
static int ring_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	int ret;

	do {
		ret = lupe_bpf_ring_wait(src, 100);
		if (ret == -EINTR)
			ret = 0;
		while (!ret && (ret = lupe_bpf_ring_read(src, emit, arg)) == 1)
			ret = 0;
	} while (!ret);
	return ret;
}

static void ring_destroy(struct lupe_source *src)
{
	struct ring_source *rs = (struct ring_source *)src;

	ring_buffer__free(rs->rb);
	lupe_evlist_delete(rs->evlist);
	free(rs);
}

static const struct lupe_source_ops ring_ops = {
	.evlist = ring_evlist,
	.read = ring_read,
	.destroy = ring_destroy,
	.live = 1,
};

struct lupe_source *lupe_bpf_ring_source_new(int map_fd, lupe_bpf_ring_stamp_fn stamp,
					     lupe_bpf_ring_lost_fn lost, void *lost_arg)
{
	struct ring_source *rs = calloc(1, sizeof(*rs));
	char name[] = "bpf-output";
	/* perf's name for a BPF program's output event */
	struct lupe_event ev = {
		.attr = { .size = sizeof(ev.attr), .type = PERF_TYPE_SOFTWARE,
			  .config = PERF_COUNT_SW_BPF_OUTPUT, .sample_period = 1,
			  .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
			  .use_clockid = 1, .clockid = 1 /* CLOCK_MONOTONIC */ },
		.name = name,
	};
	int err = -ENOMEM;

	if (!rs)
		return err_ptr(-ENOMEM);
	rs->src.ops = &ring_ops;
	rs->stamp = stamp;
	rs->lost = lost;
	rs->lost_arg = lost_arg;
	rs->evlist = lupe_evlist_new_empty();
	if (!rs->evlist || !lupe_evlist_add_event(rs->evlist, &ev))
		goto fail;
	rs->rb = ring_buffer__new(map_fd, on_record, rs, NULL);
	if (!rs->rb) {
		err = -errno;
		goto fail;
	}
	return &rs->src;
fail:
	ring_destroy(&rs->src);
	return err_ptr(err);
}
