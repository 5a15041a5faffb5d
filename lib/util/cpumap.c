// SPDX-License-Identifier: GPL-2.0
/*
 * CPU and thread maps: small reference-counted arrays. Lists are perf's:
 * "0-3,5" for CPUs, "1234,5678" for pids and tids.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/cpumap.h>
#include <lupe/number.h>
#include "util/util.h"

struct lupe_cpu_map {
	int refcnt;
	int nr;
	int cpus[];
};

struct lupe_thread_map {
	int refcnt;
	int nr;
	int alloc;
	pid_t *pids;
};

static struct lupe_cpu_map *cpu_map_alloc(int nr)
{
	struct lupe_cpu_map *map = calloc(1, sizeof(*map) + nr * sizeof(int));

	if (!map)
		return NULL;
	map->refcnt = 1;
	return map;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * Parse "0-3,5" into a sorted set of distinct ints below limit. Returns the
 * count, or -EINVAL. out must hold limit entries.
 */
static int parse_range_list(const char *list, int *out, int limit)
{
	const char *p = list;
	int n = 0;

	while (*p) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = hi = strtol(p, &end, 10);
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= limit)
			return -EINVAL;
		for (long c = lo; c <= hi; c++) {
			int dup = 0;

			for (int i = 0; i < n; i++)
				dup |= out[i] == c;
			if (!dup)
				out[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	if (!n)
		return -EINVAL;
	qsort(out, n, sizeof(int), cmp_int);
	return n;
}

#define MAX_CPUS 4096

static int online_cpus(int *out)
{
	char buf[4096];
	int n = lupe_read_small_file("/sys/devices/system/cpu/online", buf, sizeof(buf));

	if (n < 0)
		return n;
	return parse_range_list(buf, out, MAX_CPUS);
}

struct lupe_cpu_map *lupe_cpu_map_new(const char *list)
{
	int *online = malloc(2 * MAX_CPUS * sizeof(int)), *want = online + MAX_CPUS;
	int n_online, n;
	struct lupe_cpu_map *map = NULL;

	if (!online)
		return NULL;
	n_online = online_cpus(online);
	if (n_online < 0) {
		free(online);
		return err_ptr(n_online);
	}
	if (list) {
		n = parse_range_list(list, want, MAX_CPUS);
		if (n < 0) {
			free(online);
			return err_ptr(n);
		}
		for (int i = 0; i < n; i++) {
			if (!bsearch(&want[i], online, n_online, sizeof(int), cmp_int)) {
				free(online);
				return err_ptr(-ENODEV);
			}
		}
	} else {
		want = online;
		n = n_online;
	}
	map = cpu_map_alloc(n);
	if (map) {
		map->nr = n;
		memcpy(map->cpus, want, n * sizeof(int));
	}
	free(online);
	return map;
}

struct lupe_cpu_map *lupe_cpu_map_any(void)
{
	struct lupe_cpu_map *map = cpu_map_alloc(1);

	if (map) {
		map->nr = 1;
		map->cpus[0] = -1;
	}
	return map;
}

int lupe_cpu_map_nr(const struct lupe_cpu_map *map)
{
	return map ? map->nr : 0;
}

int lupe_cpu_map_cpu(const struct lupe_cpu_map *map, int idx)
{
	return map && idx >= 0 && idx < map->nr ? map->cpus[idx] : -1;
}

struct lupe_cpu_map *lupe_cpu_map_get(struct lupe_cpu_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void lupe_cpu_map_put(struct lupe_cpu_map *map)
{
	if (map && --map->refcnt == 0)
		free(map);
}

static struct lupe_thread_map *thread_map_alloc(void)
{
	struct lupe_thread_map *map = calloc(1, sizeof(*map));

	if (map)
		map->refcnt = 1;
	return map;
}

static int thread_map_add(struct lupe_thread_map *map, pid_t pid)
{
	for (int i = 0; i < map->nr; i++)
		if (map->pids[i] == pid)
			return 0;
	if (map->nr == map->alloc) {
		int alloc = map->alloc ? 2 * map->alloc : 8;
		pid_t *pids = realloc(map->pids, alloc * sizeof(*pids));

		if (!pids)
			return -ENOMEM;
		map->pids = pids;
		map->alloc = alloc;
	}
	map->pids[map->nr++] = pid;
	return 0;
}

static int add_tid(int tid, void *map)
{
	return thread_map_add(map, tid);
}

/* Every thread of process pid, from /proc/PID/task. */
static int thread_map_add_process(struct lupe_thread_map *map, pid_t pid)
{
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	err = lupe_dir_foreach_num(path, "", add_tid, map);
	return err == -ENOENT ? -ESRCH : err;
}

static int thread_map_add_tid(struct lupe_thread_map *map, pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d", tid);
	if (access(path, F_OK))
		return -ESRCH;
	return thread_map_add(map, tid);
}

static struct lupe_thread_map *thread_map_from_list(const char *list,
						    int (*add)(struct lupe_thread_map *, pid_t))
{
	struct lupe_thread_map *map = thread_map_alloc();
	const char *p = list;
	int err = 0;

	if (!map)
		return NULL;
	while (!err && *p) {
		size_t len = strcspn(p, ",");
		int64_t v;

		/* -ERANGE: 4294997141 is no pid, not pid 29845 */
		err = lupe_parse_i64n(p, len, 10, 1, LUPE_PID_MAX, &v);
		if (!err)
			err = add(map, (pid_t)v);
		p += len;
		if (*p && !*++p)
			err = -EINVAL; /* a trailing comma */
	}
	if (!err && !map->nr)
		err = -EINVAL;
	if (err) {
		lupe_thread_map_put(map);
		return err_ptr(err);
	}
	return map;
}

struct lupe_thread_map *lupe_thread_map_new_pids(const char *list)
{
	return thread_map_from_list(list, thread_map_add_process);
}

struct lupe_thread_map *lupe_thread_map_new_tids(const char *list)
{
	return thread_map_from_list(list, thread_map_add_tid);
}

struct lupe_cpu_map *lupe_cpu_map_new_cpus(const int *cpus, int nr)
{
	struct lupe_cpu_map *map = cpu_map_alloc(nr);

	if (!map)
		return NULL;
	memcpy(map->cpus, cpus, nr * sizeof(*cpus));
	map->nr = nr;
	return map;
}

struct lupe_thread_map *lupe_thread_map_new_list(const pid_t *pids, int nr)
{
	struct lupe_thread_map *map = thread_map_alloc();

	if (!map)
		return NULL;
	map->pids = malloc((nr ? nr : 1) * sizeof(*pids));
	if (!map->pids) {
		free(map);
		return err_ptr(-ENOMEM);
	}
	memcpy(map->pids, pids, nr * sizeof(*pids));
	map->nr = map->alloc = nr;
	return map;
}

static int add_process(int pid, void *map)
{
	int err = thread_map_add_process(map, pid);

	return err == -ESRCH ? 0 : err; /* it ended while we looked */
}

struct lupe_thread_map *lupe_thread_map_new_all(void)
{
	struct lupe_thread_map *map = thread_map_alloc();
	int err;

	if (!map)
		return NULL;
	err = lupe_dir_foreach_num("/proc", "", add_process, map);
	if (err) {
		lupe_thread_map_put(map);
		return err_ptr(err);
	}
	return map;
}

struct lupe_thread_map *lupe_thread_map_new_one(pid_t pid)
{
	struct lupe_thread_map *map = thread_map_alloc();

	if (map && thread_map_add(map, pid)) {
		lupe_thread_map_put(map);
		return err_ptr(-ENOMEM);
	}
	return map;
}

int lupe_thread_map_nr(const struct lupe_thread_map *map)
{
	return map ? map->nr : 0;
}

pid_t lupe_thread_map_pid(const struct lupe_thread_map *map, int idx)
{
	return map && idx >= 0 && idx < map->nr ? map->pids[idx] : -1;
}

struct lupe_thread_map *lupe_thread_map_get(struct lupe_thread_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void lupe_thread_map_put(struct lupe_thread_map *map)
{
	if (map && --map->refcnt == 0) {
		free(map->pids);
		free(map);
	}
}
