// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall arguments and return values as strace prints them: flags as
 * names joined by '|', unknown bits in hex, strings quoted with C escapes
 * (octal for other bytes, three digits when a digit follows), errors as
 * "-1 ENAME (message)". Tables here hold what a user most often reads; an
 * unknown value falls back to a number, never to a wrong name.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include "trace/internal.h"
#include "util/util.h"

struct sbuf {
	char *p;
	size_t size, len;
};

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->len < b->size ? b->p + b->len : NULL,
		      b->len < b->size ? b->size - b->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += n;
}

static void putc_(struct sbuf *b, char c)
{
	if (b->len + 1 < b->size) {
		b->p[b->len] = c;
		b->p[b->len + 1] = '\0';
	}
	b->len++;
}

struct flag {
	unsigned long val;
	const char *name;
};

#define F(x) { x, #x }
/* in strace's order */
static const struct flag open_flags[] = {
	F(O_CREAT), F(O_EXCL), F(O_NOCTTY), F(O_TRUNC), F(O_APPEND), F(O_NONBLOCK),
	/* O_LARGEFILE is 0 in x86-64's <fcntl.h>; the kernel's is 0100000 (F_GETFL shows it) */
	F(O_SYNC), F(O_DSYNC), F(O_ASYNC), F(O_DIRECT), { 0100000, "O_LARGEFILE" }, F(O_NOFOLLOW),
	F(O_NOATIME), F(O_CLOEXEC), F(O_TMPFILE), F(O_DIRECTORY), F(O_PATH), { 0 },
};
static const struct flag sa_flags[] = {
	{ 0x04000000, "SA_RESTORER" }, { 0x08000000, "SA_ONSTACK" }, { 0x10000000, "SA_RESTART" },
	{ 0x40000000, "SA_NODEFER" }, { 0x80000000, "SA_RESETHAND" }, { 4, "SA_SIGINFO" },
	{ 1, "SA_NOCLDSTOP" }, { 2, "SA_NOCLDWAIT" }, { 0 },
};
static const struct flag sig_hows[] = {
	{ 0, "SIG_BLOCK" }, { 1, "SIG_UNBLOCK" }, { 2, "SIG_SETMASK" }, { 0 },
};
static const struct flag fcntl_cmds[] = {
	{ 0, "F_DUPFD" }, { 1, "F_GETFD" }, { 2, "F_SETFD" }, { 3, "F_GETFL" }, { 4, "F_SETFL" },
	{ 5, "F_GETLK" }, { 6, "F_SETLK" }, { 7, "F_SETLKW" }, { 8, "F_SETOWN" }, { 9, "F_GETOWN" },
	{ 1024, "F_SETLEASE" }, { 1025, "F_GETLEASE" }, { 1030, "F_DUPFD_CLOEXEC" },
	{ 1031, "F_SETPIPE_SZ" }, { 1032, "F_GETPIPE_SZ" }, { 1033, "F_ADD_SEALS" },
	{ 1034, "F_GET_SEALS" }, { 0 },
};
static const struct flag ioctl_cmds[] = {
	{ 0x5401, "TCGETS" }, { 0x5402, "TCSETS" }, { 0x5403, "TCSETSW" }, { 0x5404, "TCSETSF" },
	{ 0x540f, "TIOCGPGRP" }, { 0x5410, "TIOCSPGRP" }, { 0x5413, "TIOCGWINSZ" },
	{ 0x5414, "TIOCSWINSZ" }, { 0x541b, "FIONREAD" }, { 0x5421, "FIONBIO" },
	{ 0x5450, "FIONCLEX" }, { 0x5451, "FIOCLEX" }, { 0 },
};
static const struct flag prot_flags[] = {
	{ 1, "PROT_READ" }, { 2, "PROT_WRITE" }, { 4, "PROT_EXEC" }, { 8, "PROT_SEM" },
	{ 0x01000000, "PROT_GROWSDOWN" }, { 0x02000000, "PROT_GROWSUP" }, { 0 },
};
static const struct flag map_flags[] = {
	{ 0x10, "MAP_FIXED" }, { 0x20, "MAP_ANONYMOUS" }, { 0x40, "MAP_32BIT" },
	{ 0x100, "MAP_GROWSDOWN" }, { 0x800, "MAP_DENYWRITE" }, { 0x1000, "MAP_EXECUTABLE" },
	{ 0x2000, "MAP_LOCKED" }, { 0x4000, "MAP_NORESERVE" }, { 0x8000, "MAP_POPULATE" },
	{ 0x10000, "MAP_NONBLOCK" }, { 0x20000, "MAP_STACK" }, { 0x40000, "MAP_HUGETLB" },
	{ 0x80000, "MAP_SYNC" }, { 0x100000, "MAP_FIXED_NOREPLACE" }, { 0 },
};
static const struct flag access_flags[] = {
	{ 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" }, { 0 },
};
static const struct flag at_flags[] = {
	{ 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_REMOVEDIR" }, { 0x400, "AT_SYMLINK_FOLLOW" },
	{ 0x800, "AT_NO_AUTOMOUNT" }, { 0x1000, "AT_EMPTY_PATH" }, { 0x2000, "AT_STATX_FORCE_SYNC" },
	{ 0x4000, "AT_STATX_DONT_SYNC" }, { 0x8000, "AT_RECURSIVE" }, { 0 },
};
static const struct flag clone_flags[] = {
	{ 0x100, "CLONE_VM" }, { 0x200, "CLONE_FS" }, { 0x400, "CLONE_FILES" },
	{ 0x800, "CLONE_SIGHAND" }, { 0x1000, "CLONE_PIDFD" }, { 0x2000, "CLONE_PTRACE" },
	{ 0x4000, "CLONE_VFORK" }, { 0x8000, "CLONE_PARENT" }, { 0x10000, "CLONE_THREAD" },
	{ 0x20000, "CLONE_NEWNS" }, { 0x40000, "CLONE_SYSVSEM" }, { 0x80000, "CLONE_SETTLS" },
	{ 0x100000, "CLONE_PARENT_SETTID" }, { 0x200000, "CLONE_CHILD_CLEARTID" },
	{ 0x400000, "CLONE_DETACHED" }, { 0x800000, "CLONE_UNTRACED" },
	{ 0x1000000, "CLONE_CHILD_SETTID" }, { 0x2000000, "CLONE_NEWCGROUP" },
	{ 0x4000000, "CLONE_NEWUTS" }, { 0x8000000, "CLONE_NEWIPC" }, { 0x10000000, "CLONE_NEWUSER" },
	{ 0x20000000, "CLONE_NEWPID" }, { 0x40000000, "CLONE_NEWNET" }, { 0x80000000, "CLONE_IO" },
	{ 0 },
};
static const struct flag grnd_flags[] = {
	{ 1, "GRND_NONBLOCK" }, { 2, "GRND_RANDOM" }, { 4, "GRND_INSECURE" }, { 0 },
};
/* values, not bits */
static const struct flag whences[] = {
	{ 0, "SEEK_SET" }, { 1, "SEEK_CUR" }, { 2, "SEEK_END" }, { 3, "SEEK_DATA" },
	{ 4, "SEEK_HOLE" }, { 0 },
};
static const struct flag resources[] = {
	{ 0, "RLIMIT_CPU" }, { 1, "RLIMIT_FSIZE" }, { 2, "RLIMIT_DATA" }, { 3, "RLIMIT_STACK" },
	{ 4, "RLIMIT_CORE" }, { 5, "RLIMIT_RSS" }, { 6, "RLIMIT_NPROC" }, { 7, "RLIMIT_NOFILE" },
	{ 8, "RLIMIT_MEMLOCK" }, { 9, "RLIMIT_AS" }, { 10, "RLIMIT_LOCKS" },
	{ 11, "RLIMIT_SIGPENDING" }, { 12, "RLIMIT_MSGQUEUE" }, { 13, "RLIMIT_NICE" },
	{ 14, "RLIMIT_RTPRIO" }, { 15, "RLIMIT_RTTIME" }, { 0 },
};
static const struct flag advices[] = {
	{ 0, "POSIX_FADV_NORMAL" }, { 1, "POSIX_FADV_RANDOM" }, { 2, "POSIX_FADV_SEQUENTIAL" },
	{ 3, "POSIX_FADV_WILLNEED" }, { 4, "POSIX_FADV_DONTNEED" }, { 5, "POSIX_FADV_NOREUSE" },
	{ 0 },
};
static const struct flag arch_prctls[] = {
	{ 0x1001, "ARCH_SET_GS" }, { 0x1002, "ARCH_SET_FS" }, { 0x1003, "ARCH_GET_FS" },
	{ 0x1004, "ARCH_GET_GS" }, { 0x1011, "ARCH_GET_CPUID" }, { 0x1012, "ARCH_SET_CPUID" },
	{ 0 },
};

static void put_bits(struct sbuf *b, const struct flag *t, unsigned long v, const char *zero)
{
	size_t start = b->len;

	for (; t->name; t++) {
		if (t->val && (v & t->val) == t->val) {
			put(b, "%s%s", b->len > start ? "|" : "", t->name);
			v &= ~t->val;
		}
	}
	if (v)
		put(b, "%s%#lx", b->len > start ? "|" : "", v);
	else if (b->len == start)
		put(b, "%s", zero);
}

/* A value from table t, or "0x.. / * PREFIX_??? * /" as strace shows an unknown one. */
static void put_value(struct sbuf *b, const struct flag *t, unsigned long v, const char *unknown)
{
	for (; t->name; t++) {
		if (t->val == v) {
			put(b, "%s", t->name);
			return;
		}
	}
	put(b, "%#lx /* %s??? */", v, unknown);
}

static void put_open_flags(struct sbuf *b, unsigned long uv)
{
	put(b, "%s", (uv & O_ACCMODE) == O_WRONLY ? "O_WRONLY" :
		     (uv & O_ACCMODE) == O_RDWR ? "O_RDWR" :
		     (uv & O_ACCMODE) == O_RDONLY ? "O_RDONLY" : "O_ACCMODE");
	uv &= ~(unsigned long)O_ACCMODE;
	if (uv) {
		putc_(b, '|');
		put_bits(b, open_flags, uv, "0");
	}
}

/*
 * A signal's name without "SIG" as strace spells it, into buf: IO where
 * glibc says POLL, RTMIN for 32, RT_2 for 34 (counted from the kernel's
 * RTMIN, not glibc's). NULL for 0 and numbers beyond 64.
 */
static const char *signal_name(long sig, char *buf, size_t size)
{
	if (sig == SIGIO)
		return "IO";
	if (sig > 0 && sig < 32)
		return sigabbrev_np(sig);
	if (sig == 32)
		return "RTMIN";
	if (sig > 32 && sig <= 64) {
		snprintf(buf, size, "RT_%ld", sig - 32);
		return buf;
	}
	return NULL;
}

/* A signal by strace's name after prefix ("SIG" alone, "" inside a set: INT, IO, RT_1), else its number. */
static void put_sig(struct sbuf *b, long sig, const char *prefix)
{
	char rt[16];
	const char *name = signal_name(sig, rt, sizeof(rt));

	if (name)
		put(b, "%s%s", prefix, name);
	else
		put(b, "%ld", sig);
}

static void put_signal(struct sbuf *b, long sig)
{
	put_sig(b, sig, "SIG");
}

int lupe_quote_string(const unsigned char *s, size_t len, bool truncated, char *buf, size_t size)
{
	struct sbuf b = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	putc_(&b, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		switch (c) {
		case '"': put(&b, "\\\""); continue;
		case '\\': put(&b, "\\\\"); continue;
		case '\t': put(&b, "\\t"); continue;
		case '\n': put(&b, "\\n"); continue;
		case '\v': put(&b, "\\v"); continue;
		case '\f': put(&b, "\\f"); continue;
		case '\r': put(&b, "\\r"); continue;
		}
		if (c >= ' ' && c < 0x7f) {
			putc_(&b, c);
		} else if (i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '7') {
			put(&b, "\\%03o", c);
		} else {
			put(&b, "\\%o", c);
		}
	}
	putc_(&b, '"');
	if (truncated)
		put(&b, "...");
	return b.len;
}

static void put_hex_string(struct sbuf *b, const unsigned char *s, size_t len, bool truncated)
{
	putc_(b, '"');
	for (size_t i = 0; i < len; i++)
		put(b, "\\x%02x", s[i]);
	putc_(b, '"');
	if (truncated)
		put(b, "...");
}

static const struct lupe_sc_buf *find_buf(const struct lupe_sc_event *ev, int arg)
{
	if (!ev)
		return NULL;
	for (int i = 0; i < ev->nbufs; i++)
		if (ev->bufs[i].arg == arg)
			return &ev->bufs[i];
	return NULL;
}

static void put_quoted(struct sbuf *b, const struct lupe_sc_buf *m, size_t max, bool hex)
{
	size_t n = m->len;
	bool trunc = m->truncated;

	if (n > max) {
		n = max;
		trunc = true;
	}
	if (hex) {
		put_hex_string(b, m->data, n, trunc);
		return;
	}
	if (b->len < b->size)
		b->len += lupe_quote_string(m->data, n, trunc, b->p + b->len, b->size - b->len);
	else
		b->len += lupe_quote_string(m->data, n, trunc, NULL, 0);
}

static void put_ptr(struct sbuf *b, __u64 v)
{
	if (v)
		put(b, "%#llx", (unsigned long long)v);
	else
		put(b, "NULL");
}


/* [INT TERM], or ~[KILL STOP] when more than half the signals are in */
static void put_sigset(struct sbuf *b, __u64 set)
{
	bool inv = __builtin_popcountll(set) > 32;
	int n = 0;

	if (inv)
		set = ~set;
	put(b, "%s[", inv ? "~" : "");
	for (int sig = 1; sig <= 64; sig++) {
		if (!(set & (1ULL << (sig - 1))))
			continue;
		if (n++)
			putc_(b, ' ');
		put_sig(b, sig, "");
	}
	putc_(b, ']');
}

static void put_sigaction(struct sbuf *b, const unsigned char *data)
{
	__u64 sa[4]; /* handler, flags, restorer, mask */

	memcpy(sa, data, sizeof(sa));
	put(b, "{sa_handler=");
	if (sa[0] == 0)
		put(b, "SIG_DFL");
	else if (sa[0] == 1)
		put(b, "SIG_IGN");
	else
		put(b, "%#llx", (unsigned long long)sa[0]);
	put(b, ", sa_mask=");
	put_sigset(b, sa[3]);
	put(b, ", sa_flags=");
	put_bits(b, sa_flags, sa[1], "0");
	if (sa[1] & 0x04000000)
		put(b, ", sa_restorer=%#llx", (unsigned long long)sa[2]);
	putc_(b, '}');
}

static const struct flag families[] = {
	{ AF_UNSPEC, "AF_UNSPEC" }, { AF_UNIX, "AF_UNIX" }, { AF_INET, "AF_INET" },
	{ AF_INET6, "AF_INET6" }, { AF_NETLINK, "AF_NETLINK" }, { AF_PACKET, "AF_PACKET" }, { 0 },
};

/* {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")}, as strace */
static void put_sockaddr(struct sbuf *b, const struct lupe_sc_buf *m)
{
	unsigned short fam;
	char addr[INET6_ADDRSTRLEN];

	memcpy(&fam, m->data, sizeof(fam));
	put(b, "{sa_family=");
	put_value(b, families, fam, "AF_");
	if (fam == AF_UNIX && m->len > 2) {
		const char *path = (const char *)m->data + 2;
		size_t n = strnlen(path, m->len - 2);
		/* an abstract socket's name starts with a NUL: strace shows @name */
		struct lupe_sc_buf one = { 0, (int)n, false, (const unsigned char *)path };

		if (!n && m->len > 3) {
			one.data++;
			one.len = strnlen(path + 1, m->len - 3);
			put(b, ", sun_path=@");
		} else {
			put(b, ", sun_path=");
		}
		put_quoted(b, &one, (size_t)one.len, false);
	} else if (fam == AF_INET && m->len >= (int)sizeof(struct sockaddr_in)) {
		struct sockaddr_in sin;

		memcpy(&sin, m->data, sizeof(sin));
		inet_ntop(AF_INET, &sin.sin_addr, addr, sizeof(addr));
		put(b, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")", ntohs(sin.sin_port), addr);
	} else if (fam == AF_INET6 && m->len >= (int)sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 sin6;

		memcpy(&sin6, m->data, sizeof(sin6));
		inet_ntop(AF_INET6, &sin6.sin6_addr, addr, sizeof(addr));
		put(b, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", &sin6_addr), sin6_scope_id=%u",
		    ntohs(sin6.sin6_port), ntohl(sin6.sin6_flowinfo), addr, sin6.sin6_scope_id);
	} else if (m->len > 2) {
		put(b, ", sa_data=");
		put_quoted(b, &(struct lupe_sc_buf){ 0, m->len - 2, m->truncated, m->data + 2 },
			   (size_t)m->len, false);
	}
	putc_(b, '}');
}

static void put_rlim(struct sbuf *b, __u64 v)
{
	if (v == ~0ULL)
		put(b, "RLIM64_INFINITY");
	else if (v && v % 1024 == 0)
		put(b, "%llu*1024", (unsigned long long)v / 1024);
	else
		put(b, "%llu", (unsigned long long)v);
}

/* strace's short form: the type and mode, then the size or the device. */
static void put_stat(struct sbuf *b, const unsigned char *data)
{
	static const struct flag types[] = {
		{ S_IFREG, "S_IFREG" }, { S_IFDIR, "S_IFDIR" }, { S_IFCHR, "S_IFCHR" },
		{ S_IFBLK, "S_IFBLK" }, { S_IFIFO, "S_IFIFO" }, { S_IFLNK, "S_IFLNK" },
		{ S_IFSOCK, "S_IFSOCK" }, { 0 },
	};
	struct stat st;
	unsigned int mode;

	memcpy(&st, data, sizeof(st));
	mode = st.st_mode;
	put(b, "{st_mode=");
	for (const struct flag *t = types; t->name; t++)
		if ((mode & S_IFMT) == t->val)
			put(b, "%s|", t->name);
	if (mode & S_ISUID)
		put(b, "S_ISUID|");
	if (mode & S_ISGID)
		put(b, "S_ISGID|");
	if (mode & S_ISVTX)
		put(b, "S_ISVTX|");
	put(b, "%#03o", mode & 0777);
	if (S_ISCHR(mode) || S_ISBLK(mode))
		put(b, ", st_rdev=makedev(%#x, %#x)", major(st.st_rdev), minor(st.st_rdev));
	else
		put(b, ", st_size=%lld", (long long)st.st_size);
	put(b, ", ...}");
}

/* fd, or fd<path> as strace -y shows it */
static void put_fd(struct sbuf *b, const struct lupe_sc_fmt *fmt, pid_t pid, int fd)
{
	const char *path = fmt->fd_path && fd >= 0 ? fmt->fd_path(pid, fd, fmt->arg) : NULL;

	put(b, "%d", fd);
	if (path) {
		putc_(b, '<');
		/* strace -y escapes only what would break the brackets */
		for (; *path; path++) {
			if (*path == '>' || *path == '\\' || (unsigned char)*path < ' ')
				put(b, "\\x%02x", (unsigned char)*path);
			else
				putc_(b, *path);
		}
		putc_(b, '>');
	}
}

/*
 * Kinds shown through a table of names: as flags (zero: what 0 shows) or
 * as one value (unknown: the prefix of the number shown).
 */
static const struct {
	enum sc_kind kind;
	const struct flag *names;
	bool bits;
	const char *other;
} by_table[] = {
	{ K_PROT, prot_flags, true, "PROT_NONE" },
	{ K_ACCESS, access_flags, true, "F_OK" },
	{ K_AT_FLAGS, at_flags, true, "0" },
	{ K_GRND, grnd_flags, true, "0" },
	{ K_WHENCE, whences, false, "SEEK_" },
	{ K_RESOURCE, resources, false, "RLIMIT_" },
	{ K_ADVICE, advices, false, "POSIX_FADV_" },
	{ K_ARCH_PRCTL, arch_prctls, false, "ARCH_" },
	{ K_SIGHOW, sig_hows, false, "SIG_" },
	{ K_FCNTL_CMD, fcntl_cmds, false, "F_" },
};

static void put_arg(struct sbuf *b, const struct sc_info *info, int i,
		    const struct lupe_sc_event *en, const struct lupe_sc_event *ex,
		    const struct lupe_sc_fmt *fmt)
{
	unsigned int max_strlen = fmt->max_strlen;
	const struct sc_arg *a = &info->args[i];
	__u64 v = en->args[i];
	long sv = a->is32 ? (long)(int)v : (long)v;
	unsigned long uv = a->is32 ? (unsigned long)(unsigned int)v : (unsigned long)v;
	const struct lupe_sc_buf *m;

	for (size_t k = 0; k < sizeof(by_table) / sizeof(by_table[0]); k++) {
		if (by_table[k].kind != a->kind)
			continue;
		if (by_table[k].bits)
			put_bits(b, by_table[k].names, uv, by_table[k].other);
		else
			put_value(b, by_table[k].names, uv, by_table[k].other);
		return;
	}
	switch (a->kind) {
	case K_PATH:
	case K_STR:
		m = find_buf(en, i);
		if (!m) /* read again at exit when its page was not in at entry */
			m = find_buf(ex, i);
		if (m)
			put_quoted(b, m, a->kind == K_PATH ? (size_t)m->len : max_strlen, false);
		else
			put_ptr(b, v);
		return;
	case K_BUF_IN:
	case K_PTR:
		m = find_buf(en, i);
		if (m)
			put_quoted(b, m, max_strlen, false);
		else
			put_ptr(b, v);
		return;
	case K_BUF_OUT:
		m = find_buf(ex, i);
		if (m)
			put_quoted(b, m, max_strlen, !strcmp(info->name, "getrandom"));
		else if (ex && ex->ret == 0 && v)
			put(b, "\"\"");
		else
			put_ptr(b, v);
		return;
	case K_STAT:
		m = find_buf(ex, i);
		if (m && m->len >= (int)sizeof(struct stat))
			put_stat(b, m->data);
		else
			put_ptr(b, v);
		return;
	case K_RLIMIT_IN:
	case K_RLIMIT_OUT:
		m = find_buf(a->kind == K_RLIMIT_IN ? en : ex, i);
		if (m && m->len >= 16) {
			__u64 r[2];

			memcpy(r, m->data, sizeof(r));
			put(b, "{rlim_cur=");
			put_rlim(b, r[0]);
			put(b, ", rlim_max=");
			put_rlim(b, r[1]);
			putc_(b, '}');
		} else {
			put_ptr(b, v);
		}
		return;
	case K_SIGSET_IN:
	case K_SIGSET_OUT:
		m = find_buf(a->kind == K_SIGSET_IN ? en : ex, i);
		if (m && m->len >= 8) {
			__u64 set;

			memcpy(&set, m->data, 8);
			put_sigset(b, set);
		} else {
			put_ptr(b, v);
		}
		return;
	case K_SIGACTION_IN:
	case K_SIGACTION_OUT:
		m = find_buf(a->kind == K_SIGACTION_IN ? en : ex, i);
		if (m && m->len >= 32)
			put_sigaction(b, m->data);
		else
			put_ptr(b, v);
		return;
	case K_PIPEFDS:
		m = find_buf(ex, i);
		if (m && m->len >= 8) {
			int fds[2];

			memcpy(fds, m->data, sizeof(fds));
			put(b, "[%d, %d]", fds[0], fds[1]);
		} else {
			put_ptr(b, v);
		}
		return;
	case K_WSTATUS:
		m = find_buf(ex, i);
		if (m && m->len >= 4) {
			int st;

			memcpy(&st, m->data, sizeof(st));
			if (WIFEXITED(st))
				put(b, "[{WIFEXITED(s) && WEXITSTATUS(s) == %d}]", WEXITSTATUS(st));
			else if (WIFSIGNALED(st))
				put(b, "[{WIFSIGNALED(s) && WTERMSIG(s) == SIG%s%s}]",
				    sigabbrev_np(WTERMSIG(st)) ?: "?", WCOREDUMP(st) ? " && WCOREDUMP(s)" : "");
			else
				put(b, "[%#x]", st);
		} else {
			put_ptr(b, v);
		}
		return;
	case K_WAIT_OPTIONS:
		put_bits(b, (const struct flag[]){ { 1, "WNOHANG" }, { 2, "WSTOPPED" }, { 4, "WEXITED" },
			 { 8, "WCONTINUED" }, { 0x01000000, "WNOWAIT" }, { 0x20000000, "__WNOTHREAD" },
			 { 0x40000000, "__WALL" }, { 0x80000000, "__WCLONE" }, { 0 } }, uv, "0");
		return;
	case K_SOCKADDR:
		m = find_buf(en, i);
		if (m && m->len >= 2)
			put_sockaddr(b, m);
		else
			put_ptr(b, v);
		return;
	case K_SOCK_FAMILY:
		put_value(b, families, uv, "AF_");
		return;
	case K_SOCK_TYPE: {
		static const char *const types[] = { NULL, "SOCK_STREAM", "SOCK_DGRAM", "SOCK_RAW",
						     "SOCK_RDM", "SOCK_SEQPACKET", "SOCK_DCCP" };
		unsigned long t = uv & 0xf;

		if (t < ARRAY_SIZE(types) && types[t])
			put(b, "%s", types[t]);
		else
			put(b, "%#lx", t);
		if (uv & SOCK_NONBLOCK)
			put(b, "|SOCK_NONBLOCK");
		if (uv & SOCK_CLOEXEC)
			put(b, "|SOCK_CLOEXEC");
		return;
	}
	case K_SOCK_PROTO:
		if (en->args[0] == AF_INET || en->args[0] == AF_INET6)
			put_value(b, (const struct flag[]){ { 0, "IPPROTO_IP" }, { 1, "IPPROTO_ICMP" },
				  { 6, "IPPROTO_TCP" }, { 17, "IPPROTO_UDP" }, { 58, "IPPROTO_ICMPV6" },
				  { 255, "IPPROTO_RAW" }, { 0 } }, uv, "IPPROTO_");
		else
			put(b, "%lu", uv);
		return;
	case K_MADVISE:
		put_value(b, (const struct flag[]){ { 0, "MADV_NORMAL" }, { 1, "MADV_RANDOM" },
			  { 2, "MADV_SEQUENTIAL" }, { 3, "MADV_WILLNEED" }, { 4, "MADV_DONTNEED" },
			  { 8, "MADV_FREE" }, { 9, "MADV_REMOVE" }, { 10, "MADV_DONTFORK" },
			  { 11, "MADV_DOFORK" }, { 12, "MADV_MERGEABLE" }, { 13, "MADV_UNMERGEABLE" },
			  { 14, "MADV_HUGEPAGE" }, { 15, "MADV_NOHUGEPAGE" }, { 16, "MADV_DONTDUMP" },
			  { 17, "MADV_DODUMP" }, { 18, "MADV_WIPEONFORK" }, { 19, "MADV_KEEPONFORK" },
			  { 20, "MADV_COLD" }, { 21, "MADV_PAGEOUT" }, { 0 } }, uv, "MADV_");
		return;
	case K_IOCTL_CMD:
		for (const struct flag *t = ioctl_cmds; t->name; t++) {
			if (t->val == uv) {
				put(b, "%s", t->name);
				return;
			}
		}
		put(b, "%#lx", uv);
		return;
	case K_FUTEX_OP: {
		static const char *const ops[] = {
			"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_FD", "FUTEX_REQUEUE", "FUTEX_CMP_REQUEUE",
			"FUTEX_WAKE_OP", "FUTEX_LOCK_PI", "FUTEX_UNLOCK_PI", "FUTEX_TRYLOCK_PI",
			"FUTEX_WAIT_BITSET", "FUTEX_WAKE_BITSET", "FUTEX_WAIT_REQUEUE_PI",
			"FUTEX_CMP_REQUEUE_PI", "FUTEX_LOCK_PI2",
		};
		unsigned int op = uv & 127;

		if (op >= ARRAY_SIZE(ops) || (uv & ~(127UL | 128 | 256))) {
			put(b, "%#lx", uv);
			return;
		}
		put(b, "%s%s%s", ops[op], uv & 128 ? "_PRIVATE" : "",
		    uv & 256 ? "|FUTEX_CLOCK_REALTIME" : "");
		return;
	}
	case K_ARGV:
		m = find_buf(en, i);
		if (!m) {
			put_ptr(b, v);
			return;
		}
		putc_(b, '[');
		for (int off = 0, k = 0; off < m->len; k++) {
			const unsigned char *str = m->data + off;
			size_t n = strnlen((const char *)str, m->len - off);
			struct lupe_sc_buf one = { i, n, false, str };

			put(b, "%s", k ? ", " : "");
			put_quoted(b, &one, max_strlen, false);
			off += n + 1;
		}
		put(b, "%s]", m->truncated ? ", ..." : "");
		return;
	case K_ENVP:
		m = find_buf(en, i);
		put_ptr(b, v);
		if (m && m->len == 4) {
			__u32 n;

			memcpy(&n, m->data, 4);
			put(b, " /* %u var%s%s */", n, n == 1 ? "" : "s", m->truncated ? " or more" : "");
		}
		return;
	case K_HEX:
		if (v)
			put(b, "%#lx", uv);
		else
			put(b, "%s", strstr(a->name, "addr") || !strcmp(a->name, "brk") ? "NULL" : "0");
		return;
	case K_UINT:
		put(b, "%lu", uv);
		return;
	case K_OCT:
		put(b, "%#lo", uv);
		return;
	case K_FD:
		put_fd(b, fmt, en->pid, (int)v);
		return;
	case K_INT:
		put(b, "%ld", sv);
		return;
	case K_DIRFD:
		if ((int)v == AT_FDCWD)
			put(b, "AT_FDCWD");
		else
			put_fd(b, fmt, en->pid, (int)v);
		return;
	case K_OPEN_FLAGS:
		put_open_flags(b, uv);
		return;
	case K_MAP_FLAGS: {
		size_t start = b->len;

		put(b, "%s", (uv & 3) == 1 ? "MAP_SHARED" : (uv & 3) == 2 ? "MAP_PRIVATE" :
			     (uv & 3) == 3 ? "MAP_SHARED_VALIDATE" : "");
		uv &= ~3UL;
		if (uv || b->len == start) {
			if (b->len > start)
				putc_(b, '|');
			put_bits(b, map_flags, uv, "0");
		}
		return;
	}
	case K_SIGNAL:
		put_signal(b, sv);
		return;
	case K_CLONE_FLAGS:
		put_bits(b, clone_flags, uv & ~0xffUL, "");
		if (uv & 0xff) {
			if (uv & ~0xffUL)
				putc_(b, '|');
			put_signal(b, uv & 0xff);
		} else if (!(uv & ~0xffUL)) {
			put(b, "0");
		}
		return;
	default: /* by_table above */
		return;
	}
}

int lupe_syscall_format_args(const struct lupe_sc_event *en, const struct lupe_sc_event *ex,
			     const struct lupe_sc_fmt *fmt, int from, int to, char *buf, size_t size)
{
	struct sbuf b = { buf, size, 0 };
	const struct sc_info *info;

	if (size)
		buf[0] = '\0';
	if (en->nr < 0 || en->nr >= LUPE_SC_MAX)
		return 0;
	info = lupe_sc_info(en->nr);
	if (info->nargs < 0) {
		for (int i = from; i < (to < 0 || to > 6 ? 6 : to); i++)
			put(&b, "%s%#llx", i ? ", " : "", (unsigned long long)en->args[i]);
		return b.len;
	}
	int nargs = info->nargs;

	/* futex: WAKE takes three arguments, WAIT four; strace shows no more */
	if (!strcmp(info->name, "futex") && nargs >= 4) {
		unsigned int op = en->args[1] & 127;

		if (op == 1)
			nargs = 3;
		else if (op == 0)
			nargs = 4;
		else if (op == 9 && from == 0 && to < 0) { /* WAIT_BITSET: no uaddr2 */
			for (int i = 0; i < 4; i++) {
				if (i)
					put(&b, ", ");
				put_arg(&b, info, i, en, ex, fmt);
			}
			if ((unsigned int)en->args[5] == 0xffffffff)
				put(&b, ", FUTEX_BITSET_MATCH_ANY");
			else
				put(&b, ", %#x", (unsigned int)en->args[5]);
			return b.len;
		}
	}
	/* clone: named arguments, those the flags make the kernel read (strace's form) */
	if (!strcmp(info->name, "clone") && nargs == 5 && from == 0) {
		unsigned long fl = en->args[0];

		put(&b, "child_stack=");
		put_ptr(&b, en->args[1]);
		put(&b, ", flags=");
		put_arg(&b, info, 0, en, ex, fmt);
		if (fl & 0x00100000) /* CLONE_PARENT_SETTID */
			put(&b, ", parent_tid=%#llx", (unsigned long long)en->args[2]);
		if (fl & (0x01000000 | 0x00200000)) /* CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID */
			put(&b, ", child_tidptr=%#llx", (unsigned long long)en->args[3]);
		if (fl & 0x00080000) /* CLONE_SETTLS */
			put(&b, ", tls=%#llx", (unsigned long long)en->args[4]);
		return b.len;
	}
	/* fcntl: the third argument by command; none for the getters */
	if (!strcmp(info->name, "fcntl") && nargs == 3) {
		unsigned int cmd = en->args[1];

		if (cmd == 1 || cmd == 3 || cmd == 9 || cmd == 1025 || cmd == 1032 || cmd == 1034)
			nargs = 2;
		if (cmd == 0 || cmd == 1030 || cmd == 2 || cmd == 4) {
			for (int i = from; i < (to < 0 || to > 2 ? 2 : to); i++) {
				if (i)
					put(&b, ", ");
				put_arg(&b, info, i, en, ex, fmt);
			}
			if (to >= 0 && to <= 2)
				return b.len;
			put(&b, ", ");
			if (cmd == 0 || cmd == 1030)
				put(&b, "%d", (int)en->args[2]);
			else if (cmd == 2)
				put_bits(&b, (const struct flag[]){ { 1, "FD_CLOEXEC" }, { 0 } },
					 en->args[2], "0");
			else
				put_open_flags(&b, en->args[2]);
			return b.len;
		}
	}
	/* open's mode is only read with O_CREAT or O_TMPFILE: strace omits it */
	if (nargs > 0 && info->args[nargs - 1].kind == K_OCT && nargs >= 2 &&
	    info->args[nargs - 2].kind == K_OPEN_FLAGS &&
	    !(en->args[nargs - 2] & O_CREAT) && (en->args[nargs - 2] & O_TMPFILE) != O_TMPFILE)
		nargs--;
	for (int i = from; i < (to < 0 || to > nargs ? nargs : to); i++) {
		if (i)
			put(&b, ", ");
		put_arg(&b, info, i, en, ex, fmt);
	}
	return b.len;
}

static const char *errno_name(long err)
{
	switch (err) {
	case 512: return "ERESTARTSYS";
	case 513: return "ERESTARTNOINTR";
	case 514: return "ERESTARTNOHAND";
	case 516: return "ERESTART_RESTARTBLOCK";
	}
	return strerrorname_np(err);
}

int lupe_syscall_format_ret(long nr, long ret, char *buf, size_t size)
{
	return lupe_syscall_format_result(NULL, nr, ret, buf, size);
}

int lupe_syscall_format_result(const struct lupe_sc_event *enter, long nr, long ret, char *buf, size_t size)
{
	const char *name = lupe_syscall_name(nr);

	if (ret < 0 && ret >= -4095) {
		const char *en = errno_name(-ret);

		if (-ret >= 512 && -ret <= 516)
			return snprintf(buf, size, "? %s (To be restarted)", en ? en : "ERESTART");
		if (en)
			return snprintf(buf, size, "-1 %s (%s)", en, strerror(-ret));
		return snprintf(buf, size, "-1 (errno %ld)", -ret);
	}
	if (name && (!strcmp(name, "mmap") || !strcmp(name, "brk") || !strcmp(name, "mremap") ||
		     !strcmp(name, "shmat")))
		return snprintf(buf, size, "%#lx", (unsigned long)ret);
	/* fcntl's getters return flags: "0x1 (flags FD_CLOEXEC)", strace's words (none for F_GETFD's 0) */
	if (enter && name && !strcmp(name, "fcntl") && ret >= 0 &&
	    ((unsigned int)enter->args[1] == F_GETFL || ((unsigned int)enter->args[1] == F_GETFD && ret))) {
		struct sbuf b = { buf, size, 0 };

		put(&b, "%#lx (flags ", (unsigned long)ret);
		if ((unsigned int)enter->args[1] == F_GETFD)
			put_bits(&b, (const struct flag[]){ { FD_CLOEXEC, "FD_CLOEXEC" }, { 0 } }, ret, "0");
		else
			put_open_flags(&b, ret);
		put(&b, ")");
		return b.len;
	}
	return snprintf(buf, size, "%ld", ret);
}
