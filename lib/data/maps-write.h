/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The THREAD_MAP and CPU_MAP records perf writes at the start of a
 * recording (record and stat record), as whole records (header, payload
 * padded to 8 bytes) appended to an fbuf. Layouts, from perf's
 * tools/lib/perf/include/perf/event.h:
 *   THREAD_MAP   u64 nr; { u64 pid; char comm[16]; } [nr]
 *   CPU_MAP      u16 type; type 0: u16 nr, u16 cpu[nr]; 1: u16 nr, u16 long_size,
 *                mask; 2: u8 any_cpu, u8 pad, u16 start, u16 end
 */
#ifndef LUPE_DATA_MAPS_WRITE_H
#define LUPE_DATA_MAPS_WRITE_H

#include <lupe/cpumap.h>
#include "data/writer.h"

enum { LUPE_CPU_MAP_CPUS, LUPE_CPU_MAP_MASK, LUPE_CPU_MAP_RANGE };

/* THREAD_MAP of threads; with comms, each thread's /proc comm (perf stat record's), else "". */
void lupe_thread_map_record(struct fbuf *b, const struct lupe_thread_map *threads, int comms);

/*
 * CPU_MAP of cpus, encoded as perf 6.1 chooses: a range when the CPUs are
 * consecutive (any_cpu when the map starts with -1), else the list.
 * NEEDSWORK: perf takes a 32-bit mask when it is smaller than the list
 * (many scattered CPUs); readers take either.
 */
void lupe_cpu_map_record(struct fbuf *b, const struct lupe_cpu_map *cpus);

#endif
