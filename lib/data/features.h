/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The header features a recording writes, built from the host (uname,
 * /proc, sysfs) and from what the recording learned. Each feature's
 * content is laid out as perf's header.c writes it.
 */
#ifndef LUPE_DATA_FEATURES_H
#define LUPE_DATA_FEATURES_H

#include <stdint.h>
#include "data/writer.h"

struct feat_env {
	const char *version;       /* VERSION: "lupe 0.1.0" */
	int argc;                  /* CMDLINE: the command's words, after the program */
	char **argv;
	uint64_t first_sample_time, last_sample_time; /* SAMPLE_TIME, when both set */
	struct fbuf *build_ids;    /* BUILD_ID entries, taken if non-empty */
	struct fbuf *tracing_data; /* TRACING_DATA, taken if non-empty */
	int comp_level;            /* COMPRESSED when non-zero */
	uint32_t comp_ratio;
	uint32_t comp_mmap_len;
	int use_clockid;           /* CLOCKID and CLOCK_DATA when set (record --clockid) */
	int clockid;
	uint64_t clockid_res_ns;   /* CLOCKID: the clock's resolution */
	uint64_t clock_tod_ns, clock_ref_ns; /* CLOCK_DATA: one instant as time of day and on clockid */
};

/*
 * Build every feature of env and hand it to w: as sections kept for
 * lupe_perf_writer_finish in file mode, as HEADER_FEATURE records in pipe mode
 * (where only what is known before the data is written). A feature the
 * host cannot describe (no /proc/cpuinfo model name) is left out, as perf
 * leaves it out. Returns 0 or -errno (-ENOMEM, a write error).
 */
int lupe_features_write(struct perf_writer *w, const struct feat_env *env, int pipe);

/* EVENT_DESC for w's attrs: nr, attr size, then attr, ids, name per event. */
void lupe_features_event_desc(const struct perf_writer *w, struct fbuf *b);

#endif
