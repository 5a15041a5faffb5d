// SPDX-License-Identifier: GPL-2.0
/*
 * Samples with PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER: decoding
 * (the fields after them must land right), and the DWARF unwinder on a
 * stack copy of this very process, whole and corrupt (truncated copy, no
 * copy, missing registers, a stack pointer outside the copy), and frames
 * in a file that is gone, unwound by the frame pointer and cached on the
 * stack bytes they read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/perf-format.h>
#include "session/machine.h"
#include "sampling/sample.h"
#include "session/synthesize.h"
#include "unwind/unwind.h"
#include "util/util.h"

/* perf's x86_64 user register mask: everything but ds, es, fs, gs */
#define REGS_MASK 0xff0fffULL
#define NREGS 20
enum { R_BP = 6, R_SP = 7, R_IP = 8 };

static uint64_t rec[2048];

/* A sample record: ip, tid, callchain (none), regs (abi, regs), stack, data_src. */
static struct perf_event_header *build(struct perf_event_attr *attr, uint64_t abi, int nregs,
				       uint64_t stack_size, uint64_t dyn, uint64_t data_src)
{
	struct perf_event_header *h = (void *)rec;
	uint64_t *p = rec + 1;

	memset(attr, 0, sizeof(*attr));
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN |
			    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_DATA_SRC;
	attr->sample_regs_user = REGS_MASK;
	attr->sample_stack_user = 8192;
	*p++ = 0x401000;                 /* ip */
	*p++ = (7ULL << 32) | 7;         /* pid, tid */
	*p++ = 0;                        /* callchain: nr */
	*p++ = abi;
	for (int i = 0; abi && i < nregs; i++)
		*p++ = 0x1000 + i;
	*p++ = stack_size;
	for (uint64_t i = 0; i < stack_size / 8; i++)
		*p++ = 0xdead0000 + i;
	if (stack_size)
		*p++ = dyn;
	*p++ = data_src;
	h->type = PERF_RECORD_SAMPLE;
	h->size = (uint16_t)((char *)p - (char *)rec);
	return h;
}

static void test_decode_regs_and_stack(void **state)
{
	struct perf_event_attr attr;
	struct lupe_sample s;
	uint64_t v;

	assert_int_equal(lupe_sample_parse(&attr, build(&attr, PERF_SAMPLE_REGS_ABI_64, NREGS, 64, 48, 0x77), &s), 0);
	assert_int_equal(s.user_abi, PERF_SAMPLE_REGS_ABI_64);
	assert_non_null(s.user_regs);
	assert_int_equal(s.user_regs[0], 0x1000);
	assert_int_equal(s.user_regs[NREGS - 1], 0x1000 + NREGS - 1);
	assert_int_equal(s.user_stack_size, 64);
	assert_int_equal(s.user_stack_dyn, 48);
	assert_int_equal(((const uint64_t *)s.user_stack)[7], 0xdead0007);
	assert_int_equal(s.data_src, 0x77); /* the field after the stack */
	/* registers by perf number: the mask's gaps (ds..gs) are skipped */
	assert_int_equal(lupe_unwind_reg(&s, R_IP, &v), 0);
	assert_int_equal(v, 0x1000 + 8);
	assert_int_equal(lupe_unwind_reg(&s, 16 /* r8 */, &v), 0);
	assert_int_equal(v, 0x1000 + 12);
	assert_int_equal(lupe_unwind_reg(&s, 12 /* ds */, &v), -ENOENT);

	/* no registers (abi 0: a kernel thread) and no stack: no dyn_size word */
	assert_int_equal(lupe_sample_parse(&attr, build(&attr, 0, 0, 0, 0, 0x55), &s), 0);
	assert_null(s.user_regs);
	assert_int_equal(s.user_stack_size, 0);
	assert_int_equal(s.data_src, 0x55);
	assert_false(lupe_unwind_wanted(&s));

	/* a stack size that runs past the record is corrupt, not a crash */
	build(&attr, PERF_SAMPLE_REGS_ABI_64, NREGS, 64, 64, 0);
	rec[1 + 3 + 1 + NREGS] = 1 << 20;
	assert_int_equal(lupe_sample_parse(&attr, (void *)rec, &s), -LUPE_ERR_CORRUPT);
}

/* ---- unwinding this process ---- */

static int add_rec(const struct perf_event_header *r, void *arg)
{
	return lupe_machine_process(arg, r) == -ENOMEM;
}

static uint8_t stack_copy[4096];
static uint64_t regs[NREGS];

/* Fill regs (perf order, REGS_MASK) and the stack copy as the kernel would at this point. */
static __attribute__((noinline)) uint64_t capture(void)
{
	uint64_t ip, sp, bp;

	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=r"(ip), "=r"(sp), "=r"(bp));
	memset(regs, 0, sizeof(regs));
	regs[R_IP] = ip;
	regs[R_SP] = sp;
	regs[R_BP] = bp;
	memcpy(stack_copy, (void *)sp, sizeof(stack_copy));
	return ip;
}

static __attribute__((noinline)) uint64_t caller_of_capture(void)
{
	uint64_t ip = capture();

	__asm__ volatile("" ::: "memory"); /* not a tail call */
	return ip;
}

struct fixture {
	struct machine *m;
	struct lupe_thread *t;
	struct lupe_unwinder *u;
	struct perf_event_attr attr;
	struct lupe_sample s;
	uint64_t ip;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct synth syn = { 0 };

	f->m = lupe_machine_new();
	syn.fn = add_rec;
	syn.arg = f->m;
	assert_int_equal(lupe_synth_process(&syn, getpid()), 0);
	f->t = lupe_machine_findnew_thread(f->m, getpid(), getpid());
	f->u = lupe_unwinder_new();
	f->ip = caller_of_capture();
	f->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	f->attr.sample_regs_user = REGS_MASK;
	f->s.attr = &f->attr;
	f->s.ip = f->ip;
	f->s.user_abi = PERF_SAMPLE_REGS_ABI_64;
	f->s.user_regs = regs;
	f->s.user_stack = stack_copy;
	f->s.user_stack_size = f->s.user_stack_dyn = sizeof(stack_copy);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	lupe_unwinder_delete(f->u);
	lupe_machine_delete(f->m);
	free(f);
	return 0;
}

static int unwind_cb(void *arg, struct lupe_session *s, struct lupe_thread *t,
		     const struct lupe_sample *sample, uint64_t *ips, int max)
{
	return lupe_unwind_user(arg, t, sample, ips, max);
}

/* The session's callchain step with f's unwinder plugged in: the entries, or 0 when it left the chain. */
static int complete(struct fixture *f, const struct lupe_sample *in, uint64_t *out, int max)
{
	struct lupe_session *s = lupe_session_new_empty();
	struct lupe_sample c = *in;
	int n = 0;

	assert_non_null(s);
	lupe_session_set_unwinder(s, unwind_cb, f->u, NULL);
	assert_int_equal(lupe_session_complete_callchain(s, f->t, &c), 0);
	if (c.callchain != in->callchain) {
		n = (int)(c.nr_callchain < (uint64_t)max ? c.nr_callchain : (uint64_t)max);
		memcpy(out, c.callchain, n * sizeof(*out));
	}
	lupe_session_delete(s);
	return n;
}

static int in_function(uint64_t ip, void *fn)
{
	return ip > (uint64_t)(uintptr_t)fn && ip < (uint64_t)(uintptr_t)fn + 256;
}

static void test_unwind_self(void **state)
{
	struct fixture *f = *state;
	uint64_t ips[64];
	int n = lupe_unwind_user(f->u, f->t, &f->s, ips, 64);

	assert_true(n >= 3);
	assert_int_equal(ips[0], f->ip);
	assert_true(in_function(ips[0], capture));
	assert_true(in_function(ips[1], caller_of_capture));
	/* twice: the address space is reused and gives the same answer */
	{
		uint64_t again[64];

		assert_int_equal(lupe_unwind_user(f->u, f->t, &f->s, again, 64), n);
		assert_memory_equal(again, ips, n * sizeof(*ips));
	}
	/* the session's completed chain: the (empty) recorded part, the unwound-user marker, the frames */
	{
		uint64_t cc[64];

		assert_int_equal(complete(f, &f->s, cc, 64), n + 1);
		assert_int_equal(cc[0], LUPE_CONTEXT_USER_UNWOUND);
		assert_int_equal(cc[1], f->ip);
	}
	/* max is honoured */
	assert_int_equal(lupe_unwind_user(f->u, f->t, &f->s, ips, 2), 2);
}

static void test_unwind_corrupt(void **state)
{
	struct fixture *f = *state;
	struct lupe_sample s = f->s;
	struct perf_event_attr attr = f->attr;
	uint64_t ips[64], bad_regs[NREGS];
	int n;

	/* truncated copy: the first frame at least, never a read past the copy */
	s.user_stack_size = s.user_stack_dyn = 16;
	n = lupe_unwind_user(f->u, f->t, &s, ips, 64);
	assert_true(n >= 1 && n < 64);
	assert_int_equal(ips[0], f->ip);
	/* dyn_size larger than the copy is clamped to it */
	s.user_stack_size = 16;
	s.user_stack_dyn = 1 << 20;
	n = lupe_unwind_user(f->u, f->t, &s, ips, 64);
	assert_true(n >= 1 && n < 64);

	/* no copy at all: nothing to unwind, the recorded chain stands */
	s = f->s;
	s.user_stack_size = s.user_stack_dyn = 0;
	s.user_stack = NULL;
	assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 0);
	assert_int_equal(complete(f, &s, ips, 64), 0);

	/* registers missing: without sp only the ip; without ip nothing */
	s = f->s;
	s.attr = &attr;
	attr.sample_regs_user = 1ULL << R_IP;
	memcpy(bad_regs, regs, sizeof(bad_regs));
	bad_regs[0] = regs[R_IP];
	s.user_regs = bad_regs;
	assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 1);
	assert_int_equal(ips[0], f->ip);
	attr.sample_regs_user = 1ULL << R_SP;
	assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 0);
	s.user_abi = 0;
	attr = f->attr;
	assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 0);

	/* the stack pointer outside the copy: reads fail, no crash */
	s = f->s;
	memcpy(bad_regs, regs, sizeof(bad_regs));
	bad_regs[R_SP] = 0x10;
	s.user_regs = bad_regs;
	n = lupe_unwind_user(f->u, f->t, &s, ips, 64);
	assert_true(n >= 1 && n < 64);
	bad_regs[R_SP] = UINT64_MAX - 4;
	n = lupe_unwind_user(f->u, f->t, &s, ips, 64);
	assert_true(n >= 1 && n < 64);

	/*
	 * garbage in the copy: whatever comes out is bounded, and the chain
	 * cached for the same registers over the good copy is not reused
	 */
	s = f->s;
	{
		static uint8_t junk[4096];

		assert_true(lupe_unwind_user(f->u, f->t, &f->s, ips, 64) >= 3);
		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (uint8_t)(i * 131 + 7);
		s.user_stack = junk;
		n = lupe_unwind_user(f->u, f->t, &s, ips, 64);
		assert_true(n >= 1 && n <= 64);
		assert_false(n > 1 && in_function(ips[1], caller_of_capture));
	}
}

/*
 * pcs in a map of a file that is gone: libdw unwinds them by the frame
 * pointer (elfutils' x86_64_unwind: the caller's pc at bp + 8, its bp at
 * bp), and stops at a bp of 0. The second unwind of the same registers
 * may come from the cache of chains, but only while the stack slots the
 * first one read hold the same bytes: a changed return address or saved
 * bp gives the new chain.
 */
static void test_unwind_gone(void **state)
{
	struct fixture *f = *state;
	const uint64_t G = 0x100000000000ULL, S = 0x7f0000001000ULL; /* the gone map, the stack copy's address */
	union {
		struct perf_record_mmap2 r;
		char b[sizeof(struct perf_record_mmap2) + 32];
	} mm = { 0 };
	uint64_t stack[32] = { 0 }, gregs[NREGS], ips[64];
	struct lupe_sample s = f->s;

	/* a module of the process reported first: libdw's thread state needs one ELF */
	assert_true(lupe_unwind_user(f->u, f->t, &f->s, ips, 64) >= 3);
	mm.r.header.type = PERF_RECORD_MMAP2;
	mm.r.header.size = sizeof(mm);
	mm.r.pid = mm.r.tid = (uint32_t)getpid();
	mm.r.start = G;
	mm.r.len = 0x10000;
	mm.r.prot = PROT_READ | PROT_EXEC;
	strcpy(mm.r.filename, "/nonexistent/lupe-gone");
	assert_int_equal(lupe_machine_process(f->m, &mm.r.header), 0);

	memcpy(gregs, regs, sizeof(gregs));
	gregs[R_IP] = G + 0x100;
	gregs[R_SP] = S;
	gregs[R_BP] = S + 16;
	stack[2] = S + 64;  /* [bp]: the caller's bp */
	stack[3] = G + 0x200; /* [bp + 8]: the return address */
	stack[8] = 0;       /* the caller's frame: bp 0 ends the chain */
	stack[9] = G + 0x300;
	s.user_regs = gregs;
	s.user_stack = (const void *)stack;
	s.user_stack_size = s.user_stack_dyn = sizeof(stack);
	s.ip = G + 0x100;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 3);
		assert_int_equal(ips[0], G + 0x100);
		assert_int_equal(ips[1], G + 0x1ff);
		assert_int_equal(ips[2], G + 0x2ff);
	}
	/* another return address at the same registers */
	stack[3] = G + 0x280;
	assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 3);
	assert_int_equal(ips[1], G + 0x27f);
	/* another saved bp: the caller's frame elsewhere */
	stack[2] = S + 128;
	stack[16] = 0;
	stack[17] = G + 0x400;
	assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 3);
	assert_int_equal(ips[2], G + 0x3ff);
	/* and a caller that goes on: one more frame */
	stack[16] = S + 192;
	stack[24] = 0;
	stack[25] = G + 0x500;
	assert_int_equal(lupe_unwind_user(f->u, f->t, &s, ips, 64), 4);
	assert_int_equal(ips[3], G + 0x4ff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_regs_and_stack),
		cmocka_unit_test_setup_teardown(test_unwind_self, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwind_corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwind_gone, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
