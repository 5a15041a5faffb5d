// SPDX-License-Identifier: GPL-2.0
/*
 * lib/data's decoders (lupe/perf-format.h) on records and feature sections
 * built here: the fields of whole ones, and short ones cut at their end,
 * never read past it. CMakeLists.txt also builds this file with
 * AddressSanitizer (unit/test-perf-format-asan), where every buffer below
 * is exactly as long as the record or section it holds.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/perf-format.h>

/* a copy of n bytes in a buffer of exactly n bytes: ASan sees a read past it */
static void *exact(const void *p, size_t n)
{
	void *q = malloc(n);

	assert_non_null(q);
	memcpy(q, p, n);
	return q;
}

static void test_names(void **state)
{
	assert_string_equal(lupe_perf_record_name(PERF_RECORD_MMAP2), "MMAP2");
	assert_string_equal(lupe_perf_record_name(PERF_RECORD_HEADER_ATTR), "ATTR");
	assert_string_equal(lupe_perf_record_name(PERF_RECORD_FINISHED_INIT), "FINISHED_INIT");
	assert_null(lupe_perf_record_name(0));
	assert_null(lupe_perf_record_name(40));
	assert_null(lupe_perf_record_name(PERF_RECORD_HEADER_MAX));
	assert_int_equal(PERF_RECORD_HEADER_MAX, 83);
	assert_string_equal(lupe_perf_feature_name(HEADER_SAMPLE_TIME), "SAMPLE_TIME");
	assert_int_equal(HEADER_SAMPLE_TIME, 21);
	assert_string_equal(lupe_perf_feature_name(HEADER_PMU_CAPS), "PMU_CAPS");
	assert_null(lupe_perf_feature_name(HEADER_RESERVED));
	assert_null(lupe_perf_feature_name(HEADER_LAST_FEATURE));
}

static void test_mmap2_comm(void **state)
{
	struct {
		struct perf_record_mmap2 m;
		char name[16];
	} r = { .m = { .header = { PERF_RECORD_MMAP2, 0, sizeof(r) }, .pid = 7, .tid = 8,
		       .start = 0x1000, .prot = 5 } };
	struct lupe_perf_record_fields f;
	void *p;

	strcpy(r.name, "/bin/true");
	p = exact(&r, sizeof(r));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.type, PERF_RECORD_MMAP2);
	assert_int_equal(f.mmap2->pid, 7);
	assert_int_equal(f.str_len, 9);
	assert_memory_equal(f.str, "/bin/true", 9);
	free(p);

	/* a name not ended in the record: cut at its end */
	memset(r.name, 'x', sizeof(r.name));
	p = exact(&r, sizeof(r));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.str_len, 16);
	free(p);

	/* shorter than the fixed fields */
	r.m.header.size = sizeof(r.m) - 8;
	p = exact(&r, r.m.header.size);
	assert_int_equal(lupe_perf_record_decode(p, &f), -EINVAL);
	free(p);

	struct {
		struct perf_record_comm c;
		char comm[8];
	} c = { .c = { .header = { PERF_RECORD_COMM, 0, sizeof(c) }, .pid = 1, .tid = 2 }, .comm = "sh" };

	p = exact(&c, sizeof(c));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.comm->tid, 2);
	assert_int_equal(f.str_len, 2);
	free(p);
}

static void test_arrays_cut(void **state)
{
	struct {
		struct perf_record_namespaces n;
		uint64_t link[2 * 2];
	} ns = { .n = { .header = { PERF_RECORD_NAMESPACES, 0, sizeof(ns) }, .nr_namespaces = 7 } };
	struct {
		struct perf_record_thread_map t;
		struct perf_record_thread_map_entry e[1];
	} tm = { .t = { .header = { PERF_RECORD_THREAD_MAP, 0, sizeof(tm) }, .nr = 1 }, .e = { { 42, "x" } } };
	struct lupe_perf_record_fields f;
	void *p;

	/* nr says 7, the record holds 2 */
	p = exact(&ns, sizeof(ns));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.namespaces->nr_namespaces, 7);
	assert_int_equal(f.nr, 2);
	free(p);
	p = exact(&tm, sizeof(tm));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.thread_map->entries[0].pid, 42);
	free(p);
}

static void test_read_update_other(void **state)
{
	/* READ with one value: perf's fixed view, zero past the record */
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t value;
	} rd = { { PERF_RECORD_READ, 0, sizeof(rd) }, 3, 4, 99 };
	struct {
		struct perf_record_event_update u;
		double scale;
	} up = { .u = { .header = { PERF_RECORD_EVENT_UPDATE, 0, sizeof(up) },
			.type = PERF_EVENT_UPDATE__SCALE, .id = 5 }, .scale = 2.5 };
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(round) };
	struct perf_event_header sw = { PERF_RECORD_SWITCH, 0, sizeof(sw) };
	struct lupe_perf_record_fields f;
	void *p;

	p = exact(&rd, sizeof(rd));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.read.tid, 4);
	assert_int_equal(f.read.value, 99);
	assert_int_equal(f.read.time_enabled, 0);
	assert_int_equal(f.read.lost, 0);
	free(p);
	p = exact(&up, sizeof(up));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.event_update->id, 5);
	assert_true(f.scale == 2.5);
	free(p);
	assert_int_equal(lupe_perf_record_decode(&round, &f), -EOPNOTSUPP);

	struct perf_record_header_feature feat = { { PERF_RECORD_HEADER_FEATURE, 0, sizeof(feat) },
						   HEADER_LAST_FEATURE };

	p = exact(&feat, sizeof(feat));
	assert_int_equal(lupe_perf_record_decode(p, &f), 0);
	assert_int_equal(f.feature->feat_id, HEADER_LAST_FEATURE);
	free(p);
	feat.header.size = 12;
	p = exact(&feat, 12);
	assert_int_equal(lupe_perf_record_decode(p, &f), -EINVAL);
	free(p);
	assert_int_equal(lupe_perf_record_decode(&sw, &f), 0);
	assert_null(f.cpu_wide); /* SWITCH has no fields */
}

static void test_cpu_map(void **state)
{
	uint16_t list[] = { 0, 3, 1, 2, 5 }; /* type 0, nr 3, cpus 1 2 5 */
	uint8_t mask[16] = { 1, 0, 1, 0, 8, 0 }; /* type 1, 1 long of 8 bytes */
	uint16_t range[] = { 2, 1, 4, 6 };  /* type 2, any_cpu 1, 4-6 */
	uint16_t cpus[8];
	void *p;

	p = exact(list, sizeof(list));
	assert_int_equal(lupe_perf_cpu_map_decode(p, sizeof(list), cpus, 8), 3);
	assert_int_equal(cpus[2], 5);
	/* nr says 3, 2 fit */
	assert_int_equal(lupe_perf_cpu_map_decode(p, sizeof(list) - 2, cpus, 8), 2);
	free(p);
	mask[8] = 0x12; /* CPUs 1 and 4 */
	p = exact(mask, sizeof(mask));
	assert_int_equal(lupe_perf_cpu_map_decode(p, sizeof(mask), cpus, 8), 2);
	assert_int_equal(cpus[0], 1);
	assert_int_equal(cpus[1], 4);
	free(p);
	range[1] = 1; /* any_cpu = 1, pad = 0 */
	p = exact(range, sizeof(range));
	assert_int_equal(lupe_perf_cpu_map_decode(p, sizeof(range), cpus, 8), 4);
	assert_int_equal(cpus[0], 0xffff);
	assert_int_equal(cpus[3], 6);
	assert_int_equal(lupe_perf_cpu_map_decode(p, sizeof(range), cpus, 2), 2); /* max */
	assert_int_equal(lupe_perf_cpu_map_decode(p, 6, cpus, 8), -EINVAL);
	free(p);
	list[0] = 9;
	assert_int_equal(lupe_perf_cpu_map_decode(list, sizeof(list), cpus, 8), -EINVAL);
}

/* perf's header string: u32 length padded to 8 here, then the bytes */
static size_t put_str(uint8_t *b, const char *s)
{
	uint32_t n = (uint32_t)(strlen(s) + 1 + 7) / 8 * 8;

	memcpy(b, &n, 4);
	memset(b + 4, 0, n);
	memcpy(b + 4, s, strlen(s));
	return 4 + n;
}

static void test_features(void **state)
{
	uint8_t b[256];
	size_t n = 0;
	uint32_t nr = 2;
	struct lupe_perf_feature feat;
	struct lupe_perf_feature_entry e;
	void *p;

	n = put_str(b, "host");
	p = exact(b, n);
	assert_int_equal(lupe_perf_feature_decode(HEADER_HOSTNAME, p, n, &feat), 0);
	assert_int_equal(feat.str.len, 4);
	assert_memory_equal(feat.str.s, "host", 4);
	assert_false(feat.bad);
	/* cut: "" and bad */
	assert_int_equal(lupe_perf_feature_decode(HEADER_HOSTNAME, p, n - 1, &feat), 0);
	assert_int_equal(feat.str.len, 0);
	assert_true(feat.bad);
	free(p);
	assert_int_equal(lupe_perf_feature_decode(HEADER_HOSTNAME, NULL, 0, &feat), -EINVAL);

	/* NRCPUS: avail, then online; a u64 feature cut short reads as 0 */
	uint32_t cpus[2] = { 8, 4 };

	p = exact(cpus, sizeof(cpus));
	assert_int_equal(lupe_perf_feature_decode(HEADER_NRCPUS, p, sizeof(cpus), &feat), 0);
	assert_int_equal(feat.nrcpus.avail, 8);
	assert_int_equal(feat.nrcpus.online, 4);
	assert_int_equal(lupe_perf_feature_decode(HEADER_TOTAL_MEM, p, 4, &feat), 0);
	assert_int_equal(feat.total_mem_kb, 0);
	assert_true(feat.bad);
	free(p);

	/* CMDLINE: two words, then cut in the second */
	memcpy(b, &nr, 4);
	n = 4 + put_str(b + 4, "lupe");
	n += put_str(b + n, "record");
	p = exact(b, n);
	assert_int_equal(lupe_perf_feature_decode(HEADER_CMDLINE, p, n, &feat), 0);
	assert_int_equal(feat.nr, 2);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_memory_equal(e.name, "lupe", 4);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(e.name_len, 6);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 0);
	assert_int_equal(lupe_perf_feature_decode(HEADER_CMDLINE, p, n - 2, &feat), 0);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1); /* cut: "" and bad, as perf prints it */
	assert_int_equal(e.name_len, 0);
	assert_true(feat.bad);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 0);
	free(p);

	/* GROUP_DESC: name, leader, members */
	nr = 1;
	memcpy(b, &nr, 4);
	n = 4 + put_str(b + 4, "{anon_group}");
	memcpy(b + n, (uint32_t[]){ 1, 3 }, 8);
	n += 8;
	p = exact(b, n);
	assert_int_equal(lupe_perf_feature_decode(HEADER_GROUP_DESC, p, n, &feat), 0);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(e.leader, 1);
	assert_int_equal(e.members, 3);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 0);
	free(p);
}

static void test_pmu_caps(void **state)
{
	uint8_t b[256];
	size_t n;
	struct lupe_perf_feature feat;
	struct lupe_perf_feature_entry e;
	void *p;

	/* two PMUs: cpu_core with one cap, cpu_atom with none */
	memcpy(b, (uint32_t[]){ 2, 1 }, 8);
	n = 8 + put_str(b + 8, "slots");
	n += put_str(b + n, "4");
	n += put_str(b + n, "cpu_core");
	memcpy(b + n, (uint32_t[]){ 0 }, 4);
	n += 4;
	n += put_str(b + n, "cpu_atom");
	p = exact(b, n);
	assert_int_equal(lupe_perf_feature_decode(HEADER_PMU_CAPS, p, n, &feat), 0);
	assert_int_equal(feat.nr, 2);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(e.kind, LUPE_FEAT_CAP);
	assert_memory_equal(e.name, "slots", 5);
	assert_memory_equal(e.value, "4", 1);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(e.kind, LUPE_FEAT_PMU_END);
	assert_memory_equal(e.name, "cpu_core", 8);
	assert_int_equal(e.nr_caps, 1);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(e.kind, LUPE_FEAT_PMU_END);
	assert_int_equal(e.nr_caps, 0);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 0);
	assert_false(feat.bad);
	/* cut in the second PMU's name: it still ends, nameless, then nothing */
	assert_int_equal(lupe_perf_feature_decode(HEADER_PMU_CAPS, p, n - 3, &feat), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 1);
	assert_int_equal(e.kind, LUPE_FEAT_PMU_END);
	assert_int_equal(e.name_len, 0);
	assert_true(feat.bad);
	assert_int_equal(lupe_perf_feature_next(&feat, &e), 0);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_mmap2_comm),
		cmocka_unit_test(test_arrays_cut),
		cmocka_unit_test(test_read_update_other),
		cmocka_unit_test(test_cpu_map),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_pmu_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
