// SPDX-License-Identifier: GPL-2.0
/* The callchain completion and register access, common to every unwinder. */
#include <string.h>
#include "unwind/unwind.h"
#include "util/util.h"

int lupe_unwind_wanted(const struct lupe_sample *s)
{
	uint64_t need = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return s->attr && (s->attr->sample_type & need) == need && s->user_abi && s->user_regs &&
	       s->user_stack && s->user_stack_size;
}

int lupe_unwind_reg(const struct lupe_sample *s, int idx, uint64_t *val)
{
	uint64_t mask = s->attr ? s->attr->sample_regs_user : 0;

	if (!s->user_regs || idx < 0 || idx > 63 || !(mask & (1ULL << idx)))
		return -ENOENT;
	*val = s->user_regs[__builtin_popcountll(mask & ((1ULL << idx) - 1))];
	return 0;
}

int lupe_callchain_complete(struct lupe_unwinder *u, struct lupe_thread *t,
			    const struct lupe_sample *s, uint64_t *out, int max)
{
	int n = 0, got;

	if (!lupe_unwind_wanted(s) || max < 2)
		return 0;
	if (s->callchain) {
		uint64_t nr = s->nr_callchain < (uint64_t)max - 1 ? s->nr_callchain : (uint64_t)max - 1;

		memcpy(out, s->callchain, nr * sizeof(*out));
		n = (int)nr;
	}
	out[n++] = LUPE_CONTEXT_USER_UNWOUND;
	got = lupe_unwind_user(u, t, s, out + n, max - n);
	if (got <= 0)
		return got == -ENOTSUP ? 0 : n - 1;
	return n + got;
}
