// SPDX-License-Identifier: GPL-2.0
/* lupe record: placeholder until its issue lands. */
#include <stdio.h>
#include "builtin.h"

static const struct argp_option options[] = {
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { .options = options, .parser = parse_opt, .args_doc = "[ARGS]", .doc = "lupe record: not built yet." };

int cmd_record(int argc, char **argv)
{
	int idx;

	if (cmd_parse_options(&argp, argc, argv, 1, &idx, NULL))
		return EXIT_USAGE;
	return error("'record' is not built yet"), 1;
}
