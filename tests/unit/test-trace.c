// SPDX-License-Identifier: GPL-2.0
/*
 * lib/trace's decoding: strace's string quoting, return values, syscall
 * sets, and argument formatting from a syscall's tracefs format (a fake
 * tracefs in a temporary directory, so no kernel is needed).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/trace.h>
#include <lupe/events.h>

static void quote(const char *s, size_t len, bool trunc, const char *want)
{
	char buf[256];
	int n = lupe_quote_string((const unsigned char *)s, len, trunc, buf, sizeof(buf));

	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_quote(void **state)
{
	quote("vm\n", 3, false, "\"vm\\n\"");
	quote("\177ELF\2\1\1\3\0\0", 10, true, "\"\\177ELF\\2\\1\\1\\3\\0\\0\"...");
	/* a digit after an octal escape forces three digits */
	quote("\0" "1", 2, false, "\"\\0001\"");
	quote("a\"b\\c\t", 6, false, "\"a\\\"b\\\\c\\t\"");
	quote("\xff", 1, false, "\"\\377\"");
	/* too small a buffer: still the needed length, still terminated */
	{
		char small[4];

		assert_int_equal(lupe_quote_string((const unsigned char *)"hello", 5, false,
						   small, sizeof(small)), 7);
		assert_int_equal(strlen(small), 3);
	}
}

static void test_ret(void **state)
{
	long openat = lupe_syscall_nr("openat"), mmap = lupe_syscall_nr("mmap");
	char buf[128];

	lupe_syscall_format_ret(openat, -2, buf, sizeof(buf));
	assert_string_equal(buf, "-1 ENOENT (No such file or directory)");
	lupe_syscall_format_ret(openat, 3, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	lupe_syscall_format_ret(mmap, 0x7f0000001000L, buf, sizeof(buf));
	assert_string_equal(buf, "0x7f0000001000");
	lupe_syscall_format_ret(openat, -512, buf, sizeof(buf));
	assert_non_null(strstr(buf, "ERESTARTSYS"));
}

/* fcntl's getters return flags, decoded as strace decodes them (shell/trace-signals: the signals) */
static void test_fcntl_ret(void **state)
{
	struct lupe_sc_event en = { .nr = lupe_syscall_nr("fcntl"), .args = { 3, 1 /* F_GETFD */ } };
	char buf[128];

	lupe_syscall_format_result(&en, en.nr, 1, buf, sizeof(buf));
	assert_string_equal(buf, "0x1 (flags FD_CLOEXEC)");
	lupe_syscall_format_result(&en, en.nr, 0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	lupe_syscall_format_result(NULL, en.nr, 1, buf, sizeof(buf));
	assert_string_equal(buf, "1");
	en.args[1] = 3; /* F_GETFL */
	lupe_syscall_format_result(&en, en.nr, 0x8002, buf, sizeof(buf));
	assert_string_equal(buf, "0x8002 (flags O_RDWR|O_LARGEFILE)");
	lupe_syscall_format_result(&en, en.nr, -9, buf, sizeof(buf));
	assert_string_equal(buf, "-1 EBADF (Bad file descriptor)");
}

static void test_names(void **state)
{
	assert_int_equal(lupe_syscall_nr("read"), 0);
	assert_string_equal(lupe_syscall_name(1), "write");
	assert_null(lupe_syscall_name(-1));
	assert_null(lupe_syscall_name(LUPE_SC_MAX));
	assert_int_equal(lupe_syscall_nr("no_such_call"), -1);
}

static void test_set(void **state)
{
	bool set[LUPE_SC_MAX] = { 0 };
	const char *bad;
	size_t badlen;
	int n = 0;

	assert_int_equal(lupe_syscall_set_parse("getppid,*stat*", set, &bad, &badlen), 0);
	assert_true(set[lupe_syscall_nr("getppid")]);
	assert_true(set[lupe_syscall_nr("newfstatat")]);
	assert_false(set[lupe_syscall_nr("read")]);
	memset(set, 0, sizeof(set));
	assert_int_equal(lupe_syscall_set_parse("!read,!write", set, &bad, &badlen), 0);
	assert_false(set[0]);
	assert_false(set[1]);
	assert_true(set[lupe_syscall_nr("openat")]);
	for (int i = 0; i < LUPE_SC_MAX; i++)
		n += set[i];
	assert_true(n > 300);
	assert_int_equal(lupe_syscall_set_parse("read,nosuch", set, &bad, &badlen), -ENOENT);
	assert_int_equal(badlen, 6);
	assert_memory_equal(bad, "nosuch", 6);
}

static char dir[] = "/tmp/lupe-trace-XXXXXX";

static void fake_format(const char *name, const char *fields)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/format");
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "name: sys_enter_%s\nID: 1\nformat:\n"
		   "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n%s\n", name, fields);
	fclose(f);
}

static int setup(void **state)
{
	char path[512];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/events", dir);
	mkdir(path, 0755);
	strcat(path, "/syscalls");
	mkdir(path, 0755);
	fake_format("openat", "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
			      "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
			      "\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
			      "\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;");
	fake_format("read", "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
			    "\tfield:char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
			    "\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;");
	fake_format("mmap", "\tfield:unsigned long addr;\toffset:16;\tsize:8;\tsigned:0;\n"
			    "\tfield:unsigned long len;\toffset:24;\tsize:8;\tsigned:0;\n"
			    "\tfield:unsigned long prot;\toffset:32;\tsize:8;\tsigned:0;\n"
			    "\tfield:unsigned long flags;\toffset:40;\tsize:8;\tsigned:0;\n"
			    "\tfield:unsigned long fd;\toffset:48;\tsize:8;\tsigned:0;\n"
			    "\tfield:unsigned long off;\toffset:56;\tsize:8;\tsigned:0;");
	fake_format("rt_sigprocmask", "\tfield:int how;\toffset:16;\tsize:8;\tsigned:0;\n"
				      "\tfield:sigset_t * nset;\toffset:24;\tsize:8;\tsigned:0;\n"
				      "\tfield:sigset_t * oset;\toffset:32;\tsize:8;\tsigned:0;\n"
				      "\tfield:size_t sigsetsize;\toffset:40;\tsize:8;\tsigned:0;");
	fake_format("connect", "\tfield:int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
			       "\tfield:struct sockaddr * uservaddr;\toffset:24;\tsize:8;\tsigned:0;\n"
			       "\tfield:int addrlen;\toffset:32;\tsize:8;\tsigned:0;");
	fake_format("clone", "\tfield:unsigned long clone_flags;\toffset:16;\tsize:8;\tsigned:0;\n"
			     "\tfield:unsigned long newsp;\toffset:24;\tsize:8;\tsigned:0;\n"
			     "\tfield:int * parent_tidptr;\toffset:32;\tsize:8;\tsigned:0;\n"
			     "\tfield:int * child_tidptr;\toffset:40;\tsize:8;\tsigned:0;\n"
			     "\tfield:unsigned long tls;\toffset:48;\tsize:8;\tsigned:0;");
	return lupe_events_set_tracefs(dir);
}

static int teardown(void **state)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static const char *fake_fd_path(pid_t pid, int fd, void *arg)
{
	return fd == 3 ? "/etc/host>name" : NULL;
}

static void test_format_args(void **state)
{
	struct lupe_sc_event en = { .kind = LUPE_SC_ENTER }, ex = { .kind = LUPE_SC_EXIT };
	struct lupe_sc_fmt f32 = { .max_strlen = 32 }, f4 = { .max_strlen = 4 };
	struct lupe_sc_fmt fy = { .max_strlen = 32, .fd_path = fake_fd_path };
	char buf[256];

	en.nr = lupe_syscall_nr("openat");
	en.args[0] = (__u64)-100;
	en.args[1] = 0x1000;
	en.args[2] = 02000000; /* O_CLOEXEC */
	en.nbufs = 1;
	en.bufs[0] = (struct lupe_sc_buf){ 1, 13, false, (const unsigned char *)"/etc/hostname" };
	lupe_syscall_format_args(&en, NULL, &f32, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "AT_FDCWD, \"/etc/hostname\", O_RDONLY|O_CLOEXEC");
	/* with O_CREAT the mode is shown, in octal */
	en.args[2] = 0101; /* O_WRONLY|O_CREAT */
	en.args[3] = 0644;
	lupe_syscall_format_args(&en, NULL, &f32, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "AT_FDCWD, \"/etc/hostname\", O_WRONLY|O_CREAT, 0644");
	/* no captured string (the fallback): the pointer */
	en.nbufs = 0;
	lupe_syscall_format_args(&en, NULL, &f32, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "AT_FDCWD, 0x1000, O_WRONLY|O_CREAT, 0644");

	/* read's buffer comes from the exit, cut at max_strlen */
	memset(&en, 0, sizeof(en));
	en.nr = lupe_syscall_nr("read");
	en.args[0] = 3;
	en.args[1] = 0x2000;
	en.args[2] = 131072;
	ex.nr = en.nr;
	ex.ret = 10;
	ex.nbufs = 1;
	ex.bufs[0] = (struct lupe_sc_buf){ 1, 10, false, (const unsigned char *)"0123456789" };
	lupe_syscall_format_args(&en, &ex, &f4, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "3, \"0123\"..., 131072");
	assert_int_equal(lupe_syscall_output_arg(en.nr), 1);
	lupe_syscall_format_args(&en, NULL, &f4, 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	/* -y: the path behind the fd, '>' escaped */
	lupe_syscall_format_args(&en, NULL, &fy, 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "3</etc/host\\x3ename>");

	memset(&en, 0, sizeof(en));
	en.nr = lupe_syscall_nr("mmap");
	en.args[1] = 8192;
	en.args[2] = 3;
	en.args[3] = 0x22;
	en.args[4] = (__u64)-1;
	lupe_syscall_format_args(&en, NULL, &f32, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0");
}

static void test_structs(void **state)
{
	struct lupe_sc_event en = { .kind = LUPE_SC_ENTER }, ex = { .kind = LUPE_SC_EXIT };
	struct lupe_sc_fmt f = { .max_strlen = 32 };
	unsigned long long set = (1ULL << (2 - 1)) | (1ULL << (15 - 1)); /* INT, TERM */
	unsigned long long most = ~((1ULL << (9 - 1)) | (1ULL << (19 - 1)) | (1ULL << 31) | (1ULL << 32));
	unsigned char sin[16] = { 2, 0, 0, 80, 127, 0, 0, 1 }; /* AF_INET, port 80, 127.0.0.1 */
	char buf[512];

	en.nr = lupe_syscall_nr("rt_sigprocmask");
	en.args[0] = 0;
	en.args[1] = 0x1000;
	en.args[2] = 0x2000;
	en.args[3] = 8;
	en.nbufs = 1;
	en.bufs[0] = (struct lupe_sc_buf){ 1, 8, false, (const unsigned char *)&set };
	ex.nr = en.nr;
	ex.nbufs = 1;
	ex.bufs[0] = (struct lupe_sc_buf){ 2, 8, false, (const unsigned char *)&most };
	lupe_syscall_format_args(&en, &ex, &f, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "SIG_BLOCK, [INT TERM], ~[KILL STOP RTMIN RT_1], 8");

	memset(&en, 0, sizeof(en));
	en.nr = lupe_syscall_nr("connect");
	en.args[0] = 3;
	en.args[2] = 16;
	en.nbufs = 1;
	en.bufs[0] = (struct lupe_sc_buf){ 1, 16, false, sin };
	lupe_syscall_format_args(&en, NULL, &f, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "3, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(\"127.0.0.1\")}, 16");

	memset(&en, 0, sizeof(en));
	en.nr = lupe_syscall_nr("clone");
	en.args[0] = 0x01200000 | 17; /* CHILD_SETTID|CHILD_CLEARTID|SIGCHLD */
	en.args[3] = 0x7f0000000a10;
	lupe_syscall_format_args(&en, NULL, &f, 0, -1, buf, sizeof(buf));
	assert_string_equal(buf, "child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
				 "child_tidptr=0x7f0000000a10");
}

/* The summary's figures: errors, min/max, merged over threads, longest total first. */
static void test_model_stats(void **state)
{
	static struct lupe_sc_stat a[LUPE_SC_MAX], b[LUPE_SC_MAX];
	int order[LUPE_SC_MAX], n;

	(void)state;
	lupe_sc_stat_add(&a[1], 3, 2.0, true);
	lupe_sc_stat_add(&a[1], -2, 4.0, true);     /* an error */
	lupe_sc_stat_add(&a[1], 0, 0, false);       /* untimed: counted, no time */
	lupe_sc_stat_add(&b[1], 0, 1.0, true);
	lupe_sc_stat_add(&b[7], -5000, 9.0, true);  /* not an errno: no error */
	assert_int_equal(a[1].calls, 3);
	assert_int_equal(a[1].errors, 1);
	assert_true(a[1].min == 2.0 && a[1].max == 4.0 && a[1].total == 6.0);
	lupe_sc_stats_merge(a, b);
	assert_int_equal(a[1].calls, 4);
	assert_true(a[1].min == 1.0 && a[1].total == 7.0);
	assert_int_equal(a[7].errors, 0);
	n = lupe_sc_stats_order(a, order);
	assert_int_equal(n, 2);
	assert_int_equal(order[0], 7); /* 9 ms before 7 ms */
	assert_int_equal(order[1], 1);
}

/* -y's fds: an openat's path, a dup of it, a close forgets it. */
static void test_model_fds(void **state)
{
	struct lupe_trace_fds *f = lupe_trace_fds_new();
	long openat = lupe_syscall_nr("openat"), dup = lupe_syscall_nr("dup");
	long close_nr = lupe_syscall_nr("close");
	pid_t pid = 999999; /* no such process: nothing comes from /proc */
	struct lupe_sc_event en = { .kind = LUPE_SC_ENTER, .pid = pid, .nr = openat, .nbufs = 1 };
	struct lupe_sc_event ex = { .kind = LUPE_SC_EXIT, .pid = pid, .nr = openat, .ret = 5 };

	(void)state;
	assert_non_null(f);
	en.bufs[0] = (struct lupe_sc_buf){ .arg = 1, .len = 10, .data = (const unsigned char *)"/etc/hosts" };
	assert_true(lupe_trace_fds_returns_fd(f, openat));
	assert_false(lupe_trace_fds_returns_fd(f, close_nr));
	lupe_trace_fds_call(f, &en, &ex);
	assert_string_equal(lupe_trace_fds_path(f, pid, 5), "/etc/hosts");
	en = (struct lupe_sc_event){ .kind = LUPE_SC_ENTER, .pid = pid, .nr = dup, .args = { 5 } };
	ex = (struct lupe_sc_event){ .kind = LUPE_SC_EXIT, .pid = pid, .nr = dup, .ret = 7 };
	lupe_trace_fds_call(f, &en, &ex);
	assert_string_equal(lupe_trace_fds_path(f, pid, 7), "/etc/hosts");
	en = (struct lupe_sc_event){ .kind = LUPE_SC_ENTER, .pid = pid, .nr = close_nr, .args = { 5 } };
	ex = (struct lupe_sc_event){ .kind = LUPE_SC_EXIT, .pid = pid, .nr = close_nr, .ret = 0 };
	lupe_trace_fds_call(f, &en, &ex);
	assert_null(lupe_trace_fds_path(f, pid, 5));
	assert_string_equal(lupe_trace_fds_path(f, pid, 7), "/etc/hosts");
	lupe_trace_fds_delete(f);
}

/* What the model handed out, one letter a call: C(all) N(oreturn) E(nd) T(racepoint). */
struct calls_seen {
	char kinds[32];
	int n;
	double ms[32];
	bool entered[32];
	int status;
};

static int seen_call(struct lupe_trace_model *m, const struct lupe_trace_call *c, void *arg)
{
	struct calls_seen *s = arg;

	(void)m;
	if (s->n < 31) {
		s->kinds[s->n] = " CNET"[c->kind];
		s->ms[s->n] = c->ms;
		s->entered[s->n++] = c->enter != NULL;
	}
	if (c->kind == LUPE_TRACE_PROC_END)
		s->status = c->status;
	return 0;
}

/* The pairing: entries with exits, calls that do not return, what is not a call. */
static void test_model_pairs(void **state)
{
	LUPE_OPTS(lupe_trace_model_opts, o, .summary = true, .workload = true, .main_pid = 999990);
	struct calls_seen seen = { 0 };
	struct lupe_trace_model *m = lupe_trace_model_new(&o, seen_call, &seen);
	long read_nr = lupe_syscall_nr("read"), execve = lupe_syscall_nr("execve");
	long clone = lupe_syscall_nr("clone"), exit_group = lupe_syscall_nr("exit_group");
	struct lupe_trace_thread *const *threads;
	pid_t me = 999990, child = 999991;
#define EV(k, p, n, r, t) (&(struct lupe_sc_event){ .kind = (k), .pid = (p), .tid = (p), .nr = (n), .ret = (r), .time = (t) })

	(void)state;
	assert_non_null(m);
	/* lupe's PATH search: a failed execve of the workload is no call */
	assert_int_equal(lupe_trace_model_event(EV(LUPE_SC_ENTER, me, execve, 0, 1), m), 0);
	assert_int_equal(lupe_trace_model_event(EV(LUPE_SC_EXIT, me, execve, -2, 2), m), 0);
	assert_int_equal(seen.n, 0);
	/* the one that runs it is */
	lupe_trace_model_event(EV(LUPE_SC_ENTER, me, execve, 0, 3), m);
	lupe_trace_model_event(EV(LUPE_SC_EXIT, me, execve, 0, 4), m);
	/* a read of 2 ms */
	lupe_trace_model_event(EV(LUPE_SC_ENTER, me, read_nr, 0, 1000000), m);
	lupe_trace_model_event(EV(LUPE_SC_EXIT, me, read_nr, 5, 3000000), m);
	assert_int_equal(seen.n, 2);
	assert_true(seen.entered[1]);
	assert_true(seen.ms[1] > 1.99 && seen.ms[1] < 2.01);
	/* a child's first event, its return from clone with 0, is not a call */
	lupe_trace_model_event(EV(LUPE_SC_EXIT, child, clone, 0, 3100000), m);
	assert_int_equal(seen.n, 2);
	assert_true(lupe_trace_model_multi(m));
	/* an exit whose entry was not seen, and exit_group said at its entry */
	lupe_trace_model_event(EV(LUPE_SC_EXIT, child, read_nr, 1, 3200000), m);
	lupe_trace_model_event(EV(LUPE_SC_ENTER, child, exit_group, 0, 3300000), m);
	/* the child's pending read at its process's end; the end said once */
	lupe_trace_model_event(EV(LUPE_SC_ENTER, me, read_nr, 0, 3400000), m);
	lupe_trace_model_event(EV(LUPE_SC_PROC_EXIT, me, 0, 3 << 8, 3500000), m);
	lupe_trace_model_exited(m, me, 0);
	lupe_trace_model_finish(m);
	seen.kinds[seen.n] = '\0';
	assert_string_equal(seen.kinds, "CCCNNE");
	assert_false(seen.entered[2]);
	assert_int_equal(seen.status, 3 << 8);
	/* the summary: the workload's execve, read and read, the child's read and exit_group */
	assert_int_equal(lupe_trace_model_threads(m, &threads), 2);
	assert_int_equal(threads[0]->events, 3);
	assert_int_equal(threads[0]->stats[read_nr].calls, 2);
	assert_int_equal(threads[1]->events, 2);
	assert_false(threads[0]->pending);
	lupe_trace_model_delete(m);
#undef EV
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_ret),
		cmocka_unit_test(test_fcntl_ret),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_format_args),
		cmocka_unit_test(test_structs),
		cmocka_unit_test(test_model_stats),
		cmocka_unit_test(test_model_fds),
		cmocka_unit_test(test_model_pairs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
