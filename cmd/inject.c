// SPDX-License-Identifier: GPL-2.0
/*
 * lupe inject: copy a perf.data into a finalized file. Its use today is
 * recovery: a recording cut by SIGKILL, power loss or a full disk becomes a
 * file perf reads whole. perf inject's -i and -o; no injection yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/core.h>
#include <lupe/perfdata.h>
#include "builtin.h"

struct inject_opts {
	const char *input, *output;
	int force;
};

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "input file name (default: perf.data)", 0 },
	{ "output", 'o', "FILE", 0, "output file name (may be the input: it is replaced once the copy is whole)", 0 },
	{ "force", 'f', NULL, 0, "read a file not owned by you", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct inject_opts *o = state->input;

	switch (key) {
	case 'i':
		o->input = arg;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case 'f':
		o->force = 1;
		return 0;
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
	.doc = "Copy a perf.data into a finalized file: a recording cut short (killed, a full disk) becomes a file perf reads whole.",
};

int cmd_inject(int argc, char **argv)
{
	struct inject_opts o = { .input = "perf.data" };
	uint64_t nr;
	int idx, err;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (!o.output || !strcmp(o.output, "-"))
		return error("lupe inject writes a file: give it with -o FILE"), EXIT_USAGE;
	if (!strcmp(o.input, "-"))
		return error("lupe inject reads a file, not stdin: save the stream first (-i FILE)"),
		       EXIT_USAGE;
	err = lupe_perf_file_rewrite(o.input, o.output, o.force, &nr);
	if (err)
		return error("cannot rewrite '%s' into '%s': %s", o.input, o.output, lupe_strerror(err)), 1;
	fprintf(stderr, "lupe inject: '%s' holds %llu records, finalized\n", o.output,
		(unsigned long long)nr);
	return 0;
}
