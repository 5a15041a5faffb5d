/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's function tracer through a tracefs instance of lupe's own
 * (instances/lupe-PID): `lupe ftrace`. The instance has its own tracer,
 * filters, pids and buffer, so nothing of the global tracing state
 * changes, and deleting the session removes it.
 */
#ifndef LUPE_FTRACE_H
#define LUPE_FTRACE_H

#include <stddef.h>
#include <sys/types.h>
#include <lupe/core.h>

struct lupe_ftrace_opts {
	size_t sz;
	const char *tracer;          /* "function" (default) or "function_graph" */
	const char *const *funcs;    /* set_ftrace_filter (-T, -G), NULL-terminated or NULL */
	const char *const *notrace;  /* set_ftrace_notrace (-N) */
	int inherit;                 /* follow the traced tasks' children */
	size_t buffer_kb;            /* per CPU, 0: the kernel's default */
};

struct lupe_ftrace;

/*
 * Make the instance and set it up, not tracing yet. NULL + errno: ENOENT
 * no tracefs, EOPNOTSUPP the tracer is not in this kernel, EINVAL a
 * function filter the kernel refused (*bad gets it when non-NULL); the
 * reason is logged.
 */
LUPE_API struct lupe_ftrace *lupe_ftrace_new(const struct lupe_ftrace_opts *opts,
					     const char **bad);
/* Trace only this task (and, with inherit, its children); none: every task. */
LUPE_API int lupe_ftrace_add_pid(struct lupe_ftrace *f, pid_t pid);
LUPE_API int lupe_ftrace_start(struct lupe_ftrace *f);
LUPE_API int lupe_ftrace_stop(struct lupe_ftrace *f);
/* The instance's trace_pipe, non-blocking: poll it, then lupe_ftrace_read(). */
LUPE_API int lupe_ftrace_fd(const struct lupe_ftrace *f);
/* Read trace text: bytes read, 0 when none is ready, or a negative errno. */
LUPE_API ssize_t lupe_ftrace_read(struct lupe_ftrace *f, char *buf, size_t size);
/* Stop, remove the instance; NULL is ok. */
LUPE_API void lupe_ftrace_delete(struct lupe_ftrace *f);
/* Whether this kernel has tracer (available_tracers); 0 without tracefs. */
LUPE_API int lupe_ftrace_has_tracer(const char *tracer);

#endif
