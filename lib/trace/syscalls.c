// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall names and argument descriptions. Numbers and names come from the
 * C library's <sys/syscall.h> at build time; argument names and types from
 * each syscall's tracefs format (events/syscalls/sys_enter_NAME/format),
 * read once per syscall when it is first seen, so a trace of ten distinct
 * calls reads ten small files. A kind per argument (fd, path, flags...)
 * is then chosen from its name, type and syscall: that choice also tells
 * the BPF program what memory to copy.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/events.h>
#include "trace/internal.h"
#include "util/util.h"

static const char *const names[LUPE_SC_MAX] = {
#define SC(name, nr) [nr] = #name,
#include "syscalltbl.h"
#undef SC
};

static struct sc_info infos[LUPE_SC_MAX];

const char *lupe_syscall_name(long nr)
{
	return nr >= 0 && nr < LUPE_SC_MAX ? names[nr] : NULL;
}

long lupe_syscall_nr(const char *name)
{
	for (long i = 0; i < LUPE_SC_MAX; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return -1;
}

static bool is(const char *a, const char *b)
{
	return !strcmp(a, b);
}

static bool one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (is(s, *list))
			return true;
	return false;
}

/* Whether word is one of the space-separated words of list. */
static bool in_words(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; n && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/*
 * Arguments that are not pointers, known by their name: in the syscalls
 * calls names (NULL: in any), the first row that matches decides.
 */
static const struct {
	const char *names, *calls;
	enum sc_kind kind;
} by_name[] = {
	{ "fd oldfd newfd fd_in fd_out out_fd in_fd epfd", NULL, K_FD },
	{ "dfd olddfd newdfd dirfd", NULL, K_DIRFD },
	{ "flags", "openat open openat2", K_OPEN_FLAGS },
	{ "mode", "openat open creat mkdir mkdirat chmod fchmod fchmodat mknod mknodat", K_OCT },
	{ "mode", "access faccessat faccessat2", K_ACCESS },
	{ "prot", NULL, K_PROT },
	{ "flags", "mmap", K_MAP_FLAGS },
	{ "flag flags", "newfstatat fstatat unlinkat faccessat2 statx fchownat linkat utimensat "
	  "execveat name_to_handle_at fchmodat2", K_AT_FLAGS },
	{ "behavior", "madvise", K_MADVISE },
	{ "family", "socket socketpair", K_SOCK_FAMILY },
	{ "type", "socket socketpair", K_SOCK_TYPE },
	{ "protocol", "socket socketpair", K_SOCK_PROTO },
	{ "options", "wait4 waitid", K_WAIT_OPTIONS },
	{ "how", "rt_sigprocmask", K_SIGHOW },
	{ "cmd", "fcntl", K_FCNTL_CMD },
	{ "cmd", "ioctl", K_IOCTL_CMD },
	{ "op", "futex", K_FUTEX_OP },
	{ "rseq_len sig", "rseq", K_HEX },
	{ "sig signum", NULL, K_SIGNAL },
	{ "clone_flags", NULL, K_CLONE_FLAGS },
	{ "whence origin", NULL, K_WHENCE },
	{ "resource", "prlimit64 getrlimit setrlimit", K_RESOURCE },
	{ "advice", "fadvise64", K_ADVICE },
	{ "flags", "getrandom", K_GRND },
	{ "option", "arch_prctl", K_ARCH_PRCTL },
};

/* The kind of argument i named name of type type in syscall sc. */
static enum sc_kind arg_kind(const char *sc, const char *type, const char *name)
{
	static const char *const paths[] = { "filename", "pathname", "path", "oldname",
		"newname", "specialfile", "library", "dir_name", "oldpath", "newpath",
		"old_pathname", "new_pathname", "uservalue", NULL };
	static const char *const lens[] = { "count", "len", "size", "bufsiz", "nbytes",
		"length", NULL };
	bool ptr = strchr(type, '*') != NULL;

	if (ptr && (is(type, "struct stat *") || is(type, "struct stat __user *")))
		return K_STAT;
	if (ptr && strstr(type, "sigset_t") && (is(name, "nset") || is(name, "set")) &&
	    is(sc, "rt_sigprocmask"))
		return K_SIGSET_IN;
	if (ptr && strstr(type, "sigset_t") && is(name, "oset"))
		return K_SIGSET_OUT;
	if (ptr && strstr(type, "struct sockaddr") && (is(sc, "connect") || is(sc, "bind") ||
						       is(sc, "sendto")))
		return K_SOCKADDR;
	if (ptr && is(name, "fildes") && !strncmp(sc, "pipe", 4))
		return K_PIPEFDS;
	if (ptr && is(name, "stat_addr"))
		return K_WSTATUS;
	if (ptr && strstr(type, "struct sigaction"))
		return strncmp(type, "const", 5) ? K_SIGACTION_OUT : K_SIGACTION_IN;
	if (ptr && strstr(type, "struct rlimit"))
		return strncmp(type, "const", 5) ? K_RLIMIT_OUT : K_RLIMIT_IN;
	if (ptr && (is(name, "argv") || is(name, "envp")) && !strncmp(sc, "execve", 6))
		return is(name, "argv") ? K_ARGV : K_ENVP;
	/* other arrays of strings are not read (shown as pointers) */
	if (ptr && strchr(type, '*') != strrchr(type, '*'))
		return K_PTR;

	if (ptr && strstr(type, "char") && one_of(name, paths))
		return K_PATH;
	if (ptr && (is(name, "buf") || is(name, "ubuf") || is(name, "buff"))) {
		if (is(sc, "sendto") || is(sc, "send") || !strncmp(type, "const", 5))
			return K_BUF_IN;
		return K_BUF_OUT;
	}
	if (ptr && strstr(type, "char") && !strncmp(type, "const", 5))
		return K_STR;
	if (ptr)
		return K_PTR;
	for (size_t i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++)
		if (in_words(by_name[i].names, name) &&
		    (!by_name[i].calls || in_words(by_name[i].calls, sc)))
			return by_name[i].kind;
	if (one_of(name, lens) || strstr(type, "size_t"))
		return strstr(type, "ssize_t") || strstr(type, "loff_t") ? K_INT : K_UINT;
	if (is(name, "addr") || is(name, "brk") || is(name, "start") || is(name, "arg2") ||
	    is(name, "new_addr") || is(name, "old_addr"))
		return K_HEX;
	if (is(name, "off") || is(name, "pgoff"))
		return is(sc, "mmap") ? K_HEX : K_INT;
	if (!strncmp(type, "unsigned", 8) || strstr(type, "u32") || strstr(type, "u64") ||
	    is(type, "umode_t") || is(type, "uid_t") || is(type, "gid_t") || is(type, "key_t") ||
	    is(type, "size_t") || is(type, "qid_t") || is(type, "aio_context_t"))
		return is(type, "unsigned long") ? K_HEX : K_UINT;
	return K_INT;
}

/* Fill info from a format file's "field:TYPE NAME;" lines after __syscall_nr. */
static void parse_format(struct sc_info *info, char *text)
{
	bool after_nr = false;

	info->nargs = 0;
	for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f = strstr(line, "field:"), *semi, *name;
		struct sc_arg *a;

		if (!f)
			continue;
		f += 6;
		semi = strchr(f, ';');
		if (!semi)
			continue;
		*semi = '\0';
		if (strstr(f, "__syscall_nr")) {
			after_nr = true;
			continue;
		}
		if (!after_nr || info->nargs >= 6)
			continue;
		name = strrchr(f, ' ');
		if (!name)
			continue;
		*name++ = '\0';
		while (*name == '*')
			name++;
		a = &info->args[info->nargs++];
		snprintf(a->name, sizeof(a->name), "%s", name);
		a->kind = arg_kind(info->name, f, name);
		a->lenarg = -1;
		a->is32 = is(f, "int") || is(f, "unsigned int") || is(f, "pid_t") ||
			  is(f, "uid_t") || is(f, "gid_t") || is(f, "umode_t") ||
			  is(f, "u32") || is(f, "__u32") || is(f, "key_t") ||
			  is(f, "clockid_t") || is(f, "mqd_t") || is(f, "timer_t");
	}
	/* a buffer's length is the next argument */
	for (int i = 0; i < info->nargs; i++) {
		if (info->args[i].kind == K_BUF_IN && i + 1 < info->nargs)
			info->args[i].lenarg = i + 1;
		if (info->args[i].kind == K_BUF_OUT)
			info->has_output = true;
	}
	/* a sockaddr in is a struct read at entry, its length next */
	for (int i = 0; i + 1 < info->nargs; i++)
		if (info->args[i].kind == K_SOCKADDR)
			info->args[i].lenarg = i + 1;
}

const struct sc_info *lupe_sc_info(long nr)
{
	struct sc_info *info = &infos[nr];
	const char *tracefs;
	char path[PATH_MAX], *text = NULL;

	if (info->loaded)
		return info;
	info->loaded = true;
	info->name = names[nr];
	info->nargs = -1;
	if (!info->name)
		return info;
	tracefs = lupe_tracefs_dir();
	if (!tracefs)
		return info;
	/* tracefs names some calls after their kernel functions */
	for (int i = 0; i < 3; i++) {
		static const char *const alias[][2] = {
			{ "umount2", "umount" }, { "sendfile", "sendfile64" }, { "uname", "newuname" },
		};
		const char *tp = info->name;

		if (i == 1) {
			tp = NULL;
			for (size_t k = 0; k < ARRAY_SIZE(alias); k++)
				if (is(alias[k][0], info->name))
					tp = alias[k][1];
			if (!tp)
				continue;
		}
		snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s%s/format", tracefs,
			 i == 2 ? "new" : "", tp);
		text = lupe_read_whole_file(path, NULL);
		if (text)
			break;
	}
	if (!text) {
		pr_debug("no tracefs format for syscall '%s'", info->name);
		return info;
	}
	parse_format(info, text);
	free(text);
	return info;
}

int lupe_syscall_output_arg(long nr)
{
	const struct sc_info *info;

	if (nr < 0 || nr >= LUPE_SC_MAX)
		return -1;
	info = lupe_sc_info(nr);
	for (int i = 0; i < info->nargs; i++)
	{
		bool out = false;

		if (info->args[i].kind == K_BUF_OUT ||
		    (sc_kind_struct(info->args[i].kind, &out) && out))
			return i;
	}
	return -1;
}

int lupe_syscall_set_parse(const char *spec, bool *set, const char **bad, size_t *badlen)
{
	const char *p = spec;
	bool first = true;

	while (*p) {
		size_t len = strcspn(p, ",");
		bool neg = *p == '!', any = false;
		char word[64];

		if (neg && first)
			for (int i = 0; i < LUPE_SC_MAX; i++)
				set[i] = names[i] != NULL;
		first = false;
		snprintf(word, sizeof(word), "%.*s", (int)(len - neg), p + neg);
		for (int i = 0; i < LUPE_SC_MAX; i++) {
			if (names[i] && !fnmatch(word, names[i], 0)) {
				set[i] = !neg;
				any = true;
			}
		}
		if (!any) {
			*bad = p + neg;
			*badlen = len - neg;
			return -ENOENT;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}
