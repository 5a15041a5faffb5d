/* SPDX-License-Identifier: GPL-2.0 */
/* The output file of convert and flamegraph ("-": stdout), opened as lupe/output.h says. */
#ifndef LUPE_CMD_EXPORT_OUT_H
#define LUPE_CMD_EXPORT_OUT_H

#include <stdio.h>
#include <lupe/output.h>

struct export_out {
	FILE *f;          /* write here */
	const char *path; /* as given */
	struct lupe_output o;
};

/* Open path for writing into *out; 0, or -1 after saying why. */
int export_open(struct export_out *out, const char *path);

/*
 * Close out after a writer returned err: the file takes its name when
 * whole, and is removed otherwise (a device or FIFO is left alone). The
 * exit status (said why when not 0).
 */
int export_close(struct export_out *out, int err);

/*
 * A text output written as it comes (stat -o, trace -o): opened as above
 * and given its name at once; append: added to in place (stat --append).
 * NULL after saying why.
 */
FILE *output_fopen(const char *path, int append);

/* The rows (options.h) of the samples convert and flamegraph read, into struct lupe_collect_opts co. */
#define OPT_COLLECT(co)                                                                           \
	OPT_FORCE(co.force, "read a file not owned by you"), OPT_TASK_FILTERS(co),                 \
	OPT_STRING(0, "comm", "LIST", co.comms, "only these commands"), OPT_ALIAS("comms", "LIST")

#endif
