// SPDX-License-Identifier: GPL-2.0
/*
 * Every writer's output, opened as perf opens perf.data (lupe/output.h
 * says the rules). Why one function: each writer used to open its output
 * its own way, and two of the ways were dangerous as root. inject wrote a
 * temporary file beside the output and renamed it over whatever was
 * there, so `inject -o /dev/null` replaced /dev/null with a regular file;
 * record followed a symbolic link planted at ./perf.data and overwrote
 * the link's target. perf 6.1 renames a link whose target is not empty
 * to perf.data.old, and follows one whose target is empty or missing;
 * here a link is never followed.
 *
 * Cost: an lstat, an open, and at commit one or two renames in the same
 * directory.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <lupe/output.h>
#include "util/util.h"

/* PATH.lupe-XXXXXX, created with O_EXCL: an existing name (or link) is never opened. */
static int open_tmp(struct lupe_output *o, mode_t mode)
{
	static unsigned int seq;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	for (int tries = 0; tries < 100; tries++) {
		unsigned int r = (unsigned int)ts.tv_nsec ^ (unsigned int)getpid() << 8 ^
				 __atomic_add_fetch(&seq, 0x9e3779b1u, __ATOMIC_RELAXED);
		int fd;

		free(o->tmp);
		if (asprintf(&o->tmp, "%s.lupe-%06x", o->path, r & 0xffffff) < 0) {
			o->tmp = NULL;
			return -ENOMEM;
		}
		fd = open(o->tmp, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			int err = -errno;

			free(o->tmp);
			o->tmp = NULL;
			return err;
		}
	}
	free(o->tmp);
	o->tmp = NULL;
	return -EEXIST;
}

/* A device, a FIFO, a socket: written where it is, neither created nor truncated. */
static int open_in_place(struct lupe_output *o, int extra)
{
	int fd = open(o->path, O_WRONLY | O_CLOEXEC | extra, 0666);

	if (fd < 0)
		return -errno;
	o->in_place = 1;
	return fd;
}

/*
 * A link is followed only to what is written in place (/dev/stdout, a
 * FIFO) and only when root or we own it: a link someone else planted, or
 * one to a regular file, is replaced, never written through.
 */
static int follow_link(const struct stat *lst, const char *path)
{
	struct stat st;

	return (lst->st_uid == 0 || lst->st_uid == geteuid()) && !stat(path, &st) &&
	       !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static int try_open(struct lupe_output *o)
{
	mode_t mode = o->flags & LUPE_OUTPUT_PRIVATE ? 0600 : 0666;
	struct stat st;
	int fd, regular = 0;

	if (o->flags & LUPE_OUTPUT_APPEND) {
		fd = open_in_place(o, O_CREAT | O_APPEND | O_NOFOLLOW);
		return fd == -EMLINK ? -ELOOP : fd;
	}
	if (lstat(o->path, &st)) {
		if (errno != ENOENT)
			return -errno;
	} else if (S_ISDIR(st.st_mode)) {
		return -EISDIR;
	} else if (S_ISREG(st.st_mode)) {
		regular = 1;
	} else if (!S_ISLNK(st.st_mode) || follow_link(&st, o->path)) {
		fd = open_in_place(o, S_ISLNK(st.st_mode) ? 0 : O_NOFOLLOW);
		if (fd < 0)
			return fd == -ELOOP || fd == -ENOENT ? -EAGAIN : fd;
		/* replaced by a regular file since the lstat: start again */
		if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
			close(fd);
			o->in_place = 0;
			return -EAGAIN;
		}
		return fd;
	}
	fd = open_tmp(o, mode);
	/*
	 * A directory lupe may not create files in, but a file in it that
	 * lupe may write: written in place, as perf would, unless the output
	 * must be replaced whole.
	 */
	if ((fd == -EACCES || fd == -EPERM || fd == -EROFS) && regular &&
	    !(o->flags & LUPE_OUTPUT_REPLACE)) {
		int in = open_in_place(o, O_TRUNC | O_NOFOLLOW);

		if (in >= 0) {
			o->in_place = 0; /* a regular file: ours to remove on failure */
			o->created = 1;
			return in;
		}
	}
	return fd;
}

int lupe_output_open(struct lupe_output *o, const char *path, unsigned int flags)
{
	int fd = -EAGAIN;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->flags = flags;
	if (!strcmp(path, "-")) {
		o->fd = dup(STDOUT_FILENO);
		if (o->fd < 0)
			return -errno;
		o->in_place = 1;
		fcntl(o->fd, F_SETFD, FD_CLOEXEC);
		return 0;
	}
	o->path = strdup(path);
	if (!o->path)
		return -ENOMEM;
	for (int i = 0; i < 3 && fd == -EAGAIN; i++)
		fd = try_open(o);
	if (fd < 0) {
		free(o->path);
		o->path = NULL;
		return fd;
	}
	o->fd = fd;
	return 0;
}

int lupe_output_commit(struct lupe_output *o)
{
	struct stat st;

	if (!o->tmp)
		return 0;
	/* perf: a non-empty perf.data becomes perf.data.old; a link does too, never followed */
	if ((o->flags & LUPE_OUTPUT_BACKUP) && !lstat(o->path, &st) &&
	    (S_ISLNK(st.st_mode) || (S_ISREG(st.st_mode) && st.st_size))) {
		char *old;
		int err = 0;

		if (asprintf(&old, "%s.old", o->path) < 0)
			return -ENOMEM;
		if (rename(o->path, old))
			err = -errno;
		free(old);
		if (err)
			return err;
	}
	if (rename(o->tmp, o->path))
		return -errno;
	free(o->tmp);
	o->tmp = NULL;
	o->created = 1;
	return 0;
}

void lupe_output_abort(struct lupe_output *o)
{
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	} else if (o->created && o->path) {
		struct stat st;

		if (!lstat(o->path, &st) && S_ISREG(st.st_mode))
			unlink(o->path);
	}
	o->created = 0;
}

void lupe_output_release(struct lupe_output *o)
{
	if (!o)
		return;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}
