// SPDX-License-Identifier: GPL-2.0
/*
 * Namespaces of other processes, for reading their files: the mount
 * namespace from /proc/PID/ns/mnt (compared with ours by device and inode,
 * as perf's nsinfo does), the files through /proc/PID/root (no setns(),
 * which perf needs CAP_SYS_ADMIN and a thread switch for; the magic link
 * works for whoever may ptrace-read the process), the innermost pid from
 * NSpid. Cost: two stat() per question; DSOs ask once each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lupe/symbols.h>
#include "symbols/build-id.h"
#include "symbols/nsinfo.h"
#include "symbols/symbols.h"
#include "util/util.h"

int lupe_ns_other_mnt(int pid)
{
	static struct stat self;
	static int have_self;
	char path[64];
	struct stat st;

	if (pid <= 0)
		return -EINVAL;
	if (!have_self) {
		if (stat("/proc/self/ns/mnt", &self))
			return -errno;
		have_self = 1;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	if (stat(path, &st))
		return -errno;
	return st.st_ino != self.st_ino || st.st_dev != self.st_dev;
}

const char *lupe_ns_path(int pid, const char *name, char *out, size_t size)
{
	if (name[0] != '/' || lupe_ns_other_mnt(pid) != 1)
		return name;
	if ((size_t)snprintf(out, size, "/proc/%d/root%s", pid, name) >= size)
		return name;
	return out;
}

int lupe_ns_pid(int pid)
{
	char path[64], line[256];
	int ns = pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (pid <= 0 || !(f = fopen(path, "re")))
		return pid;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + 6, *end;

		if (strncmp(line, "NSpid:", 6))
			continue;
		/* host pid first, the innermost namespace's last */
		for (long v; (v = strtol(p, &end, 10)), end != p; p = end)
			ns = (int)v;
		break;
	}
	fclose(f);
	return ns;
}

int lupe_ns_cached(const uint8_t *id, int len, char *out, size_t size)
{
	char hex[2 * BUILD_ID_MAX + 1];

	if (len <= 0 || len > BUILD_ID_MAX)
		return -ENOENT;
	lupe_build_id_hex(id, len, hex);
	if ((size_t)snprintf(out, size, "%s/.build-id/%.2s/%s/elf", lupe_buildid_dir(), hex, hex + 2) >= size)
		return -ENAMETOOLONG;
	return access(out, R_OK) ? -ENOENT : 0;
}

const char *lupe_ns_dso_path(const struct lupe_dso *dso, char *out, size_t size)
{
	const char *p = lupe_ns_path(dso->pid, dso->long_name, out, size);

	if (p != dso->long_name && !access(p, R_OK))
		return p;
	if (!access(dso->long_name, F_OK))
		return dso->long_name; /* (a build-id that differs sends the loader to the cache) */
	if (!lupe_ns_cached(dso->build_id, dso->build_id_size, out, size))
		return out;
	return dso->long_name;
}

const char *lupe_ns_perf_map(const struct lupe_dso *dso, char *out, size_t size)
{
	char name[64];
	int ns;

	if (dso->pid <= 0 || lupe_ns_other_mnt(dso->pid) != 1)
		return dso->long_name;
	ns = lupe_ns_pid(dso->pid);
	snprintf(name, sizeof(name), "/tmp/perf-%d.map", ns);
	if ((size_t)snprintf(out, size, "/proc/%d/root%s", dso->pid, name) >= size)
		return dso->long_name;
	return out;
}
