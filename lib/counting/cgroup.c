// SPDX-License-Identifier: GPL-2.0
/*
 * perf's -G: an event counted only while a task of one cgroup runs, by
 * opening it per CPU on the cgroup directory's fd with PERF_FLAG_PID_CGROUP.
 * The directory is found as perf finds it: under the v1 hierarchy with the
 * perf_event controller, else the cgroup2 mount. Names pair with the
 * events in order, as perf pairs them: the Nth name (empty: none) is the
 * Nth event's, and a single name is every event's.
 */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/evlist.h>
#include "counting/evsel.h"

int lupe_cgroup_root(char *dir, size_t size)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *m;
	int found = 0;

	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "perf_event")) {
			snprintf(dir, size, "%s", m->mnt_dir);
			found = 2;
			break;
		}
		if (!strcmp(m->mnt_type, "cgroup2") && !found) {
			snprintf(dir, size, "%s", m->mnt_dir);
			found = 1;
		}
	}
	endmntent(f);
	return found ? 0 : -ENOENT;
}

int lupe_cgroup_open(const char *name)
{
	char root[4096], path[8192];
	int fd, err = lupe_cgroup_root(root, sizeof(root));

	if (err)
		return err;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int set_one(struct lupe_evsel *evsel, const char *name)
{
	int fd;

	if (!*name)
		return 0;
	if ((fd = lupe_cgroup_open(name)) < 0)
		return fd;
	free(evsel->cgroup);
	if (evsel->cgroup)
		close(evsel->cgroup_fd);
	if (!(evsel->cgroup = strdup(name))) {
		close(fd);
		return -ENOMEM;
	}
	evsel->cgroup_fd = fd;
	return 0;
}

int lupe_evlist_set_cgroups(struct lupe_evlist *evlist, char *const *lists, int nr, char *bad, size_t size)
{
	char **names = NULL;
	int n = 0, err = 0;

	*bad = 0;
	/* "a,,b" -G c: a, none, b, c */
	for (int i = 0; i < nr && !err; i++) {
		for (const char *p = lists[i], *e;; p = e + 1) {
			char **v = realloc(names, (n + 1) * sizeof(*names));

			e = strchrnul(p, ',');
			if (!v || !(v[n] = strndup(p, (size_t)(e - p)))) {
				if (v)
					names = v;
				err = -ENOMEM;
				break;
			}
			names = v;
			n++;
			if (!*e)
				break;
		}
	}
	/* perf takes empty names past the events ("grp,,") */
	for (int i = evlist->nr; !err && i < n; i++)
		if (*names[i]) {
			snprintf(bad, size, "%s", names[i]);
			err = -E2BIG;
		}
	for (int i = 0; !err && i < evlist->nr && (i < n || n == 1); i++) {
		const char *name = names[n == 1 ? 0 : i];

		if ((err = set_one(evlist->evsels[i], name)))
			snprintf(bad, size, "%s", name);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

const char *lupe_evsel_cgroup(const struct lupe_evsel *evsel)
{
	return evsel->cgroup;
}
