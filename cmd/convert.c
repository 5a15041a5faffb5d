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
#include "options.h"
#include "export-out.h"

enum format { TO_NONE, TO_FOLDED, TO_PPROF, TO_FIREFOX, TO_SPEEDSCOPE };

struct convert_opts {
	const char *input, *output, *to;
	struct lupe_collect_opts co;
};

#define CMD_OPTS struct convert_opts
static const struct cmd_option options[] = {
	OPT_STRING(0, "to", "FORMAT", to, "pprof, firefox, speedscope or folded"),
	OPT_INPUT(input, "input file name (default: perf.data; - reads stdin)"),
	OPT_STRING('o', "output", "FILE", output, "output file name (default: stdout)"),
	OPT_COLLECT(co),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, NULL,
	"Convert the samples of a perf.data for pprof, the Firefox Profiler, speedscope "
	"or FlameGraph (folded stacks)." };

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
