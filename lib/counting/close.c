// SPDX-License-Identifier: GPL-2.0
/*
 * Closing many tracepoint events without making the user wait for it.
 *
 * The last close of a tracepoint perf event unregisters the perf probe and
 * then waits for RCU grace periods (perf_trace_event_unreg() calls
 * tracepoint_synchronize_unregister()), all under the kernel's global
 * event_mutex: about 37 ms each on the test VM, one after the other, so
 * `-e 'syscalls:sys_enter_*'` (360 tracepoints) spends 13 s in close().
 * Closing from 16 threads measured the same 12.7 s: the mutex serialises
 * them. The wait itself cannot be shortened from user space, so we stop
 * waiting for it: a detached process (named lupe-close) inherits the fds,
 * we drop our references (no longer the last ones, so close() returns at
 * once) and it closes them after we have gone.
 *
 * The cost and the limit: the kernel still spends those seconds, and holds
 * event_mutex meanwhile, so a tracepoint opened by anyone in that window
 * waits up to one grace period per open. Counters are disabled before the
 * close, so nothing is counted in between. The closer holds no other file
 * (no pipe, socket or terminal), so nobody waits for its output, and a port
 * the program listened on is free at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "counting/close.h"
#include "util/util.h"

/* Below this many slow closes (about 37 ms each) a fork is not worth it. */
#define DETACH_MIN 4

int lupe_close_is_slow(const struct perf_event_attr *attr)
{
	/* dynamic PMUs include uprobe and kprobe, which unregister the same way */
	return attr->type == PERF_TYPE_TRACEPOINT || attr->type >= PERF_TYPE_MAX;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * In the grandchild: wait until the parent dropped its references (EOF on
 * gate), keep only fds (sorted), then close them. The wait matters: the
 * last close is the slow one, and a closer that ran ahead of the parent
 * left every last close, 13 s of them, to the parent it was meant to spare.
 * Async-signal-safe calls only.
 */
static void __attribute__((noreturn)) closer(const int *fds, int n, const int gate[2])
{
	unsigned int lo = 0;
	sigset_t none;
	char c;

	/* the parent may block SIGTERM (it waits for it): the closer must not */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid();
	/* hold no mount busy; a failure changes nothing that matters */
	(void)!chdir("/");
	prctl(PR_SET_NAME, "lupe-close", 0, 0, 0);
	close(gate[1]);
	while (read(gate[0], &c, 1) < 0 && errno == EINTR)
		;
	close(gate[0]);
	for (int i = 0; i < n; i++) {
		if ((unsigned int)fds[i] > lo)
			close_range(lo, fds[i] - 1, 0);
		lo = fds[i] + 1;
	}
	close_range(lo, ~0U, 0);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	_exit(0);
}

/*
 * Fork a process, reparented to init at once, holding copies of every fd;
 * it starts closing once gate[1], which the caller closes after its own
 * copies, is closed.
 */
static int detach(const int *fds, int n, const int gate[2])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		pid_t grandchild = fork();

		if (grandchild == 0)
			closer(fds, n, gate);
		_exit(grandchild < 0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno == ECHILD) /* SIGCHLD ignored: it was reaped for us */
			return 0;
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

void lupe_close_slow_fds(int *fds, int n)
{
	if (n <= 0)
		return;
	int gate[2] = { -1, -1 };

	qsort(fds, n, sizeof(*fds), cmp_int);
	if (n >= DETACH_MIN) {
		int err = pipe2(gate, O_CLOEXEC) ? -errno : detach(fds, n, gate);

		if (err)
			pr_debug("closing %d tracepoint events here: %s", n, strerror(-err));
	}
	/* after a detach these are no longer the last references: no wait */
	for (int i = 0; i < n; i++)
		close(fds[i]);
	/* and now the closer may take the last ones */
	if (gate[0] >= 0) {
		close(gate[1]);
		close(gate[0]);
	}
}
