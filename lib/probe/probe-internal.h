/* SPDX-License-Identifier: GPL-2.0 */
/* Private to lib/probe: what probe.c asks of the ELF and DWARF side. */
#ifndef LUPE_PROBE_INTERNAL_H
#define LUPE_PROBE_INTERNAL_H

#include <lupe/probe.h>

/* Set ev->place to "FUNC" or "FUNC+OFF" for a uprobe's target and offset; leaves it NULL when unknown. */
void lupe_probe_event_describe(struct lupe_probe_event *ev);

/* Put the reason of a failure in p->why (printf style) and return err. */
int lupe_probe_fail(struct lupe_probe *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The refusal of a kernel probe that needs the kernel's DWARF (a line, a
 * variable, name when given): its second line is perf's own words, which
 * perf's scripts grep as "no kernel debug info, skip". Returns err.
 */
int lupe_probe_fail_kernel_dwarf(struct lupe_probe *p, int err, const char *what, const char *name);

/* A growing NULL-terminated array of names. */
struct lupe_probe_names {
	char **v;
	size_t nr, cap;
};

/* Append name (malloc'ed; taken, freed on failure; NULL means out of memory). 0 or -ENOMEM. */
int lupe_probe_names_add(struct lupe_probe_names *out, char *name);

/*
 * The names of path's symbols perf probe --funcs lists (unsorted, aliases
 * kept), into a NULL-terminated array of *nr, freed with
 * lupe_probe_names_delete(). 0 or a negative errno.
 */
int lupe_probe_symbol_names(const char *path, char ***names, size_t *nr);

#endif
