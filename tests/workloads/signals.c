// SPDX-License-Identifier: GPL-2.0
/*
 * signals: the calls whose arguments and returns name signals and fd
 * flags, for lupe trace's comparison with strace: handlers for SIGIO (glibc
 * names it SIGPOLL) and realtime signals, a mask of them, kill with each
 * (all blocked: none is delivered), and fcntl's getters of FD_CLOEXEC and
 * the open flags.
 */
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

static void handler(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = handler };
	int sigs[] = { SIGIO, 32 + 2, 64 }, fd;
	sigset_t set;

	sigemptyset(&set);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &sa, NULL);
		sigaddset(&set, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), 0);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		kill(getpid(), sigs[i]);
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 1;
	fcntl(fd, F_GETFD);
	fcntl(fd, F_SETFD, 0);
	fcntl(fd, F_GETFD);
	fcntl(fd, F_GETFL);
	return 0;
}
