// SPDX-License-Identifier: GPL-2.0
/*
 * Opening one perf event, and the reasons a refusal can have. Both stat and
 * record go through here so that every command explains a refusal the same
 * way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <lupe/evsel.h>
#include "util/util.h"

int lupe_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags)
{
	long fd;

	if (!attr->size)
		attr->size = sizeof(*attr);
	fd = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd,
		     flags | PERF_FLAG_FD_CLOEXEC);
	/*
	 * Events start with exclude_guest set, as perf's do, but some PMUs
	 * (msr here) refuse guest/host filtering with EINVAL. perf retries
	 * without it; so do we, and the attr keeps the change so that later
	 * opens of the same event and the attrs written to perf.data agree.
	 */
	if (fd < 0 && errno == EINVAL && (attr->exclude_guest || attr->exclude_host)) {
		struct perf_event_attr retry = *attr;

		retry.exclude_guest = retry.exclude_host = 0;
		fd = syscall(__NR_perf_event_open, &retry, pid, cpu, group_fd,
			     flags | PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			*attr = retry;
		else
			errno = EINVAL;
	}
	return fd < 0 ? -errno : (int)fd;
}

enum lupe_open_verdict lupe_open_verdict(int err)
{
	switch (-err) {
	/*
	 * perf stat's list: the kernel has no such event type or config
	 * (ENOENT: no hardware PMU), or the PMU cannot do what the attr asks.
	 */
	case EINVAL:
	case ENOSYS:
	case ENOENT:
	case EOPNOTSUPP:
	case ENXIO:
	case ENODEV:
		return LUPE_OPEN_UNSUPPORTED;
	case EACCES:
	case EPERM:
		return LUPE_OPEN_DENIED;
	default:
		return LUPE_OPEN_FATAL;
	}
}

int lupe_perf_event_paranoid(void)
{
	char buf[32];

	if (lupe_read_small_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) <= 0)
		return 2;
	return atoi(buf);
}

static void denied(char *buf, size_t size, const struct perf_event_attr *attr,
		   const char *name, int cpu, pid_t pid)
{
	int level = lupe_perf_event_paranoid(), want, user_only = 0;
	const char *why;

	if (pid == -1 && level > 0) {
		/* a CPU-wide event needs <= 0 even for user space only */
		why = "counting a whole CPU needs perf_event_paranoid <= 0";
		want = 0;
	} else if (level > 2) {
		why = "this kernel lets only CAP_PERFMON use perf events";
		want = 2;
		user_only = !attr->exclude_kernel;
	} else if (!attr->exclude_kernel && level > 1) {
		why = "counting the kernel needs perf_event_paranoid <= 1";
		want = 1;
		user_only = 1;
	} else {
		why = "the kernel refused it";
		want = level > 0 ? level - 1 : -1;
	}
	/* name:u only makes sense for a name without modifiers */
	if (strchr(name, ':'))
		user_only = 0;
	snprintf(buf, size,
		 "cannot open '%s': permission denied: %s (perf_event_paranoid is %d); "
		 "run with CAP_PERFMON or lower it with 'sysctl kernel.perf_event_paranoid=%d'%s%s%s",
		 name, why, level, want,
		 user_only ? ", or count user space only with '" : "",
		 user_only ? name : "", user_only ? ":u'" : "");
}

char *lupe_open_strerror(int err, const struct perf_event_attr *attr, const char *name,
			 int cpu, pid_t pid, char *buf, size_t size)
{
	switch (lupe_open_verdict(err)) {
	case LUPE_OPEN_DENIED:
		denied(buf, size, attr, name, cpu, pid);
		return buf;
	case LUPE_OPEN_UNSUPPORTED:
		if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE)
			snprintf(buf, size, "cannot open '%s': no hardware PMU on this machine "
				 "(try a software event such as -e task-clock)", name);
		else
			snprintf(buf, size, "cannot open '%s': not supported on this machine (%s)",
				 name, strerror(-err));
		return buf;
	case LUPE_OPEN_FATAL:
		break;
	}
	switch (-err) {
	case ESRCH:
		snprintf(buf, size, "cannot open '%s': no process %d (it may have exited)",
			 name, (int)pid);
		break;
	case EMFILE:
		snprintf(buf, size, "cannot open '%s': too many open files "
			 "(raise the limit with 'ulimit -n' or count fewer events)", name);
		break;
	case EBUSY:
		snprintf(buf, size, "cannot open '%s': the PMU is in use by another program",
			 name);
		break;
	default:
		if (cpu >= 0)
			snprintf(buf, size, "cannot open '%s' on CPU %d: %s", name, cpu,
				 strerror(-err));
		else
			snprintf(buf, size, "cannot open '%s': %s", name, strerror(-err));
	}
	return buf;
}
