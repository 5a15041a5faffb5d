/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records for state that existed before recording began, as perf
 * synthesizes them: COMM and FORK for threads, MMAP2 for the executable
 * maps of processes (from /proc), the kernel map and its modules. Each
 * record carries id_hdr_size zero bytes as its sample_id trailer, which
 * readers take as "time 0, before everything".
 */
#ifndef LUPE_SESSION_SYNTHESIZE_H
#define LUPE_SESSION_SYNTHESIZE_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct lupe_thread_map;

/* Receives each synthesized record; non-zero stops the synthesis. */
typedef int (*synth_fn)(const struct perf_event_header *rec, void *arg);

struct synth {
	synth_fn fn;
	void *arg;
	size_t id_hdr_size; /* lupe_sample_id_size() of the first event */
	int data_maps;      /* also the maps that are not executable (mmap_data) */
	int namespaces;     /* a NAMESPACES record before each thread's COMM (--namespaces) */
};

/*
 * The kernel map "[kernel.kallsyms]_text" (start: the address of _text,
 * which perf uses as its relocation reference, and pgoff the same address),
 * then one map per loaded module. Returns 0, or -EPERM when kernel
 * addresses are hidden (kptr_restrict) and nothing was written.
 */
int lupe_synth_kernel(const struct synth *s);

/*
 * FORK and COMM for each thread of process pid, and MMAP2 for its
 * executable maps after its leader's COMM (perf's system-wide shape).
 * Kernel threads have no maps. Returns 0, or -ESRCH when the process is gone.
 */
int lupe_synth_process(const struct synth *s, pid_t pid);

/*
 * perf's shape for -p/-t: COMM (no FORK) for each thread of the map, the
 * maps of each process after its leader's COMM; a thread whose leader is
 * not in the map brings the leader's COMM and maps. Threads gone are skipped.
 */
int lupe_synth_thread_map(const struct synth *s, const struct lupe_thread_map *threads);

/* Every process in /proc (system-wide recording). */
int lupe_synth_all(const struct synth *s);

/*
 * A CGROUP record (id, path) for each cgroup of the hierarchy -G uses, as
 * perf --all-cgroups writes them first. 0 (nothing without a hierarchy),
 * or the first non-zero return of the receiver.
 */
int lupe_synth_cgroups(const struct synth *s);

/* The NAMESPACES record of thread tid of pid (perf --namespaces), from /proc/PID/task/TID/ns. */
int lupe_synth_namespaces(const struct synth *s, pid_t pid, pid_t tid);

/* A COMM record for pid/tid, with the name given. */
int lupe_synth_comm(const struct synth *s, pid_t pid, pid_t tid, const char *comm);

#endif
