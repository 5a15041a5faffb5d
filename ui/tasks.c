// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --tasks: perf 6.1's table. A header line, then one line per
 * thread, pid, tid and parent right-aligned in 8 columns, and the comm
 * after a '|' indented by one space per level of the fork tree.
 */
#include <errno.h>
#include <lupe/tasks.h>
#include "tasks.h"

int print_tasks(struct lupe_session *s, FILE *fp)
{
	struct lupe_tasks *t = lupe_tasks_new();
	const struct lupe_task *list;
	long n;
	int err;

	if (!t)
		return -ENOMEM;
	err = lupe_session_process(s, lupe_tasks_tool(t));
	n = err ? 0 : lupe_tasks_finish(t, &list);
	if (!err && n < 0)
		err = (int)n;
	if (!err) {
		fprintf(fp, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
		for (long i = 0; i < n; i++)
			fprintf(fp, "  %8d %8d %8d |%*s%s\n", list[i].pid, list[i].tid, list[i].ppid,
				list[i].level, "", list[i].comm);
		if (fflush(fp) || ferror(fp))
			err = -EIO;
	}
	lupe_tasks_delete(t);
	return err;
}
