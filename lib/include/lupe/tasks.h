/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorded tasks (perf report --tasks): a session tool that keeps
 * each thread's pid, tid, parent and last comm from the COMM and FORK
 * records alone, as perf's tasks mode does (samples make no thread), and
 * lists them as perf's tree: a thread under the one that forked it.
 *
 *   t = lupe_tasks_new();
 *   lupe_session_process(session, lupe_tasks_tool(t));
 *   n = lupe_tasks_finish(t, &list);   list[0..n), in print order
 *   lupe_tasks_delete(t);
 *
 * Thread-safety: one thread at a time.
 */
#ifndef LUPE_TASKS_H
#define LUPE_TASKS_H

#include <lupe/core.h>
#include <lupe/session.h>

struct lupe_task {
	int pid, tid, ppid;  /* ppid: the forking thread's tid, -1 when no FORK said */
	const char *comm;    /* the last one, ":TID" when none was recorded */
	int level;           /* depth in the tree (0: a root) */
};

struct lupe_tasks;

/* NULL + errno. The idle thread (0/0 "swapper") is there from the start, as perf's. */
LUPE_API struct lupe_tasks *lupe_tasks_new(void);
LUPE_API void lupe_tasks_delete(struct lupe_tasks *t);
/* The tool to feed (ordered, as perf orders tasks mode). */
LUPE_API struct lupe_tool *lupe_tasks_tool(struct lupe_tasks *t);
/*
 * The threads as perf prints them: roots in perf's thread-table order
 * (tid % 256, then tid), each followed by its children, depth first.
 * Returns how many (*list owned by t), -ENOMEM, or -ENOENT when a
 * parent is unknown (perf then fails too).
 */
LUPE_API long lupe_tasks_finish(struct lupe_tasks *t, const struct lupe_task **list);

#endif
