// SPDX-License-Identifier: GPL-2.0
/*
 * lupe evlist: the events a perf.data was recorded with, one per line, as
 * perf evlist prints them: names; -v every attr field set; -F the sample
 * frequency or period; -g groups as {leader,member...} (from GROUP_DESC).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/core.h>
#include <lupe/evsel.h>
#include <lupe/perf-format.h>
#include <lupe/perfdata.h>
#include "builtin.h"
#include "options.h"
#include "header.h"

struct evlist_opts {
	const char *input;
	int verbose, group, freq, force;
};

#define CMD_OPTS struct evlist_opts
static const struct cmd_option options[] = {
	OPT_FORCE(force, "don't complain, do it"),
	OPT_BOOL('F', "freq", freq, "show the sample frequency"),
	OPT_BOOL('g', "group", group, "show event group information"),
	OPT_INPUT(input, "input file name (default: perf.data)"),
	OPT_VERBOSE(verbose, "show all event attr details"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, NULL,
	"List the events in a perf.data file." };

struct group {
	char *name; /* NULL for perf's "{anon_group}" */
	uint32_t leader, nr;
};

/* GROUP_DESC: u32 nr, then per group a header string, u32 leader index, u32 members. */
static struct group *read_groups(struct lupe_perf_file *f, size_t *nr)
{
	size_t size;
	const char *p = lupe_perf_file_feature(f, HEADER_GROUP_DESC, &size), *end = p + size;
	struct group *g;
	uint32_t n;

	*nr = 0;
	if (!p || size < 4)
		return NULL;
	memcpy(&n, p, 4);
	p += 4;
	g = calloc(n ? n : 1, sizeof(*g));
	for (uint32_t i = 0; g && i < n; i++) {
		uint32_t len;

		if (end - p < 4)
			break;
		memcpy(&len, p, 4);
		p += 4;
		if ((size_t)(end - p) < (size_t)len + 8)
			break;
		if (strncmp(p, "{anon_group}", len))
			g[i].name = strndup(p, len);
		p += len;
		memcpy(&g[i].leader, p, 4);
		memcpy(&g[i].nr, p + 4, 4);
		p += 8;
		(*nr)++;
	}
	return g;
}

static const char *name_of(struct lupe_perf_file *f, size_t i)
{
	const char *n = lupe_evsel_name(lupe_perf_file_evsel(f, i));

	return n ? n : "";
}

int cmd_evlist(int argc, char **argv)
{
	struct evlist_opts o = { .input = "perf.data" };
	struct lupe_perf_file *f;
	struct group *groups = NULL;
	size_t nr_groups = 0, nr;
	int idx;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	f = lupe_perf_file_open(o.input, o.force);
	if (!f)
		return error("cannot open '%s': %s", o.input, lupe_strerror(-errno)), 1;
	if (lupe_perf_file_is_pipe(f)) { /* a stream's attrs are records */
		const struct perf_event_header *ev;
		uint64_t off;
		int stable;

		while (lupe_perf_file_next(f, &ev, &off, &stable) > 0)
			;
	}
	nr = lupe_perf_file_nr_evsels(f);
	if (o.group)
		groups = read_groups(f, &nr_groups);
	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_attr *a = lupe_evsel_attr(lupe_perf_file_evsel(f, i));
		const struct group *g = NULL;

		if (o.group) {
			int member = 0;

			for (size_t k = 0; k < nr_groups; k++) {
				if (groups[k].nr > 1 && i == groups[k].leader)
					g = &groups[k];
				else if (groups[k].nr > 1 && i > groups[k].leader &&
					 i < groups[k].leader + groups[k].nr)
					member = 1;
			}
			if (member)
				continue;
			if (g) {
				printf("%s{%s", g->name ? g->name : "", name_of(f, i));
				for (uint32_t m = 1; m < g->nr && i + m < nr; m++)
					printf(",%s", name_of(f, i + m));
				printf("}\n");
				continue;
			}
		}
		printf("%s", name_of(f, i));
		if (o.verbose && !o.group)
			ui_attr_fprintf(stdout, a, ": ", ": ");
		else if (o.freq && !o.group)
			printf(": %s=%llu", a->freq ? "sample_freq" : "sample_period",
			       (unsigned long long)a->sample_period);
		putchar('\n');
	}
	for (size_t k = 0; k < nr_groups; k++)
		free(groups[k].name);
	free(groups);
	lupe_perf_file_delete(f);
	return 0;
}
