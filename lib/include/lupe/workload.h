/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload started the way perf starts one: forked first and held before
 * exec, so that events can be opened on its pid with enable_on_exec and
 * count from its first instruction; released with lupe_workload_start().
 * Thread-safety: one struct lupe_workload is driven by one thread.
 */
#ifndef LUPE_WORKLOAD_H
#define LUPE_WORKLOAD_H

#include <sys/types.h>
#include <lupe/core.h>

/*
 * A child to measure. Callers read pid; the rest is the library's (start
 * from { .pid = -1 }, reap with lupe_workload_wait() or _poll()).
 */
struct lupe_workload {
	pid_t pid;   /* the child, or -1 */
	int go_fd;   /* written to release the child */
	int err_fd;  /* the child's exec errno arrives here; EOF means exec worked */
	int status;  /* wait status once reaped */
	int reaped;
};

/*
 * Fork a child that waits, then execvp(argv[0], argv). The child's stdin,
 * stdout and stderr are ours. Returns 0 or a negative errno (fork failed).
 */
LUPE_API int lupe_workload_prepare(struct lupe_workload *w, char *const argv[]);

/*
 * Release the child and learn whether its exec worked. Returns 0, or the
 * negative errno of a failed exec (-ENOENT for a missing program), in which
 * case the child has already been reaped.
 */
LUPE_API int lupe_workload_start(struct lupe_workload *w);

/* Kill (SIGTERM) and reap a child that was prepared but will not be started. */
LUPE_API void lupe_workload_abort(struct lupe_workload *w);

/*
 * Wait for the child to exit; EINTR (a signal such as SIGINT) returns -EINTR
 * so that the caller can stop counting and wait again. Returns 0 once reaped,
 * with w->status set.
 */
LUPE_API int lupe_workload_wait(struct lupe_workload *w);

/* Reap the child if it exited, without waiting: 1 once reaped (or none), else 0. */
LUPE_API int lupe_workload_poll(struct lupe_workload *w);

/* The exit status a shell would give for w->status (128+sig when killed). */
LUPE_API int lupe_workload_exit_code(const struct lupe_workload *w);

#endif
