// SPDX-License-Identifier: GPL-2.0
/*
 * lupe data convert: a perf.data as JSON, perf data convert --to-json's
 * shape (lupe/json.h), or as JSON Lines (--to-jsonl: one sample a line, for
 * jq and pandas). The output is opened by export_open(), as convert's and
 * flamegraph's are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <lupe/core.h>
#include <lupe/json.h>
#include "builtin.h"
#include "options.h"
#include "export-out.h"

struct data_opts {
	const char *input, *json, *jsonl;
	int force, convert;
};

/* perf's --all, --tod and --to-ctf: named, and refused */
static error_t unsupported(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	char name[64];

	(void)arg;
	argp_error(state, "%s is not supported by lupe (see lupe help data)", cmd_opt_name(opt, name));
	return EINVAL;
}

/* the one word: "convert" */
static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct data_opts *o = state->input;

	if (key != ARGP_KEY_ARG || o->convert || strcmp(arg, "convert"))
		return ARGP_ERR_UNKNOWN;
	o->convert = 1;
	return 0;
}

#define CMD_OPTS struct data_opts
static const struct cmd_option options[] = {
	OPT_STRING(0, "to-json", "FILE", json, "write perf's JSON of the samples to FILE (- : stdout)"),
	OPT_STRING(0, "to-jsonl", "FILE", jsonl, "write one JSON object a sample, a line each (- : stdout)"),
	OPT_INPUT(input, "input file name (default: perf.data)"),
	OPT_FORCE(force, "overwrite FILE, read a file not owned by you"),
	OPT_CALLBACK(0, "all", NULL, 0, unsupported, "convert all events (not supported)"),
	OPT_CALLBACK(0, "tod", NULL, 0, unsupported, "wall clock time (not supported)"),
	OPT_CALLBACK(0, "to-ctf", "DIR", 0, unsupported, "Common Trace Format (not supported)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, parse_opt, "convert",
	"Convert a perf.data to JSON (lupe data convert --to-json FILE [-i perf.data])." };

static int data_convert(int argc, char **argv)
{
	struct data_opts o = { .input = "perf.data" };
	LUPE_OPTS(lupe_json_opts, jo);
	const char *path;
	struct stat st;
	struct export_out out;
	int idx, err;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (!o.convert)
		return error("usage: lupe data convert [--to-json FILE | --to-jsonl FILE] [-i FILE]"),
		       EXIT_USAGE;
	if (!o.json == !o.jsonl)
		return error("say one output: --to-json FILE or --to-jsonl FILE"), EXIT_USAGE;
	path = o.json ? o.json : o.jsonl;
	/* perf's rule: an existing output is kept unless -f */
	if (strcmp(path, "-") && !o.force && !stat(path, &st))
		return error("output file '%s' exists: use --force to overwrite it", path), 1;
	jo.force = o.force;
	jo.lines = !!o.jsonl;
	if (export_open(&out, path))
		return 1;
	err = lupe_json_write(o.input, out.f, &jo);
	/* the input's error was said by the library: close and remove the output quietly */
	if (err && err != -EIO)
		err = -LUPE_ERR_NOT_SUPPORTED;
	return export_close(&out, err);
}

/* perf data's one subcommand, convert: "lupe data -h" and "lupe data convert -h" alike */
int cmd_data(int argc, char **argv)
{
	return data_convert(argc, argv);
}
