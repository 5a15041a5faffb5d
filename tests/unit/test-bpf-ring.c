// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF ring buffer source (bpf/ring.h): a tiny BPF program writes
 * records into a ring buffer map (run with BPF_PROG_TEST_RUN), and the
 * source must hand each back as a sample of TID, TIME and RAW with the
 * record's bytes, in slices of 1024, the count of dropped records as one
 * LOST record, and a FINISHED_ROUND per read. Needs root and a kernel with ring buffers:
 * skipped otherwise, and when lupe is built without BPF.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <cmocka.h>
#include <lupe/perf-format.h>
#include <lupe/source.h>
#include "bpf/ring.h"

/* the record the program writes: what the stamp reads */
struct rec {
	uint32_t pid, tid;
	uint64_t time;
};

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* Skip when this machine cannot: not root, or a kernel without ring buffers. */
static void skip_unless_able(int err, int map_fd)
{
	if (map_fd >= 0)
		close(map_fd);
	if (err == -EPERM || err == -EACCES || err == -EINVAL) {
		print_message("skipped: cannot load a BPF ring buffer program here (%s)\n",
			      strerror(-err));
		skip();
	}
	fail_msg("loading the test program: %s", strerror(-err));
}

/* A ring buffer map of ring_bytes and a socket filter writing one struct rec {10, 11, 12345} into it per run. */
static int make_prog(int *map_fd, unsigned int ring_bytes)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_RINGBUF;
	a.max_entries = ring_bytes;
	*map_fd = (int)sys_bpf(BPF_MAP_CREATE, &a);
	if (*map_fd < 0)
		return -errno;
	struct bpf_insn prog[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = *map_fd },
		{ 0 },
		{ .code = BPF_ST | BPF_W | BPF_MEM, .dst_reg = 10, .off = -16, .imm = 10 },
		{ .code = BPF_ST | BPF_W | BPF_MEM, .dst_reg = 10, .off = -12, .imm = 11 },
		{ .code = BPF_ST | BPF_DW | BPF_MEM, .dst_reg = 10, .off = -8, .imm = 12345 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -16 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = sizeof(struct rec) },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 4, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_ringbuf_output },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (uintptr_t)"GPL";
	fd = (int)sys_bpf(BPF_PROG_LOAD, &a);
	return fd < 0 ? -errno : fd;
}

/* Run the program n times. */
static void run(int prog, int n)
{
	unsigned char pkt[64] = { 0 };
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.test.prog_fd = prog;
	a.test.data_in = (uintptr_t)pkt;
	a.test.data_size_in = sizeof(pkt);
	a.test.repeat = n;
	assert_int_equal(sys_bpf(BPF_PROG_TEST_RUN, &a), 0);
}

static int stamp(const void *data, size_t size, struct lupe_bpf_ring_stamp *st)
{
	const struct rec *r = data;

	if (size < sizeof(*r))
		return -1;
	*st = (struct lupe_bpf_ring_stamp){ r->pid, r->tid, r->time };
	return 0;
}

static uint64_t dropped;

static uint64_t lost(void *arg)
{
	(void)arg;
	return dropped;
}

struct seen {
	int samples, rounds, lost_records;
	uint64_t lost;
};

static int take(void *arg, const struct perf_event_header *h, int stable)
{
	struct seen *s = arg;
	const struct lupe_bpf_ring_sample *smp = (const void *)(h + 1);
	struct rec r;

	assert_int_equal(stable, 0); /* the ring's space is reused */
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		/* TID, TIME, RAW: the record, padded to end the sample 8-aligned */
		assert_int_equal(h->size % 8, 0);
		assert_int_equal(h->size, sizeof(*h) + sizeof(*smp) + smp->raw_size);
		assert_true(smp->raw_size >= sizeof(r));
		assert_int_equal(smp->pid, 10);
		assert_int_equal(smp->tid, 11);
		assert_int_equal(smp->time, 12345);
		memcpy(&r, smp + 1, sizeof(r));
		assert_int_equal(r.pid, 10);
		assert_int_equal(r.time, 12345);
		s->samples++;
		break;
	case PERF_RECORD_LOST:
		s->lost_records++;
		s->lost += ((const uint64_t *)(h + 1))[1];
		break;
	case PERF_RECORD_FINISHED_ROUND:
		s->rounds++;
		break;
	default:
		fail_msg("unexpected record type %u", h->type);
	}
	return 0;
}

struct ring {
	int map_fd, prog;
	struct lupe_source *src;
};

/* The program, its ring and the source reading it; the test is skipped when the machine cannot. */
static void ring_open(struct ring *r, unsigned int ring_bytes, lupe_bpf_ring_lost_fn lost_fn)
{
	r->map_fd = -1;
	r->prog = make_prog(&r->map_fd, ring_bytes);
	if (r->prog < 0)
		skip_unless_able(r->prog, r->map_fd);
	r->src = lupe_bpf_ring_source_new(r->map_fd, stamp, lost_fn, NULL);
	if (!r->src && errno == EOPNOTSUPP) {
		print_message("skipped: lupe is built without BPF\n");
		skip();
	}
	assert_non_null(r->src);
}

static void ring_close(struct ring *r)
{
	lupe_source_delete(r->src);
	close(r->prog);
	close(r->map_fd);
}

static void test_samples(void **state)
{
	struct seen s = { 0 };
	struct ring r;

	(void)state;
	ring_open(&r, 4096, lost);
	assert_non_null(lupe_source_evlist(r.src));

	run(r.prog, 5);
	dropped = 3;
	assert_int_equal(lupe_bpf_ring_wait(r.src, 0), 0);
	assert_int_equal(lupe_bpf_ring_read(r.src, take, &s), 0);
	assert_int_equal(s.samples, 5);
	assert_int_equal(s.rounds, 1);
	assert_int_equal(s.lost_records, 1);
	assert_int_equal(s.lost, 3);

	/* nothing new: no sample, and the same count is not said again */
	assert_int_equal(lupe_bpf_ring_read(r.src, take, &s), 0);
	assert_int_equal(s.samples, 5);
	assert_int_equal(s.rounds, 2);
	assert_int_equal(s.lost_records, 1);

	/* more than the ring holds: 4096 bytes at 24 a record */
	run(r.prog, 400);
	dropped = 10;
	assert_int_equal(lupe_bpf_ring_read(r.src, take, &s), 0);
	assert_true(s.samples > 5 + 100 && s.samples < 5 + 400);
	assert_int_equal(s.lost, 10);
	ring_close(&r);
}

/* a read hands out a slice of 1024 records and says there is more (1), the LOST only at the end */
static void test_slices(void **state)
{
	struct seen s = { 0 };
	struct ring r;

	(void)state;
	ring_open(&r, 1 << 16, lost);
	dropped = 20;
	run(r.prog, 2000);
	assert_int_equal(lupe_bpf_ring_read(r.src, take, &s), 1);
	assert_int_equal(s.samples, 1024);
	assert_int_equal(s.rounds, 1);
	assert_int_equal(s.lost_records, 0);
	assert_int_equal(lupe_bpf_ring_read(r.src, take, &s), 0);
	assert_int_equal(s.samples, 2000);
	assert_int_equal(s.rounds, 2);
	assert_int_equal(s.lost_records, 1);
	ring_close(&r);
}

/* a non-zero return from emit stops the read after that record, and is returned */
static int stop_second(void *arg, const struct perf_event_header *h, int stable)
{
	int *n = arg;

	(void)stable;
	return h->type == PERF_RECORD_SAMPLE && ++*n == 2 ? 7 : 0;
}

static void test_stop(void **state)
{
	struct ring r;
	int n = 0;

	(void)state;
	ring_open(&r, 4096, NULL);
	run(r.prog, 4);
	assert_int_equal(lupe_bpf_ring_read(r.src, stop_second, &n), 7);
	assert_int_equal(n, 2);
	/* the rest is still there */
	assert_int_equal(lupe_bpf_ring_read(r.src, stop_second, &n), 0);
	assert_int_equal(n, 4);
	ring_close(&r);
}

/* stops at the third round */
static int stop_third_round(void *arg, const struct perf_event_header *h, int stable)
{
	int *rounds = arg;

	(void)stable;
	return h->type == PERF_RECORD_FINISHED_ROUND && ++*rounds == 3 ? 7 : 0;
}

/* as a source: an empty ring is waited on (100 ms a wait), not read again and again */
static void test_source_waits(void **state)
{
	struct timespec t0, t1;
	struct ring r;
	int rounds = 0;

	(void)state;
	ring_open(&r, 4096, NULL);
	run(r.prog, 4);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(lupe_source_read(r.src, stop_third_round, &rounds), 7);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* round 1 has the 4 records; rounds 2 and 3 each follow a wait that nothing ended */
	assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 190);
	ring_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_slices),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_source_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
