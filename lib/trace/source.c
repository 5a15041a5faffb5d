// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall event source that lupe trace reads: one interface over the
 * BPF capture (lib/bpf) and the raw_syscalls tracepoint fallback
 * (perf-source.c), chosen by the caller.
 */
#include <stdlib.h>
#include <string.h>
#include "trace/internal.h"
#include "util/util.h"

void lupe_trace_init(struct lupe_trace *t, const struct trace_ops *ops,
		     const struct lupe_trace_opts *o)
{
	t->ops = ops;
	memset(&t->o, 0, sizeof(t->o));
	memcpy(&t->o, o, o->sz < sizeof(t->o) ? o->sz : sizeof(t->o));
	t->o.sz = sizeof(t->o);
	if (!t->o.max_strlen)
		t->o.max_strlen = 32;
	if (t->o.syscalls) {
		t->filter = true;
		memcpy(t->set, t->o.syscalls, sizeof(t->set));
		t->o.syscalls = NULL;
	}
}

struct lupe_trace *lupe_trace_new(const struct lupe_trace_opts *opts, bool bpf)
{
	if (!opts || opts->sz < offsetof(struct lupe_trace_opts, buf_bytes))
		return err_ptr(-EINVAL);
	return bpf ? lupe_trace_bpf_new(opts) : lupe_trace_perf_new(opts);
}

int lupe_trace_add_pid(struct lupe_trace *t, pid_t pid, bool at_exec)
{
	return t->ops->add_pid(t, pid, at_exec);
}

int lupe_trace_start(struct lupe_trace *t)
{
	return t->ops->start(t);
}

int lupe_trace_poll(struct lupe_trace *t, int timeout_ms, lupe_sc_fn fn, void *arg)
{
	return t->ops->poll(t, timeout_ms, fn, arg);
}

unsigned long long lupe_trace_lost(struct lupe_trace *t)
{
	return t->ops->lost(t);
}

bool lupe_trace_has_strings(const struct lupe_trace *t)
{
	return t->strings;
}

void lupe_trace_delete(struct lupe_trace *t)
{
	if (t)
		t->ops->del(t);
}
