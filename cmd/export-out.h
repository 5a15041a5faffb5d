/* SPDX-License-Identifier: GPL-2.0 */
/* The output file of convert and flamegraph ("-": stdout). */
#ifndef LUPE_CMD_EXPORT_OUT_H
#define LUPE_CMD_EXPORT_OUT_H

#include <stdio.h>

/* Open path for writing; NULL after saying why. */
FILE *export_open(const char *path);

/* Close out after a writer returned err; the exit status (said why when not 0). */
int export_close(FILE *out, const char *path, int err);

#endif
