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
#include "export-out.h"

struct data_opts {
	const char *input, *json, *jsonl;
	int force, convert;
};

enum { KEY_TO_JSON = 0x100, KEY_TO_JSONL, KEY_ALL, KEY_TOD, KEY_TO_CTF };

static const struct argp_option options[] = {
	{ "to-json", KEY_TO_JSON, "FILE", 0, "write perf's JSON of the samples to FILE (- : stdout)", 0 },
	{ "to-jsonl", KEY_TO_JSONL, "FILE", 0, "write one JSON object a sample, a line each (- : stdout)", 0 },
	{ "input", 'i', "FILE", 0, "input file name (default: perf.data)", 0 },
	{ "force", 'f', NULL, 0, "overwrite FILE, read a file not owned by you", 0 },
	{ "all", KEY_ALL, NULL, 0, "convert all events (not supported)", 0 },
	{ "tod", KEY_TOD, NULL, 0, "wall clock time (not supported)", 0 },
	{ "to-ctf", KEY_TO_CTF, "DIR", 0, "Common Trace Format (not supported)", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct data_opts *o = state->input;

	switch (key) {
	case KEY_TO_JSON: o->json = arg; return 0;
	case KEY_TO_JSONL: o->jsonl = arg; return 0;
	case 'i': o->input = arg; return 0;
	case 'f': o->force = 1; return 0;
	case KEY_ALL: case KEY_TOD: case KEY_TO_CTF:
		argp_error(state, "%s is not supported by lupe (see lupe help data)",
			   key == KEY_ALL ? "--all" : key == KEY_TOD ? "--tod" : "--to-ctf");
		return EINVAL;
	case ARGP_KEY_ARG:
		if (!o->convert && !strcmp(arg, "convert")) {
			o->convert = 1;
			return 0;
		}
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "convert",
	.doc = "Convert a perf.data to JSON (lupe data convert --to-json FILE [-i perf.data]).",
};

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
