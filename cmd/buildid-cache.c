// SPDX-License-Identifier: GPL-2.0
/*
 * lupe buildid-cache: add, remove and list the binaries kept by build-id,
 * as perf buildid-cache does, in the same cache (perf's layout; the folder
 * is `lupe --buildid-dir DIR`, perf's buildid.dir config, or ~/.debug).
 * Lists are comma separated and options repeat, as perf's do.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/core.h>
#include <lupe/symbols.h>
#include "builtin.h"
#include "options.h"

enum { OPT_ADD, OPT_REMOVE, OPT_PURGE, OPT_UPDATE, NR_LISTS };

struct cache_opts {
	char *lists[NR_LISTS]; /* comma-separated names, joined across repeats */
	int list, purge_all, verbose, force;
};

/* -a, -r, -p, -u: the FILE lists, joined across repeats */
static error_t append(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	char **list = cmd_opt_field(state, opt), *s;

	if (asprintf(&s, "%s%s%s", *list ? *list : "", *list ? "," : "", arg) < 0)
		die("out of memory");
	free(*list);
	*list = s;
	return 0;
}

#define CMD_OPTS struct cache_opts
#define OPT_FILES(s, l, list, d) OPT_CALLBACK_FIELD(s, l, "FILE[,FILE]", 0, lists[list], append, d)
static const struct cmd_option options[] = {
	OPT_FILES('a', "add", OPT_ADD, "file(s) to add"),
	OPT_FORCE(force, "don't complain, do it"),
	OPT_BOOL('l', "list", list, "list all cached files"),
	OPT_FILES('p', "purge", OPT_PURGE, "file(s) to remove (remove old caches too)"),
	OPT_BOOL('P', "purge-all", purge_all, "purge all cached files"),
	OPT_FILES('r', "remove", OPT_REMOVE, "file(s) to remove"),
	OPT_FILES('u', "update", OPT_UPDATE, "file(s) to update"),
	OPT_VERBOSE(verbose, "be more verbose"),
	OPT_END()
};
#undef OPT_FILES

static const struct cmd_argp argp = { options, NULL, NULL,
	"Manage the build-id cache: the binaries perf.data files refer to, kept by build-id." };

/* The build-id of name as hex; -errno when it has none (said already). */
static int file_build_id(const char *name, uint8_t *id, char *hex)
{
	int len = lupe_build_id_of(name, id);

	if (len == -ENOENT)
		return error("cannot read a build-id in '%s': it is not an ELF file with one", name),
		       -ENOENT;
	if (len < 0)
		return error("cannot read a build-id in '%s': %s", name, strerror(-len)), len;
	lupe_build_id_to_hex(id, len, hex);
	return len;
}

static int add_one(const char *name, int verbose)
{
	uint8_t id[LUPE_BUILD_ID_MAX];
	char hex[2 * LUPE_BUILD_ID_MAX + 1];
	int len = file_build_id(name, id, hex), err;

	if (len < 0)
		return -1;
	err = lupe_buildid_cache_add(name, id, len);
	if (verbose)
		fprintf(stderr, "Adding %s %s: %s\n", hex, name, err ? "FAIL" : "Ok");
	if (err)
		return error("cannot add '%s' to the build-id cache '%s': %s", name,
			     lupe_buildid_dir(), strerror(-err));
	return 0;
}

static int remove_one(const char *name, int verbose)
{
	uint8_t id[LUPE_BUILD_ID_MAX];
	char hex[2 * LUPE_BUILD_ID_MAX + 1];
	int len = file_build_id(name, id, hex), err;

	if (len < 0)
		return -1;
	err = lupe_buildid_cache_remove(hex);
	if (verbose)
		fprintf(stderr, "Removing %s %s: %s\n", hex, name, err ? "FAIL" : "Ok");
	if (err == -ENOENT)
		return error("'%s' was not in the build-id cache", name);
	if (err)
		return error("cannot remove '%s' from the build-id cache: %s", name, strerror(-err));
	return 0;
}

/* What a purge matches: entries added under this name, whatever their build-id. */
struct purge {
	const char *name; /* NULL: all */
	int verbose, failed;
};

static int purge_entry(void *arg, const char *hex, const char *name)
{
	struct purge *p = arg;
	int err;

	if (p->name && strcmp(p->name, name))
		return 0;
	err = lupe_buildid_cache_remove(hex);
	if (p->verbose) {
		if (p->name)
			fprintf(stderr, "Removing %s %s: %s\n", hex, name, err ? "FAIL" : "Ok");
		else
			fprintf(stderr, "Removing %s (%s): %s\n", name, hex, err ? "FAIL" : "Ok");
	}
	if (err)
		p->failed = error("cannot remove '%s' (%s) from the build-id cache: %s", name, hex,
				  strerror(-err));
	return 0;
}

static int purge(const char *name, int verbose)
{
	char real[PATH_MAX];
	struct purge p = { .verbose = verbose };

	if (name) {
		if (!realpath(name, real))
			return error("cannot purge '%s': %s", name, strerror(errno));
		p.name = real;
	}
	if (lupe_buildid_cache_list(purge_entry, &p))
		p.failed = -1;
	if (verbose) {
		if (name)
			fprintf(stderr, "Purging %s: %s\n", name, p.failed ? "FAIL" : "Ok");
		else
			fprintf(stderr, "Purged all: %s\n", p.failed ? "FAIL" : "Ok");
	}
	return p.failed;
}

static int list_entry(void *arg, const char *hex, const char *name)
{
	printf("%s %s\n", hex, name);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run fn on each name of a comma-separated list, sorted and once each as perf's strlist; -1 if any failed. */
static int each(char *list, int (*fn)(const char *, int), int verbose)
{
	char **names = NULL;
	size_t nr = 0;
	int ret = 0;

	for (char *save = NULL, *t = list ? strtok_r(list, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save)) {
		char **n = realloc(names, (nr + 1) * sizeof(*n));

		if (!n)
			die("out of memory");
		names = n;
		names[nr++] = t;
	}
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nr; i++)
		if ((!i || strcmp(names[i], names[i - 1])) && fn(names[i], verbose))
			ret = -1;
	free(names);
	return ret;
}

static int update_one(const char *name, int verbose)
{
	uint8_t id[LUPE_BUILD_ID_MAX];
	char hex[2 * LUPE_BUILD_ID_MAX + 1];
	int len = lupe_build_id_of(name, id);

	if (len > 0) {
		lupe_build_id_to_hex(id, len, hex);
		lupe_buildid_cache_remove(hex);
	}
	return add_one(name, verbose);
}

static int purge_one(const char *name, int verbose)
{
	return purge(name, verbose);
}

int cmd_buildid_cache(int argc, char **argv)
{
	struct cache_opts o = { 0 };
	int idx, ret = 0, any;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	any = o.list || o.purge_all;
	for (int i = 0; i < NR_LISTS; i++)
		any |= o.lists[i] != NULL;
	if (!any) {
		error("lupe buildid-cache needs an action: -a, -r, -p, -P, -u or -l (see lupe buildid-cache -h)");
		return EXIT_USAGE;
	}
	ret |= each(o.lists[OPT_ADD], add_one, o.verbose);
	ret |= each(o.lists[OPT_REMOVE], remove_one, o.verbose);
	ret |= each(o.lists[OPT_PURGE], purge_one, o.verbose);
	ret |= each(o.lists[OPT_UPDATE], update_one, o.verbose);
	if (o.purge_all)
		ret |= purge(NULL, o.verbose);
	if (o.list) {
		int err = lupe_buildid_cache_list(list_entry, NULL);

		if (err)
			ret = error("cannot list the build-id cache '%s': %s", lupe_buildid_dir(),
				    strerror(-err));
	}
	for (int i = 0; i < NR_LISTS; i++)
		free(o.lists[i]);
	return ret ? 1 : 0;
}
