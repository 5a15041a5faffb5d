// SPDX-License-Identifier: GPL-2.0
/* The session hook and register access, common to every unwinder. */
#include "unwind/unwind.h"
#include "util/util.h"

int lupe_unwind_wanted(const struct lupe_sample *s)
{
	uint64_t need = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	/* perf unwinds nothing, not even the ip, when the kernel copied no stack (dyn size 0) */
	return s->attr && (s->attr->sample_type & need) == need && s->user_abi && s->user_regs &&
	       s->user_stack && s->user_stack_size && s->user_stack_dyn;
}

int lupe_unwind_reg(const struct lupe_sample *s, int idx, uint64_t *val)
{
	uint64_t mask = s->attr ? s->attr->sample_regs_user : 0;

	if (!s->user_regs || idx < 0 || idx > 63 || !(mask & (1ULL << idx)))
		return -ENOENT;
	*val = s->user_regs[__builtin_popcountll(mask & ((1ULL << idx) - 1))];
	return 0;
}

static int unwind_cb(void *arg, struct lupe_session *s, struct lupe_thread *t,
		     const struct lupe_sample *sample, uint64_t *ips, int max)
{
	(void)s;
	return lupe_unwind_user(arg, t, sample, ips, max);
}

static void unwind_release(void *arg)
{
	lupe_unwinder_delete(arg);
}

int lupe_unwind_install(struct lupe_session *s)
{
	struct lupe_unwinder *u;

	if (!lupe_unwind_supported())
		return -ENOTSUP;
	u = lupe_unwinder_new();
	if (!u)
		return -ENOMEM;
	lupe_session_set_unwinder(s, unwind_cb, u, unwind_release);
	return 0;
}
