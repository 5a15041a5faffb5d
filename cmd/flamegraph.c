// SPDX-License-Identifier: GPL-2.0
/*
 * lupe flamegraph: an interactive SVG flame graph of a perf.data, in one
 * pass over the samples (no perf script, no Perl), or the differential
 * graph of two recordings (--diff BEFORE AFTER).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/export.h>
#include "builtin.h"
#include "options.h"
#include "export-out.h"

struct flame_opts {
	const char *input, *output, *title;
	const char *files[2];
	int nr_files, diff, reverse, width;
	struct lupe_collect_opts co;
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct flame_opts *o = state->input;

	if (key != ARGP_KEY_ARG || o->nr_files == 2)
		return ARGP_ERR_UNKNOWN;
	o->files[o->nr_files++] = arg;
	return 0;
}

#define CMD_OPTS struct flame_opts
static const struct cmd_option options[] = {
	OPT_INPUT(input, "input file name (default: perf.data; - reads stdin)"),
	OPT_STRING('o', "output", "FILE", output, "the SVG (default: the input's name with .svg; - is stdout)"),
	OPT_BOOL(0, "diff", diff, "BEFORE AFTER: colour what grew red and what shrank blue"),
	OPT_BOOL(0, "reverse", reverse, "an icicle graph: callers at the top"),
	OPT_ALIAS("inverted", NULL),
	OPT_STRING(0, "title", "TEXT", title, "the title (default: Flame Graph)"),
	OPT_INT(0, "width", "PIXELS", width, 100, 100000, "the width of the image (default 1200)"),
	OPT_COLLECT(co),
	OPT_END()
};

static const struct cmd_argp argp = { options, parse_opt, "[--diff BEFORE AFTER]",
	"Draw the samples of a perf.data as an interactive SVG flame graph." };

/* Read one file into folded stacks; 0 or -1 after saying why. */
static int folded_of(const char *path, const struct lupe_collect_opts *co,
		     struct lupe_folded **f, size_t *nr, char *unit, size_t unit_size)
{
	struct lupe_profile *p = lupe_profile_collect(path, co);
	int err;

	if (!p)
		return -1; /* the library said why */
	if (p->first_event == LUPE_PROF_NONE && !p->nr_aggs) {
		lupe_profile_delete(p);
		return error("no samples in '%s' (record some with lupe record -g)", path);
	}
	if (unit) {
		const struct lupe_prof_event *e = p->first_event != LUPE_PROF_NONE ?
			&p->events[p->first_event] : NULL;

		snprintf(unit, unit_size, "%s", e && e->has_period ? (e->time_based ? "ns" : "events") : "samples");
	}
	err = lupe_profile_folded(p, f, nr);
	lupe_profile_delete(p);
	if (err)
		return error("cannot fold the stacks of '%s': %s", path, lupe_strerror(err));
	return 0;
}

int cmd_flamegraph(int argc, char **argv)
{
	struct flame_opts o = { .input = "perf.data" };
	struct lupe_folded *f = NULL, *before = NULL;
	size_t nr = 0, nr_before = 0;
	LUPE_OPTS(lupe_flame_opts, fo);
	char unit[16], subtitle[1024], *defout = NULL;
	const char *after;
	struct export_out out;
	int idx, err, ret;

	o.co.sz = sizeof(o.co);
	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (o.diff != (o.nr_files == 2) || (o.nr_files && !o.diff)) {
		error(o.diff ? "--diff wants two files: the recording before and the one after"
			     : "unexpected argument '%s' (for two files say --diff BEFORE AFTER)",
		      o.files[0]);
		return EXIT_USAGE;
	}
	after = o.diff ? o.files[1] : o.input;
	if (!o.output) {
		size_t len = strlen(after);

		if (!strcmp(after, "-")) {
			o.output = "flamegraph.svg";
		} else {
			defout = malloc(len + 5);
			if (!defout)
				die("out of memory");
			memcpy(defout, after, len + 1);
			if (len > 5 && !strcmp(defout + len - 5, ".data"))
				defout[len - 5] = 0;
			strcat(defout, ".svg");
			o.output = defout;
		}
	}
	if (o.diff && folded_of(o.files[0], &o.co, &before, &nr_before, NULL, 0)) {
		free(defout);
		return 1;
	}
	if (folded_of(after, &o.co, &f, &nr, unit, sizeof(unit))) {
		lupe_folded_delete(before, nr_before);
		free(defout);
		return 1;
	}
	if (o.diff)
		snprintf(subtitle, sizeof(subtitle), "%s -> %s (red grew, blue shrank; widths: after)",
			 o.files[0], o.files[1]);
	else
		snprintf(subtitle, sizeof(subtitle), "%s", after);
	fo.title = o.title;
	fo.subtitle = subtitle;
	fo.width = o.width;
	fo.reverse = o.reverse;
	fo.unit = unit;
	ret = 1;
	if (!export_open(&out, o.output)) {
		err = lupe_flame_write(f, nr, before, nr_before, &fo, out.f);
		ret = export_close(&out, err);
	}
	if (!ret && strcmp(o.output, "-"))
		fprintf(stderr, "lupe: wrote %s\n", o.output);
	lupe_folded_delete(f, nr);
	lupe_folded_delete(before, nr_before);
	free(defout);
	return ret;
}
