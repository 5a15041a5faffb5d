/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lupe bench: what the dispatcher (bench.c) shares with the benchmarks.
 * The benchmarks live in cmd/bench/, not lib/: each prints its own result
 * lines in perf bench's words, and no other command runs them.
 */
#ifndef LUPE_BENCH_H
#define LUPE_BENCH_H

#include <stdint.h>

/* -f/--format: perf's "default" (commented lines) or "simple" (the number) */
enum bench_format { BENCH_FORMAT_DEFAULT, BENCH_FORMAT_SIMPLE };

extern enum bench_format bench_format;
/* -r/--repeat: runs of the benchmarks that repeat (futex wake), default 10 */
extern int bench_repeat;

/*
 * Each benchmark: argv[0] is "bench COLL NAME" (what -h names), its options
 * follow. Returns the exit status (0, 1 on a failure said, 129 usage).
 */
int bench_sched_messaging(int argc, char **argv);
int bench_sched_pipe(int argc, char **argv);
int bench_mem_memcpy(int argc, char **argv);
int bench_mem_memset(int argc, char **argv);
int bench_syscall_basic(int argc, char **argv);
int bench_futex_hash(int argc, char **argv);
int bench_futex_wake(int argc, char **argv);

/* CLOCK_MONOTONIC in microseconds */
uint64_t bench_now_us(void);
/* perf's "     Total time: S.MMM [sec]" (default) or "S.MMM" (simple), from microseconds */
void bench_print_total(uint64_t us);

#endif
