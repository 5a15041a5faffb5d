// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a pipe-mode perf.data stream (what
 * `perf record -o -` writes): attrs, features and tracing data come as
 * records, read through stdio one at a time. Input that does not start with
 * a pipe header gets one, so that every input reaches the record parser.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <lupe/session.h>
#include "membound.h"

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	char buf[256];

	lupe_evsel_format_trace(evsel, sample, buf, sizeof(buf));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin();
	static const uint8_t hdr[16] = { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2', 16 };
	struct lupe_tool tool = { .sample = on_sample, .ordered = 1 };
	char path[64];
	int fd = memfd_create("fuzz-pipe", 0);
	struct lupe_session *s;

	if (fd < 0)
		return 0;
	if ((size < 16 || memcmp(data, hdr, 16)) && write(fd, hdr, 16) != 16)
		goto out;
	if (write(fd, data, size) != (ssize_t)size)
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = lupe_session_open(path, 1);
	if (s) {
		lupe_session_process(s, &tool);
		lupe_session_delete(s);
	}
out:
	close(fd);
	fuzz_mem_end(base, size);
	return 0;
}
