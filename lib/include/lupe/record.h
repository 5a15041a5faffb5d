/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording: events opened per CPU x thread with one mmap ring per CPU
 * (or per thread x any CPU with a ring per thread, without inherit),
 * drained into a perf.data file or pipe that Linux perf
 * reads. The command drives it:
 *
 *   rec = lupe_record_new(&opts, events, nr_events, cpus, threads);
 *   lupe_record_open(rec);     events and rings
 *   lupe_record_start(rec);    attrs, features (pipe), synthesized state, enable
 *   while (...) lupe_record_poll(rec, timeout);
 *   lupe_record_stop(rec);     disable, drain, lost counts, features, header
 *   lupe_record_delete(rec);
 *
 * Thread-safety: a recording or live source is driven by one thread;
 * lupe_live_stop() may come from another (it sets a flag and disables).
 */
#ifndef LUPE_RECORD_H
#define LUPE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <lupe/core.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>

/* The defaults, in one place: a command passes 0 (NULL) and may print these. */
#define LUPE_RECORD_DEFAULT_OUTPUT "perf.data"
#define LUPE_RECORD_DEFAULT_FREQ 4000  /* samples per second */
#define LUPE_RECORD_DEFAULT_PAGES 128  /* 512 KiB per ring, what perf_event_mlock_kb allows per CPU */

enum lupe_callgraph {
	LUPE_CALLGRAPH_NONE,
	LUPE_CALLGRAPH_FP,
	LUPE_CALLGRAPH_DWARF,
};

struct lupe_record_opts {
	size_t sz;               /* sizeof(struct lupe_record_opts), for growth */
	const char *output;      /* path; "-" writes pipe mode to stdout; NULL: LUPE_RECORD_DEFAULT_OUTPUT */
	unsigned int mmap_pages; /* data pages per ring, a power of two; 0: LUPE_RECORD_DEFAULT_PAGES */
	unsigned int freq;       /* samples per second; 0: LUPE_RECORD_DEFAULT_FREQ, or every hit of a tracepoint */
	uint64_t period;         /* events per sample; wins over freq when set */
	enum lupe_callgraph callgraph;
	uint32_t stack_size;     /* dwarf: bytes of user stack per sample */
	int system_wide;         /* -a / -C: pid -1 on each CPU */
	int workload;            /* threads is a held workload: enable on exec */
	int no_inherit;
	int comp_level;          /* zstd level with -z; 0 for none */
	int sample_cpu;          /* add PERF_SAMPLE_CPU (always with system_wide) */
	const char *version;     /* VERSION feature */
	int argc;                /* CMDLINE feature: the command's words */
	char **argv;
	/* tools16: build-ids (perf's -B, -N, --buildid-all) */
	int no_buildid;          /* no BUILD_ID feature, no build-id cache */
	int no_buildid_cache;    /* the BUILD_ID feature, but nothing put in the cache */
	int buildid_all;         /* every DSO mapped, not only those hit */
	/* perf record's sampling options (appended: sz tells what a caller knows) */
	int per_thread;          /* --per-thread: events per thread, no inherit, TIME only with timestamp */
	int timestamp;           /* -T: PERF_SAMPLE_TIME even per thread */
	int inherit_stat;        /* -s: per-task counts (READ records at exit, time enabled/running) */
	int sample_addr;         /* -d: ADDR and DATA_SRC, data mmaps */
	int context_switch;      /* --switch-events: SWITCH / SWITCH_CPU_WIDE records */
	int all_user;            /* --all-user: every event user space only */
	int all_kernel;          /* --all-kernel: every event kernel only */
	uint64_t user_regs;      /* --user-regs: PERF_SAMPLE_REGS_USER with this mask */
	uint64_t intr_regs;      /* --intr-regs: PERF_SAMPLE_REGS_INTR with this mask */
	int use_clockid;         /* --clockid: sample times from clockid (CLOCKID, CLOCK_DATA features) */
	int clockid;
	uint64_t max_size;       /* --max-size: stop once this many data bytes are written; 0: none */
	int aio;                 /* --aio: asynchronous writes with this many control blocks; 0: write() */
	int off_cpu;             /* --off-cpu: a BPF program sums the time off the CPU: offcpu-time samples */
	int default_event;       /* the events are perf's default (cycles or its cpu-clock fallback),
				  * which perf writes no unit or scale for (EVENT_UPDATE) */
	pid_t timer_pid;         /* -p/-t with a command that only times the recording: its pid,
				  * named as perf names it (a COMM) though not recorded */
	int dwarf_raw;           /* --no-online: dwarf samples keep their stack copies (else
				  * they are unwound while recording into plain callchains) */
	char *const *cgroups;    /* -G: comma-separated cgroup lists paired with the events in
				  * order (lupe_evlist_set_cgroups); needs system_wide */
	int nr_cgroups;
	int all_cgroups;         /* --all-cgroups: PERF_SAMPLE_CGROUP, CGROUP records */
	int namespaces;          /* --namespaces: NAMESPACES records */
	int no_bpf_event;        /* --no-bpf-event: no KSYMBOL and BPF_EVENT records of
				  * BPF programs (those loaded before, synthesized) */
};

struct lupe_record_stats {
	uint64_t samples;
	uint64_t lost;          /* samples the kernel dropped (LOST_SAMPLES total) */
	uint64_t lost_chunks;   /* PERF_RECORD_LOST records */
	uint64_t wakeups;       /* polls that found data */
	uint64_t bytes_written; /* data section bytes (after compression) */
	uint64_t bytes_in;      /* data bytes before compression */
	uint64_t file_size;     /* the whole output file, after stop */
	uint64_t unwound;       /* dwarf samples unwound while recording */
	uint64_t unwind_failed; /* of those, the ones that gave no caller of the sampled ip */
};

struct lupe_record;

/*
 * Prepare a recording of events (copied) on cpus and threads (references
 * taken). Opens nothing yet. With cpus from lupe_cpu_map_any() (and
 * no_inherit: the kernel mmaps no inherited per-thread event) each thread
 * gets a ring of its own; otherwise each CPU has one that every thread on
 * it writes to. Returns NULL and errno (EINVAL for bad opts).
 */
/*
 * Append perf's default event to evs (perf record and top without -e):
 * cycles at the highest precision the machine takes, as perf 6.1 sets it
 * up. Record it with opts.default_event set: the live source then lowers
 * the precision, and where the machine has no cycles (no hardware PMU)
 * falls back to cpu-clock, named "cpu-clock:ppp" as perf names it. The
 * one home of that choice. Returns 0 or a negative errno.
 */
LUPE_API int lupe_record_default_event(struct lupe_event_list *evs);

LUPE_API struct lupe_record *lupe_record_new(const struct lupe_record_opts *opts,
					     const struct lupe_event *events, size_t nr_events,
					     struct lupe_cpu_map *cpus,
					     struct lupe_thread_map *threads);

/*
 * Open every event on every CPU and thread, mmap the rings, and create the
 * output (an existing file becomes FILE.old). On failure, *failed (if not
 * NULL) is the index of the event that could not be opened, or -1. Returns
 * 0 or -errno: -ENOENT/-EOPNOTSUPP for an event the machine lacks,
 * -EACCES/-EPERM when refused (perf_event_paranoid), -EPERM from mmap past
 * perf_event_mlock_kb, an errno from creating the output; with off_cpu
 * and *failed -2, -LUPE_ERR_NOT_SUPPORTED (no BPF) or libbpf's error
 * loading the program.
 */
LUPE_API int lupe_record_open(struct lupe_record *rec, int *failed);

/*
 * Write what precedes the samples (attrs; in pipe mode features and tracing
 * data), synthesize existing threads and the kernel map, then enable the
 * events unless a workload's exec will. Returns 0 or -errno.
 */
LUPE_API int lupe_record_start(struct lupe_record *rec);

/*
 * An extra fd that wakes lupe_record_poll (a workload's pidfd, a signal
 * self-pipe); the caller reads it. Up to 4.
 */
LUPE_API int lupe_record_add_wake_fd(struct lupe_record *rec, int fd);

/*
 * Wait up to timeout_ms (-1: forever) for data or a wake fd, then drain
 * every ring once. Returns 0, 1 when every monitored thread has exited
 * (nothing more can come), or a negative errno (a write error: ENOSPC).
 */
LUPE_API int lupe_record_poll(struct lupe_record *rec, int timeout_ms);

/*
 * Disable the events, drain the rings, write the lost counts, the feature
 * sections and, last, the header. On an error stop leaves the file
 * unlinked, except -ENOSPC (a full disk, met here or by an earlier poll):
 * the file then holds the samples that reached the disk, finalized, and
 * lupe_record_get_stats counts those. Returns 0 or -errno.
 */
LUPE_API int lupe_record_stop(struct lupe_record *rec);

/* Remove an output that will not be completed (a workload that failed to start). */
LUPE_API void lupe_record_abort(struct lupe_record *rec);

LUPE_API void lupe_record_get_stats(const struct lupe_record *rec, struct lupe_record_stats *st);

/*
 * --switch-output: finish the file so far (lupe_record_stop's features and
 * header) under the name new_name, and continue into a fresh output under
 * the original name. Not in pipe mode. Returns 0 or -errno.
 */
LUPE_API int lupe_record_switch_output(struct lupe_record *rec, const char *new_name);

/* Whether --max-size was reached: the command should stop (perf's "size limit reached"). */
LUPE_API int lupe_record_size_limit_reached(const struct lupe_record *rec);

/*
 * The sampling registers of this architecture by perf's names (x86_64: AX BX
 * ... FLAGS CS SS R8 ... R15): the bit of name (case-insensitive, len bytes)
 * or -1; the name of bit i or NULL; the mask of every register perf samples.
 */
LUPE_API int lupe_perf_reg_bit(const char *name, size_t len);
LUPE_API const char *lupe_perf_reg_name(unsigned int bit);
LUPE_API uint64_t lupe_perf_regs_all(void);

/* The output's name as given ("-" for stdout). */
LUPE_API const char *lupe_record_output(const struct lupe_record *rec);

/* Close everything; NULL is ok. */
LUPE_API void lupe_record_delete(struct lupe_record *rec);

/*
 * The live source: events sampled into rings, drained as records (top,
 * trace, a live report; record is this source feeding the writer). opts'
 * output and compression fields are ignored.
 *
 *   src = lupe_live_source_new(&opts, events, nr_events, cpus, threads);
 *   lupe_live_open(src, &failed);   events and rings (errors as lupe_record_open())
 *   lupe_live_start(src);           enable unless a workload's exec will
 *   lupe_session_read(session, src, &tool);   until every thread exited or stop
 *   lupe_source_delete(src);
 */
struct lupe_source;
LUPE_API struct lupe_source *lupe_live_source_new(const struct lupe_record_opts *opts,
						  const struct lupe_event *events, size_t nr_events,
						  struct lupe_cpu_map *cpus,
						  struct lupe_thread_map *threads);
LUPE_API int lupe_live_open(struct lupe_source *src, int *failed);
LUPE_API int lupe_live_start(struct lupe_source *src);
/* An extra fd that wakes the source's poll (up to 4); the caller reads it. */
LUPE_API int lupe_live_add_wake_fd(struct lupe_source *src, int fd);
/* Disable the events: a read in progress drains what is left and ends. */
LUPE_API void lupe_live_stop(struct lupe_source *src);

/*
 * tools16: build-ids of a perf.data's hit DSOs, as perf inject -b and perf
 * buildid-list --with-hits find them.
 *
 * lupe_inject_build_ids copies in to out (either may be "-": stdin, read
 * whole first; a pipe-mode stream to stdout) with a HEADER_BUILD_ID record
 * ahead of the first sample hitting each DSO that has a build-id. A file
 * output keeps the input's BUILD_ID table, or gets one of the DSOs hit.
 * Returns 0 or -errno / -LUPE_ERR_*.
 */
LUPE_API int lupe_inject_build_ids(const char *in, const char *out, int force,
				   uint64_t *nr_records);

/*
 * lupe inject --unwind: copies in to out as lupe_inject_build_ids does,
 * with each --call-graph dwarf sample unwound into a plain callchain (its
 * user frames after PERF_CONTEXT_USER, no user registers or stack copy),
 * as lupe record writes them (unwind/online.h). *unwound and *failed
 * (may be NULL): the dwarf samples, and those no further than the
 * sampled ip. Returns 0, -ENOTSUP without an unwinder, or -errno /
 * -LUPE_ERR_*.
 */
LUPE_API int lupe_inject_unwind(const char *in, const char *out, int force, uint64_t *nr_records,
				uint64_t *unwound, uint64_t *failed);

/* Called with each DSO's name at its first hit; non-zero stops the scan. */
typedef int (*lupe_hit_fn)(void *arg, const char *name);
/* Scan the file at path for the DSOs its samples hit. 0, fn's value or -errno. */
LUPE_API int lupe_perf_file_hits(const char *path, int force, lupe_hit_fn fn, void *arg);

#endif
