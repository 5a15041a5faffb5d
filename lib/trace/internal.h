/* SPDX-License-Identifier: GPL-2.0 */
/* Private to lib/trace and lib/bpf: how each syscall argument is read and shown. */
#ifndef LUPE_TRACE_INTERNAL_H
#define LUPE_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <lupe/trace.h>
#include "session/ordered.h"

enum sc_kind {
	K_HEX,      /* unsigned long, shown 0x... */
	K_PTR,      /* pointer: NULL or 0x... */
	K_INT,      /* signed decimal */
	K_UINT,     /* unsigned decimal */
	K_OCT,      /* mode: 0644 */
	K_FD,
	K_DIRFD,    /* AT_FDCWD or an fd */
	K_PATH,     /* a file name, shown in full */
	K_STR,      /* a string, bounded by -s */
	K_BUF_IN,   /* a buffer read at entry, its length in another argument */
	K_BUF_OUT,  /* a buffer the call fills, its length the return value */
	K_OPEN_FLAGS,
	K_PROT,
	K_MAP_FLAGS,
	K_ACCESS,
	K_AT_FLAGS,
	K_SIGNAL,
	K_CLONE_FLAGS,
	K_WHENCE,
	K_RESOURCE,
	K_ADVICE,
	K_GRND,
	K_ARCH_PRCTL,
	K_STAT,     /* struct stat the call fills */
	K_RLIMIT_IN,
	K_RLIMIT_OUT,
	K_SIGSET_IN,
	K_SIGSET_OUT,
	K_SIGACTION_IN,
	K_SIGACTION_OUT,
	K_SIGHOW,
	K_FCNTL_CMD,
	K_IOCTL_CMD,
	K_PIPEFDS,  /* int[2] the call fills */
	K_WSTATUS,  /* int the call fills: a wait status */
	K_WAIT_OPTIONS,
	K_SOCKADDR, /* struct sockaddr read at entry, its length in lenarg */
	K_SOCK_FAMILY,
	K_SOCK_TYPE,
	K_SOCK_PROTO,
	K_MADVISE,
	K_FUTEX_OP,
	K_ARGV,     /* execve's argv: ["a", "b"] */
	K_ENVP,     /* execve's envp: 0x... / * 20 vars * / */
};

struct sc_arg {
	char name[32];
	enum sc_kind kind;
	bool is32;          /* an int-sized C type: show the low 32 bits */
	signed char lenarg; /* BUF_IN: the argument holding the length */
};

struct sc_info {
	const char *name;
	int nargs;      /* -1: unknown (no tracefs format), show six in hex */
	bool loaded;
	bool has_output;
	struct sc_arg args[6];
};

/*
 * Structures copied whole: their size, and whether the call fills them
 * (read at its exit) or reads them (at its entry). 0 for other kinds.
 */
static inline int sc_kind_struct(enum sc_kind k, bool *out)
{
	switch (k) {
	case K_STAT: *out = true; return 144; /* x86-64 struct stat */
	case K_RLIMIT_OUT: *out = true; return 16;
	case K_RLIMIT_IN: *out = false; return 16;
	case K_SIGSET_OUT: *out = true; return 8;
	case K_SIGSET_IN: *out = false; return 8;
	case K_SIGACTION_OUT: *out = true; return 32; /* handler, flags, restorer, mask */
	case K_SIGACTION_IN: *out = false; return 32;
	case K_PIPEFDS: *out = true; return 8;
	case K_WSTATUS: *out = true; return 4;
	default: return 0;
	}
}

/* The syscall's argument description, read once from tracefs. Never NULL for nr in range. */
const struct sc_info *lupe_sc_info(long nr);



struct lupe_trace;
struct trace_ops {
	int (*add_pid)(struct lupe_trace *t, pid_t pid, bool at_exec);
	int (*start)(struct lupe_trace *t);
	/* final: the last drains, hand out everything (perf-source.c holds back the last ms) */
	int (*poll)(struct lupe_trace *t, int timeout_ms, bool final, lupe_sc_fn fn, void *arg);
	unsigned long long (*lost)(struct lupe_trace *t);
	void (*del)(struct lupe_trace *t);
};

/* The common part of both sources; each embeds it first. */
struct lupe_trace {
	const struct trace_ops *ops;
	struct lupe_trace_opts o;
	bool strings;
	bool filter;               /* only the syscalls in set[] */
	bool set[LUPE_SC_MAX];
};

/* The sources: NULL and errno when they cannot be built. */
struct lupe_trace *lupe_trace_bpf_new(const struct lupe_trace_opts *o);
struct lupe_trace *lupe_trace_perf_new(const struct lupe_trace_opts *o);
/* Load the tracefs format of sys:name for lupe_tracepoint_format(). */
int lupe_tp_load_format(const char *sys, const char *name);
/* A source of only the tracepoints in o->tracepoints (to run beside BPF). */
struct lupe_trace *lupe_trace_tp_new(const struct lupe_trace_opts *o);
/* Copy opts into t (defaults filled in). */
void lupe_trace_init(struct lupe_trace *t, const struct trace_ops *ops,
		     const struct lupe_trace_opts *o);
/*
 * How trace reads a live source, whichever capture it is: records come
 * as samples of TID, TIME (CLOCK_MONOTONIC) and RAW (struct
 * trace_sample_hdr: the raw_syscalls or -e tracepoints' rings of the
 * fallback, opened, polled and drained by the live engine,
 * record/engine.h; or the BPF capture's ring buffer, bpf/ring.h), are put
 * in time order by the session's queue (session/ordered.c) and handed to
 * deliver, which decodes them into the one syscall event;
 * PERF_RECORD_LOST counts in lost.
 */
struct trace_rings {
	struct lupe_cpu_map *cpus;
	struct lupe_live_rings *rings; /* one per CPU (the fallback's) */
	struct lupe_ordered *ord;
	int *fds;                      /* the events, closed with the rings */
	int nfds;
	size_t pages;                  /* data pages of each ring */
	unsigned long long lost;
	uint64_t newest;               /* the newest time queued */
	pid_t self;                    /* samples of this process are left out */
	bool exits;                    /* also queue processes' EXIT records */
};

/* TID, TIME, then RAW's u32 size: the raw bytes start at 20, not 8-aligned */
struct trace_sample_hdr {
	__u32 pid, tid;
	__u64 time;
	__u32 raw_size;
} __attribute__((packed));

/* The queue (deliver gets each record in time order): 0 or a negative errno. */
int lupe_trace_rings_init(struct trace_rings *tr, lupe_ordered_deliver_fn deliver, void *arg);
/*
 * A source's record (a lupe_emit_fn, arg the struct trace_rings): a
 * LOST's count added, a SAMPLE or a process's EXIT queued by its time
 * (copied: stable or not), the rest left out. 0 or a negative errno.
 */
int lupe_trace_rings_take(void *arg, const struct perf_event_header *h, int stable);
/*
 * Deliver in time order what is older than cut (a record is stamped
 * before it is committed: one on another CPU may not be visible yet, and
 * a thread's exit must not come before its entry), everything when final.
 */
int lupe_trace_rings_flush(struct trace_rings *tr, bool final, uint64_t cut);
/* CLOCK_MONOTONIC less the millisecond a writer may not have committed yet: the cut of a read that starts now. */
uint64_t lupe_trace_rings_cut(void);
void lupe_trace_rings_fini(struct trace_rings *tr);
#endif
