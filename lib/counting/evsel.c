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
#include <linux/capability.h>
#include <lupe/evsel.h>
#include "counting/evsel.h"
#include "util/util.h"

/*
 * perf_event_paranoid 2 (the distributions' default) forbids the kernel to
 * users without CAP_PERFMON: perf then counts and samples user space only
 * (evsel__fallback) and so do we, here, so that every command that opens
 * events inherits it. Said once per process. A CPU-wide event (pid -1)
 * stays refused: user space only does not lift that.
 */
static int user_space_fallback(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	struct perf_event_attr retry = *attr;
	int level = lupe_perf_event_paranoid();
	long fd;

	if (attr->exclude_kernel || attr->exclude_user || level < 2)
		return -EACCES;
	retry.exclude_kernel = retry.exclude_hv = 1;
	fd = syscall(__NR_perf_event_open, &retry, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno; /* refused again, or the real answer: no such event here */
	*attr = retry;
	lupe_say_user_only();
	return (int)fd;
}

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
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		int err = errno, ufd = user_space_fallback(attr, pid, cpu, group_fd, flags);

		if (ufd >= 0 || (ufd != -EACCES && ufd != -EPERM))
			return ufd;
		errno = err;
	}
	return fd < 0 ? -errno : (int)fd;
}

/* The one notice that the kernel is left out, said once per process. */
void lupe_say_user_only(void)
{
	static int said;

	if (!said++)
		pr_warn("kernel.perf_event_paranoid is %d: counting user space only "
			"(root, CAP_PERFMON or 'sysctl kernel.perf_event_paranoid=1' count the kernel too)",
			lupe_perf_event_paranoid());
}

/*
 * perf's perf_event_can_profile_kernel(): paranoid <= 1, or CAP_SYS_ADMIN
 * or CAP_PERFMON in the effective set (read from the kernel, not guessed
 * from the uid).
 */
int lupe_can_profile_kernel(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };
	const int sys_admin = 21, perfmon = 38;

	if (lupe_perf_event_paranoid() <= 1)
		return 1;
	if (syscall(SYS_capget, &hdr, data))
		return geteuid() == 0;
	return !!(data[sys_admin / 32].effective & (1u << (sys_admin % 32))) ||
	       !!(data[perfmon / 32].effective & (1u << (perfmon % 32)));
}

char *lupe_evsel_name_user_only(const char *name)
{
	const char *sep = strchr(name, ':') || strchr(name, '/') ? "" : ":";
	char *n;

	if (asprintf(&n, "%s%su", name, sep) < 0)
		return err_ptr(-ENOMEM);
	return n;
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

/* The real uid of process pid; 0 or -1 when it cannot be read. */
static int process_owner(pid_t pid, uid_t *uid)
{
	char path[64], buf[4096], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (lupe_read_small_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "\nUid:");
	if (!p)
		return -1;
	*uid = (uid_t)strtoul(p + 5, NULL, 10);
	return 0;
}

/*
 * Whether the kernel lets this process count its own user space: at
 * perf_event_paranoid 3 an upstream kernel still does (3 means 2 there),
 * a kernel with Debian's patch refuses every event to a user without
 * CAP_PERFMON. Asked of the kernel, not guessed from the level.
 */
static int user_space_allowed(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1,
	};
	long fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return 0;
	close((int)fd);
	return 1;
}

static void denied(char *buf, size_t size, const struct perf_event_attr *attr,
		   const char *name, int cpu, pid_t pid)
{
	int level = lupe_perf_event_paranoid(), want, user_only = 0;
	const char *why;
	uid_t owner;

	if (pid > 0 && geteuid() && !process_owner(pid, &owner) && owner != geteuid()) {
		/* the kernel's ptrace check: no level of paranoia lets us into it */
		snprintf(buf, size,
			 "cannot open '%s': permission denied: process %d belongs to another user (uid %u) "
			 "and lupe may not trace it; run as root or as that user, or give lupe CAP_PERFMON "
			 "and CAP_SYS_PTRACE", name, (int)pid, (unsigned)owner);
		return;
	}
	if (pid == -1 && level > 0) {
		/* a CPU-wide event needs <= 0 even for user space only */
		why = "counting a whole CPU needs perf_event_paranoid <= 0";
		want = 0;
	} else if (level > 2 && !user_space_allowed()) {
		/* a Debian-style level 3: this kernel refuses every event */
		why = "this kernel lets only CAP_PERFMON use perf events at this level";
		want = 2;
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
