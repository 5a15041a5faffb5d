// SPDX-License-Identifier: GPL-2.0
/* THREAD_MAP and CPU_MAP records (data/maps-write.h). */
#include <stdio.h>
#include <string.h>
#include "data/format.h"
#include "data/maps-write.h"
#include "util/util.h"

static size_t rec_begin(struct fbuf *b, uint32_t type)
{
	struct perf_event_header h = { type, 0, 0 };
	size_t at = b->len;

	lupe_fbuf_add(b, &h, sizeof(h));
	return at;
}

static void rec_end(struct fbuf *b, size_t at)
{
	lupe_fbuf_zero(b, (8 - (b->len - at) % 8) % 8);
	if (!b->err)
		((struct perf_event_header *)(b->data + at))->size = (uint16_t)(b->len - at);
}

void lupe_thread_map_record(struct fbuf *b, const struct lupe_thread_map *threads, int comms)
{
	size_t at = rec_begin(b, PERF_RECORD_THREAD_MAP);
	int nr = lupe_thread_map_nr(threads);

	lupe_fbuf_u64(b, (uint64_t)nr);
	for (int t = 0; t < nr; t++) {
		pid_t pid = lupe_thread_map_pid(threads, t);
		char path[64], comm[16] = "";

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		if (!comms || pid <= 0 || lupe_read_small_file(path, comm, sizeof(comm)) < 0)
			comm[0] = 0;
		lupe_fbuf_u64(b, (uint64_t)(int64_t)pid);
		lupe_fbuf_add(b, comm, sizeof(comm));
	}
	rec_end(b, at);
}

static void put16(struct fbuf *b, uint16_t v)
{
	lupe_fbuf_add(b, &v, sizeof(v));
}

void lupe_cpu_map_record(struct fbuf *b, const struct lupe_cpu_map *cpus)
{
	size_t at = rec_begin(b, PERF_RECORD_CPU_MAP);
	int nr = lupe_cpu_map_nr(cpus), any = nr && lupe_cpu_map_cpu(cpus, 0) == -1;
	int min = nr > any ? lupe_cpu_map_cpu(cpus, any) : -1, max = -1;

	for (int i = 0; i < nr; i++)
		if (lupe_cpu_map_cpu(cpus, i) > max)
			max = lupe_cpu_map_cpu(cpus, i);
	if (max - min + 1 == nr - any) {
		uint8_t flags[2] = { (uint8_t)any, 0 };

		put16(b, LUPE_CPU_MAP_RANGE);
		lupe_fbuf_add(b, flags, sizeof(flags));
		put16(b, (uint16_t)min);
		put16(b, (uint16_t)max);
	} else {
		put16(b, LUPE_CPU_MAP_CPUS);
		put16(b, (uint16_t)nr);
		for (int i = 0; i < nr; i++)
			put16(b, (uint16_t)lupe_cpu_map_cpu(cpus, i));
	}
	rec_end(b, at);
}
