// SPDX-License-Identifier: GPL-2.0
/*
 * Online unwinding (unwind/online.h): the ordered records of a stream,
 * the machine model they build, and each dwarf sample rewritten with its
 * unwound user frames. The rewrite keeps every field of the sample but the
 * callchain (kernel part + PERF_CONTEXT_USER + user frames) and the
 * dropped REGS_USER / STACK_USER blocks, in the kernel's field order.
 */
#include <stdlib.h>
#include <string.h>
#include "data/format.h"
#include "session/machine.h"
#include "session/ordered.h"
#include "sampling/sample.h"
#include "unwind/online.h"
#include "unwind/unwind.h"
#include "util/util.h"

#define DWARF_TYPE (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

/* Room for the longest chain written: the record's size is a u16. */
#define MAX_CHAIN LUPE_SESSION_MAX_CHAIN

struct lupe_online {
	lupe_online_attr_fn attr_of;
	lupe_online_emit_fn emit;
	void *arg;
	struct lupe_ordered *oe;
	struct machine *machine;
	struct lupe_unwinder *u;
	struct lupe_online_stats st;
	uint64_t chain[MAX_CHAIN];
	uint64_t out[(65536 + 7) / 8];
};

int lupe_online_wants(const struct perf_event_attr *attr)
{
	return attr && (attr->sample_type & DWARF_TYPE) == DWARF_TYPE;
}

void lupe_online_attr(struct perf_event_attr *attr)
{
	if (!lupe_online_wants(attr))
		return;
	attr->sample_type &= ~(uint64_t)DWARF_TYPE;
	attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr->sample_regs_user = 0;
	attr->sample_stack_user = 0;
	attr->exclude_callchain_user = 0;
}

/* Words of the fields ahead of the callchain: IDENTIFIER to PERIOD, then READ. */
static size_t head_words(uint64_t type, const struct lupe_sample *s)
{
	static const uint64_t fixed = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				      PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
				      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;

	return (size_t)__builtin_popcountll(type & fixed) + s->read_size / 8;
}

/*
 * Rewrite ev (parsed as s under attr) with chain[0..nr) as its callchain and
 * without its user registers and stack, into o->out.
 */
static const struct perf_event_header *rewrite(struct lupe_online *o,
					       const struct perf_event_attr *attr,
					       const struct perf_event_header *ev,
					       const struct lupe_sample *s, const uint64_t *chain,
					       size_t nr)
{
	const uint64_t *in = (const uint64_t *)ev;
	uint64_t type = attr->sample_type;
	size_t total = ev->size / 8, cc = 1 + head_words(type, s), cc_end = cc, mid, regs, rest, n;
	struct perf_event_header *h = (void *)o->out;
	uint64_t *w = o->out;

	if (type & PERF_SAMPLE_CALLCHAIN)
		cc_end += 1 + s->nr_callchain;
	mid = cc_end;
	if (type & PERF_SAMPLE_RAW)
		mid += ((uint64_t)s->raw_size + 4 + 7) / 8;
	if (type & PERF_SAMPLE_BRANCH_STACK)
		mid += 1 + !!(attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) + 3 * s->nr_branch;
	regs = mid + 1 + (s->user_abi ? (size_t)__builtin_popcountll(attr->sample_regs_user) : 0);
	rest = regs + 1 + (s->user_stack_size ? s->user_stack_size / 8 + 1 : 0);
	if (rest > total)
		return NULL;
	n = cc + 1 + nr + (mid - cc_end) + (total - rest);
	if (n * 8 > 0xffff)
		return NULL;
	memcpy(w, in, cc * 8);
	w[cc] = nr;
	memcpy(w + cc + 1, chain, nr * 8);
	memcpy(w + cc + 1 + nr, in + cc_end, (mid - cc_end) * 8);
	memcpy(w + cc + 1 + nr + (mid - cc_end), in + rest, (total - rest) * 8);
	h->size = (uint16_t)(n * 8);
	return h;
}

static int deliver_sample(struct lupe_online *o, const struct perf_event_header *ev)
{
	const struct perf_event_attr *attr = o->attr_of(o->arg, ev);
	const struct perf_event_header *out;
	struct lupe_sample s;
	struct lupe_thread *t;
	size_t nr;
	int n = 0;

	if (!lupe_online_wants(attr) || lupe_sample_parse(attr, ev, &s))
		return o->emit(o->arg, ev);
	o->st.samples++;
	nr = s.nr_callchain < MAX_CHAIN - 2 ? (size_t)s.nr_callchain : MAX_CHAIN - 2;
	if (nr)
		memcpy(o->chain, s.callchain, nr * 8);
	t = lupe_machine_findnew_thread(o->machine, (int)s.pid, (int)s.tid);
	if (!t)
		return -ENOMEM;
	if (nr && o->chain[nr - 1] == PERF_CONTEXT_USER)
		nr--;
	o->chain[nr] = PERF_CONTEXT_USER;
	if (lupe_unwind_wanted(&s))
		n = lupe_unwind_user(o->u, t, &s, o->chain + nr + 1, (int)(MAX_CHAIN - nr - 1));
	if (n > 1)
		o->st.unwound++;
	else if (s.user_abi)
		o->st.failed++;
	if (n > 0)
		nr += 1 + (size_t)n;
	out = rewrite(o, attr, ev, &s, o->chain, nr);
	if (!out)
		return o->emit(o->arg, ev); /* cannot happen for a record the kernel wrote */
	return o->emit(o->arg, out);
}

static int deliver(void *arg, const struct perf_event_header *ev, uint64_t offset)
{
	struct lupe_online *o = arg;

	(void)offset;
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		return deliver_sample(o, ev);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		int err = lupe_machine_process(o->machine, ev);

		if (err && err != -LUPE_ERR_CORRUPT)
			return err;
		break;
	}
	}
	return o->emit(o->arg, ev);
}

/*
 * The record's time, or -1 when it has none (synthesized, no
 * PERF_SAMPLE_TIME): then it goes out at once. A sample's is read where it
 * sits, after IDENTIFIER, IP and TID (as session.c's record_time): the
 * sample is parsed once, when it is delivered.
 */
static uint64_t record_time(struct lupe_online *o, const struct perf_event_header *ev)
{
	const struct perf_event_attr *attr = o->attr_of(o->arg, ev);
	struct lupe_sample s;
	uint64_t t;

	if (!attr || !(attr->sample_type & PERF_SAMPLE_TIME))
		return (uint64_t)-1;
	if (ev->type == PERF_RECORD_SAMPLE) {
		size_t pos = 8 * (1 + (size_t)__builtin_popcountll(attr->sample_type &
			     (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID)));

		if (pos + 8 > ev->size)
			return (uint64_t)-1;
		memcpy(&t, (const char *)ev + pos, 8);
	} else if (lupe_sample_id_parse(attr, ev, &s)) {
		return (uint64_t)-1;
	} else {
		t = s.time;
	}
	return t ? t : (uint64_t)-1;
}

struct lupe_online *lupe_online_new(lupe_online_attr_fn attr_of, lupe_online_emit_fn emit,
				    void *arg)
{
	struct lupe_online *o;

	if (!lupe_unwind_supported())
		return err_ptr(-ENOTSUP);
	o = calloc(1, sizeof(*o));
	if (!o)
		return err_ptr(-ENOMEM);
	o->attr_of = attr_of;
	o->emit = emit;
	o->arg = arg;
	o->oe = lupe_ordered_new(deliver, o);
	o->machine = lupe_machine_new();
	o->u = lupe_unwinder_new();
	if (!o->oe || !o->machine || !o->u) {
		lupe_online_delete(o);
		return err_ptr(-ENOMEM);
	}
	return o;
}

void lupe_online_delete(struct lupe_online *o)
{
	if (!o)
		return;
	lupe_ordered_delete(o->oe);
	lupe_unwinder_delete(o->u);
	lupe_machine_delete(o->machine);
	free(o);
}

int lupe_online_record(struct lupe_online *o, const struct perf_event_header *ev, int stable)
{
	uint64_t time;
	int err;

	if (ev->type == PERF_RECORD_FINISHED_ROUND) {
		err = lupe_ordered_round(o->oe);
		return err ? err : o->emit(o->arg, ev);
	}
	if (ev->type >= PERF_RECORD_USER_TYPE_START) {
		err = lupe_ordered_flush_all(o->oe);
		return err ? err : o->emit(o->arg, ev);
	}
	time = record_time(o, ev);
	if (time == (uint64_t)-1)
		return deliver(o, ev, 0);
	return lupe_ordered_queue(o->oe, ev, stable, time, 0);
}

int lupe_online_flush(struct lupe_online *o)
{
	return lupe_ordered_flush_all(o->oe);
}

void lupe_online_get_stats(const struct lupe_online *o, struct lupe_online_stats *st)
{
	*st = o->st;
}
