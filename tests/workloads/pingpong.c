// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: two threads hand a byte back and forth through two pipes, so
 * each wakes the other (sched_wakeup, sched_switch), and every 50 round
 * trips both sleep a millisecond: a known scheduling pattern for lupe sched
 * (tests/shell/sched.sh).
 *
 * Usage: pingpong [ROUNDS]   (default 500)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static int rounds = 500;

static void nap(void)
{
	struct timespec ts = { 0, 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static void *ponger(void *arg)
{
	char c;

	(void)arg;
	for (int i = 0; i < rounds; i++) {
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			break;
		if (i % 50 == 49)
			nap();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char c = 'x';

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, ponger, NULL))
		return 1;
	for (int i = 0; i < rounds; i++) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
		if (i % 50 == 49)
			nap();
	}
	pthread_join(t, NULL);
	printf("%d rounds\n", rounds);
	return 0;
}
