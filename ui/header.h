/* SPDX-License-Identifier: GPL-2.0 */
/* The perf.data header as `perf report --header` shows it. */
#ifndef LUPE_UI_HEADER_H
#define LUPE_UI_HEADER_H

#include <stdio.h>
#include <lupe/perfdata.h>

/* Print the "# ========" block for f (read from path). full: all features. */
void print_header(FILE *fp, struct lupe_perf_file *f, const char *path, int full);

/*
 * The attr's set fields as perf prints them: "name<kv>value", the first after
 * first, the rest after ", " (--header: ", " and " = "; evlist -v: ": " and ": ").
 */
void ui_attr_fprintf(FILE *fp, const struct perf_event_attr *a, const char *first, const char *kv);

#endif
