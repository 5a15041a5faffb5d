// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints from tracefs: events/<sys>/<name>/id holds the id perf puts in
 * attr.config. Listing walks two directory levels with d_type and checks
 * the id file per event (events without one, like most of ftrace/, are not
 * tracepoints perf can open); no other file is touched.
 */
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "events/internal.h"
#include "util/util.h"

static char *tracefs_override;

int lupe_events_set_tracefs(const char *dir)
{
	return lupe_set_dir_override(&tracefs_override, dir);
}

/* 1 when dir/events can be searched, 0 when it is not there, -errno else. */
static int has_events(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events", dir);
	if (access(path, X_OK) == 0)
		return 1;
	return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
}

const char *lupe_tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	/* found once per process: a spec of many tracepoints asks every time */
	static const char *found;

	int denied = 0;

	if (!tracefs_override && found)
		return found;
	if (tracefs_override)
		return has_events(tracefs_override) > 0 ? tracefs_override :
		       err_ptr(-LUPE_ERR_NO_TRACEFS);
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		int r = has_events(dirs[i]);

		if (r > 0)
			return found = dirs[i];
		if (r < 0 && !denied)
			denied = r;
	}
	/* mounted but closed to us (tracefs is 0700): mounting again will not help */
	if (denied)
		return err_ptr(denied);
	/* Not mounted: root may mount it, as perf does through libapi. */
	if (mount("nodev", dirs[0], "tracefs", 0, NULL) == 0 && has_events(dirs[0]) > 0) {
		pr_info("mounted tracefs on %s", dirs[0]);
		return found = dirs[0];
	}
	return err_ptr(-LUPE_ERR_NO_TRACEFS);
}

bool lupe_has_glob(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

static int read_id(int dirfd, const char *rel, __u64 *id)
{
	char buf[32];
	ssize_t n;
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -LUPE_ERR_FORMAT;
	buf[n] = '\0';
	*id = strtoull(buf, NULL, 10);
	return 0;
}

int lupe_tracepoint_id(const char *sys, const char *name, __u64 *id)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[PATH_MAX];
	int err;

	if (!tracefs)
		return -errno;
	if (strchr(sys, '/') || strchr(name, '/') || sys[0] == '.' || name[0] == '.')
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name);
	err = read_id(AT_FDCWD, path, id);
	return err == -ENOTDIR ? -ENOENT : err;
}

long long lupe_tracepoint_lookup(const char *sys_name)
{
	const char *colon = sys_name ? strchr(sys_name, ':') : NULL;
	char sys[256];
	__u64 id;
	int err;

	if (!colon || colon == sys_name || !colon[1] || (size_t)(colon - sys_name) >= sizeof(sys))
		return lupe_set_error(-EINVAL, "cannot look up tracepoint '%s': give it as 'system:name'",
				      sys_name ? sys_name : "");
	memcpy(sys, sys_name, colon - sys_name);
	sys[colon - sys_name] = '\0';
	err = lupe_tracepoint_id(sys, colon + 1, &id);
	if (err == -ENOENT)
		return lupe_set_error(err, "no tracepoint '%s' ('lupe list tracepoint' shows them)",
				      sys_name);
	if (err == -EACCES)
		return lupe_set_error(err, "cannot look up tracepoint '%s': tracefs is closed to "
				      "this user (run as root)", sys_name);
	if (err)
		return lupe_set_error(err, "cannot look up tracepoint '%s': %s", sys_name,
				      lupe_strerror(err));
	return (long long)id;
}

bool lupe_tracepoint_system_exists(const char *sys)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[PATH_MAX];

	if (!tracefs || strchr(sys, '/'))
		return false;
	snprintf(path, sizeof(path), "%s/events/%s", tracefs, sys);
	return access(path, F_OK) == 0;
}

/*
 * Subdirectory names of the directory open at dirfd matching glob, in
 * readdir order: perf expands globs in that order, and the lister sorts
 * the whole "sys:name" strings once.
 */
struct subdir_filter {
	int dirfd;
	const char *glob;
};

static bool keep_subdir(const struct dirent *de, void *arg)
{
	const struct subdir_filter *f = arg;
	struct stat st;

	if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
		return false;
	if (f->glob && fnmatch(f->glob, de->d_name, 0))
		return false;
	return de->d_type == DT_DIR ||
	       (!fstatat(f->dirfd, de->d_name, &st, 0) && S_ISDIR(st.st_mode));
}

static char **subdirs(int dirfd, const char *glob, size_t *nr)
{
	struct subdir_filter f = { dirfd, glob };
	int fd = dup(dirfd);
	DIR *d;

	*nr = 0;
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return lupe_dir_collect(d, keep_subdir, &f, nr);
}

int lupe_tracepoint_foreach(const char *sys_glob, const char *name_glob,
		       int (*fn)(const char *sys, const char *name, __u64 id, void *arg),
		       void *arg, bool want_id)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[PATH_MAX];
	char **systems, **names;
	size_t nr_sys, nr_names;
	int events_fd, sys_fd, err = 0, count = 0;

	if (!tracefs)
		return -errno;
	snprintf(path, sizeof(path), "%s/events", tracefs);
	events_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (events_fd < 0)
		return -errno;
	systems = subdirs(events_fd, sys_glob, &nr_sys);
	if (!systems && errno) {
		err = -errno;
		goto out;
	}
	for (size_t s = 0; s < nr_sys && !err; s++) {
		sys_fd = openat(events_fd, systems[s], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sys_fd < 0)
			continue;
		names = subdirs(sys_fd, name_glob, &nr_names);
		if (!names && errno)
			err = -errno;
		for (size_t i = 0; i < nr_names && !err; i++) {
			__u64 id = 0;
			char rel[NAME_MAX + 8];

			snprintf(rel, sizeof(rel), "%s/id", names[i]);
			/* perf lists only events with an id: it could not open the others */
			if (want_id ? read_id(sys_fd, rel, &id) : faccessat(sys_fd, rel, F_OK, 0))
				continue;
			count++;
			if (fn) {
				int r = fn(systems[s], names[i], id, arg);

				if (r < 0)
					err = r;
			}
		}
		lupe_strv_free(names, nr_names);
		close(sys_fd);
	}
	lupe_strv_free(systems, nr_sys);
out:
	close(events_fd);
	return err ? err : count;
}
