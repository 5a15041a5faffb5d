/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's configuration files (~/.perfconfig, /etc/perfconfig, $PERF_CONFIG):
 * git's format, "[section]" or "[section \"sub\"]" lines, then
 * "key = value" lines, '#' and ';' comments, quoted values. A variable is
 * named "section.key" ("section.sub.key"); sections and keys are
 * case-insensitive (kept lowercase), a subsection keeps its case.
 *
 * A config is an ordered set, as perf keeps it: variables grouped by
 * section in the order the sections first appeared, a variable given again
 * (in the same file or a later one) replaced in place. That order is what
 * `perf config --list` prints and what lupe_config_write() writes.
 * Thread-safety: one thread at a time per config.
 */
#ifndef LUPE_CONFIG_H
#define LUPE_CONFIG_H

#include <stddef.h>
#include <stdio.h>
#include <lupe/core.h>

struct lupe_config;

/* An empty config; NULL + errno. */
struct lupe_config *lupe_config_new(void);
void lupe_config_delete(struct lupe_config *c);

/*
 * Add the variables of a file's text (len bytes, no NUL needed) to c.
 * Returns 0, -ENOMEM, or -EINVAL for a malformed line, whose number (from
 * 1) goes to *bad_line when bad_line is not NULL; the variables before it
 * are kept, as perf keeps them.
 */
int lupe_config_parse(struct lupe_config *c, const char *text, size_t len,
		      int *bad_line);

/* lupe_config_parse() of the file at path: also -ENOENT and the other errors of open/read. */
int lupe_config_read(struct lupe_config *c, const char *path, int *bad_line);

/*
 * The files perf reads, in its order: $PERF_CONFIG alone when set
 * (empty: none), else /etc/perfconfig (unless $PERF_CONFIG_NOSYSTEM) then
 * ~/.perfconfig. Up to max paths go to paths[]; returns how many.
 * *user_path and *system_path (may be NULL) get the two fixed files,
 * which `perf config --user/--system` name. Strings are static.
 */
int lupe_config_files(const char **paths, int max);
const char *lupe_config_user_file(void);
const char *lupe_config_system_file(void);

/* The value of var ("report.children"), or NULL when unset. Lives until the next set. */
const char *lupe_config_get(const struct lupe_config *c, const char *var);

/*
 * Set var to value (a copy), where it is or at the end of its section.
 * Returns 0, -ENOMEM, or -EINVAL when var has no "section." or a name
 * that is not a variable's.
 */
int lupe_config_set(struct lupe_config *c, const char *var, const char *value);

/* The number of variables, and the i-th in order: 0, or -ERANGE. Pointers live as get's. */
size_t lupe_config_count(const struct lupe_config *c);
int lupe_config_item(const struct lupe_config *c, size_t i, const char **section,
		     const char **name, const char **value);

/*
 * Write c as perf config writes a file: "# this file is auto-generated.",
 * then each section and its "\tname = value" lines. Returns 0 or -EIO.
 */
int lupe_config_write(const struct lupe_config *c, FILE *f);

/*
 * A value read as perf reads a boolean: true/yes/on and false/no/off (any
 * case), "" is false, a number is true when not 0. Returns 0 or 1, or -EINVAL.
 */
int lupe_config_bool(const char *value);

#endif
