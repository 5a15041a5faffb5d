// SPDX-License-Identifier: GPL-2.0
/*
 * Start a workload the way perf does: fork, let the child block on a pipe
 * until the counters are open on its pid (enable_on_exec makes them count
 * from exec), then release it. A failed exec is reported through a second,
 * close-on-exec pipe: EOF there means the exec happened.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lupe/workload.h>
#include "util/util.h"

static void child(int go_fd, int err_fd, char *const argv[])
{
	char c;
	int err;

	/* Block until the parent has the counters ready; EOF means abort. */
	if (read(go_fd, &c, 1) != 1)
		_exit(127);
	close(go_fd);
	execvp(argv[0], argv);
	err = errno;
	if (write(err_fd, &err, sizeof(err)) != sizeof(err))
		_exit(127);
	_exit(127);
}

int lupe_workload_prepare(struct lupe_workload *w, char *const argv[])
{
	int go[2], errp[2];

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(errp, O_CLOEXEC) < 0) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		return err;
	}
	w->pid = fork();
	if (w->pid < 0) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		close(errp[0]);
		close(errp[1]);
		return err;
	}
	if (w->pid == 0) {
		close(go[1]);
		close(errp[0]);
		/* the parent may ignore SIGINT while counting; the workload must not */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		child(go[0], errp[1], argv);
	}
	close(go[0]);
	close(errp[1]);
	w->go_fd = go[1];
	w->err_fd = errp[0];
	return 0;
}

static void reap(struct lupe_workload *w)
{
	while (!w->reaped && w->pid > 0) {
		if (waitpid(w->pid, &w->status, 0) == w->pid)
			w->reaped = 1;
		else if (errno != EINTR)
			break;
	}
}

int lupe_workload_start(struct lupe_workload *w)
{
	int child_err = 0;
	ssize_t n;

	if (write(w->go_fd, "g", 1) != 1)
		return -errno;
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &child_err, sizeof(child_err));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == sizeof(child_err)) {
		reap(w);
		return -child_err;
	}
	return 0;
}

void lupe_workload_abort(struct lupe_workload *w)
{
	if (w->go_fd >= 0) {
		close(w->go_fd); /* the child reads EOF and exits */
		w->go_fd = -1;
	}
	if (w->err_fd >= 0) {
		close(w->err_fd);
		w->err_fd = -1;
	}
	if (w->pid > 0 && !w->reaped) {
		kill(w->pid, SIGTERM);
		reap(w);
	}
}

int lupe_workload_wait(struct lupe_workload *w)
{
	if (w->reaped)
		return 0;
	if (waitpid(w->pid, &w->status, 0) == w->pid) {
		w->reaped = 1;
		return 0;
	}
	return -errno;
}

int lupe_workload_poll(struct lupe_workload *w)
{
	if (w->pid <= 0 || w->reaped)
		return 1;
	if (waitpid(w->pid, &w->status, WNOHANG) == w->pid)
		w->reaped = 1;
	return w->reaped;
}

int lupe_workload_exit_code(const struct lupe_workload *w)
{
	if (!w->reaped)
		return -1;
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return 1;
}
