// SPDX-License-Identifier: GPL-2.0
/*
 * lupe convert: the samples of a perf.data in another tool's format:
 * pprof, the Firefox Profiler, speedscope, or folded stacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/export.h>
#include "builtin.h"
#include "export-out.h"

enum format { TO_NONE, TO_FOLDED, TO_PPROF, TO_FIREFOX, TO_SPEEDSCOPE };

struct convert_opts {
	const char *input, *output, *to;
	struct lupe_collect_opts co;
};

enum { KEY_TO = 0x100, KEY_PID, KEY_TID, KEY_COMM };

static const struct argp_option options[] = {
	{ "to", KEY_TO, "FORMAT", 0, "pprof, firefox, speedscope or folded", 0 },
	{ "input", 'i', "FILE", 0, "input file name (default: perf.data; - reads stdin)", 0 },
	{ "output", 'o', "FILE", 0, "output file name (default: stdout)", 0 },
	{ "force", 'f', NULL, 0, "read a file not owned by you", 0 },
	{ "pid", KEY_PID, "LIST", 0, "only these process ids", 0 },
	{ "tid", KEY_TID, "LIST", 0, "only these thread ids", 0 },
	{ "comm", KEY_COMM, "LIST", 0, "only these commands", 0 },
	{ "comms", KEY_COMM, "LIST", OPTION_ALIAS, NULL, 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct convert_opts *o = state->input;

	switch (key) {
	case KEY_TO: o->to = arg; return 0;
	case 'i': o->input = arg; return 0;
	case 'o': o->output = arg; return 0;
	case 'f': o->co.force = 1; return 0;
	case KEY_PID: o->co.pids = arg; return 0;
	case KEY_TID: o->co.tids = arg; return 0;
	case KEY_COMM: o->co.comms = arg; return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.doc = "Convert the samples of a perf.data for pprof, the Firefox Profiler, speedscope "
	       "or FlameGraph (folded stacks).",
};

int cmd_convert(int argc, char **argv)
{
	static const char *const names[] = { [TO_FOLDED] = "folded", [TO_PPROF] = "pprof",
					     [TO_FIREFOX] = "firefox", [TO_SPEEDSCOPE] = "speedscope" };
	struct convert_opts o = { .input = "perf.data", .output = "-" };
	enum format to = TO_NONE;
	struct lupe_profile *p;
	struct export_out out;
	int idx, err;

	o.co.sz = sizeof(o.co);
	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (!o.to) {
		error("no output format: say --to pprof, firefox, speedscope or folded");
		return EXIT_USAGE;
	}
	for (size_t i = 1; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(o.to, names[i]))
			to = (enum format)i;
	if (to == TO_NONE) {
		error("unknown format '%s' (try pprof, firefox, speedscope or folded)", o.to);
		return EXIT_USAGE;
	}
	if (to == TO_PPROF && !strcmp(o.output, "-") && isatty(STDOUT_FILENO)) {
		error("pprof output is binary: name a file with -o (e.g. -o profile.pb.gz)");
		return EXIT_USAGE;
	}
	o.co.keep_samples = to == TO_FIREFOX;
	p = lupe_profile_collect(o.input, &o.co);
	if (!p)
		return 1; /* the library said why */
	if (export_open(&out, o.output)) {
		lupe_profile_delete(p);
		return 1;
	}
	switch (to) {
	case TO_FOLDED: {
		struct lupe_folded *f = NULL;
		size_t nr = 0;

		err = lupe_profile_folded(p, &f, &nr);
		if (!err)
			err = lupe_folded_write(f, nr, out.f);
		lupe_folded_delete(f, nr);
		break;
	}
	case TO_PPROF:
		err = lupe_profile_write_pprof(p, out.f);
		break;
	case TO_FIREFOX:
		err = lupe_profile_write_gecko(p, out.f);
		break;
	default:
		err = lupe_profile_write_speedscope(p, out.f);
		break;
	}
	lupe_profile_delete(p);
	return export_close(&out, err);
}
