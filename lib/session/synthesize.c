// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesized COMM/FORK/MMAP2/MMAP records from /proc, laid out as the
 * kernel writes them so that one reader path serves both.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <lupe/cpumap.h>
#include <lupe/evlist.h>
#include "data/format.h"
#include "session/synthesize.h"
#include "util/util.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

/* Big enough for any record we build: a path plus the trailer. */
union synth_buf {
	struct perf_event_header h;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	char bytes[PATH_MAX + 512];
};

static int emit(const struct synth *s, union synth_buf *b, size_t body)
{
	/* The trailer is zero: time 0 sorts synthesized state first. */
	memset(b->bytes + body, 0, s->id_hdr_size);
	b->h.size = (uint16_t)(body + s->id_hdr_size);
	return s->fn(&b->h, s->arg);
}

int lupe_synth_comm(const struct synth *s, pid_t pid, pid_t tid, const char *comm)
{
	union synth_buf b;
	size_t n = strnlen(comm, 16);

	memset(&b.comm, 0, sizeof(b.comm));
	b.comm.header.type = PERF_RECORD_COMM;
	b.comm.pid = pid;
	b.comm.tid = tid;
	memset(b.comm.comm, 0, ALIGN8(n + 1));
	memcpy(b.comm.comm, comm, n);
	return emit(s, &b, sizeof(b.comm) + ALIGN8(n + 1));
}

/*
 * A thread that existed before the recording, as perf writes it system-wide:
 * a leader forked from its parent process, every other thread from its
 * leader, marked FORK_EXEC (synthesized, not seen).
 */
static int synth_fork(const struct synth *s, pid_t tgid, pid_t tid, pid_t ppid)
{
	union synth_buf b;

	memset(&b.fork, 0, sizeof(b.fork));
	b.fork.header.type = PERF_RECORD_FORK;
	b.fork.header.misc = PERF_RECORD_MISC_FORK_EXEC;
	b.fork.pid = tgid;
	b.fork.tid = tid;
	b.fork.ppid = b.fork.ptid = tid == tgid ? ppid : tgid;
	return emit(s, &b, sizeof(b.fork));
}

static pid_t status_field(const char *st, const char *key, pid_t dflt)
{
	const char *p = strstr(st, key);

	return p ? (pid_t)strtol(p + strlen(key), NULL, 10) : dflt;
}

/* "Name:", "Tgid:" and "PPid:" of /proc/PID/task/TID/status. */
static int thread_status(pid_t pid, pid_t tid, char *comm, size_t size, pid_t *tgid, pid_t *ppid)
{
	char path[64], *st, *p;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	st = lupe_read_whole_file(path, NULL);
	if (!st)
		return -ESRCH;
	comm[0] = '\0';
	p = strstr(st, "Name:");
	if (p) {
		size_t n = 0;

		for (p += 5; *p == '\t' || *p == ' '; p++)
			;
		while (p[n] && p[n] != '\n' && n + 1 < size)
			n++;
		memcpy(comm, p, n);
		comm[n] = '\0';
	}
	*tgid = status_field(st, "\nTgid:", pid);
	*ppid = status_field(st, "\nPPid:", 0);
	free(st);
	return 0;
}

/* MMAP2 for each executable map in /proc/PID/maps; kernel threads have none. */
static int synth_maps(const struct synth *s, pid_t pid)
{
	char path[64], *maps, *line, *save = NULL;
	union synth_buf b;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/maps", pid, pid);
	maps = lupe_read_whole_file(path, NULL);
	if (!maps)
		return errno == ENOENT ? -ESRCH : 0;
	for (line = strtok_r(maps, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perm[5];
		int name_at = 0;
		const char *name;
		size_t n;

		if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perm, &pgoff,
			   &maj, &min, &ino, &name_at) < 7)
			continue;
		if (perm[2] != 'x' && !s->data_maps)
			continue;
		name = name_at ? line + name_at : "";
		if (!*name)
			name = "//anon";
		n = strlen(name) + 1;
		if (n > PATH_MAX)
			continue;
		memset(&b.mmap2, 0, sizeof(b.mmap2));
		b.mmap2.header.type = PERF_RECORD_MMAP2;
		b.mmap2.header.misc = PERF_RECORD_MISC_USER;
		b.mmap2.pid = pid;
		b.mmap2.tid = pid;
		b.mmap2.start = start;
		b.mmap2.len = end - start;
		b.mmap2.pgoff = pgoff;
		b.mmap2.maj = maj;
		b.mmap2.min = min;
		b.mmap2.ino = ino;
		b.mmap2.prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
			       (perm[2] == 'x' ? PROT_EXEC : 0);
		b.mmap2.flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		memset(b.mmap2.filename, 0, ALIGN8(n));
		memcpy(b.mmap2.filename, name, n);
		err = emit(s, &b, sizeof(b.mmap2) + ALIGN8(n));
	}
	free(maps);
	return err;
}

/* tid's COMM under its process's tgid, as perf writes it; the tgid to *tgid_out if given. */
static int synth_comm_of(const struct synth *s, pid_t pid, pid_t tid, pid_t *tgid_out)
{
	char comm[64];
	pid_t tgid, ppid;
	int err = thread_status(pid, tid, comm, sizeof(comm), &tgid, &ppid);

	if (!err)
		err = lupe_synth_comm(s, tgid, tid, comm);
	if (!err && s->namespaces)
		err = lupe_synth_namespaces(s, tgid, tid);
	if (!err && tgid_out)
		*tgid_out = tgid;
	return err;
}

/*
 * Each task of pid in /proc's order: FORK, COMM, and the maps after the
 * leader's, as perf synthesizes a system-wide recording.
 */
int lupe_synth_process(const struct synth *s, pid_t pid)
{
	char path[64], comm[64];
	struct dirent *de;
	DIR *d;
	int err = 0, found = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while (!err && (de = readdir(d))) {
		pid_t tid = (pid_t)strtol(de->d_name, NULL, 10), tgid, ppid;

		if (tid <= 0 || thread_status(pid, tid, comm, sizeof(comm), &tgid, &ppid))
			continue; /* gone meanwhile */
		found = 1;
		err = synth_fork(s, tgid, tid, ppid);
		if (!err && s->namespaces)
			err = lupe_synth_namespaces(s, tgid, tid);
		if (!err)
			err = lupe_synth_comm(s, tgid, tid, comm);
		if (!err && tid == pid && (err = synth_maps(s, pid)) == -ESRCH)
			err = 0;
	}
	closedir(d);
	return err ? err : found ? 0 : -ESRCH;
}

static int in_map(const struct lupe_thread_map *threads, pid_t pid)
{
	for (int i = 0; i < lupe_thread_map_nr(threads); i++)
		if (lupe_thread_map_pid(threads, i) == pid)
			return 1;
	return 0;
}

int lupe_synth_thread_map(const struct synth *s, const struct lupe_thread_map *threads)
{
	int err = 0;

	for (int i = 0; i < lupe_thread_map_nr(threads) && !err; i++) {
		pid_t tid = lupe_thread_map_pid(threads, i), tgid;

		err = synth_comm_of(s, tid, tid, &tgid);
		if (err == -ESRCH) {
			err = 0; /* exited meanwhile */
			continue;
		}
		if (!err && tid == tgid)
			err = synth_maps(s, tgid);
		/* a thread whose leader is not recorded: the leader too, for its maps */
		if (!err && tid != tgid && !in_map(threads, tgid) &&
		    !(err = synth_comm_of(s, tgid, tgid, NULL)))
			err = synth_maps(s, tgid);
		if (err == -ESRCH)
			err = 0;
	}
	return err;
}

int lupe_synth_all(const struct synth *s)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		pid_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (pid_t)strtol(de->d_name, NULL, 10);
		err = lupe_synth_process(s, pid);
		if (err == -ESRCH)
			err = 0; /* it exited while we looked */
	}
	closedir(d);
	return err;
}

/*
 * The kernel text: "Kernel code" in /proc/iomem spans _text.._etext in
 * physical addresses, which gives the length without reading all of
 * /proc/kallsyms (60 ms here); the virtual start is _text, near its top.
 */
static int kernel_text(uint64_t *start, uint64_t *len)
{
	char line[256];
	FILE *f = fopen("/proc/kallsyms", "re");
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[128];

		if (sscanf(line, "%llx %c %127s", &a, &t, name) == 3 &&
		    (!strcmp(name, "_text") || !strcmp(name, "_stext")) && a) {
			*start = a;
			found = 1;
		}
	}
	if (!found) {
		fclose(f);
		return -EPERM; /* kptr_restrict shows zeros */
	}
	*len = 0;
	{
		char *iomem = lupe_read_whole_file("/proc/iomem", NULL), *p;

		p = iomem ? strstr(iomem, " : Kernel code") : NULL;
		if (p) {
			unsigned long long lo, hi;

			while (p > iomem && p[-1] != '\n')
				p--;
			if (sscanf(p, " %llx-%llx", &lo, &hi) == 2 && hi > lo && lo)
				*len = hi + 1 - lo;
		}
		free(iomem);
	}
	/* Without iomem (not root): scan on for _etext. */
	while (!*len && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[128];

		if (sscanf(line, "%llx %c %127s", &a, &t, name) == 3 && !strcmp(name, "_etext"))
			*len = a - *start;
	}
	fclose(f);
	if (!*len)
		*len = ~0ULL - *start;
	return 0;
}

static int synth_kmap(const struct synth *s, uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *name)
{
	union synth_buf b;
	size_t n = strlen(name) + 1;

	if (n > PATH_MAX)
		return -ENAMETOOLONG;
	memset(&b.mmap, 0, sizeof(b.mmap));
	b.mmap.header.type = PERF_RECORD_MMAP;
	b.mmap.header.misc = PERF_RECORD_MISC_KERNEL;
	b.mmap.pid = (uint32_t)-1;
	b.mmap.tid = 0;
	b.mmap.start = start;
	b.mmap.len = len;
	b.mmap.pgoff = pgoff;
	memset(b.mmap.filename, 0, ALIGN8(n));
	memcpy(b.mmap.filename, name, n);
	return emit(s, &b, sizeof(b.mmap) + ALIGN8(n));
}

int lupe_synth_kernel(const struct synth *s)
{
	uint64_t start = 0, len = 0;
	char *mods, *line, *save = NULL;
	int err = kernel_text(&start, &len);

	if (err)
		return err;
	err = synth_kmap(s, start, len, start, "[kernel.kallsyms]_text");
	if (err)
		return err;
	/*
	 * NEEDSWORK: perf names a module map by its .ko path (from
	 * /lib/modules); "[name]" still resolves through /proc/kallsyms.
	 */
	mods = lupe_read_whole_file("/proc/modules", NULL);
	for (line = mods ? strtok_r(mods, "\n", &save) : NULL; line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128], bracket[132];
		unsigned long long size, addr;

		if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 || !addr)
			continue;
		snprintf(bracket, sizeof(bracket), "[%s]", name);
		err = synth_kmap(s, addr, size, 0, bracket);
	}
	free(mods);
	return err;
}

/*
 * The cgroups that exist, as perf --all-cgroups writes them before the
 * samples: a CGROUP record (id, path under the root, "/" for the root) for
 * each folder of the hierarchy perf's -G uses. The id is the folder's
 * file handle (the kernel's cgroup id on cgroup2), as the samples carry it.
 */
struct cgroup_walk {
	const struct synth *s;
	char path[PATH_MAX];
	size_t root_len;
	int err;
};

static int synth_one_cgroup(struct cgroup_walk *w)
{
	union synth_buf b;
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	const char *name = w->path[w->root_len] ? w->path + w->root_len : "/";
	size_t n = strlen(name), body;
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, w->path, &h.fh, &mount_id, 0))
		return 0; /* (gone meanwhile, or no handles on this file system) */
	body = 16 + ALIGN8(n + 1);
	if (body + w->s->id_hdr_size > sizeof(b))
		return 0;
	memset(&b, 0, body);
	b.h.type = PERF_RECORD_CGROUP;
	memcpy(b.bytes + 8, &h.id, 8);
	memcpy(b.bytes + 16, name, n);
	return emit(w->s, &b, body);
}

static void walk_cgroups(struct cgroup_walk *w)
{
	size_t len = strlen(w->path);
	struct dirent *e;
	DIR *d;

	if ((w->err = synth_one_cgroup(w)) || !(d = opendir(w->path)))
		return;
	while (!w->err && (e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(w->path + len, sizeof(w->path) - len, "/%s", e->d_name) >=
		    sizeof(w->path) - len)
			continue;
		walk_cgroups(w);
		w->path[len] = 0;
	}
	closedir(d);
}

int lupe_synth_cgroups(const struct synth *s)
{
	struct cgroup_walk w = { .s = s };

	if (lupe_cgroup_root(w.path, sizeof(w.path)))
		return 0; /* no hierarchy: every sample's cgroup is unknown, as with perf */
	w.root_len = strlen(w.path);
	walk_cgroups(&w);
	return w.err;
}

/* perf's order of the namespaces in a NAMESPACES record. */
static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

int lupe_synth_namespaces(const struct synth *s, pid_t pid, pid_t tid)
{
	union synth_buf b;
	size_t nr = ARRAY_SIZE(ns_names), body = 24 + nr * 16;
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)tid };

	memset(&b, 0, body);
	b.h.type = PERF_RECORD_NAMESPACES;
	memcpy(b.bytes + 8, ids, 8);
	memcpy(b.bytes + 16, &(uint64_t){ nr }, 8);
	for (size_t i = 0; i < nr; i++) {
		char path[96];
		struct stat st;
		uint64_t link[2] = { 0, 0 };

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", (int)pid, (int)tid, ns_names[i]);
		if (!stat(path, &st)) {
			link[0] = st.st_dev;
			link[1] = st.st_ino;
		}
		memcpy(b.bytes + 24 + i * 16, link, 16);
	}
	return emit(s, &b, body);
}
