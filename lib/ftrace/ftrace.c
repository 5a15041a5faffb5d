// SPDX-License-Identifier: GPL-2.0
/*
 * lupe ftrace's tracer: a tracefs instance (instances/lupe-PID) set to the
 * function tracer, its set_ftrace_filter to the functions asked for and
 * its set_ftrace_pid to the traced tasks; the caller reads its trace_pipe.
 * perf 6.1 drives the global tracer instead and resets it afterwards
 * (which clobbers what anyone else had set up there); an instance leaves
 * the global state alone, and removing it frees its buffers.
 *
 * An instance has the function tracer and per-instance filters since
 * Linux 4.x (6.x here). Limits: a filter is a glob the kernel matches
 * against available_filter_functions; one that matches nothing is refused
 * (EINVAL), as perf's is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lupe/events.h>
#include <lupe/ftrace.h>
#include "util/util.h"

struct lupe_ftrace {
	char dir[256];
	int made;
	int pipe_fd;
	int npids;
};

static int write_file(const char *dir, const char *name, const char *val, int append)
{
	char path[512];
	int fd, err = 0;
	size_t len = strlen(val);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	close(fd);
	return err;
}

/*
 * Root gets EPERM from set_ftrace_filter and current_tracer when the
 * kernel locks function tracing down (a locked-down or sandboxed kernel,
 * as in some microVMs): no option of ours can change that.
 */
static void refused(const char *dir, int err)
{
	pr_err("the kernel does not allow function tracing here (%s/set_ftrace_filter: %s): "
	       "tracefs is locked down on this machine", dir, strerror(-err));
}

/*
 * Each function of list (NULL-terminated, may be NULL) to the filter file
 * name: 0, or the error after saying why (refused() for EPERM/EACCES, else
 * "the kernel refused to WHAT 'FUNC' (WHY)", with *bad set to FUNC).
 */
static int set_list(const char *dir, const char *name, const char *const *list, const char **bad,
		    const char *what, const char *why)
{
	for (size_t i = 0; list && list[i]; i++) {
		int err = write_file(dir, name, list[i], 1);

		if (!err)
			continue;
		if (err == -EPERM || err == -EACCES) {
			refused(dir, err);
			return err;
		}
		if (bad)
			*bad = list[i];
		pr_err("the kernel refused to %s '%s' (%s)", what, list[i], why);
		return err;
	}
	return 0;
}

int lupe_ftrace_has_tracer(const char *tracer)
{
	const char *root = lupe_tracefs_dir();
	char path[512], buf[1024], *tok, *save = NULL;
	FILE *f;
	size_t n;

	if (!root)
		return 0;
	snprintf(path, sizeof(path), "%s/available_tracers", root);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, tracer))
			return 1;
	return 0;
}

struct lupe_ftrace *lupe_ftrace_new(const struct lupe_ftrace_opts *user_opts, const char **bad)
{
	struct lupe_ftrace_opts lo, *o = &lo;
	const char *root, *tracer;
	struct lupe_ftrace *f;
	int err;

	if (lupe_opts_load(&lo, user_opts))
		return err_ptr(-EINVAL);
	root = lupe_tracefs_dir();
	tracer = o->tracer ? o->tracer : "function";
	if (!root) {
		pr_err("no tracefs: mount it (mount -t tracefs nodev /sys/kernel/tracing)");
		return err_ptr(-ENOENT);
	}
	if (!lupe_ftrace_has_tracer(tracer)) {
		pr_err("this kernel has no '%s' tracer (its tracers are in %s/available_tracers)",
		       tracer, root);
		return err_ptr(-EOPNOTSUPP);
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return err_ptr(-ENOMEM);
	f->pipe_fd = -1;
	snprintf(f->dir, sizeof(f->dir), "%s/instances/lupe-%d", root, (int)getpid());
	if (mkdir(f->dir, 0755) && errno != EEXIST) {
		err = -errno;
		pr_err("cannot make the tracefs instance '%s': %s", f->dir, strerror(errno));
		goto fail;
	}
	f->made = 1;
	if (o->buffer_kb) {
		char v[32];

		snprintf(v, sizeof(v), "%zu", o->buffer_kb);
		write_file(f->dir, "buffer_size_kb", v, 0);
	}
	err = write_file(f->dir, "tracing_on", "0", 0);
	if (!err)
		err = write_file(f->dir, "options/function-fork", o->inherit ? "1" : "0", 0);
	if (!err &&
	    ((err = set_list(f->dir, "set_ftrace_filter", o->funcs, bad, "trace",
			     "no such function in available_filter_functions")) ||
	     (err = set_list(f->dir, "set_ftrace_notrace", o->notrace, bad, "leave out", "no such function"))))
		goto fail; /* set_list said why */
	if (!err)
		err = write_file(f->dir, "current_tracer", tracer, 0);
	if (err == -EPERM || err == -EACCES) {
		refused(f->dir, err);
		goto fail;
	}
	if (err) {
		pr_err("cannot set up the tracefs instance '%s': %s", f->dir, strerror(-err));
		goto fail;
	}
	return f;
fail:
	lupe_ftrace_delete(f);
	return err_ptr(err);
}

int lupe_ftrace_add_pid(struct lupe_ftrace *f, pid_t pid)
{
	char v[32];

	snprintf(v, sizeof(v), "%d", (int)pid);
	return write_file(f->dir, "set_ftrace_pid", v, f->npids++ > 0);
}

int lupe_ftrace_start(struct lupe_ftrace *f)
{
	char path[512];

	if (f->pipe_fd < 0) {
		snprintf(path, sizeof(path), "%s/trace_pipe", f->dir);
		f->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (f->pipe_fd < 0)
			return -errno;
	}
	return write_file(f->dir, "tracing_on", "1", 0);
}

int lupe_ftrace_stop(struct lupe_ftrace *f)
{
	return write_file(f->dir, "tracing_on", "0", 0);
}

int lupe_ftrace_fd(const struct lupe_ftrace *f)
{
	return f->pipe_fd;
}

ssize_t lupe_ftrace_read(struct lupe_ftrace *f, char *buf, size_t size)
{
	ssize_t n = read(f->pipe_fd, buf, size);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	return n;
}

void lupe_ftrace_delete(struct lupe_ftrace *f)
{
	if (!f)
		return;
	if (f->pipe_fd >= 0)
		close(f->pipe_fd);
	if (f->made) {
		write_file(f->dir, "tracing_on", "0", 0);
		write_file(f->dir, "current_tracer", "nop", 0);
		if (rmdir(f->dir))
			pr_warn("cannot remove the tracefs instance '%s': %s", f->dir, strerror(errno));
	}
	free(f);
}
