/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The samples of a perf.data as JSON, in the shape of perf 6.1's `perf data
 * convert --to-json`: {"linux-perf-json-version": 1, "headers": {...},
 * "samples": [{"timestamp", "pid", "tid", "cpu" (when recorded), "comm",
 * "callchain": [{"ip": "0x..", "symbol", "dso"}, ...]}, ...]}, samples in
 * time order, each callchain as recorded (innermost first, context markers
 * left out, no unwinding and no inlined frames, as perf's), or the sample's
 * ip alone when it has none. In lines mode the same sample objects are
 * written one a line with nothing around them (JSON Lines, for jq and
 * pandas), each as soon as it is read.
 * Thread-safety: independent calls are independent.
 */
#ifndef LUPE_JSON_H
#define LUPE_JSON_H

#include <stdio.h>
#include <lupe/core.h>

struct lupe_json_opts {
	size_t sz;   /* sizeof(struct lupe_json_opts) */
	int force;   /* read a file not owned by the caller */
	int lines;   /* JSON Lines: one sample object a line, no headers */
};

/*
 * Write the samples of the perf.data at path ("-": stdin) to out. Returns
 * 0, or a negative errno: -EIO when out failed, -EINVAL for bad opts, the
 * error of opening or reading the file (logged). A file broken part way is
 * written up to the break, with a warning logged, and returns 0.
 */
LUPE_API int lupe_json_write(const char *path, FILE *out, const struct lupe_json_opts *opts);

#endif
