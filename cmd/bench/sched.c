// SPDX-License-Identifier: GPL-2.0
/*
 * lupe bench sched messaging and sched pipe, perf's two scheduler
 * benchmarks.
 *
 * messaging is hackbench: groups of 20 senders and 20 receivers (processes,
 * or threads with -t) over socketpairs (pipes with -p); each sender writes
 * loops 100-byte messages to every receiver of its group. Every task says
 * it is ready on one pipe and waits on another, so the clock starts when
 * all 40 x groups tasks exist and stops when the last has finished.
 *
 * pipe is a ping-pong of an int over two pipes between two processes (or
 * threads with -T), loops round trips.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "builtin.h"
#include "options.h"
#include "bench.h"

#define DATASIZE 100
#define FDS_PER_GROUP 20

struct messaging_opts {
	int groups, loops, use_pipe, threads;
};

struct worker {
	int ready, wake;	  /* write one byte when ready; wait for the wake pipe */
	int in;			  /* a receiver's end */
	int out[FDS_PER_GROUP];	  /* a sender's receivers */
	int nr_out, loops, sender;
	pthread_t tid;
	pid_t pid;
};

static void ready_and_wait(const struct worker *w)
{
	struct pollfd p = { .fd = w->wake, .events = POLLIN };

	if (write(w->ready, "R", 1) != 1)
		exit(1);
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
}

static int full_write(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	char data[DATASIZE];

	memset(data, 'M', sizeof(data));
	ready_and_wait(w);
	if (w->sender) {
		for (int i = 0; i < w->loops; i++)
			for (int j = 0; j < w->nr_out; j++)
				if (full_write(w->out[j], data, DATASIZE))
					return (void *)1;
	} else {
		size_t want = (size_t)DATASIZE * w->loops * w->nr_out;

		while (want) {
			ssize_t n = read(w->in, data, want < sizeof(data) ? want : sizeof(data));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return (void *)1;
			want -= n;
		}
	}
	return NULL;
}

static int start_worker(struct worker *w, int threads)
{
	if (threads) {
		pthread_attr_t attr;
		int err;

		/* 400 threads: a small stack each, as perf's */
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		err = pthread_create(&w->tid, &attr, worker_run, w);
		pthread_attr_destroy(&attr);
		return -err;
	}
	w->pid = fork();
	if (w->pid < 0)
		return -errno;
	if (w->pid == 0)
		_exit(worker_run(w) ? 1 : 0);
	return 0;
}

static int make_pair(int use_pipe, int fds[2])
{
	return use_pipe ? pipe(fds) : socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
}

#define CMD_OPTS struct messaging_opts
static const struct cmd_option messaging_options[] = {
	OPT_INT('g', "group", "N", groups, 1, 100000, "Specify number of groups"),
	OPT_INT('l', "nr_loops", "N", loops, 1, 1000000000, "Specify the number of loops to run (default: 100)"),
	OPT_BOOL('p', "pipe", use_pipe, "Use pipe() instead of socketpair()"),
	OPT_BOOL('t', "thread", threads, "Be multi thread instead of multi process"),
	OPT_END()
};
#undef CMD_OPTS

static const struct cmd_argp messaging_argp = { messaging_options, NULL, NULL,
	"Groups of 20 senders and 20 receivers exchange 100-byte messages (hackbench)." };

/*
 * Group g: its receivers and senders started at w + *nr (*nr counts them),
 * each waiting for the wake-up. 1 said when one could not start.
 */
static int start_group(struct worker *w, int *nr, const struct messaging_opts *o, int g,
		       int ready, int wake)
{
	struct worker *recv = w + *nr, *send = recv + FDS_PER_GROUP;
	int fds[FDS_PER_GROUP][2], made = 0, failed = 0;

	for (; made < FDS_PER_GROUP; made++)
		if (make_pair(o->use_pipe, fds[made]))
			break;
	if (made < FDS_PER_GROUP) {
		error("cannot create %s for group %d: %s (raise the open files limit, ulimit -n)",
		      o->use_pipe ? "pipes" : "socketpairs", g, strerror(errno));
		failed = 1;
	}
	for (int i = 0; i < made && !failed; i++) {
		recv[i] = (struct worker){ .ready = ready, .wake = wake, .in = fds[i][0],
					   .nr_out = FDS_PER_GROUP, .loops = o->loops };
		if (start_worker(&recv[i], o->threads)) {
			error("cannot start a receiver: %s", strerror(errno));
			failed = 1;
			break;
		}
		(*nr)++;
	}
	for (int i = 0; i < FDS_PER_GROUP && !failed; i++) {
		send[i] = (struct worker){ .ready = ready, .wake = wake, .sender = 1,
					   .nr_out = FDS_PER_GROUP, .loops = o->loops };
		for (int j = 0; j < FDS_PER_GROUP; j++)
			send[i].out[j] = fds[j][1];
		if (start_worker(&send[i], o->threads)) {
			error("cannot start a sender: %s", strerror(errno));
			failed = 1;
			break;
		}
		(*nr)++;
	}
	/* processes have their copies; threads share ours until the end */
	if (!o->threads || failed)
		for (int i = 0; i < made; i++)
			close(fds[i][0]), close(fds[i][1]);
	return failed;
}

/* Wait for the nr workers to end: 1 if one failed. */
static int join_workers(struct worker *w, int nr, int threads)
{
	int ret = 0;

	for (int i = 0; i < nr; i++) {
		if (threads) {
			void *r;

			pthread_join(w[i].tid, &r);
			ret |= r != NULL;
		} else {
			int st;

			while (waitpid(w[i].pid, &st, 0) < 0 && errno == EINTR)
				;
			ret |= !WIFEXITED(st) || WEXITSTATUS(st);
		}
	}
	return ret;
}

int bench_sched_messaging(int argc, char **argv)
{
	struct messaging_opts o = { .groups = 10, .loops = 100 };
	int ready[2], wake[2], idx, ret = 0, nr = 0, failed = 0;
	const char *what;
	struct worker *w;
	uint64_t start, end;
	char c;

	if (cmd_parse_options(&messaging_argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	what = o.threads ? "threads" : "processes";
	w = calloc((size_t)o.groups * FDS_PER_GROUP * 2, sizeof(*w));
	if (!w || pipe(ready) || pipe(wake))
		return error("cannot set up sched messaging: %s", strerror(errno ? errno : ENOMEM)), 1;
	for (int g = 0; g < o.groups && !failed; g++)
		failed = start_group(w, &nr, &o, g, ready[1], wake[0]);
	if (failed && !o.threads) /* a group short of tasks would wait forever */
		for (int i = 0; i < nr; i++)
			kill(w[i].pid, SIGKILL);
	for (int i = 0; i < nr && !failed; i++)
		if (read(ready[0], &c, 1) != 1)
			break;
	start = bench_now_us();
	/* one byte wakes all: nobody reads it, so poll stays readable; a failure wakes them too */
	if (write(wake[1], "W", 1) != 1)
		ret = 1;
	ret |= join_workers(w, nr, o.threads);
	end = bench_now_us();
	if (o.threads) /* close what the threads used */
		for (int i = 0; i < nr; i++) {
			if (!w[i].sender)
				close(w[i].in);
			else if (i % (2 * FDS_PER_GROUP) == FDS_PER_GROUP)
				for (int j = 0; j < FDS_PER_GROUP; j++)
					close(w[i].out[j]);
		}
	close(ready[0]), close(ready[1]), close(wake[0]), close(wake[1]);
	free(w);
	if (failed)
		return 1;
	if (ret)
		return error("sched messaging: a task failed to send or receive its messages"), 1;
	if (bench_format == BENCH_FORMAT_DEFAULT) {
		printf("# %d sender and receiver %s per group\n", FDS_PER_GROUP, what);
		printf("# %d groups == %d %s run\n\n", o.groups, o.groups * FDS_PER_GROUP * 2, what);
	}
	bench_print_total(end - start);
	return 0;
}

struct pipe_opts {
	int loops, threads;
};

struct pinger {
	int in, out, loops;
};

static void *pinger_run(void *arg)
{
	struct pinger *p = arg;
	int v = 0;

	for (int i = 0; i < p->loops; i++) {
		if (read(p->in, &v, sizeof(v)) != sizeof(v) || write(p->out, &v, sizeof(v)) != sizeof(v))
			return (void *)1;
	}
	return NULL;
}

#define CMD_OPTS struct pipe_opts
static const struct cmd_option pipe_options[] = {
	OPT_INT('l', "loop", "N", loops, 1, 2000000000, "Specify number of loops (default: 1000000)"),
	OPT_BOOL('T', "threaded", threads, "Specify threads/process based task setup"),
	OPT_END()
};
#undef CMD_OPTS

static const struct cmd_argp pipe_argp = { pipe_options, NULL, NULL,
	"Two tasks pass an int back and forth over two pipes." };

int bench_sched_pipe(int argc, char **argv)
{
	struct pipe_opts o = { .loops = 1000000 };
	int p1[2], p2[2], idx, bad = 0, v = 0;
	struct pinger peer;
	pthread_t tid = 0;
	pid_t pid = -1;
	uint64_t start, end, us;

	if (cmd_parse_options(&pipe_argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (pipe(p1) || pipe(p2))
		return error("cannot create pipes: %s", strerror(errno)), 1;
	peer = (struct pinger){ .in = p1[0], .out = p2[1], .loops = o.loops };
	start = bench_now_us();
	if (o.threads) {
		if (pthread_create(&tid, NULL, pinger_run, &peer))
			return error("cannot start a thread: %s", strerror(errno)), 1;
	} else {
		pid = fork();
		if (pid < 0)
			return error("cannot fork: %s", strerror(errno)), 1;
		if (pid == 0)
			_exit(pinger_run(&peer) ? 1 : 0);
	}
	for (int i = 0; i < o.loops && !bad; i++)
		bad = write(p1[1], &v, sizeof(v)) != sizeof(v) || read(p2[0], &v, sizeof(v)) != sizeof(v);
	if (o.threads) {
		void *r;

		pthread_join(tid, &r);
		bad |= r != NULL;
	} else {
		int st;

		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	end = bench_now_us();
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
	if (bad)
		return error("sched pipe: a read or write on the pipes failed"), 1;
	us = end - start;
	if (bench_format == BENCH_FORMAT_DEFAULT) {
		printf("# Executed %d pipe operations between two %s\n\n", o.loops,
		       o.threads ? "threads" : "processes");
		bench_print_total(us);
		printf("\n %14lf usecs/op\n", (double)us / o.loops);
		printf(" %14d ops/sec\n", (int)((double)o.loops / ((double)us / 1e6)));
	} else {
		bench_print_total(us);
	}
	return 0;
}
