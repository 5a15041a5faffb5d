// SPDX-License-Identifier: GPL-2.0
/* A small event-spec stand-in for record; see record-events.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin.h"
#include "record-events.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} known[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
};

static int add(struct lupe_event_list *l, const char *name, uint32_t type, uint64_t config)
{
	struct lupe_event *e;

	if (l->nr == l->alloc) {
		size_t n = l->alloc ? 2 * l->alloc : 4;

		e = realloc(l->events, n * sizeof(*e));
		if (!e)
			return -1;
		l->events = e;
		l->alloc = n;
	}
	e = &l->events[l->nr];
	memset(e, 0, sizeof(*e));
	e->attr.size = sizeof(e->attr);
	e->attr.type = type;
	e->attr.config = config;
	e->name = strdup(name);
	e->leader = (int)l->nr;
	e->group_size = 1;
	if (!e->name)
		return -1;
	l->nr++;
	return 0;
}

static int one(struct lupe_event_list *l, const char *name)
{
	const char *colon = strchr(name, ':');

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(name, known[i].name))
			return add(l, name, known[i].type, known[i].config);
	if (colon && colon != name && colon[1]) {
		char path[512], buf[32];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%.*s/%s/id",
			 (int)(colon - name), name, colon + 1);
		f = fopen(path, "re");
		if (!f) {
			snprintf(path, sizeof(path), "/sys/kernel/debug/tracing/events/%.*s/%s/id",
				 (int)(colon - name), name, colon + 1);
			f = fopen(path, "re");
		}
		if (f && fgets(buf, sizeof(buf), f)) {
			fclose(f);
			return add(l, name, PERF_TYPE_TRACEPOINT, strtoull(buf, NULL, 10));
		}
		if (f)
			fclose(f);
		return error("unknown tracepoint '%s' (see 'perf list tracepoint'; is tracefs mounted?)", name);
	}
	return error("unknown event '%s' (see 'lupe list')", name);
}

int record_events_parse(struct lupe_event_list *list, const char *spec)
{
	char *copy = strdup(spec), *save = NULL;
	int err = 0;

	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t && !err; t = strtok_r(NULL, ",", &save))
		err = one(list, t);
	free(copy);
	return err;
}

void record_events_clear(struct lupe_event_list *list)
{
	for (size_t i = 0; i < list->nr; i++)
		free(list->events[i].name);
	free(list->events);
	memset(list, 0, sizeof(*list));
}

int is_fifo(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISFIFO(st.st_mode);
}

const char *paranoid_level(void)
{
	static char buf[16];
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");

	strcpy(buf, "?");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}
