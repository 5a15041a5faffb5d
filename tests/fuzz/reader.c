// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a perf.data, read by the session as report
 * and script read it. Symbol lookups read the system's files (kallsyms,
 * libc's debug info), which is slow and not driven by the input: they run
 * only with FUZZ_RESOLVE=1. Samples with a user stack copy and registers
 * (--call-graph dwarf) are always unwound: the copy, the registers and the
 * maps come from the input (truncated copies, zero sizes, missing
 * registers, stack pointers outside the copy).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin();
	struct lupe_tool tool = { .sample = on_sample, .ordered = 1 };
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
		lupe_session_delete(s);
	}
out:
	if (fd >= 0)
		close(fd);
	fuzz_mem_end(base, size);
	return 0;
}
