/* SPDX-License-Identifier: GPL-2.0 */
/* The perf.data header as `perf report --header` shows it. */
#ifndef LUPE_UI_HEADER_H
#define LUPE_UI_HEADER_H

#include <stdio.h>
#include <lupe/perfdata.h>
#include <lupe/session.h>

/*
 * Print the "# ========" block for f (read from path, "-": stdin). full:
 * the missing features too. A pipe's features are not known yet: the
 * header_tool prints them as their records come, as perf does.
 */
void print_header(FILE *fp, struct lupe_perf_file *f, const char *path, int full);

/*
 * A tool printing each HEADER_FEATURE record's feature to fp as perf
 * prints a pipe's header, then passing every record on to inner. Without
 * inner (--header-only) it stops reading after the last feature.
 */
struct header_tool {
	struct lupe_tool tool; /* first: the session hands it back */
	struct lupe_tool *inner;
	FILE *fp;
	struct lupe_perf_file *f;
};
struct lupe_tool *header_tool(struct header_tool *h, struct lupe_tool *inner, FILE *fp,
			      struct lupe_perf_file *f);

/*
 * The attr's set fields as perf prints them: "name<kv>value", the first after
 * first, the rest after ", " (--header: ", " and " = "; evlist -v: ": " and ": ").
 */
void ui_attr_fprintf(FILE *fp, const struct perf_event_attr *a, const char *first, const char *kv);

#endif
