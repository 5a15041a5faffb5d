/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which DSOs the samples hit, for the BUILD_ID feature: the maps each
 * process has (from MMAP/MMAP2, copied on FORK), and a mark on the DSO an
 * IP falls in. Cheaper than perf's second pass over the whole file.
 */
#ifndef LUPE_RECORD_HITDSOS_H
#define LUPE_RECORD_HITDSOS_H

#include <stdint.h>
#include <linux/perf_event.h>
#include "data/writer.h"

struct hitdsos;

/*
 * With list_vdso (record's), the [vdso] is listed once any process maps it,
 * hit or not, as perf record's build-id table does; perf inject -b lists
 * only what samples hit.
 */
struct hitdsos *lupe_hitdsos_new(int list_vdso);
void lupe_hitdsos_delete(struct hitdsos *h);

/* Feed a MMAP, MMAP2, FORK or COMM(exec) record; others are ignored. */
void lupe_hitdsos_event(struct hitdsos *h, const struct perf_event_header *rec);

/*
 * A sample of pid at ip in cpumode (header.misc & PERF_RECORD_MISC_CPUMODE_MASK).
 * Returns the DSO's name when this is its first hit ("[kernel.kallsyms]"
 * for the kernel), else NULL.
 */
const char *lupe_hitdsos_hit(struct hitdsos *h, uint32_t pid, uint64_t ip, uint16_t cpumode);

/* Count every DSO mapped as hit (record --buildid-all). */
void lupe_hitdsos_mark_all(struct hitdsos *h);

/* Put the DSOs hit that have a build-id in the build-id cache. 0 or the first -errno. */
int lupe_hitdsos_cache(struct hitdsos *h);

/* BUILD_ID entries for the DSOs hit that have one. Returns how many. */
int lupe_hitdsos_build_ids(struct hitdsos *h, struct fbuf *b);

#endif
