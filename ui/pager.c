// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pager.h"

static pid_t pager_pid;

/*
 * The pager sees EOF once our ends of the pipe close. stdout itself may be
 * closed already (the dispatcher fcloses it to catch write errors), so only
 * the descriptors are touched here.
 */
static void wait_for_pager(void)
{
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	if (pager_pid > 0)
		waitpid(pager_pid, NULL, 0);
}

static void wait_for_pager_signal(int sig)
{
	fflush(stdout);
	wait_for_pager();
	signal(sig, SIG_DFL);
	raise(sig);
}

void setup_pager(void)
{
	const char *pager = getenv("LUPE_PAGER");
	int fd[2];

	if (!isatty(STDOUT_FILENO))
		return;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return;
	if (pipe(fd) < 0)
		return;
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pager_pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		/* less: quit if one screen, keep colours, leave the screen alone */
		setenv("LESS", "FRX", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fd[1], STDERR_FILENO);
	close(fd[0]);
	close(fd[1]);
	atexit(wait_for_pager);
	signal(SIGINT, wait_for_pager_signal);
	signal(SIGTERM, wait_for_pager_signal);
	signal(SIGPIPE, SIG_IGN);
}

int pager_in_use(void)
{
	return pager_pid > 0;
}
