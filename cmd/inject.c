// SPDX-License-Identifier: GPL-2.0
/*
 * lupe inject: copy a perf.data, as perf inject does: file or stream in
 * (-i, default stdin), file or stream out (-o, default stdout). A recording
 * cut by SIGKILL, power loss or a full disk becomes a file perf reads whole;
 * with -b, a HEADER_BUILD_ID record goes ahead of the first sample hitting
 * each DSO (perf inject -b), so a stream carries the build-ids perf report
 * needs; with --unwind, --call-graph dwarf samples become plain callchains
 * (what lupe record writes unless --no-online).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/core.h>
#include <lupe/perfdata.h>
#include <lupe/record.h>
#include "builtin.h"
#include "options.h"

struct inject_opts {
	const char *input, *output;
	int force, build_ids, unwind;
};

#define CMD_OPTS struct inject_opts
static const struct cmd_option options[] = {
	OPT_BOOL('b', "build-ids", build_ids, "inject build-ids of the DSOs hit into the output stream"),
	OPT_INPUT(input, "input file name (default: '-', stdin)"),
	OPT_STRING('o', "output", "FILE", output, "output file name (default: '-', stdout, a stream); may be the input: it is replaced once the copy is whole"),
	OPT_FORCE(force, "read a file not owned by you"),
	OPT_BOOL(0, "unwind", unwind, "unwind --call-graph dwarf samples into plain callchains, dropping their stack copies"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, NULL,
	"Copy a perf.data (file or stream) into a finalized file or a stream, with -b injecting the build-ids of the DSOs hit; a recording cut short (killed, a full disk) becomes a file perf reads whole." };

int cmd_inject(int argc, char **argv)
{
	struct inject_opts o = { .input = "-", .output = "-" };
	uint64_t nr, unwound = 0, failed = 0;
	int idx, err;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (!strcmp(o.output, "-") && isatty(STDOUT_FILENO))
		return error("lupe inject writes perf.data to stdout, a terminal: give a file with -o FILE, or pipe it"),
		       EXIT_USAGE;
	if (!strcmp(o.input, "-") && isatty(STDIN_FILENO))
		return error("lupe inject reads perf.data from stdin, a terminal: give a file with -i FILE, or pipe one in"),
		       EXIT_USAGE;
	if (o.build_ids && o.unwind)
		return error("lupe inject takes -b or --unwind, not both: run it twice"), EXIT_USAGE;
	if (o.unwind)
		err = lupe_inject_unwind(o.input, o.output, o.force, &nr, &unwound, &failed);
	else if (o.build_ids)
		err = lupe_inject_build_ids(o.input, o.output, o.force, &nr);
	else
		err = lupe_perf_file_rewrite(o.input, o.output, o.force, &nr);
	if (err == -ENOTSUP && o.unwind)
		return error("cannot unwind '%s': lupe was built without an unwinder (libdw)", o.input), 1;
	if (err)
		return error("cannot copy '%s' into '%s': %s", o.input, o.output, lupe_strerror(err)), 1;
	if (o.unwind)
		fprintf(stderr, "lupe inject: unwound %llu dwarf samples, %llu no further than the sampled ip\n",
			(unsigned long long)unwound, (unsigned long long)failed);
	if (strcmp(o.output, "-"))
		fprintf(stderr, "lupe inject: '%s' holds %llu records, finalized\n", o.output,
			(unsigned long long)nr);
	return 0;
}
