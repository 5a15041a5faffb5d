// SPDX-License-Identifier: GPL-2.0
/* lupe version [--build-options]: the version, and what was built in. */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "options.h"

/*
 * LUPE_BUILD_OPTIONS comes from CMake: "NAME=on|OFF=PKG=WHAT|" per
 * dependency. Printed in perf's shape ("dwarf: [ on  ]  # HAVE_...") so the
 * scripts that grep perf's list read ours.
 */
static void print_build_options(void)
{
	const char *p = LUPE_BUILD_OPTIONS;

	while (*p) {
		char name[64], state[8], pkg[64], what[128];
		const char *end = strchr(p, '|');

		if (!end)
			break;
		if (sscanf(p, "%63[^=]=%7[^=]=%63[^=]=%127[^|]", name, state, pkg, what) == 4)
			printf("%22s: [ %-3s ]  # LUPE_WITH_%s: %s\n", pkg, state, name, what);
		p = end + 1;
	}
}

struct version_opts {
	int build_options;
};

#define CMD_OPTS struct version_opts
static const struct cmd_option options[] = {
	OPT_BOOL(0, "build-options", build_options, "also list the optional dependencies built in"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, NULL, "Print lupe's version." };

/* argc 0: lupe --version */
int cmd_version(int argc, char **argv)
{
	struct version_opts o = { 0 };
	int idx;

	if (argc > 0 && cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	printf("lupe version %s\n", LUPE_VERSION);
	if (o.build_options)
		print_build_options();
	return 0;
}
