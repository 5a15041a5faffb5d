// SPDX-License-Identifier: GPL-2.0
/*
 * What `lupe list` shows, collected the way perf 6.1 collects it: symbolic
 * and cache events only when the kernel opens them (one probe each, as
 * perf's is_event_supported), tool events always, sysfs PMU aliases, and
 * tracepoints with an id. Each section is sorted once, by strcmp.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "events/internal.h"
#include "util/util.h"

static const char *const kind_descs[LUPE_KIND_MAX] = {
	[LUPE_KIND_HARDWARE] = "Hardware event",
	[LUPE_KIND_SOFTWARE] = "Software event",
	[LUPE_KIND_TOOL] = "Tool event",
	[LUPE_KIND_CACHE] = "Hardware cache event",
	[LUPE_KIND_PMU] = "Kernel PMU event",
	[LUPE_KIND_RAW] = "Raw hardware event descriptor",
	[LUPE_KIND_BREAKPOINT] = "Hardware breakpoint",
	[LUPE_KIND_TRACEPOINT] = "Tracepoint event",
};

const char *lupe_event_kind_desc(enum lupe_event_kind kind)
{
	return kind < LUPE_KIND_MAX ? kind_descs[kind] : "unknown";
}

void lupe_event_desc_list_clear(struct lupe_event_desc_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->nr; i++) {
		free(list->descs[i].name);
		free(list->descs[i].alias);
		free(list->descs[i].pmu);
		free(list->descs[i].encoding);
	}
	free(list->descs);
	memset(list, 0, sizeof(*list));
}

/* Append an entry; the strings are copied (NULL stays NULL). */
static int desc_add(struct lupe_event_desc_list *l, enum lupe_event_kind kind, const char *name,
		    const char *alias, const char *pmu, const char *encoding)
{
	struct lupe_event_desc *d;

	if (lupe_grow(&l->descs, &l->alloc, l->nr + 1, sizeof(*l->descs)))
		return -ENOMEM;
	d = &l->descs[l->nr];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	if (!(d->name = strdup(name)) || (alias && !(d->alias = strdup(alias))) ||
	    (pmu && !(d->pmu = strdup(pmu))) || (encoding && !(d->encoding = strdup(encoding)))) {
		free(d->name);
		free(d->alias);
		free(d->pmu);
		return -ENOMEM;
	}
	l->nr++;
	return 0;
}

/* perf matches PMU aliases ignoring case, the other names with it */
static bool glob_match(const char *glob, const char *s)
{
	return !glob || (s && !fnmatch(glob, s, 0));
}

static bool glob_match_nocase(const char *glob, const char *s)
{
	return !glob || (s && !fnmatch(glob, s, FNM_CASEFOLD));
}

static int cmp_desc(const void *a, const void *b)
{
	return strcmp(((const struct lupe_event_desc *)a)->name,
		      ((const struct lupe_event_desc *)b)->name);
}

static void sort_from(struct lupe_event_desc_list *l, size_t from)
{
	if (l->nr - from > 1)
		qsort(l->descs + from, l->nr - from, sizeof(*l->descs), cmp_desc);
}

/* Whether the kernel opens the event for this thread, as perf probes it. */
static bool event_supported(__u32 type, __u64 config)
{
	struct perf_event_attr attr = {
		.type = type, .size = sizeof(attr), .config = config, .disabled = 1,
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	/* perf_event_paranoid 2 refuses kernel counting: ask for user only */
	if (fd < 0 && errno == EACCES) {
		attr.exclude_kernel = 1;
		fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int list_symbols(struct lupe_event_desc_list *l, enum lupe_event_kind kind,
			const struct event_symbol *syms, size_t nr, const char *glob)
{
	size_t from = l->nr;
	char enc[64];

	for (size_t i = 0; i < nr; i++) {
		const struct event_symbol *s = &syms[i];
		bool probe = kind != LUPE_KIND_TOOL;

		if (!glob_match(glob, s->name) && !(s->alias && glob_match(glob, s->alias)))
			continue;
		if (probe && !event_supported(s->type, s->config))
			continue;
		snprintf(enc, sizeof(enc), "%s/config=%#llx/",
			 kind == LUPE_KIND_HARDWARE ? "cpu" : "software", (unsigned long long)s->config);
		if (desc_add(l, kind, s->name, s->alias,
			     kind == LUPE_KIND_TOOL ? NULL : kind == LUPE_KIND_HARDWARE ? "cpu" : "software",
			     kind == LUPE_KIND_SOFTWARE ? enc : NULL))
			return -ENOMEM;
	}
	/* perf keeps tool events in their own order */
	if (kind != LUPE_KIND_TOOL)
		sort_from(l, from);
	return 0;
}

static int list_cache(struct lupe_event_desc_list *l, const char *glob)
{
	size_t from = l->nr;
	char name[128];

	for (unsigned int type = 0; type < PERF_COUNT_HW_CACHE_MAX; type++)
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!lupe_cache_op_valid(type, op))
				continue;
			for (unsigned int res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				/* perf's names: "L1-dcache-loads", "L1-dcache-load-misses" */
				if (res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					snprintf(name, sizeof(name), "%s-%s", lupe_cache_type_name(type),
						 lupe_cache_op_name(op, true));
				else
					snprintf(name, sizeof(name), "%s-%s-%s", lupe_cache_type_name(type),
						 lupe_cache_op_name(op, false), lupe_cache_result_name(res));
				if (!glob_match(glob, name))
					continue;
				if (!event_supported(PERF_TYPE_HW_CACHE, type | op << 8 | res << 16))
					continue;
				if (desc_add(l, LUPE_KIND_CACHE, name, NULL, "cpu", NULL))
					return -ENOMEM;
			}
		}
	sort_from(l, from);
	return 0;
}

/* Core PMUs list their aliases as "alias OR cpu/alias/", first. */
static bool pmu_is_core(const char *name)
{
	char path[PATH_MAX];

	if (!strcmp(name, "cpu") || !strncmp(name, "cpu_", 4))
		return true;
	snprintf(path, sizeof(path), "%s/%s/cpus", lupe_pmu_devices_dir(), name);
	return access(path, F_OK) == 0;
}

static int list_pmus(struct lupe_event_desc_list *l, const char *glob)
{
	size_t nr;
	char **names = lupe_pmu_names(&nr);
	char full[PATH_MAX], enc[PATH_MAX];
	int err = 0;

	if (!names)
		return errno == ENOMEM ? -ENOMEM : 0;
	for (int pass = 0; pass < 2 && !err; pass++) {
		size_t from = l->nr;

		for (size_t i = 0; i < nr && !err; i++) {
			bool core = pmu_is_core(names[i]);
			struct pmu *pmu;

			if (core != (pass == 0))
				continue;
			pmu = lupe_pmu_load(names[i]);
			if (!pmu)
				continue;
			for (size_t a = 0; a < pmu->nr_aliases && !err; a++) {
				const struct pmu_alias *al = &pmu->aliases[a];

				snprintf(full, sizeof(full), "%s/%s/", pmu->name, al->name);
				if (!glob_match_nocase(glob, al->name) && !glob_match_nocase(glob, full))
					continue;
				snprintf(enc, sizeof(enc), "%s/%s/", pmu->name, al->terms);
				err = core ? desc_add(l, LUPE_KIND_PMU, al->name, full, pmu->name, enc) :
				      desc_add(l, LUPE_KIND_PMU, full, NULL, pmu->name, enc);
			}
			lupe_pmu_free(pmu);
		}
		sort_from(l, from);
	}
	lupe_strv_free(names, nr);
	return err;
}

struct tp_list {
	struct lupe_event_desc_list *l;
	char name[2 * NAME_MAX + 2];
};

static int add_tp(const char *sys, const char *name, __u64 id, void *arg)
{
	struct tp_list *t = arg;

	snprintf(t->name, sizeof(t->name), "%s:%s", sys, name);
	return desc_add(t->l, LUPE_KIND_TRACEPOINT, t->name, NULL, "tracepoint", NULL);
}

static int list_tracepoints(struct lupe_event_desc_list *l, const char *glob)
{
	struct tp_list t = { l, "" };
	size_t from = l->nr;
	const char *colon = glob ? strchr(glob, ':') : NULL;
	char *sys = NULL;
	int ret;

	/* "sys:event" globs match the two halves; a bare glob the event name, as perf */
	if (colon && !(sys = strndup(glob, colon - glob)))
		return -ENOMEM;
	ret = lupe_tracepoint_foreach(sys, colon ? colon + 1 : glob, add_tp, &t, false);
	free(sys);
	/* perf 6.1 sorts the "sys:name" strings: "fib6:..." before "fib:..." */
	sort_from(l, from);
	if (ret == -LUPE_ERR_NO_TRACEFS || ret == -ENOENT || ret == -EACCES) {
		pr_warn("cannot list tracepoints: %s", lupe_strerror(ret));
		return 0;
	}
	return ret < 0 ? ret : 0;
}

int lupe_events_list(struct lupe_event_desc_list *out, unsigned int mask, const char *glob)
{
	bool tp_only = glob && strchr(glob, ':');
	int err = 0;

	if (tp_only)
		mask &= LUPE_KIND_BIT(LUPE_KIND_TRACEPOINT);
	if (!err && mask & LUPE_KIND_BIT(LUPE_KIND_HARDWARE))
		err = list_symbols(out, LUPE_KIND_HARDWARE, lupe_event_symbols_hw, lupe_event_symbols_hw_nr, glob);
	if (!err && mask & LUPE_KIND_BIT(LUPE_KIND_SOFTWARE))
		err = list_symbols(out, LUPE_KIND_SOFTWARE, lupe_event_symbols_sw, lupe_event_symbols_sw_nr, glob);
	if (!err && mask & LUPE_KIND_BIT(LUPE_KIND_TOOL))
		err = list_symbols(out, LUPE_KIND_TOOL, lupe_event_symbols_tool, lupe_event_symbols_tool_nr, glob);
	if (!err && mask & LUPE_KIND_BIT(LUPE_KIND_CACHE))
		err = list_cache(out, glob);
	if (!err && mask & LUPE_KIND_BIT(LUPE_KIND_PMU))
		err = list_pmus(out, glob);
	/* the descriptors are no events: perf shows them only in the full list */
	if (!err && !glob && mask & LUPE_KIND_BIT(LUPE_KIND_RAW)) {
		err = desc_add(out, LUPE_KIND_RAW, "rNNN", NULL, "cpu", NULL);
		if (!err)
			err = desc_add(out, LUPE_KIND_RAW, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL,
				       "cpu", NULL);
	}
	if (!err && !glob && mask & LUPE_KIND_BIT(LUPE_KIND_BREAKPOINT))
		err = desc_add(out, LUPE_KIND_BREAKPOINT, "mem:<addr>[/len][:access]", NULL,
			       "breakpoint", NULL);
	if (!err && mask & LUPE_KIND_BIT(LUPE_KIND_TRACEPOINT))
		err = list_tracepoints(out, glob);
	return err;
}
