// SPDX-License-Identifier: GPL-2.0
/*
 * lupe buildid-list: the build-ids a perf.data holds (its BUILD_ID table),
 * or only those of the DSOs its samples hit (-H, a pass over the samples),
 * or the running kernel's (-k), as perf buildid-list prints them:
 * "<hex> <name>" per line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/core.h>
#include <lupe/perf-format.h>
#include <lupe/perfdata.h>
#include <lupe/record.h>
#include <lupe/symbols.h>
#include "builtin.h"
#include "options.h"

struct list_opts {
	const char *input;
	int with_hits, kernel, force;
	char **hits; /* -H: the names hit, in first-hit order */
	size_t nr_hits;
	buildid_fn fn;
	void *arg;
};

#define CMD_OPTS struct list_opts
static const struct cmd_option options[] = {
	OPT_FORCE(force, "don't complain, do it"),
	OPT_BOOL('H', "with-hits", with_hits, "show only DSOs with hits"),
	OPT_INPUT(input, "input file name (default: perf.data)"),
	OPT_BOOL('k', "kernel", kernel, "show the running kernel's build-id"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, NULL,
	"List the build-ids of the DSOs a perf.data refers to." };

static int note_hit(void *arg, const char *name)
{
	struct list_opts *o = arg;
	char **n = realloc(o->hits, (o->nr_hits + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	o->hits = n; /* at once: realloc may have freed the old array */
	if (!(n[o->nr_hits] = strdup(name)))
		return -ENOMEM;
	o->nr_hits++;
	return 0;
}

static void free_hits(struct list_opts *o)
{
	for (size_t i = 0; i < o->nr_hits; i++)
		free(o->hits[i]);
	free(o->hits);
	o->hits = NULL;
	o->nr_hits = 0;
}

/* Index of name among the hits, or -1. */
static long hit_index(const struct list_opts *o, const char *name, size_t len)
{
	for (size_t i = 0; i < o->nr_hits; i++)
		if (o->hits[i] && strlen(o->hits[i]) == len && !memcmp(o->hits[i], name, len))
			return (long)i;
	return -1;
}

/* The BUILD_ID table: header, pid, 24 bytes of id (size at byte 20), name. */
static void print_table(struct list_opts *o, const char *p, size_t size)
{
	const char *end = p + size;

	while (p + 8 + 4 + 24 <= end) {
		uint16_t misc, rsize;
		const char *name;
		size_t len;
		int idlen;
		char hex[2 * LUPE_BUILD_ID_MAX + 1];
		long hit;

		memcpy(&misc, p + 4, 2);
		memcpy(&rsize, p + 6, 2);
		if (rsize < 36 || p + rsize > end)
			break;
		idlen = misc & PERF_RECORD_MISC_BUILD_ID_SIZE ? (uint8_t)p[12 + 20] : LUPE_BUILD_ID_MAX;
		if (idlen > LUPE_BUILD_ID_MAX)
			idlen = LUPE_BUILD_ID_MAX;
		name = p + 36;
		len = strnlen(name, rsize - 36);
		hit = hit_index(o, name, len);
		if (!o->with_hits || hit >= 0) {
			char *n = strndup(name, len);

			lupe_build_id_to_hex((const uint8_t *)p + 12, idlen, hex);
			if (n)
				o->fn(o->arg, hex, n);
			free(n);
		}
		if (hit >= 0) { /* said: not again from the file */
			free(o->hits[hit]);
			o->hits[hit] = NULL;
		}
		p += rsize;
	}
}

static int print_entry(void *arg, const char *hex, const char *name)
{
	printf("%s %s\n", hex, name);
	return 0;
}

int cmd_buildid_list(int argc, char **argv)
{
	struct list_opts o = { .input = "perf.data" };
	int idx;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (o.kernel) {
		uint8_t id[LUPE_BUILD_ID_MAX];
		char hex[2 * LUPE_BUILD_ID_MAX + 1];
		int len = lupe_build_id_of("[kernel.kallsyms]", id);

		if (len <= 0)
			return error("cannot read the running kernel's build-id in /sys/kernel/notes: %s",
				     strerror(-len)), 1;
		lupe_build_id_to_hex(id, len, hex);
		printf("%s\n", hex);
		return 0;
	}
	return buildid_list(o.input, o.force, o.with_hits, print_entry, NULL) ? 1 : 0;
}

int buildid_list(const char *input, int force, int with_hits, buildid_fn fn, void *arg)
{
	struct list_opts ob = { .input = input, .force = force, .with_hits = with_hits,
				.fn = fn, .arg = arg }, *o = &ob;
	struct lupe_perf_file *f;
	const void *table;
	size_t size = 0;
	int err;

	/* a stream carries no table: what it holds is what its samples hit */
	if (!strcmp(o->input, "-")) {
		o->with_hits = 1;
		f = NULL;
	} else {
		f = lupe_perf_file_open(o->input, o->force);
		if (!f)
			return error("cannot open '%s': %s", o->input, lupe_strerror(-errno));
		if (lupe_perf_file_is_pipe(f))
			o->with_hits = 1;
	}
	if (o->with_hits) {
		lupe_perf_file_delete(f);
		err = lupe_perf_file_hits(o->input, o->force, note_hit, o);
		if (err) {
			free_hits(o); /* what was noted before the file broke */
			return error("cannot read '%s': %s", o->input, lupe_strerror(err));
		}
		f = NULL;
		if (strcmp(o->input, "-"))
			f = lupe_perf_file_open(o->input, o->force);
	}
	table = f ? lupe_perf_file_feature(f, HEADER_BUILD_ID, &size) : NULL;
	if (table)
		print_table(o, table, size);
	/* hits the table does not name: their build-id from the file itself */
	for (size_t i = 0; i < o->nr_hits; i++) {
		uint8_t id[LUPE_BUILD_ID_MAX];
		char hex[2 * LUPE_BUILD_ID_MAX + 1];
		int len;

		if (!o->hits[i])
			continue;
		len = lupe_build_id_of(o->hits[i], id);
		if (len > 0) {
			lupe_build_id_to_hex(id, len, hex);
			o->fn(o->arg, hex, o->hits[i]);
		}
	}
	free_hits(o);
	lupe_perf_file_delete(f);
	return 0;
}
