// SPDX-License-Identifier: GPL-2.0
/*
 * One-shot measurement of a callback: the evlist opened on the calling
 * thread, enabled around the call, read (groups in one read), closed. The
 * cost is that of the syscalls (perf_event_open, two ioctls, read, close
 * per event: about 10-20 us for one software event here; scripts/bench/api
 * compares it with the bare syscalls) plus two small allocations for the
 * maps; nothing is cached between calls, so the list may be reused freely.
 */
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "api/api.h"
#include "util/util.h"

void lupe_value_set(struct lupe_value *v, const char *name, const struct lupe_counts *c,
		    int supported)
{
	struct lupe_counts s = *c;

	v->name = name;
	v->raw = c->val;
	v->ena = c->ena;
	v->run = c->run;
	if (!supported) {
		v->val = 0;
		v->status = LUPE_VALUE_NOT_SUPPORTED;
		return;
	}
	switch (lupe_counts_scale(&s)) {
	case 0:
		v->status = LUPE_VALUE_COUNTED;
		break;
	case 1:
		v->status = LUPE_VALUE_SCALED;
		break;
	default:
		v->status = LUPE_VALUE_NOT_COUNTED;
	}
	v->val = s.val;
}

int lupe_values_from_evlist(struct lupe_evlist *evlist, struct lupe_value *vals, int max)
{
	int nr = lupe_evlist_nr(evlist);

	if (nr > max)
		return -ENOSPC;
	for (int i = 0; i < nr; i++) {
		struct lupe_evsel *evsel = lupe_evlist_evsel(evlist, i);
		struct lupe_counts c = lupe_evsel_aggr_counts(evsel, LUPE_AGGR_GLOBAL, 0);

		lupe_value_set(&vals[i], lupe_evsel_name(evsel), &c, lupe_evsel_supported(evsel));
	}
	return nr;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000 + tv->tv_usec * 1000;
}

static int has_tool_events(struct lupe_evlist *evlist)
{
	for (int i = 0; i < lupe_evlist_nr(evlist); i++)
		if (lupe_evsel_tool(lupe_evlist_evsel(evlist, i)))
			return 1;
	return 0;
}

int lupe_measure(struct lupe_evlist *events, lupe_measure_fn fn, void *arg,
		 struct lupe_measure_result *res)
{
	struct rusage ru0, ru1;
	int tools, err, nr;
	uint64_t t0;

	if (!events || !fn || !res)
		return lupe_set_error(-EINVAL, "lupe_measure needs events, a function and a result");
	if (lupe_evlist_nr(events) > LUPE_MEASURE_MAX)
		return lupe_set_error(-E2BIG, "cannot measure %d events at once: at most %d",
				      lupe_evlist_nr(events), LUPE_MEASURE_MAX);
	err = lupe_evlist_open_task(events, 0, -1);
	if (err)
		return err;
	tools = has_tool_events(events);
	if (tools)
		getrusage(RUSAGE_THREAD, &ru0);
	/* the wall time spans the counting window, so task-clock <= wall_ns */
	t0 = now_ns(CLOCK_MONOTONIC);
	err = lupe_evlist_enable(events);
	if (err)
		goto out;
	fn(arg);
	err = lupe_evlist_disable(events);
	res->wall_ns = now_ns(CLOCK_MONOTONIC) - t0;
	if (err)
		goto out;
	if (tools) {
		getrusage(RUSAGE_THREAD, &ru1);
		lupe_evlist_set_tool_times(events, res->wall_ns,
					   tv_ns(&ru1.ru_utime) - tv_ns(&ru0.ru_utime),
					   tv_ns(&ru1.ru_stime) - tv_ns(&ru0.ru_stime));
	}
	err = lupe_evlist_read(events);
	if (err)
		goto out;
	nr = lupe_values_from_evlist(events, res->values, LUPE_MEASURE_MAX);
	res->nr = nr;
out:
	lupe_evlist_close(events);
	if (err)
		lupe_set_error(err, "cannot count around the call: %s", lupe_strerror(err));
	return err;
}
