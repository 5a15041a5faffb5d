// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a perf.data, read by the session as report
 * and script read it. Symbol lookups read the system's files (kallsyms,
 * libc's debug info), which is slow and not driven by the input: they run
 * only with FUZZ_RESOLVE=1. Samples with a user stack copy and registers
 * (--call-graph dwarf) are always unwound: the copy, the registers and the
 * maps come from the input (truncated copies, zero sizes, missing
 * registers, stack pointers outside the copy). Every record and feature
 * section also goes through lib/data's decoder, as report -D and --header
 * decode them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <lupe/perf-format.h>
#include <lupe/perfdata.h>
#include <lupe/session.h>
#include <lupe/unwind.h>
#include "membound.h"

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	static struct lupe_frame frames[256];
	static int resolve = -1;
	char buf[256];

	if (resolve < 0)
		resolve = getenv("FUZZ_RESOLVE") != NULL;
	lupe_evsel_format_trace(evsel, sample, buf, sizeof(buf));
	if (!resolve)
		return 0; /* the session's callchain step unwound it already */
	lupe_session_resolve(s, thread, sample, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK, frames, 256);
	return 0;
}

static int on_record(struct lupe_tool *tool, struct lupe_session *s,
		     const struct perf_event_header *ev, uint64_t offset, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample)
{
	struct lupe_perf_record_fields r;
	uint16_t cpus[64];

	if (!lupe_perf_record_decode(ev, &r) && r.cpus)
		lupe_perf_cpu_map_decode(r.cpus, r.cpus_size, cpus, 64);
	return 0;
}

static void decode_features(struct lupe_perf_file *f)
{
	for (int id = 1; f && id < HEADER_LAST_FEATURE; id++) {
		struct lupe_perf_feature feat;
		struct lupe_perf_feature_entry e;
		size_t size;
		const void *d = lupe_perf_file_feature(f, id, &size);

		if (d && !lupe_perf_feature_decode(id, d, size, &feat))
			while (lupe_perf_feature_next(&feat, &e) > 0)
				;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin();
	struct lupe_tool tool = { .sample = on_sample, .record = on_record, .ordered = 1 };
	char path[64];
	int fd = memfd_create("fuzz", 0);
	struct lupe_session *s;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = lupe_session_open(path, 1);
	if (s) {
		lupe_unwind_install(s);
		lupe_session_process(s, &tool);
		decode_features(lupe_session_file(s));
		lupe_session_delete(s);
	}
out:
	if (fd >= 0)
		close(fd);
	fuzz_mem_end(base, size);
	return 0;
}
