// SPDX-License-Identifier: GPL-2.0
/*
 * The short ways into the evlist for programs using liblupe: a list from a
 * spec in one call, opened on one task and CPU in one call, with the
 * refusal turned into a sentence (lupe_last_error()). Everything else is the
 * evlist the commands use.
 */
#include <stdio.h>
#include <lupe/evlist.h>
#include <lupe/evsel.h>
#include "counting/evsel.h"
#include "util/util.h"

struct lupe_evlist *lupe_evlist_parse(const char *spec)
{
	struct lupe_event_list events = { 0 };
	struct lupe_parse_error perr = { .pos = -1 };
	struct lupe_evlist *evlist;
	int err;

	if (!spec)
		return err_ptr(lupe_set_error(-EINVAL, "no event spec given"));
	err = lupe_events_parse(&events, spec, &perr);
	if (err == -LUPE_ERR_PARSE) {
		char at[32] = "";

		if (perr.pos >= 0)
			snprintf(at, sizeof(at), " at byte %d", perr.pos);
		return err_ptr(lupe_set_error(err, "cannot parse event spec '%s'%s: %s (%s)", spec,
					      at, perr.msg,
					      perr.help[0] ? perr.help : "'lupe list' shows the events"));
	}
	if (err)
		return err_ptr(lupe_set_error(err, "cannot parse event spec '%s': %s", spec,
					      lupe_strerror(err)));
	evlist = lupe_evlist_new(&events);
	err = evlist ? 0 : -errno;
	lupe_event_list_clear(&events);
	return evlist ? evlist : err_ptr(lupe_set_error(err, "cannot build event list: %s",
							lupe_strerror(err)));
}

int lupe_evlist_open_task(struct lupe_evlist *evlist, pid_t pid, int cpu)
{
	char cpulist[16];
	LUPE_OPTS(lupe_evlist_opts, opts);
	struct lupe_open_failure fail = { 0 };
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads;
	int err;

	if (!evlist || (pid == -1 && cpu < 0))
		return lupe_set_error(-EINVAL, "cannot open events on every task and any CPU: "
				      "give a pid or a cpu");
	snprintf(cpulist, sizeof(cpulist), "%d", cpu);
	cpus = cpu < 0 ? lupe_cpu_map_any() : lupe_cpu_map_new(cpulist);
	if (!cpus)
		return lupe_set_error(-errno, "cannot count on CPU %d: %s", cpu, lupe_strerror(errno));
	threads = lupe_thread_map_new_one(pid);
	if (!threads) {
		err = -errno;
		lupe_cpu_map_put(cpus);
		return lupe_set_error(err, "cannot count task %d: %s", (int)pid, lupe_strerror(err));
	}
	err = lupe_evlist_open(evlist, cpus, threads, &opts, &fail);
	lupe_cpu_map_put(cpus);
	lupe_thread_map_put(threads);
	if (err) {
		static const struct perf_event_attr none;
		struct lupe_evsel *evsel = lupe_evlist_evsel(evlist, fail.evsel);
		char buf[400];

		lupe_open_strerror(err, evsel ? &evsel->attr : &none, evsel ? evsel->name : "?",
				   fail.cpu, fail.pid, buf, sizeof(buf));
		return lupe_set_error(err, "%s", buf);
	}
	return 0;
}
