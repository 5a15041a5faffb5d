// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall event source that lupe trace reads: one interface over the
 * BPF capture (lib/bpf) and the raw_syscalls tracepoint fallback
 * (perf-source.c), chosen by the caller.
 */
#include <stdlib.h>
#include <string.h>
#include "session/ordered.h"
#include "trace/internal.h"
#include "util/util.h"

void lupe_trace_init(struct lupe_trace *t, const struct trace_ops *ops,
		     const struct lupe_trace_opts *o)
{
	t->ops = ops;
	t->o = *o; /* loaded by the public constructor: this build's size */
	if (!t->o.max_strlen)
		t->o.max_strlen = 32;
	if (t->o.syscalls) {
		t->filter = true;
		memcpy(t->set, t->o.syscalls, sizeof(t->set));
		t->o.syscalls = NULL;
	}
}

/*
 * BPF syscalls and perf tracepoints together (-e with sys:name): both
 * sources' events of a poll are copied, put in time order by the session's
 * queue (both are CLOCK_MONOTONIC; equal times keep their source order)
 * and handed out interleaved. Only runs that ask for tracepoints pay for
 * the copies.
 */
struct combo {
	struct lupe_trace t;
	struct lupe_trace *sc, *tp;
	struct lupe_sc_event **evs; /* the poll's copies, owned until it ends */
	size_t n, cap;
	struct lupe_ordered *ord;
	lupe_sc_fn fn;              /* of the poll in progress */
	void *fn_arg;
};

static int combo_add_pid(struct lupe_trace *t, pid_t pid, bool at_exec)
{
	struct combo *c = (struct combo *)t;
	int err = lupe_trace_add_pid(c->sc, pid, at_exec);

	return err ? err : lupe_trace_add_pid(c->tp, pid, at_exec);
}

static int combo_start(struct lupe_trace *t)
{
	struct combo *c = (struct combo *)t;
	int err = lupe_trace_start(c->tp);

	return err ? err : lupe_trace_start(c->sc);
}

/* A copy of ev and of the bytes it points to, in one block. */
static int collect(const struct lupe_sc_event *ev, void *arg)
{
	struct combo *c = arg;
	size_t need = sizeof(*ev) + (ev->comm ? 16 : 0);
	struct lupe_sc_event *copy;
	char *p;

	for (int i = 0; i < ev->nbufs; i++)
		need += ev->bufs[i].len;
	if (lupe_grow(&c->evs, &c->cap, c->n + 1, sizeof(*c->evs)))
		return -ENOMEM;
	copy = malloc(need);
	if (!copy)
		return -ENOMEM;
	*copy = *ev;
	p = (char *)(copy + 1);
	for (int i = 0; i < ev->nbufs; i++) {
		memcpy(p, ev->bufs[i].data, ev->bufs[i].len);
		copy->bufs[i].data = (const unsigned char *)p;
		p += ev->bufs[i].len;
	}
	if (ev->comm) {
		memcpy(p, ev->comm, 16);
		p[15] = '\0';
		copy->comm = p;
	}
	c->evs[c->n] = copy;
	return lupe_ordered_queue_item(c->ord, copy->time, c->n++);
}

static int combo_deliver(void *arg, const struct perf_event_header *h, uint64_t i)
{
	struct combo *c = arg;

	(void)h;
	return c->fn(c->evs[i], c->fn_arg);
}

static int combo_poll(struct lupe_trace *t, int timeout_ms, bool final, lupe_sc_fn fn,
		      void *arg)
{
	struct combo *c = (struct combo *)t;
	int r1, r2, ret = 0;

	c->n = 0;
	c->fn = fn;
	c->fn_arg = arg;
	/* both hold back their last millisecond until the final drains */
	r1 = c->sc->ops->poll(c->sc, timeout_ms, final, collect, c);
	r2 = c->tp->ops->poll(c->tp, 0, final, collect, c);
	ret = lupe_ordered_flush_all(c->ord);
	for (size_t i = 0; i < c->n; i++)
		free(c->evs[i]);
	if (ret)
		return ret;
	if (r1 < 0)
		return r1;
	if (r2 < 0)
		return r2;
	return (int)c->n;
}

static unsigned long long combo_lost(struct lupe_trace *t)
{
	struct combo *c = (struct combo *)t;

	return lupe_trace_lost(c->sc) + lupe_trace_lost(c->tp);
}

static void combo_del(struct lupe_trace *t)
{
	struct combo *c = (struct combo *)t;

	lupe_trace_delete(c->sc);
	lupe_trace_delete(c->tp);
	lupe_ordered_delete(c->ord);
	free(c->evs);
	free(c);
}

static const struct trace_ops combo_ops = {
	combo_add_pid, combo_start, combo_poll, combo_lost, combo_del,
};

struct lupe_trace *lupe_trace_new(const struct lupe_trace_opts *user_opts, bool bpf)
{
	struct lupe_trace_opts o, *opts = &o;
	struct combo *c;
	int err;

	if (!user_opts || lupe_opts_load(&o, user_opts))
		return err_ptr(-EINVAL);
	if (!bpf)
		return lupe_trace_perf_new(opts);
	if (!opts->tracepoints || !opts->tracepoints[0])
		return lupe_trace_bpf_new(opts);
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	lupe_trace_init(&c->t, &combo_ops, opts);
	c->t.strings = true;
	c->ord = lupe_ordered_new(combo_deliver, c);
	c->sc = c->ord ? lupe_trace_bpf_new(opts) : NULL;
	c->tp = c->sc ? lupe_trace_tp_new(opts) : NULL;
	if (!c->tp) {
		err = -errno;
		lupe_trace_delete(c->sc);
		lupe_ordered_delete(c->ord);
		free(c);
		return err_ptr(err);
	}
	return &c->t;
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
	return t->ops->poll(t, timeout_ms, !timeout_ms, fn, arg);
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
