/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall tracing for `lupe trace`: a live source of syscall events (BPF
 * ring buffer with argument strings, or raw_syscalls tracepoints through
 * perf_event_open without them) and the decoder that turns an event's
 * numbers into what strace prints.
 *
 * Both sources decode into the same struct lupe_sc_event, so the printer
 * and the summary do not know which one ran.
 */
#ifndef LUPE_TRACE_H
#define LUPE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include <lupe/core.h>

#define LUPE_SC_MAX 512 /* syscall numbers are below this */

enum lupe_sc_kind {
	LUPE_SC_ENTER = 1,
	LUPE_SC_EXIT = 2,
	LUPE_SC_TRACEPOINT = 3, /* a tracepoint asked for with -e: bufs[0] is its raw record */
	LUPE_SC_PROC_EXIT = 4,  /* process pid ended; ret is its wait status (BPF only) */
};

/* Memory an argument pointed to, as captured (entry or exit). */
struct lupe_sc_buf {
	int arg;                   /* which of the six arguments */
	int len;                   /* bytes in data */
	bool truncated;            /* the memory went on past len */
	const unsigned char *data; /* valid during the callback only */
};

struct lupe_sc_event {
	enum lupe_sc_kind kind;
	pid_t pid, tid;
	__u64 time;       /* CLOCK_MONOTONIC ns */
	long nr;          /* the syscall number */
	__u64 args[6];    /* at entry */
	long ret;         /* at exit */
	int nbufs;
	struct lupe_sc_buf bufs[6];
	const char *comm;  /* after a successful execve: the new command name, else NULL */
	const char *tp_name; /* LUPE_SC_TRACEPOINT: "sys:name" */
};

/* Called for each event in time order per CPU; non-zero stops the poll. */
typedef int (*lupe_sc_fn)(const struct lupe_sc_event *ev, void *arg);

struct lupe_trace_opts {
	size_t sz;                  /* sizeof(struct lupe_trace_opts) */
	bool system_wide;           /* -a: every process but ours */
	unsigned int max_strlen;    /* bytes of strings and buffers (default 32) */
	const bool *syscalls;       /* LUPE_SC_MAX flags, or NULL for all */
	size_t buf_bytes;           /* ring buffer size (default 16 MiB BPF, 1 MiB per CPU perf) */
	const char *const *tracepoints; /* NULL-terminated "sys:name" list to interleave, or NULL */
	bool no_strings;            /* BPF too copies no memory: pointers shown as the fallback shows them */
};

struct lupe_trace;

/*
 * A source of syscall events. With bpf, the BPF program (strings and
 * buffers); without, raw_syscalls tracepoints (numbers only). Returns NULL
 * and errno: LUPE_ERR_NOT_SUPPORTED when lupe was built without BPF, EPERM
 * when the kernel refuses. Nothing is traced before lupe_trace_start().
 */
LUPE_API struct lupe_trace *lupe_trace_new(const struct lupe_trace_opts *opts, bool bpf);

/*
 * A source of the syscall events in the perf.data file at path ("-":
 * stdin), recorded from the raw_syscalls tracepoints (lupe record -e
 * 'raw_syscalls:*'; perf trace -i reads the same): numbers only, in time
 * order, with the threads' names from the file. Takes no pids; the first
 * lupe_trace_poll() hands out the whole file (-ENODATA when the file has
 * no raw_syscalls events), the next returns 0. NULL and errno.
 */
LUPE_API struct lupe_trace *lupe_trace_file_new(const struct lupe_trace_opts *opts,
						const char *path);

/*
 * Trace the process pid (all its threads) and the children it forks from
 * now on. at_exec: pid is a workload held before exec; its calls count from
 * its execve. Returns 0 or a negative errno.
 */
LUPE_API int lupe_trace_add_pid(struct lupe_trace *t, pid_t pid, bool at_exec);

/* Attach: events flow from here on. Returns 0 or a negative errno. */
LUPE_API int lupe_trace_start(struct lupe_trace *t);

/*
 * Wait up to timeout_ms for events, then hand each available one to fn,
 * in time order: the tracepoints' per-CPU rings keep those of the last
 * millisecond for the next poll (another CPU may still be writing an
 * older one), except with timeout_ms 0, the drains at the end, which
 * hand out everything. Returns the number
 * of events, or a negative errno (-EINTR on a signal).
 */
LUPE_API int lupe_trace_poll(struct lupe_trace *t, int timeout_ms, lupe_sc_fn fn, void *arg);

/* Events the kernel had no room for since start. */
LUPE_API unsigned long long lupe_trace_lost(struct lupe_trace *t);

/* Whether events carry the strings and buffers their arguments point to. */
LUPE_API bool lupe_trace_has_strings(const struct lupe_trace *t);

/* Detach and free; NULL is fine. Traced programs keep running. */
LUPE_API void lupe_trace_delete(struct lupe_trace *t);

/* ---- decoding ---- */

/* The name of syscall nr ("openat"), or NULL when unknown. */
LUPE_API const char *lupe_syscall_name(long nr);

/* The number of the syscall called name, or -1. */
LUPE_API long lupe_syscall_nr(const char *name);

/*
 * Mark in set (LUPE_SC_MAX flags) the syscalls a comma-separated spec
 * names: names, globs ("*stat*"), each optionally negated with '!' (a spec
 * that starts with a negation begins from all). Returns 0, or -ENOENT with
 * *bad pointing at the word no syscall matched.
 */
LUPE_API int lupe_syscall_set_parse(const char *spec, bool *set, const char **bad, size_t *badlen);

/* How arguments are shown. */
struct lupe_sc_fmt {
	unsigned int max_strlen; /* bytes of strings and buffers shown (paths: all) */
	/* when not NULL: the path fd refers to in process pid, or NULL (strace -y) */
	const char *(*fd_path)(pid_t pid, int fd, void *arg);
	void *arg;
};

/*
 * Format arguments from..to-1 (to -1: all) of an entry event as strace
 * does, into buf ("AT_FDCWD, \"/etc/hostname\", O_RDONLY"), each but the
 * first preceded by ", ". exit_ev, when not NULL, is the matching exit:
 * buffers the call filled are taken from it. Returns the length that was
 * needed (as snprintf does).
 */
LUPE_API int lupe_syscall_format_args(const struct lupe_sc_event *enter,
				      const struct lupe_sc_event *exit_ev,
				      const struct lupe_sc_fmt *fmt, int from, int to,
				      char *buf, size_t size);

/*
 * The first argument of syscall nr that points to memory the call fills
 * (read's buffer), or -1: a printer cuts an unfinished call's line there.
 */
LUPE_API int lupe_syscall_output_arg(long nr);

/* The return value as strace shows it: "3", "0x7f...", "-1 ENOENT (No such file or directory)". */
LUPE_API int lupe_syscall_format_ret(long nr, long ret, char *buf, size_t size);
/*
 * The same, with the call's entry event (or NULL) for the returns whose
 * meaning its arguments give: fcntl(fd, F_GETFD) = "0x1 (flags FD_CLOEXEC)".
 */
LUPE_API int lupe_syscall_format_result(const struct lupe_sc_event *enter, long nr, long ret,
					char *buf, size_t size);

/*
 * The fields of a tracepoint's raw record as perf script prints them
 * ("prev_comm=cat prev_pid=42 ..."), from its tracefs format (with
 * libtraceevent; without it, the record's size). Returns the needed length.
 */
LUPE_API int lupe_tracepoint_format(const void *raw, size_t len, char *buf, size_t size);

/* Quote and escape len bytes as strace does ("\177ELF\2..."); returns the needed length. */
LUPE_API int lupe_quote_string(const unsigned char *s, size_t len, bool truncated,
			       char *buf, size_t size);

/* ---- the model a consumer keeps: fds and the summary (trace/model.c) ---- */

/* The paths behind the traced processes' fds (strace -y). */
struct lupe_trace_fds;

/* NULL and errno. */
LUPE_API struct lupe_trace_fds *lupe_trace_fds_new(void);
LUPE_API void lupe_trace_fds_delete(struct lupe_trace_fds *f);
/* Learn the paths of pid's open fds now, from /proc, while it is alive. */
LUPE_API void lupe_trace_fds_prime(struct lupe_trace_fds *f, pid_t pid);
/*
 * The path behind fd in process pid: learned from the calls, else what
 * /proc says now; NULL when unknown. Valid until the next call on f.
 */
LUPE_API const char *lupe_trace_fds_path(struct lupe_trace_fds *f, pid_t pid, int fd);
/* Follow a finished call that makes, copies or closes an fd (enter may be NULL). */
LUPE_API void lupe_trace_fds_call(struct lupe_trace_fds *f, const struct lupe_sc_event *enter,
				  const struct lupe_sc_event *exit);
/* Whether syscall nr returns a new fd (open, openat, creat, dup*). */
LUPE_API bool lupe_trace_fds_returns_fd(const struct lupe_trace_fds *f, long nr);

/* One syscall's figures (perf trace -s), times in ms. */
struct lupe_sc_stat {
	unsigned long calls, errors;
	double total, min, max, sumsq;
};

/* Count a call that returned ret, and its time when timed (entry and exit seen). */
LUPE_API void lupe_sc_stat_add(struct lupe_sc_stat *s, long ret, double ms, bool timed);
/* Add the LUPE_SC_MAX figures from into to. */
LUPE_API void lupe_sc_stats_merge(struct lupe_sc_stat *to, const struct lupe_sc_stat *from);
/*
 * The syscalls of LUPE_SC_MAX figures that have calls, longest total time
 * first (then most calls), into order; returns how many.
 */
LUPE_API int lupe_sc_stats_order(const struct lupe_sc_stat *stats, int *order);

/* ---- the model of the calls: entries paired with exits (trace/pair.c) ---- */

/*
 * One traced thread as the model keeps it. A consumer reads it, and may
 * set mark (a printer: "its unfinished line is out"), which the model
 * clears when the thread enters a call and when the call ends.
 */
struct lupe_trace_thread {
	pid_t tid, pid;
	char comm[16];              /* with opts.summary, or from an execve: its name */
	bool pending;               /* a call was entered and has not returned */
	bool mark;                  /* the consumer's */
	struct lupe_sc_event enter; /* the pending call's entry; its bufs are the model's copies */
	struct lupe_sc_stat *stats; /* LUPE_SC_MAX figures (opts.summary), else NULL */
	unsigned long events;       /* calls counted */
};

enum lupe_trace_call_kind {
	LUPE_TRACE_CALL = 1,   /* a call returned: exit, with enter when its entry was seen */
	LUPE_TRACE_NORETURN,   /* a call that will not return (exit, exec, the end): enter */
	LUPE_TRACE_PROC_END,   /* process pid ended with wait status status, said once */
	LUPE_TRACE_TP,         /* a tracepoint of -e: exit is its event */
};

struct lupe_trace_call {
	enum lupe_trace_call_kind kind;
	struct lupe_trace_thread *thread; /* PROC_END: NULL */
	const struct lupe_sc_event *enter; /* NULL when not seen */
	const struct lupe_sc_event *exit;
	double ms;                         /* CALL with enter: its duration */
	pid_t pid;                         /* PROC_END */
	int status;
};

struct lupe_trace_model;

/* Called for each call the model completes; non-zero stops (returned by lupe_trace_model_event). */
typedef int (*lupe_trace_call_fn)(struct lupe_trace_model *m, const struct lupe_trace_call *c,
				  void *arg);

struct lupe_trace_model_opts {
	size_t sz;          /* sizeof(struct lupe_trace_model_opts) */
	bool summary;       /* per-thread figures and names */
	bool fd_paths;      /* follow the fds' paths (strace -y) */
	bool workload;      /* main_pid is a command lupe started: its failed execve (the PATH search) are not calls */
	pid_t main_pid;     /* the traced command or process, or 0 */
	bool first_is_main; /* no main_pid: the first event's process is the main one (a file) */
};

/* NULL and errno. fn gets the completed calls, in the events' order. */
LUPE_API struct lupe_trace_model *lupe_trace_model_new(const struct lupe_trace_model_opts *opts,
						       lupe_trace_call_fn fn, void *arg);
LUPE_API void lupe_trace_model_delete(struct lupe_trace_model *m);
/* A lupe_sc_fn: m is the model. Returns 0, -ENOMEM, or what fn returned. */
LUPE_API int lupe_trace_model_event(const struct lupe_sc_event *ev, void *m);
/* The end: calls still pending never returned (NORETURN). */
LUPE_API int lupe_trace_model_finish(struct lupe_trace_model *m);
/* Process pid ended with status (a workload's wait status): PROC_END unless said already. */
LUPE_API int lupe_trace_model_exited(struct lupe_trace_model *m, pid_t pid, int status);
/* The threads seen, in order of appearance; returns how many. */
LUPE_API size_t lupe_trace_model_threads(struct lupe_trace_model *m,
					 struct lupe_trace_thread *const **threads);
/* The main process (0: none), and whether other threads than its first were seen. */
LUPE_API pid_t lupe_trace_model_main(const struct lupe_trace_model *m);
LUPE_API bool lupe_trace_model_multi(const struct lupe_trace_model *m);
/* With fd_paths: the fds' model (learn pid's fds with lupe_trace_fds_prime), else NULL. */
LUPE_API struct lupe_trace_fds *lupe_trace_model_fds(struct lupe_trace_model *m);

#endif
