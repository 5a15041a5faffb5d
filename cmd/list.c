// SPDX-License-Identifier: GPL-2.0
/*
 * lupe list: the events this machine offers, in perf list's layout, with
 * perf's category words (hw, sw, cache, pmu, tracepoint) and globs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/events.h>
#include "builtin.h"
#include "options.h"
#include "event-list.h"
#include "pager.h"
#include "parse-error.h"

struct list_opts {
	bool json, raw_dump;
	const char *check_spec;
	char **args; /* the words: categories and globs */
	int nr_args;
};

#define CMD_OPTS struct list_opts
static const struct cmd_option options[] = {
	OPT_BOOL('j', "json", json, "print the list as a JSON array"),
	OPT_BOOL(0, "raw-dump", raw_dump, "print the event names only, space separated (for scripts)"),
	/* a debugging aid for tests: how a spec parses, or its caret */
	OPT_STRING_F(0, "check-spec", "SPEC", OPTION_HIDDEN, check_spec, "parse SPEC and print its events"),
	OPT_ARGS(args, nr_args),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, "[hw|sw|cache|tool|pmu|tracepoint|GLOB]...",
	"List the events this machine offers, as perf list does.\v"
	"A word that is no category is a glob: 'lupe list sched:*' lists the sched "
	"tracepoints, 'lupe list faults' everything whose name holds 'faults'." };

/* perf's category words; 0 when arg is none. */
static unsigned int category(const char *arg)
{
	static const struct {
		const char *word;
		unsigned int mask;
	} words[] = {
		{ "hw", LUPE_KIND_BIT(LUPE_KIND_HARDWARE) },
		{ "hardware", LUPE_KIND_BIT(LUPE_KIND_HARDWARE) },
		{ "sw", LUPE_KIND_BIT(LUPE_KIND_SOFTWARE) | LUPE_KIND_BIT(LUPE_KIND_TOOL) },
		{ "software", LUPE_KIND_BIT(LUPE_KIND_SOFTWARE) | LUPE_KIND_BIT(LUPE_KIND_TOOL) },
		{ "tool", LUPE_KIND_BIT(LUPE_KIND_TOOL) },
		{ "cache", LUPE_KIND_BIT(LUPE_KIND_CACHE) },
		{ "hwcache", LUPE_KIND_BIT(LUPE_KIND_CACHE) },
		{ "pmu", LUPE_KIND_BIT(LUPE_KIND_PMU) },
		{ "tracepoint", LUPE_KIND_BIT(LUPE_KIND_TRACEPOINT) },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(arg, words[i].word))
			return words[i].mask;
	return 0;
}

static int collect(struct lupe_event_desc_list *l, const char *arg)
{
	unsigned int mask = category(arg);
	char *glob;
	int err;

	if (mask)
		return lupe_events_list(l, mask, NULL);
	/* perf's categories that lupe has no entries for */
	if (!strcmp(arg, "sdt") || !strncmp(arg, "metric", 6))
		return 0;
	if (strchr(arg, ':'))
		return lupe_events_list(l, LUPE_KINDS_ALL, arg);
	if (asprintf(&glob, "*%s*", arg) < 0)
		return -ENOMEM;
	err = lupe_events_list(l, LUPE_KINDS_ALL, glob);
	free(glob);
	return err;
}

static int check_spec(const char *spec)
{
	struct lupe_event_list list = { 0 };
	struct lupe_parse_error err;
	int ret = lupe_events_parse(&list, spec, &err);

	if (ret) {
		lupe_event_list_clear(&list);
		if (ret != -LUPE_ERR_PARSE)
			return error("cannot parse '%s': %s", spec, lupe_strerror(ret)), 1;
		ui_print_parse_error(stderr, spec, &err);
		return EXIT_USAGE;
	}
	ret = ui_event_print_attrs(stdout, &list);
	lupe_event_list_clear(&list);
	return ret ? 1 : 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	struct lupe_event_desc_list l = { 0 };
	int idx, err = 0;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o)) {
		free(o.args);
		return EXIT_USAGE;
	}
	if (o.check_spec) {
		free(o.args);
		return check_spec(o.check_spec);
	}
	if (!o.nr_args)
		err = lupe_events_list(&l, LUPE_KINDS_ALL, NULL);
	for (int i = 0; i < o.nr_args && !err; i++)
		err = collect(&l, o.args[i]);
	free(o.args);
	if (err) {
		lupe_event_desc_list_clear(&l);
		return error("cannot list events: %s", lupe_strerror(err)), 1;
	}
	if (o.raw_dump) {
		/* perf's: each name and a space, no newline; what scripts loop over
		 * (the rNNN and mem: spelling guides are no events to count) */
		for (size_t i = 0; i < l.nr; i++)
			if (l.descs[i].kind != LUPE_KIND_RAW && l.descs[i].kind != LUPE_KIND_BREAKPOINT)
				printf("%s ", l.descs[i].name);
	} else if (o.json)
		err = ui_event_list_print_json(stdout, &l);
	else
		err = ui_event_list_print(stdout, &l, pager_in_use());
	lupe_event_desc_list_clear(&l);
	/* a failed write is reported by the dispatcher when it flushes stdout */
	return 0;
}
