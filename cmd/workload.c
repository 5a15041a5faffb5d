// SPDX-License-Identifier: GPL-2.0
/*
 * The program a command runs (lupe CMD [OPTIONS] -- PROG ARGS), in the two
 * steps every command takes the same way: forked and held before its exec
 * (cmd_workload_prepare), then let go (cmd_workload_start). Each says what
 * went wrong in one sentence and gives the command's exit code for it: 1
 * when no child could be made, and the shell's 127 (no such program) or
 * 126 (it cannot be run) when the exec fails.
 */
#include <errno.h>
#include <lupe/core.h>
#include <lupe/workload.h>
#include "builtin.h"

int cmd_workload_prepare(struct lupe_workload *w, char **argv)
{
	int err = lupe_workload_prepare(w, argv);

	if (!err)
		return 0;
	error("cannot start '%s': %s", argv[0], lupe_strerror(err));
	return 1;
}

int cmd_workload_start(struct lupe_workload *w, const char *name)
{
	int err = lupe_workload_start(w);

	if (!err)
		return 0;
	error("cannot run '%s': %s", name, lupe_strerror(err));
	return err == -ENOENT ? 127 : 126;
}
