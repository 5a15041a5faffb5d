// SPDX-License-Identifier: GPL-2.0
/*
 * forkexec: a parent that forks a child which execs this program again,
 * for unwinding in processes whose maps are replaced by exec.
 *
 *   parent: main -> parent_work -> spin
 *   child (after exec, "child" argument): main -> child_work -> spin
 *
 * Usage: forkexec [ITERS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

unsigned long spin(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

unsigned long parent_work(int iters)
{
	volatile unsigned long slot = 0;

	for (int i = 0; i < iters; i++)
		slot += spin(5000000);
	return slot;
}

unsigned long child_work(int iters)
{
	volatile unsigned long slot = 0;

	for (int i = 0; i < iters; i++)
		slot += spin(10000000);
	return slot;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 30;
	char arg[32];
	pid_t pid;
	int status;

	if (argc > 2 && !strcmp(argv[2], "child"))
		return (int)(child_work(iters) & 1);
	snprintf(arg, sizeof(arg), "%d", iters);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		execl("/proc/self/exe", argv[0], arg, "child", (char *)NULL);
		_exit(127);
	}
	parent_work(iters);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 1)
		return 1;
	return 0;
}
