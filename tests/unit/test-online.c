// SPDX-License-Identifier: GPL-2.0
/*
 * Online unwinding (unwind/online.h) on records built here: the attr as
 * written, a dwarf sample rewritten with its kernel part, PERF_CONTEXT_USER
 * and the user frames, without regs and stack, the fields around them
 * (RAW before, WEIGHT after) intact; other samples as they came; records
 * going out in time order by rounds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "data/format.h"
#include "sampling/sample.h"
#include "unwind/online.h"
#include "unwind/unwind.h"
#include "util/util.h"

#define REGS_MASK 0xff0fffULL /* perf's x86_64 user registers */
#define NREGS 20
#define KADDR 0xffffffff81001234ULL

static struct perf_event_attr dwarf_attr = {
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN |
		       PERF_SAMPLE_RAW | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
		       PERF_SAMPLE_WEIGHT,
	.sample_regs_user = REGS_MASK,
	.sample_stack_user = 64,
	.exclude_callchain_user = 1,
};
static struct perf_event_attr plain_attr = {
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
};

/* what the stage wrote: a copy of each record */
static uint64_t out[16][1024];
static int nout;

static const struct perf_event_attr *attr_of(void *arg, const struct perf_event_header *ev)
{
	(void)arg;
	/* the test's records say which attr by their misc bit */
	return ev->misc & 0x8000 ? &plain_attr : &dwarf_attr;
}

static int emit(void *arg, const struct perf_event_header *ev)
{
	(void)arg;
	assert_true(nout < 16);
	memcpy(out[nout++], ev, ev->size);
	return 0;
}

/* A dwarf sample at time t: a kernel chain, 5 bytes of raw data, regs, 64 bytes of stack, a weight. */
static struct perf_event_header *dwarf_sample(uint64_t *rec, uint64_t t)
{
	uint64_t *p = rec + 1;
	struct perf_event_header *h = (void *)rec;

	*p++ = 0x401000;               /* ip */
	*p++ = (8ULL << 32) | 7;       /* pid 7, tid 8 */
	*p++ = t;
	*p++ = 2;                      /* callchain */
	*p++ = PERF_CONTEXT_KERNEL;
	*p++ = KADDR;
	memcpy(p, &(uint32_t){ 5 }, 4); /* raw: size 5, "abcde", padded */
	memcpy((char *)p + 4, "abcde\0\0\0", 4 + 4);
	p += 2;
	*p++ = PERF_SAMPLE_REGS_ABI_64;
	for (int i = 0; i < NREGS; i++)
		*p++ = i == 7 ? 0x7ffc0000 : i == 8 ? 0x401000 : 0x1000 + i; /* sp, ip */
	*p++ = 64;
	for (int i = 0; i < 8; i++)
		*p++ = 0xdead0000 + i;
	*p++ = 64;                     /* dyn size */
	*p++ = 4242;                   /* weight */
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)((char *)p - (char *)rec);
	return h;
}

static struct perf_event_header hdr(int i)
{
	struct perf_event_header h;

	memcpy(&h, out[i], sizeof(h));
	return h;
}

static struct lupe_online *stage(void)
{
	struct lupe_online *o = lupe_online_new(attr_of, emit, NULL);

	if (!o && errno == ENOTSUP)
		skip();
	assert_non_null(o);
	nout = 0;
	return o;
}

static void test_attr(void **state)
{
	struct perf_event_attr a = dwarf_attr, p = plain_attr;

	(void)state;
	assert_true(lupe_online_wants(&a));
	assert_false(lupe_online_wants(&p));
	lupe_online_attr(&a);
	assert_int_equal(a.sample_type, dwarf_attr.sample_type &
					~(uint64_t)(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER));
	assert_int_equal(a.sample_regs_user, 0);
	assert_int_equal(a.sample_stack_user, 0);
	assert_int_equal(a.exclude_callchain_user, 0);
	lupe_online_attr(&p);
	assert_memory_equal(&p, &plain_attr, sizeof(p));
}

static void test_rewrite(void **state)
{
	struct lupe_online *o = stage();
	struct perf_event_attr wa = dwarf_attr;
	struct lupe_online_stats st;
	static uint64_t rec[256];
	struct lupe_sample s;

	(void)state;
	assert_int_equal(lupe_online_record(o, dwarf_sample(rec, 100), 0), 0);
	assert_int_equal(lupe_online_flush(o), 0);
	assert_int_equal(nout, 1);
	lupe_online_attr(&wa);
	assert_int_equal(lupe_sample_parse(&wa, (void *)out[0], &s), 0);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.tid, 8);
	assert_int_equal(s.time, 100);
	/* the kernel part, then the user part: an unknown process unwinds to its ip */
	assert_int_equal(s.nr_callchain, 4);
	assert_int_equal(s.callchain[0], PERF_CONTEXT_KERNEL);
	assert_int_equal(s.callchain[1], KADDR);
	assert_int_equal(s.callchain[2], PERF_CONTEXT_USER);
	assert_int_equal(s.callchain[3], 0x401000);
	assert_int_equal(s.raw_size, 5);
	assert_memory_equal(s.raw, "abcde", 5);
	assert_int_equal(s.weight, 4242);
	assert_null(s.user_regs);
	/* nothing left over: the record ends with the weight */
	assert_int_equal(hdr(0).size, 8 * (1 + 3 + 5 + 2 + 1));
	lupe_online_get_stats(o, &st);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.unwound, 0);
	assert_int_equal(st.failed, 1);
	lupe_online_delete(o);
}

static void test_order_and_others(void **state)
{
	struct lupe_online *o = stage();
	static uint64_t a[256], b[256], c[4];
	struct perf_event_header *plain = (void *)c, round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	struct lupe_sample s;

	(void)state;
	c[1] = 0x402000;
	c[2] = (9ULL << 32) | 9;
	c[3] = 150;
	memcpy(c, &(struct perf_event_header){ PERF_RECORD_SAMPLE, 0x8000 | PERF_RECORD_MISC_USER, 32 },
	       8);
	/* a round holding times 200, 150 (not dwarf), 100 */
	assert_int_equal(lupe_online_record(o, dwarf_sample(a, 200), 0), 0);
	assert_int_equal(lupe_online_record(o, plain, 0), 0);
	assert_int_equal(lupe_online_record(o, dwarf_sample(b, 100), 0), 0);
	assert_int_equal(lupe_online_record(o, &round, 0), 0);
	/* the first round waits for the next one; its marker goes out */
	assert_int_equal(nout, 1);
	assert_int_equal(hdr(0).type, PERF_RECORD_FINISHED_ROUND);
	assert_int_equal(lupe_online_flush(o), 0);
	assert_int_equal(nout, 4);
	assert_memory_equal(out[2], c, 32); /* not a dwarf sample: as it came */
	{
		struct perf_event_attr wa = dwarf_attr;

		lupe_online_attr(&wa);
		assert_int_equal(lupe_sample_parse(&wa, (void *)out[1], &s), 0);
		assert_int_equal(s.time, 100);
		assert_int_equal(lupe_sample_parse(&wa, (void *)out[3], &s), 0);
		assert_int_equal(s.time, 200);
	}
	lupe_online_delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_order_and_others),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
