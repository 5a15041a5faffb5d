// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls: a workload with known syscall counts, for lupe trace's tests
 * and benchmark. With -n N (default 1000) it makes, after its start-up:
 *
 *   getppid          N
 *   openat + close   N/10 of /dev/null (succeed)
 *   write + read     N/10 of 8 bytes through a pipe (made once: pipe2)
 *   openat           N/20 of a missing file (fail: ENOENT)
 *   close            N/20 of fd -1 (fail: EBADF)
 *
 * -b: a second thread blocks in read on a pipe while the first makes its
 *     calls, then is woken by a write (strace shows unfinished/resumed)
 * -c: also socket + connect: TCP to 127.0.0.1 port 9 and a missing AF_UNIX
 *     path (both refused), for sockaddr decoding
 * -l: loop forever, one getppid every 10 ms (a target for trace -p)
 * -r: print when main started (CLOCK_REALTIME, us) and the microseconds the
 *     calls took, so a benchmark sees the tracer's time to its first event
 *     and the slowdown without the tracer's start-up
 * Calls go through syscall(2), so the C library adds none of its own.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

static int wake[2];

static void *blocked_reader(void *arg)
{
	char c;

	(void)arg;
	if (syscall(SYS_read, wake[0], &c, 1) != 1)
		abort();
	return NULL;
}

int main(int argc, char **argv)
{
	long n = 1000;
	int opt, fds[2], block = 0, report = 0, sockets = 0;
	struct timespec t0, t1, start;
	char buf[8] = "lupe-tr";
	pthread_t th;

	clock_gettime(CLOCK_REALTIME, &start);
	while ((opt = getopt(argc, argv, "n:blrc")) != -1) {
		switch (opt) {
		case 'c': sockets = 1; break;
		case 'n': n = atol(optarg); break;
		case 'r': report = 1; break;
		case 'b': block = 1; break;
		case 'l':
			for (;;) {
				struct timespec ts = { 0, 10 * 1000 * 1000 };

				syscall(SYS_getppid);
				nanosleep(&ts, NULL);
			}
		default: return 2;
		}
	}
	if (block) {
		if (syscall(SYS_pipe2, wake, 0))
			return 1;
		if (pthread_create(&th, NULL, blocked_reader, NULL))
			return 1;
		usleep(50000); /* the reader is asleep in read by now */
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (syscall(SYS_pipe2, fds, 0))
		return 1;
	for (long i = 0; i < n / 10; i++) {
		long fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY);

		syscall(SYS_close, fd);
		if (syscall(SYS_write, fds[1], buf, sizeof(buf)) != sizeof(buf) ||
		    syscall(SYS_read, fds[0], buf, sizeof(buf)) != sizeof(buf))
			return 1;
	}
	for (long i = 0; i < n / 20; i++) {
		syscall(SYS_openat, AT_FDCWD, "/nonexistent/lupe-trace", O_RDONLY);
		syscall(SYS_close, -1);
	}
	if (sockets) {
		struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(9),
					  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/nonexistent/lupe.sock" };
		long s1 = syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
		long s2 = syscall(SYS_socket, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		syscall(SYS_connect, s1, &in, sizeof(in));
		syscall(SYS_connect, s2, &un, sizeof(un));
	}
	if (block) {
		if (syscall(SYS_write, wake[1], "x", 1) != 1)
			return 1;
		pthread_join(th, NULL);
	}
	if (report) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("%ld %ld\n", start.tv_sec * 1000000L + start.tv_nsec / 1000, (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000);
	}
	return 0;
}
