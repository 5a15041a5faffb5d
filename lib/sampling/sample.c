// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "sampling/sample.h"
#include "util/util.h"

/* A cursor over a record's u64 words that refuses to run past its end. */
struct cursor {
	const uint64_t *p, *end;
};

static int take(struct cursor *c, uint64_t *v)
{
	if (c->p >= c->end)
		return -LUPE_ERR_CORRUPT;
	*v = *c->p++;
	return 0;
}

static int take_array(struct cursor *c, uint64_t nwords, const uint64_t **out)
{
	if (nwords > (uint64_t)(c->end - c->p))
		return -LUPE_ERR_CORRUPT;
	*out = c->p;
	c->p += nwords;
	return 0;
}

static void split32(uint64_t v, uint32_t *lo, uint32_t *hi)
{
	/* Little-endian hosts only: the pair is stored as two u32 in order. */
	*lo = (uint32_t)v;
	*hi = (uint32_t)(v >> 32);
}

#define TAKE(c, v) do { int e_ = take(c, v); if (e_) return e_; } while (0)

/* A sample with nothing read yet: no cpu, pid, tid or time (all ones). */
static void sample_init(struct lupe_sample *s, const struct perf_event_attr *attr)
{
	memset(s, 0, sizeof(*s));
	s->attr = attr;
	s->cpu = s->pid = s->tid = (uint32_t)-1;
	s->time = (uint64_t)-1;
}

/*
 * The fields a sample and the sample_id trailer of other records share,
 * in the kernel's order (a sample's ADDR sits among them; the trailer has
 * no ADDR and its IDENTIFIER comes last, so the callers take those).
 */
static int take_ids(struct cursor *c, uint64_t type, struct lupe_sample *s)
{
	uint64_t v;

	if (type & PERF_SAMPLE_TID) {
		TAKE(c, &v);
		split32(v, &s->pid, &s->tid);
	}
	if (type & PERF_SAMPLE_TIME)
		TAKE(c, &s->time);
	if (type & PERF_SAMPLE_ADDR)
		TAKE(c, &s->addr);
	if (type & PERF_SAMPLE_ID)
		TAKE(c, &s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		TAKE(c, &s->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		TAKE(c, &v);
		split32(v, &s->cpu, &s->res);
	}
	return 0;
}

static size_t read_format_words(const struct perf_event_attr *attr, uint64_t nr)
{
	size_t per = 1 + !!(attr->read_format & PERF_FORMAT_ID) +
		     !!(attr->read_format & PERF_FORMAT_LOST);
	size_t fixed = !!(attr->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(attr->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (attr->read_format & PERF_FORMAT_GROUP)
		return 1 + fixed + nr * per;
	return fixed + per;
}

int lupe_sample_parse(const struct perf_event_attr *attr, const struct perf_event_header *event,
		 struct lupe_sample *s)
{
	uint64_t type = attr->sample_type, v;
	struct cursor c;
	int err;

	sample_init(s, attr);
	/* as perf: without PERF_SAMPLE_PERIOD, each sample weighs the fixed period (-c) */
	s->period = attr->sample_period;
	if (event->size < sizeof(*event))
		return -LUPE_ERR_CORRUPT;
	c.p = (const uint64_t *)(event + 1);
	c.end = (const uint64_t *)((const char *)event + (event->size & ~7u));

	if (type & PERF_SAMPLE_IDENTIFIER)
		TAKE(&c, &s->id);
	if (type & PERF_SAMPLE_IP)
		TAKE(&c, &s->ip);
	if ((err = take_ids(&c, type, s)))
		return err;
	if (type & PERF_SAMPLE_PERIOD)
		TAKE(&c, &s->period);
	if (type & PERF_SAMPLE_READ) {
		uint64_t nr = 1;

		if (attr->read_format & PERF_FORMAT_GROUP) {
			if (c.p >= c.end)
				return -LUPE_ERR_CORRUPT;
			nr = *c.p;
		}
		if (nr > 4096)
			return -LUPE_ERR_CORRUPT;
		s->read_size = read_format_words(attr, nr) * 8;
		if ((err = take_array(&c, s->read_size / 8, &s->read)))
			return err;
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		TAKE(&c, &s->nr_callchain);
		if ((err = take_array(&c, s->nr_callchain, &s->callchain)))
			return err;
	}
	if (type & PERF_SAMPLE_RAW) {
		/* A u32 size, then the bytes; the pair is padded to 8 bytes. */
		const char *p = (const char *)c.p;
		uint64_t words;

		if (c.p >= c.end)
			return -LUPE_ERR_CORRUPT;
		memcpy(&s->raw_size, p, sizeof(uint32_t));
		words = ((uint64_t)s->raw_size + 4 + 7) / 8;
		if (words > (uint64_t)(c.end - c.p))
			return -LUPE_ERR_CORRUPT;
		s->raw = p + 4;
		c.p += words;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		const uint64_t *b;
		uint64_t words;

		TAKE(&c, &s->nr_branch);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			TAKE(&c, &v);
		if (s->nr_branch > (1u << 20))
			return -LUPE_ERR_CORRUPT;
		words = s->nr_branch * 3; /* from, to, flags */
		if ((err = take_array(&c, words, &b)))
			return err;
		s->branch = b;
	}
	if (type & PERF_SAMPLE_REGS_USER) {
		TAKE(&c, &s->user_abi);
		if (s->user_abi) {
			uint64_t n = __builtin_popcountll(attr->sample_regs_user);

			if ((err = take_array(&c, n, &s->user_regs)))
				return err;
		}
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		const uint64_t *st;

		TAKE(&c, &s->user_stack_size);
		if (s->user_stack_size) {
			if (s->user_stack_size & 7)
				return -LUPE_ERR_CORRUPT;
			if ((err = take_array(&c, s->user_stack_size / 8, &st)))
				return err;
			s->user_stack = st;
			TAKE(&c, &s->user_stack_dyn);
		}
	}
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		TAKE(&c, &s->weight);
	if (type & PERF_SAMPLE_DATA_SRC)
		TAKE(&c, &s->data_src);
	if (type & PERF_SAMPLE_TRANSACTION)
		TAKE(&c, &s->transaction);
	if (type & PERF_SAMPLE_REGS_INTR) {
		TAKE(&c, &s->intr_abi);
		if (s->intr_abi &&
		    (err = take_array(&c, __builtin_popcountll(attr->sample_regs_intr), &s->intr_regs)))
			return err;
	}
	if (type & PERF_SAMPLE_PHYS_ADDR)
		TAKE(&c, &s->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		TAKE(&c, &s->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		TAKE(&c, &s->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		TAKE(&c, &s->code_page_size);
	return 0;
}

size_t lupe_sample_id_size(const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;

	if (!attr->sample_id_all)
		return 0;
	return 8 * (!!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID) +
		    !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
		    !!(t & PERF_SAMPLE_IDENTIFIER));
}

int lupe_sample_id_parse(const struct perf_event_attr *attr, const struct perf_event_header *event,
		    struct lupe_sample *s)
{
	uint64_t type = attr->sample_type;
	size_t size = lupe_sample_id_size(attr);
	struct cursor c;
	int err;

	sample_init(s, attr);
	if (!size)
		return 0;
	if (event->size < sizeof(*event) + size)
		return -LUPE_ERR_CORRUPT;
	/* The trailer is written in the same order as a sample's, at the end. */
	c.end = (const uint64_t *)((const char *)event + (event->size & ~7u));
	c.p = c.end - size / 8;
	if ((err = take_ids(&c, type & ~(uint64_t)PERF_SAMPLE_ADDR, s)))
		return err;
	if (type & PERF_SAMPLE_IDENTIFIER)
		TAKE(&c, &s->id);
	return 0;
}

int lupe_sample_id_pos(uint64_t type, int is_sample)
{
	int pos;

	if (type & PERF_SAMPLE_IDENTIFIER)
		return is_sample ? 8 /* after the header */ : -8;
	if (!(type & PERF_SAMPLE_ID))
		return 0;
	if (is_sample) {
		/* header, then ip, tid, time, addr before the id */
		pos = 8;
		pos += 8 * (!!(type & PERF_SAMPLE_IP) + !!(type & PERF_SAMPLE_TID) +
			    !!(type & PERF_SAMPLE_TIME) + !!(type & PERF_SAMPLE_ADDR));
		return pos;
	}
	/* from the end: id, then stream_id and cpu after it */
	pos = -8 * (1 + !!(type & PERF_SAMPLE_STREAM_ID) + !!(type & PERF_SAMPLE_CPU));
	return pos;
}
