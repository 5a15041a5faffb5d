// SPDX-License-Identifier: GPL-2.0
/* lupe version [--build-options]: the version, and what was built in. */
#include <stdio.h>
#include <string.h>
#include "builtin.h"

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

int cmd_version(int argc, char **argv)
{
	int build_options = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("Usage: lupe version [--build-options]\n"
			       "Print lupe's version.\n\n"
			       "      --build-options   also list the optional dependencies built in\n");
			return 0;
		}
		if (strcmp(argv[i], "--build-options"))
			return error("unknown option '%s' (lupe version takes --build-options)", argv[i]),
			       EXIT_USAGE;
		build_options = 1;
	}
	printf("lupe version %s\n", LUPE_VERSION);
	if (build_options)
		print_build_options();
	return 0;
}
