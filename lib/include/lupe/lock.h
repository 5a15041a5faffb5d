/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel lock contention, from the lock:contention_begin/end tracepoints:
 * the model behind `lupe lock report` and `lupe lock contention`. Events
 * are paired per thread and lock address the way perf 6.1 pairs them, and
 * summed per key: the lock's address (report), the waiting code's caller
 * (contention), or the waiting thread (-t). A BPF program (lock
 * contention -b) sums in the kernel and adds its totals here.
 */
#ifndef LUPE_LOCK_H
#define LUPE_LOCK_H

#include <stdint.h>
#include <sys/types.h>
#include <lupe/core.h>

enum lupe_lock_aggr {
	LUPE_LOCK_AGGR_ADDR,   /* by lock address (lock report) */
	LUPE_LOCK_AGGR_CALLER, /* by caller callchain (lock contention) */
	LUPE_LOCK_AGGR_TASK,   /* by waiting thread (-t) */
};

/* The contention_begin flags (include/trace/events/lock.h). */
#define LUPE_LCB_F_SPIN   (1U << 0)
#define LUPE_LCB_F_READ   (1U << 1)
#define LUPE_LCB_F_WRITE  (1U << 2)
#define LUPE_LCB_F_RT     (1U << 3)
#define LUPE_LCB_F_PERCPU (1U << 4)
#define LUPE_LCB_F_MUTEX  (1U << 5)
/* lupe's own: a user-space lock's wait (a futex wait, lock contention -b) */
#define LUPE_LCB_F_FUTEX  (1U << 31)

struct lupe_lock_stat {
	uint64_t key;          /* address, callchain hash or tid, per aggr */
	char *name;            /* caller "sym+0xoff", a comm, or "" */
	unsigned int flags;    /* of the first contention_begin */
	unsigned int nr_contended, nr_acquired;
	uint64_t wait_total, wait_max, wait_min; /* ns; wait_min UINT64_MAX when none */
	uint64_t avg_wait;     /* wait_total / nr_acquired, as perf computes it */
	int broken;            /* an event out of sequence was seen */
};

struct lupe_lock;

/* A model aggregating by aggr. NULL + errno. */
LUPE_API struct lupe_lock *lupe_lock_new(enum lupe_lock_aggr aggr);
LUPE_API void lupe_lock_delete(struct lupe_lock *l);
LUPE_API enum lupe_lock_aggr lupe_lock_aggr(const struct lupe_lock *l);

/*
 * One contention_begin: thread tid started waiting for the lock at addr at
 * time (ns). key and name are the entry's (perf's key for the aggregation;
 * name is copied when the entry is new). 0 or -ENOMEM.
 */
LUPE_API int lupe_lock_begin(struct lupe_lock *l, uint32_t tid, uint64_t time, uint64_t addr,
			     unsigned int flags, uint64_t key, const char *name);
/* One contention_end: the wait of tid on addr, summed into key's entry. */
LUPE_API int lupe_lock_end(struct lupe_lock *l, uint32_t tid, uint64_t time, uint64_t addr,
			   uint64_t key);
/* Totals summed elsewhere (BPF): added to key's entry, made if new. */
LUPE_API int lupe_lock_add(struct lupe_lock *l, uint64_t key, const char *name, unsigned int flags,
			   unsigned int count, uint64_t total, uint64_t max, uint64_t min);
/* The number of entries broken by events out of sequence. */
LUPE_API unsigned int lupe_lock_nr_bad(const struct lupe_lock *l, unsigned int hist[4]);

/*
 * The entries sorted by sort key ("contended", "wait_total", "wait_max",
 * "wait_min", "avg_wait", "acquired"), largest first, ties in perf's order
 * (its hash walk). *out is an array of the model's entries (free it
 * with free(); the entries stay the model's). 0, or -EINVAL for an unknown
 * key.
 */
LUPE_API int lupe_lock_sorted(struct lupe_lock *l, const char *sort_key,
			      struct lupe_lock_stat ***out, size_t *nr);

/* Name an entry (a task's comm, known only after reading). */
LUPE_API int lupe_lock_set_name(struct lupe_lock_stat *st, const char *name);

/* The type perf names for a contention_begin's flags: "spinlock", "rwsem:W"... */
LUPE_API const char *lupe_lock_type_str(unsigned int flags);

struct lupe_lock_file_opts {
	size_t sz;
	int force;
	int stack_skip;        /* callchain entries skipped before the caller (perf: 3) */
	int max_stack;         /* entries looked at (perf: 8) */
};

/*
 * Read the lock:contention_begin/end samples of a perf.data into l. A
 * task's entry is named by the comm its thread was given by a COMM record
 * (":TID" if none), as perf 6.1 names it. 0 or a negative errno (the
 * reason logged); -ENOENT when the file has no contention events.
 */
LUPE_API int lupe_lock_read_file(struct lupe_lock *l, const char *path,
				 const struct lupe_lock_file_opts *opts);

/* A BPF collector of contention (lock contention -b). */
struct lupe_lock_bpf;
struct lupe_lock_bpf_opts {
	size_t sz;
	int system_wide;       /* every task, else only the pids added */
	int aggr_task;         /* per thread (-t), else per caller */
	int stack_skip, max_stack;
	unsigned int map_entries;
};
/* NULL + errno (-EOPNOTSUPP: built without BPF). */
LUPE_API struct lupe_lock_bpf *lupe_lock_bpf_new(const struct lupe_lock_bpf_opts *opts);
LUPE_API int lupe_lock_bpf_add_pid(struct lupe_lock_bpf *b, pid_t pid);
LUPE_API int lupe_lock_bpf_start(struct lupe_lock_bpf *b);
LUPE_API void lupe_lock_bpf_stop(struct lupe_lock_bpf *b);
/*
 * Sum the program's maps into l: kernel locks by caller (named from
 * kallsyms) or by thread, and user-space locks (futex waits, flags
 * LUPE_LCB_F_FUTEX) by process and address, named "COMM[TGID] 0xADDR".
 */
LUPE_API int lupe_lock_bpf_read(struct lupe_lock_bpf *b, struct lupe_lock *l);
LUPE_API void lupe_lock_bpf_delete(struct lupe_lock_bpf *b);

#endif
