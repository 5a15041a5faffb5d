/* SPDX-License-Identifier: GPL-2.0 */
/* The perf.data header as `perf report --header` shows it. */
#ifndef LUPE_UI_HEADER_H
#define LUPE_UI_HEADER_H

#include <stdio.h>
#include <lupe/perfdata.h>

/* Print the "# ========" block for f (read from path). full: all features. */
void print_header(FILE *fp, struct lupe_perf_file *f, const char *path, int full);

#endif
