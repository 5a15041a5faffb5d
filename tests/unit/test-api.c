// SPDX-License-Identifier: GPL-2.0
/*
 * The small public API: a spec in one call (and its error sentence),
 * lupe_measure() around known work, a reused counter's start/stop/reset
 * semantics, hardware events reported as unsupported on a machine without
 * a PMU (counted with one), tracepoint ids against tracefs, and the
 * reader's and sampler's errors.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/lupe.h>

static void spin(void *arg)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < *(unsigned long *)arg; i++)
		x += i;
}

/* Touch n fresh pages: n page faults at least. */
static void touch(void *arg)
{
	size_t n = *(size_t *)arg, pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_ptr_not_equal(p, MAP_FAILED);
	for (size_t i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap(p, n * pg);
}

static void test_parse(void **state)
{
	struct lupe_evlist *ev = lupe_evlist_parse("task-clock,{cpu-clock,page-faults}");

	assert_non_null(ev);
	assert_int_equal(lupe_evlist_nr(ev), 3);
	assert_string_equal(lupe_evsel_name(lupe_evlist_evsel(ev, 2)), "page-faults");
	lupe_evlist_delete(ev);

	assert_null(lupe_evlist_parse("task-clock,bogus-event"));
	assert_int_equal(errno, LUPE_ERR_PARSE);
	assert_non_null(strstr(lupe_last_error(), "'task-clock,bogus-event'"));
	assert_non_null(strstr(lupe_last_error(), "bogus-event"));
}

static void test_measure(void **state)
{
	struct lupe_evlist *ev = lupe_evlist_parse("task-clock,page-faults,duration_time");
	struct lupe_measure_result res;
	size_t pages = 64;

	assert_non_null(ev);
	assert_int_equal(lupe_measure(ev, touch, &pages, &res), 0);
	assert_int_equal(res.nr, 3);
	assert_string_equal(res.values[0].name, "task-clock");
	assert_int_equal(res.values[0].status, LUPE_VALUE_COUNTED);
	assert_true(res.values[0].val > 0 && res.values[0].val <= res.wall_ns);
	assert_true(res.values[1].val >= pages);
	assert_int_equal(res.values[2].val, res.wall_ns);
	/* a group is read in one go: its members share the leader's times */
	lupe_evlist_delete(ev);
	ev = lupe_evlist_parse("{task-clock,page-faults}");
	assert_int_equal(lupe_measure(ev, touch, &pages, &res), 0);
	assert_int_equal(res.nr, 2);
	assert_true(res.values[1].val >= pages);
	assert_int_equal(res.values[0].ena, res.values[1].ena);
	assert_int_equal(res.values[0].run, res.values[1].run);
	lupe_evlist_delete(ev);
	ev = lupe_evlist_parse("task-clock,page-faults,duration_time");
	/* the list is reusable: a second measure counts afresh */
	pages = 8;
	assert_int_equal(lupe_measure(ev, touch, &pages, &res), 0);
	assert_true(res.values[1].val >= pages && res.values[1].val < 64);
	lupe_evlist_delete(ev);
}

/* Whether the kernel opens a hardware event here. */
static int have_hw_pmu(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_HARDWARE,
				     .config = PERF_COUNT_HW_INSTRUCTIONS, .disabled = 1 };
	int fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static void test_hardware(void **state)
{
	struct lupe_evlist *ev = lupe_evlist_parse("task-clock,instructions");
	struct lupe_measure_result res;
	unsigned long n = 100000;

	assert_non_null(ev);
	assert_int_equal(lupe_measure(ev, spin, &n, &res), 0);
	if (have_hw_pmu()) {
		assert_int_not_equal(res.values[1].status, LUPE_VALUE_NOT_SUPPORTED);
		assert_true(res.values[1].val > n);
	} else {
		assert_int_equal(res.values[1].status, LUPE_VALUE_NOT_SUPPORTED);
		assert_int_equal(res.values[0].status, LUPE_VALUE_COUNTED);
	}
	lupe_evlist_delete(ev);
	/* a group led by a missing event cannot count: an error that says so */
	if (!have_hw_pmu()) {
		ev = lupe_evlist_parse("{cycles,task-clock}");
		assert_int_not_equal(lupe_measure(ev, spin, &n, &res), 0);
		assert_non_null(strstr(lupe_last_error(), "no hardware PMU"));
		lupe_evlist_delete(ev);
	}
}

static void test_counter(void **state)
{
	struct lupe_counter *c = lupe_counter_new("task-clock,cpu-clock", 0, -1);
	struct lupe_value v[2], w[2];
	unsigned long n = 2000000;

	assert_non_null(c);
	assert_int_equal(lupe_counter_nr(c), 2);
	assert_int_equal(lupe_counter_rdpmc(c), 0); /* software events never use rdpmc */
	assert_int_equal(lupe_counter_read(c, v, 1), -ENOSPC);
	assert_int_equal(lupe_counter_read(c, v, 2), 2);
	assert_int_equal(v[0].val, 0); /* opened stopped */
	assert_int_equal(lupe_counter_start(c), 0);
	spin(&n);
	assert_int_equal(lupe_counter_stop(c), 0);
	assert_int_equal(lupe_counter_read(c, v, 2), 2);
	assert_true(v[0].val > 0 && v[1].val > 0);
	spin(&n); /* stopped: not counted */
	assert_int_equal(lupe_counter_read(c, w, 2), 2);
	assert_int_equal(w[0].val, v[0].val);
	assert_int_equal(lupe_counter_start(c), 0);
	spin(&n);
	assert_int_equal(lupe_counter_stop(c), 0);
	assert_int_equal(lupe_counter_read(c, w, 2), 2);
	assert_true(w[0].val > v[0].val); /* cumulative */
	assert_int_equal(lupe_counter_reset(c), 0);
	assert_int_equal(lupe_counter_read(c, w, 2), 2);
	assert_int_equal(w[0].val, 0);
	assert_int_equal(w[1].val, 0);
	lupe_counter_delete(c);

	assert_null(lupe_counter_new("nosuchevent", 0, -1));
	assert_int_equal(errno, LUPE_ERR_PARSE);
	lupe_counter_delete(NULL);
}

static void test_tracepoint(void **state)
{
	char path[256], buf[32] = "";
	const char *tracefs = lupe_tracefs_dir();
	FILE *f;

	if (!tracefs)
		skip();
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", tracefs);
	f = fopen(path, "r");
	if (!f)
		skip();
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_int_equal(lupe_tracepoint_lookup("sched:sched_switch"), atoll(buf));
	assert_int_equal(lupe_tracepoint_lookup("sched:no_such_event"), -ENOENT);
	assert_non_null(strstr(lupe_last_error(), "'sched:no_such_event'"));
	assert_int_equal(lupe_tracepoint_lookup("sched_switch"), -EINVAL);
	assert_int_equal(lupe_tracepoint_lookup("sched:../x"), -ENOENT);
}

struct seen {
	int comm, mmap2, fork, exit, samples, resolved, deep;
	pid_t pid;
};

static int on_rec(const struct lupe_rec *r, void *arg)
{
	struct seen *s = arg;
	struct lupe_rec_frame fr[16];
	int n;

	switch (r->type) {
	case PERF_RECORD_COMM:
		s->comm += r->pid == (uint32_t)s->pid && !strcmp(r->comm, "demo");
		break;
	case PERF_RECORD_MMAP2:
		s->mmap2 += r->pid == (uint32_t)s->pid && strstr(r->mmap.filename, "/demo") &&
			    (r->mmap.prot & PROT_EXEC);
		break;
	case PERF_RECORD_FORK:
		s->fork += r->pid == (uint32_t)s->pid && r->tid != r->pid;
		break;
	case PERF_RECORD_EXIT:
		s->exit += r->pid == (uint32_t)s->pid;
		break;
	case PERF_RECORD_SAMPLE:
		assert_int_equal(lupe_rec_callchain(r, fr, 0), 0);
		s->samples++;
		if (!r->sym || strcmp(r->sym, "spin"))
			break;
		s->resolved++;
		assert_string_equal(r->comm, "demo");
		assert_non_null(strstr(r->dso, "demo"));
		n = lupe_rec_callchain(r, fr, 16);
		/* spin <- leaf_a/leaf_b <- compute_a/b <- run */
		if (n >= 4 && fr[0].sym && !strcmp(fr[0].sym, "spin") && fr[1].sym &&
		    !strncmp(fr[1].sym, "leaf_", 5))
			s->deep++;
		break;
	}
	return 0;
}

static void test_sampler(void **state)
{
	char *argv[] = { LUPE_WORKLOADS "/demo", "-n", "30", "-t", "2", NULL };
	LUPE_OPTS(lupe_sampler_opts, o, .callchain = 1, .enable_on_exec = 1);
	struct lupe_workload wl = { .pid = -1 };
	struct lupe_sampler *s;
	struct seen seen = { 0 };

	assert_int_equal(lupe_workload_prepare(&wl, argv), 0);
	seen.pid = wl.pid;
	s = lupe_sampler_new("task-clock", wl.pid, -1, &o);
	if (!s) {
		lupe_workload_abort(&wl);
		fail_msg("%s", lupe_last_error());
	}
	assert_int_equal(lupe_workload_start(&wl), 0);
	assert_int_equal(lupe_sampler_read(s, on_rec, &seen), 0);
	assert_int_equal(lupe_workload_wait(&wl), 0);
	lupe_sampler_delete(s);
	assert_true(seen.comm >= 1);
	assert_true(seen.mmap2 >= 1);
	assert_true(seen.fork >= 1); /* a worker thread */
	assert_true(seen.exit >= 1);
	assert_true(seen.samples > 50);
	assert_true(seen.resolved > seen.samples / 2);
	assert_true(seen.deep > seen.resolved / 2);
}

/*
 * perf_event_paranoid 2 refuses kernel counting to nobody: as perf stat does,
 * the open helper falls back to user space and the event says so (:u).
 */
static void test_denied(void **state)
{
	struct lupe_evlist *ev;
	struct lupe_measure_result res;
	unsigned long n = 10;
	int status;
	pid_t pid;

	if (geteuid() != 0 || lupe_perf_event_paranoid() < 2)
		skip(); /* needs root to drop to nobody, and a kernel that refuses nobody */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		ev = lupe_evlist_parse("task-clock");
		if (lupe_measure(ev, spin, &n, &res))
			_exit(3);
		if (strcmp(lupe_evsel_name(lupe_evlist_evsel(ev, 0)), "task-clock:u"))
			_exit(4);
		lupe_evlist_delete(ev);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_reader_errors(void **state)
{
	char path[] = "/tmp/lupe-test-api.XXXXXX";
	int fd = mkstemp(path);

	assert_null(lupe_reader_open("/nonexistent/perf.data"));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(lupe_last_error(), "'/nonexistent/perf.data'"));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not a perf.data file, not at all", 33), 33);
	close(fd);
	assert_null(lupe_reader_open(path));
	assert_non_null(strstr(lupe_last_error(), "perf.data"));
	unlink(path);
	lupe_reader_delete(NULL);
	lupe_sampler_delete(NULL);
	assert_null(lupe_sampler_new("bogus-event", 0, -1, NULL));
	assert_int_equal(errno, LUPE_ERR_PARSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_hardware),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_tracepoint),
		cmocka_unit_test(test_sampler),
		cmocka_unit_test(test_denied),
		cmocka_unit_test(test_reader_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
