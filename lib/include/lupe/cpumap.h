/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sets of CPUs (-C LIST, the online CPUs) and of threads (-p, -t, a workload).
 * Thread-safety: get/put are not atomic; share a map between threads only
 * while no thread takes or drops a reference.
 */
#ifndef LUPE_CPUMAP_H
#define LUPE_CPUMAP_H

#include <sys/types.h>
#include <lupe/core.h>

struct lupe_cpu_map;
struct lupe_thread_map;

/*
 * CPUs from a perf-style list ("0-3,5,7"); NULL means the online CPUs.
 * Returns NULL with errno EINVAL for a bad list, ENODEV for a CPU that is
 * not online. The caller owns one reference.
 */
LUPE_API struct lupe_cpu_map *lupe_cpu_map_new(const char *list);
/* The CPUs given, as they are (a file's map: not checked against this machine). NULL + errno. */
LUPE_API struct lupe_cpu_map *lupe_cpu_map_new_cpus(const int *cpus, int nr);
/* One entry, -1: "any CPU", for per-thread counting. */
LUPE_API struct lupe_cpu_map *lupe_cpu_map_any(void);
LUPE_API int lupe_cpu_map_nr(const struct lupe_cpu_map *map);
LUPE_API int lupe_cpu_map_cpu(const struct lupe_cpu_map *map, int idx);
LUPE_API struct lupe_cpu_map *lupe_cpu_map_get(struct lupe_cpu_map *map);
LUPE_API void lupe_cpu_map_put(struct lupe_cpu_map *map); /* NULL is ok */

/*
 * Threads from perf's -p/-t lists ("1234,5678"): -p takes every thread of
 * each process (/proc/PID/task), -t the threads named. Returns NULL with
 * errno EINVAL for a bad list, ERANGE for an id outside 1..LUPE_PID_MAX,
 * ESRCH for a pid that does not exist.
 */
LUPE_API struct lupe_thread_map *lupe_thread_map_new_pids(const char *list);
LUPE_API struct lupe_thread_map *lupe_thread_map_new_tids(const char *list);
/* The threads given, as they are (a file's map: not checked in /proc). NULL + errno. */
LUPE_API struct lupe_thread_map *lupe_thread_map_new_list(const pid_t *pids, int nr);
/*
 * Every thread of every process in /proc, as perf stat --per-thread -a
 * counts them (a thread that ends meanwhile is skipped at open).
 * NULL + errno.
 */
LUPE_API struct lupe_thread_map *lupe_thread_map_new_all(void);
/* One entry: pid (a workload's), or -1 for "any thread" (system wide). */
LUPE_API struct lupe_thread_map *lupe_thread_map_new_one(pid_t pid);
LUPE_API int lupe_thread_map_nr(const struct lupe_thread_map *map);
LUPE_API pid_t lupe_thread_map_pid(const struct lupe_thread_map *map, int idx);
LUPE_API struct lupe_thread_map *lupe_thread_map_get(struct lupe_thread_map *map);
LUPE_API void lupe_thread_map_put(struct lupe_thread_map *map); /* NULL is ok */

#endif
