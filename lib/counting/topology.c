// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat's --per-core, --per-socket, --per-die and --per-node: the CPUs
 * of the list's cpu map grouped by what sysfs says of each
 * (cpuN/topology/{physical_package_id,die_id,core_id}, the cpuN/nodeM
 * link), the groups sorted as perf sorts its aggregate ids. The grouping
 * is worked out once per mode and kept on the evlist until its cpu map
 * changes: a read of four small files per CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/evlist.h>
#include "counting/evsel.h"
#include "util/util.h"

struct lupe_aggr_map {
	enum lupe_aggr mode;
	int nr;                  /* aggregates */
	int *of_cpu;             /* [cpu_idx]: the aggregate, or -1 */
	struct lupe_aggr_id *ids; /* [aggregate] */
};

static int read_int(int cpu, const char *file, int dflt)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (lupe_read_small_file(path, buf, sizeof(buf)) <= 0)
		return dflt;
	return atoi(buf);
}

/* The node of a CPU: its cpuN/nodeM link, as perf's cpunode map reads /sys/devices/system/node. */
static int take_node(int n, void *node)
{
	*(int *)node = n;
	return 1;
}

static int cpu_node(int cpu)
{
	char path[64];
	int node = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	lupe_dir_foreach_num(path, "node", take_node, &node);
	return node;
}

int lupe_cpu_topology(int cpu, struct lupe_aggr_id *id)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	if (cpu < 0 || access(path, F_OK))
		return -ENODEV;
	id->socket = read_int(cpu, "physical_package_id", -1);
	id->die = read_int(cpu, "die_id", 0); /* no die_id before 5.x: perf takes die 0 */
	id->core = read_int(cpu, "core_id", -1);
	id->node = cpu_node(cpu);
	id->cpu = cpu;
	id->nr = 1;
	return 0;
}

/* The part of a CPU's id that mode groups by; the rest becomes -1. */
static void mask_id(struct lupe_aggr_id *id, enum lupe_aggr mode)
{
	id->cpu = -1;
	switch (mode) {
	case LUPE_AGGR_SOCKET:
		id->die = -1;
		/* fall through */
	case LUPE_AGGR_DIE:
		id->core = -1;
		/* fall through */
	case LUPE_AGGR_CORE:
		id->node = -1;
		break;
	case LUPE_AGGR_NODE:
		id->socket = id->die = id->core = -1;
		break;
	default:
		break;
	}
}

static int cmp_id(const struct lupe_aggr_id *a, const struct lupe_aggr_id *b)
{
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	if (a->die != b->die)
		return a->die < b->die ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return 0;
}

static int cmp_id_qsort(const void *a, const void *b)
{
	return cmp_id(a, b);
}

void lupe_evlist_aggr_map_free(struct lupe_evlist *evlist)
{
	if (!evlist->aggr_map)
		return;
	free(evlist->aggr_map->of_cpu);
	free(evlist->aggr_map->ids);
	free(evlist->aggr_map);
	evlist->aggr_map = NULL;
}

static struct lupe_aggr_map *build(const struct lupe_evlist *evlist, enum lupe_aggr mode)
{
	struct lupe_aggr_map *m = calloc(1, sizeof(*m));
	int n = evlist->ncpus ? evlist->ncpus : 0;
	struct lupe_aggr_id *cpu_ids = calloc(n + 1, sizeof(*cpu_ids));

	if (!m || !cpu_ids || !(m->of_cpu = calloc(n + 1, sizeof(*m->of_cpu))) ||
	    !(m->ids = calloc(n + 1, sizeof(*m->ids)))) {
		free(cpu_ids);
		if (m) {
			free(m->of_cpu);
			free(m->ids);
			free(m);
		}
		return NULL;
	}
	m->mode = mode;
	for (int c = 0; c < n; c++) {
		int found = 0;

		m->of_cpu[c] = -1;
		/* "any CPU" (a task's count) has no topology: it belongs nowhere */
		if (lupe_cpu_topology(lupe_cpu_map_cpu(evlist->cpus, c), &cpu_ids[c]))
			continue;
		mask_id(&cpu_ids[c], mode);
		for (int a = 0; a < m->nr && !found; a++)
			if (!cmp_id(&m->ids[a], &cpu_ids[c])) {
				m->ids[a].nr++;
				found = 1;
			}
		if (!found)
			m->ids[m->nr++] = cpu_ids[c];
	}
	qsort(m->ids, m->nr, sizeof(*m->ids), cmp_id_qsort);
	for (int c = 0; c < n; c++)
		for (int a = 0; a < m->nr; a++)
			if (cpu_ids[c].nr && !cmp_id(&m->ids[a], &cpu_ids[c]))
				m->of_cpu[c] = a;
	free(cpu_ids);
	return m;
}

/* The cached map of mode, built on first use; NULL when out of memory. */
static struct lupe_aggr_map *aggr_map(const struct lupe_evlist *cevlist, enum lupe_aggr mode)
{
	/* a cache: the list is logically unchanged */
	struct lupe_evlist *evlist = (struct lupe_evlist *)cevlist;

	if (evlist->aggr_map && evlist->aggr_map->mode == mode)
		return evlist->aggr_map;
	lupe_evlist_aggr_map_free(evlist);
	evlist->aggr_map = build(evlist, mode);
	return evlist->aggr_map;
}

int lupe_evlist_aggr_topo_nr(const struct lupe_evlist *evlist, enum lupe_aggr mode)
{
	struct lupe_aggr_map *m = aggr_map(evlist, mode);

	return m ? m->nr : 0;
}

int lupe_evlist_aggr_of_cpu(const struct lupe_evlist *evlist, enum lupe_aggr mode, int cpu_idx)
{
	struct lupe_aggr_map *m = aggr_map(evlist, mode);

	return m && cpu_idx >= 0 && cpu_idx < evlist->ncpus ? m->of_cpu[cpu_idx] : -1;
}

int lupe_evlist_aggr_id(const struct lupe_evlist *evlist, enum lupe_aggr mode, int idx,
			struct lupe_aggr_id *id)
{
	struct lupe_aggr_map *m;

	if (idx < 0 || idx >= lupe_evlist_aggr_nr(evlist, mode))
		return -EINVAL;
	memset(id, -1, sizeof(*id));
	id->nr = 1;
	switch (mode) {
	case LUPE_AGGR_CPU:
		id->cpu = lupe_cpu_map_cpu(evlist->cpus, idx);
		return 0;
	case LUPE_AGGR_GLOBAL:
		id->nr = evlist->ncpus;
		return 0;
	case LUPE_AGGR_THREAD:
		return 0;
	default:
		m = aggr_map(evlist, mode);
		if (!m)
			return -ENOMEM;
		*id = m->ids[idx];
		return 0;
	}
}
