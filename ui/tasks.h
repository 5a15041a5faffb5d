/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report --tasks: the recorded threads as perf 6.1 lists them, a
 * "# pid tid ppid comm" table with each thread under the one that forked it.
 */
#ifndef LUPE_UI_TASKS_H
#define LUPE_UI_TASKS_H

#include <stdio.h>
#include <lupe/session.h>

/*
 * Read the session's records and print its tasks to fp. 0, or a negative
 * error: of the session, -ENOENT when a thread's parent is not among them
 * (perf fails there too), -EIO when fp could not be written.
 */
int print_tasks(struct lupe_session *s, FILE *fp);

#endif
