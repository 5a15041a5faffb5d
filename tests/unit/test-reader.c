// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader and the session on files built here byte by byte:
 * a valid file read in time order, and every truncation, random bytes,
 * an empty file and a bad record size refused with a sentence, never a
 * crash. CMakeLists.txt also builds this file with AddressSanitizer
 * (unit/test-reader-asan).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include <lupe/hist.h>
#include <lupe/session.h>
#include "data/format.h"
#include "symbols/symbols.h"

struct fbuf {
	uint8_t *p;
	size_t len;
};

static void put(struct fbuf *b, const void *d, size_t n)
{
	b->p = realloc(b->p, b->len + n);
	assert_non_null(b->p);
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

/* sample_id trailer for ST with sample_id_all: tid, time */
static void put_sample(struct fbuf *b, uint64_t ip, uint32_t pid, uint64_t time)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 32 };
	uint64_t v[4] = { ip, pid | ((uint64_t)pid << 32), time, 1000 };

	put(b, &h, sizeof(h));
	put(b, v, sizeof(v));
}

static void put_comm(struct fbuf *b, uint32_t pid, const char *comm, uint64_t time)
{
	struct perf_event_header h = { PERF_RECORD_COMM, 0, 8 + 8 + 16 + 16 };
	uint32_t ids[2] = { pid, pid };
	char name[16] = { 0 };
	uint64_t trailer[2] = { pid | ((uint64_t)pid << 32), time };

	strncpy(name, comm, 15);
	put(b, &h, sizeof(h));
	put(b, ids, sizeof(ids));
	put(b, name, sizeof(name));
	put(b, trailer, sizeof(trailer));
}

static void put_round(struct fbuf *b)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, 8 };

	put(b, &h, sizeof(h));
}

/* A file-mode perf.data: header, one attr with one id, the data (freed). */
static struct fbuf make_file_of(struct fbuf data)
{
	struct fbuf b = { 0 };
	struct perf_file_header h = { 0 };
	struct perf_file_attr fa = { 0 };
	uint64_t id = 42;

	fa.attr.type = PERF_TYPE_SOFTWARE;
	fa.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	fa.attr.size = sizeof(fa.attr);
	fa.attr.sample_type = ST;
	fa.attr.sample_id_all = 1;
	h.magic = PERF_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(fa);
	h.attrs.offset = sizeof(h) + 8;
	h.attrs.size = sizeof(fa);
	fa.ids.offset = sizeof(h);
	fa.ids.size = 8;
	h.data.offset = sizeof(h) + 8 + sizeof(fa);
	h.data.size = data.len;
	put(&b, &h, sizeof(h));
	put(&b, &id, 8);
	put(&b, &fa, sizeof(fa));
	put(&b, data.p, data.len);
	free(data.p);
	return b;
}

static struct fbuf make_file(void)
{
	struct fbuf data = { 0 };

	put_comm(&data, 7, "demo", 1);
	put_sample(&data, 0x1000, 7, 30);
	put_sample(&data, 0x2000, 7, 10); /* out of order: must come first */
	put_round(&data);
	put_sample(&data, 0x3000, 7, 20);
	put_round(&data);
	put_sample(&data, 0x4000, 7, 40);
	return make_file_of(data);
}

static char *write_tmp(const void *p, size_t n)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/lupe-test-reader.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
	return path;
}

struct counted {
	struct lupe_tool tool;
	uint64_t n, ip_sum, last_time;
	int out_of_order;
};

static int count_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
			const struct lupe_sample *sample, struct lupe_thread *t,
			const struct perf_event_header *ev)
{
	struct counted *c = (struct counted *)tool;

	c->n++;
	c->ip_sum += sample->ip;
	c->out_of_order |= sample->time < c->last_time;
	c->last_time = sample->time;
	return 0;
}

/*
 * A file past the reader's read-ahead threshold (16 MiB of data: a thread
 * maps pages ahead and gives back those behind, on a machine of more than
 * one CPU): every sample read once, in time order, whatever pages the
 * thread mapped or gave back meanwhile.
 */
static void test_large_file_read_ahead(void **state)
{
	enum { NR = 500000, PER_ROUND = 1000 };
	struct fbuf data = { 0 }, b;
	struct counted c = { .tool = { .sample = count_sample, .ordered = 1 } };
	uint64_t want = 0;
	struct lupe_session *s;
	char *path;
	size_t len = 0;

	data.p = malloc((size_t)NR * 40 + NR / PER_ROUND * 8 + 64);
	assert_non_null(data.p);
	for (uint64_t i = 0; i < NR; i++) {
		struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 40 };
		/* each pair swapped (within a round: PER_ROUND is even): the queue orders them */
		uint64_t t = 100 + (i ^ 1);
		uint64_t v[4] = { 0x1000 + i, 7 | (7ULL << 32), t, 1 };

		memcpy(data.p + len, &h, 8);
		memcpy(data.p + len + 8, v, 32);
		len += 40;
		want += 0x1000 + i;
		if (i % PER_ROUND == PER_ROUND - 1) {
			struct perf_event_header r = { PERF_RECORD_FINISHED_ROUND, 0, 8 };

			memcpy(data.p + len, &r, 8);
			len += 8;
		}
	}
	data.len = len;
	assert_true(len > (17u << 20));
	b = make_file_of(data);
	path = write_tmp(b.p, b.len);
	free(b.p);
	s = lupe_session_open(path, 0);
	assert_non_null(s);
	assert_int_equal(lupe_session_process(s, &c.tool), 0);
	assert_int_equal(c.n, NR);
	assert_int_equal(c.ip_sum, want);
	assert_false(c.out_of_order);
	lupe_session_delete(s);
	unlink(path);
}

struct seen {
	struct lupe_tool tool;
	uint64_t times[16];
	int n;
	char comm[16];
};

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *t,
		     const struct perf_event_header *ev)
{
	struct seen *sn = (struct seen *)tool;

	if (sn->n < 16)
		sn->times[sn->n++] = sample->time;
	snprintf(sn->comm, sizeof(sn->comm), "%s", t->comm);
	return 0;
}

static void test_valid_file_in_time_order(void **state)
{
	struct fbuf b = make_file();
	char *path = write_tmp(b.p, b.len);
	struct seen sn = { .tool = { .sample = on_sample, .ordered = 1 } };
	struct lupe_session *s = lupe_session_open(path, 0);

	assert_non_null(s);
	assert_int_equal(lupe_perf_file_nr_evsels(lupe_session_file(s)), 1);
	/* no names in the file, exclude_guest clear: perf names it cpu-clock:HG */
	assert_string_equal(lupe_evsel_name(lupe_perf_file_evsel(lupe_session_file(s), 0)), "cpu-clock:HG");
	assert_int_equal(lupe_session_process(s, &sn.tool), 0);
	assert_int_equal(sn.n, 4);
	assert_int_equal(sn.times[0], 10);
	assert_int_equal(sn.times[1], 20);
	assert_int_equal(sn.times[2], 30);
	assert_int_equal(sn.times[3], 40);
	assert_string_equal(sn.comm, "demo");
	assert_int_equal(lupe_session_stats(s)->nr_samples, 4);
	lupe_session_delete(s);
	unlink(path);
	free(b.p);
}

/* Every prefix of a valid file: an error with a sentence, or fewer samples; never a crash. */
static void test_every_truncation(void **state)
{
	struct fbuf b = make_file();

	for (size_t len = 0; len < b.len; len++) {
		char *path = write_tmp(b.p, len);
		struct seen sn = { .tool = { .sample = on_sample, .ordered = 1 } };
		struct lupe_session *s = lupe_session_open(path, 0);

		if (s) {
			int err = lupe_session_process(s, &sn.tool);

			if (err)
				assert_true(strlen(lupe_perf_file_error(lupe_session_file(s))) > 0);
			assert_true(sn.n <= 4);
			lupe_session_delete(s);
		} else {
			assert_true(errno != 0);
		}
		unlink(path);
	}
	free(b.p);
}

static void test_empty_and_random(void **state)
{
	char *path = write_tmp("", 0);
	uint8_t junk[8192];

	errno = 0;
	assert_null(lupe_session_open(path, 0));
	assert_int_equal(errno, LUPE_ERR_FORMAT);
	unlink(path);
	srand(1);
	for (int round = 0; round < 200; round++) {
		struct fbuf b = make_file();
		struct seen sn = { .tool = { .sample = on_sample, .ordered = 1 } };
		struct lupe_session *s;

		/* flip a few bytes of a valid file, or write pure noise */
		if (round % 2) {
			for (int k = 0; k < 4; k++)
				b.p[rand() % b.len] = (uint8_t)rand();
			path = write_tmp(b.p, b.len);
		} else {
			for (size_t k = 0; k < sizeof(junk); k++)
				junk[k] = (uint8_t)rand();
			if (round % 4 == 0)
				memcpy(junk, "PERFILE2", 8);
			path = write_tmp(junk, sizeof(junk));
		}
		s = lupe_session_open(path, 0);
		if (s) {
			lupe_session_process(s, &sn.tool);
			lupe_session_delete(s);
		}
		unlink(path);
		free(b.p);
	}
}

static void test_bad_record_size(void **state)
{
	struct fbuf b = make_file();
	struct perf_file_header *h = (void *)b.p;
	struct perf_event_header *ev = (void *)(b.p + h->data.offset + 48); /* the first sample, after the COMM */
	struct seen sn = { .tool = { .sample = on_sample, .ordered = 1 } };
	struct lupe_session *s;
	char *path;

	ev->size = 3;
	path = write_tmp(b.p, b.len);
	s = lupe_session_open(path, 0);
	assert_non_null(s);
	assert_true(lupe_session_process(s, &sn.tool) < 0);
	assert_non_null(strstr(lupe_perf_file_error(lupe_session_file(s)), "offset"));
	lupe_session_delete(s);
	unlink(path);
	free(b.p);
}

static void test_symbols_aliases_and_search(void **state)
{
	struct symtab_build b = { 0 };
	struct lupe_dso dso = { 0 };

	/* perf keeps the global one of two aliases, and sizes zero-sized symbols to the next */
	assert_int_equal(lupe_symtab_add(&b, 0x2000, 0x10, "weak_alias", 10, 2 /* STB_WEAK */), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x2000, 0x10, "strong", 6, 1 /* STB_GLOBAL */), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x1000, 0, "first", 5, 1), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x3000, 0x20, "third", 5, 0), 0);
	assert_int_equal(lupe_symtab_finish(&b, &dso), 0);
	assert_int_equal(dso.nr_syms, 3);
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x1fff)->name, "first");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x2000)->name, "strong");
	assert_null(lupe_dso_find_symbol(&dso, 0x2010));
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x301f)->name, "third");
	assert_null(lupe_dso_find_symbol(&dso, 0x3020));
	assert_null(lupe_dso_find_symbol(&dso, 0xfff));
	free(dso.syms);
	free(dso.strtab);
}

/*
 * Names left in a mapped string table (an ELF one: NUL-terminated) are
 * copied out when first looked up, a C++ one demangled as it was when the
 * table was built, and no longer point into the mapping after that.
 */
static void test_symbols_mapped_names(void **state)
{
	static const char strs[] = "plain\0_Z3fooi\0";
	struct symtab_build b = { 0 };
	struct lupe_dso dso = { 0 };
	char file[] = "/tmp/lupe-test-strtab.XXXXXX", *map, *dem, *want;
	const struct lupe_symbol *s;
	int fd = mkstemp(file);

	/* a file's pages: the table gives them back after loading, and they read the file again */
	assert_true(fd >= 0);
	assert_int_equal(write(fd, strs, sizeof(strs)), sizeof(strs));
	map = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	unlink(file);
	assert_true(map != MAP_FAILED);
	b.map = map;
	b.map_len = 4096;
	dem = lupe_demangle(map + 6);
	want = dem ? dem : map + 6;
	assert_int_equal(lupe_symtab_add_raw(&b, 0x1000, 0x10, "plain", 5, map, 1), 0);
	assert_int_equal(lupe_symtab_add_raw(&b, 0x2000, 0x10, want, strlen(want), map + 6, 1), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x3000, 0x10, "copied", 6, 1), 0);
	assert_int_equal(lupe_symtab_finish(&b, &dso), 0);
	assert_ptr_equal(dso.names_map, map);
	/* not looked up yet: still the mapped string */
	assert_ptr_equal(dso.syms[1].name, map + 6);
	s = lupe_dso_find_symbol(&dso, 0x2004);
	assert_non_null(s);
	assert_string_equal(s->name, want);
	assert_false(s->name >= map && s->name < map + 4096);
	assert_ptr_equal(lupe_dso_find_symbol(&dso, 0x2008), s);
	assert_string_equal(lupe_dso_symbol(&dso, 0)->name, "plain");
	assert_false(dso.syms[0].name >= map && dso.syms[0].name < map + 4096);
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x3000)->name, "copied");
	free(dem);
	lupe_dso_free_syms(&dso);
	assert_null(dso.syms);
}

/*
 * A label (a NOTYPE symbol of size 0, as node's construct_stub_create_deopt_addr)
 * inside a function that has a size: perf names the function for the
 * function's addresses (Builtins_JSConstructStubGeneric+0x102), and the
 * label only past the function's end, up to the next symbol.
 */
static void test_symbols_label_in_function(void **state)
{
	struct symtab_build b = { 0 };
	struct lupe_dso dso = { 0 };

	assert_int_equal(lupe_symtab_add(&b, 0x1300, 0x19c, "Builtins_JSConstructStubGeneric", 31, 0), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x133b, 0, "construct_stub_create_deopt_addr", 32, 0), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x143a, 0, "construct_stub_invoke_deopt_addr", 32, 0), 0);
	assert_int_equal(lupe_symtab_add(&b, 0x14c0, 0x40, "next_fn", 7, 0), 0);
	assert_int_equal(lupe_symtab_finish(&b, &dso), 0);
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x1300)->name, "Builtins_JSConstructStubGeneric");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x133b)->name, "Builtins_JSConstructStubGeneric");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x1402)->name, "Builtins_JSConstructStubGeneric");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x1440)->name, "Builtins_JSConstructStubGeneric");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x149b)->name, "Builtins_JSConstructStubGeneric");
	/* past the function's end: the label's, to the next symbol */
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x149c)->name, "construct_stub_invoke_deopt_addr");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x14bf)->name, "construct_stub_invoke_deopt_addr");
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x14c0)->name, "next_fn");
	free(dso.syms);
	free(dso.strtab);
}

/* JIT symbols: /tmp/perf-PID.map lines "START SIZE NAME", in hex */
static void test_perf_map(void **state)
{
	char path[64];
	struct lupe_dso dso = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", 900000 + (int)getpid() % 90000);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "7f0000001000 40 LazyCompile:~hello /app.js:1\n7f0000002000 10 stub\n");
	fclose(f);
	dso.long_name = path;
	dso.identity = 1;
	assert_int_equal(lupe_dso_load(&dso), 0);
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x7f000000103f)->name, "LazyCompile:~hello /app.js:1");
	assert_null(lupe_dso_find_symbol(&dso, 0x7f0000001040));
	assert_string_equal(lupe_dso_find_symbol(&dso, 0x7f0000002000)->name, "stub");
	unlink(path);
	free(dso.syms);
	free(dso.strtab);
}

struct hist_tool {
	struct lupe_tool tool;
	struct lupe_hists *h;
};

static int hist_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		       const struct lupe_sample *sample, struct lupe_thread *t,
		       const struct perf_event_header *ev)
{
	return lupe_hists_add(((struct hist_tool *)tool)->h, s, sample, t,
			      ev->misc & PERF_RECORD_MISC_CPUMODE_MASK, NULL);
}

/* Unresolved addresses are entries of their own; equal stacks add up. */
static void test_hist_entries(void **state)
{
	LUPE_OPTS(lupe_hist_opts, ho, .keys = { LUPE_SORT_COMM, LUPE_SORT_DSO, LUPE_SORT_SYM },
		  .nr_keys = 3);
	struct hist_tool ht = { .tool = { .sample = hist_sample, .ordered = 1 } };
	struct fbuf b = make_file();
	char *path = write_tmp(b.p, b.len);
	struct lupe_session *s = lupe_session_open(path, 0);
	struct lupe_hist_entry *e;

	assert_non_null(s);
	ht.h = lupe_hists_new(&ho);
	assert_int_equal(lupe_session_process(s, &ht.tool), 0);
	assert_int_equal(lupe_hists_finish(ht.h, NULL, NULL), 4);
	assert_int_equal(lupe_hists_total_period(ht.h), 4000);
	assert_int_equal(lupe_hists_nr_samples(ht.h), 4);
	for (long i = 0; (e = lupe_hists_entry(ht.h, i)); i++) {
		assert_int_equal(e->self, 1000);
		assert_null(e->sym);
		assert_string_equal(e->comm, "demo");
	}
	/* ties sort by address */
	assert_int_equal(lupe_hists_entry(ht.h, 0)->addr, 0x1000);
	lupe_hists_delete(ht.h);
	lupe_session_delete(s);
	unlink(path);
	free(b.p);
}

/*
 * perf's comm__override: a thread's first name renames its ":TID"
 * placeholder in place, so report shows it for the samples before (a
 * forked child sampled before its COMM); a second name is a name of its
 * own from then on, and a thread never named stays ":TID".
 */
static void test_hist_placeholder_comm(void **state)
{
	LUPE_OPTS(lupe_hist_opts, ho, .keys = { LUPE_SORT_COMM }, .nr_keys = 1);
	struct hist_tool ht = { .tool = { .sample = hist_sample, .ordered = 1 } };
	struct fbuf data = { 0 }, b;
	char *path;
	struct lupe_session *s;
	struct lupe_hist_entry *e;
	int found = 0;

	put_sample(&data, 0x1000, 8, 10);
	put_comm(&data, 8, "sh", 20);
	put_sample(&data, 0x1000, 8, 30);
	put_comm(&data, 8, "later", 40);
	put_sample(&data, 0x1000, 8, 50);
	put_sample(&data, 0x1000, 9, 60);
	b = make_file_of(data);
	path = write_tmp(b.p, b.len);
	s = lupe_session_open(path, 0);
	assert_non_null(s);
	ht.h = lupe_hists_new(&ho);
	assert_int_equal(lupe_session_process(s, &ht.tool), 0);
	assert_int_equal(lupe_hists_finish(ht.h, NULL, NULL), 3);
	for (long i = 0; (e = lupe_hists_entry(ht.h, i)); i++) {
		if (!strcmp(e->comm, "sh"))
			found |= 1, assert_int_equal(e->self, 2000);
		else if (!strcmp(e->comm, "later"))
			found |= 2, assert_int_equal(e->self, 1000);
		else if (!strcmp(e->comm, ":9"))
			found |= 4, assert_int_equal(e->self, 1000);
	}
	assert_int_equal(found, 7);
	lupe_hists_delete(ht.h);
	lupe_session_delete(s);
	unlink(path);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_file_in_time_order),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_empty_and_random),
		cmocka_unit_test(test_bad_record_size),
		cmocka_unit_test(test_large_file_read_ahead),
		cmocka_unit_test(test_symbols_aliases_and_search),
		cmocka_unit_test(test_symbols_label_in_function),
		cmocka_unit_test(test_symbols_mapped_names),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_hist_entries),
		cmocka_unit_test(test_hist_placeholder_comm),
	};

	lupe_log_set(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
