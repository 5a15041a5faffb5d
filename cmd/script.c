// SPDX-License-Identifier: GPL-2.0
/* lupe script: the samples of a perf.data as text, as perf script prints them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/session.h>
#include <lupe/unwind.h>
#include "builtin.h"
#include "header.h"
#include "script.h"

struct script_opts {
	const char *input;
	int force;
	int header, no_inline;
	const char *fields;
};

enum { KEY_HEADER = 0x100, KEY_HEADER_ONLY, KEY_INLINE, KEY_NO_INLINE };

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "input file name (default: perf.data; - reads stdin)", 0 },
	{ "force", 'f', NULL, 0, "read a file not owned by you", 0 },
	{ "fields", 'F', "FIELDS", 0,
	  "fields to print: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,trace", 0 },
	{ "header", KEY_HEADER, NULL, 0, "show the data header first", 0 },
	{ "inline", KEY_INLINE, NULL, 0, "show inlined functions in callchains (the default)", 0 },
	{ "no-inline", KEY_NO_INLINE, NULL, 0, "do not show inlined functions in callchains", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct script_opts *o = state->input;

	switch (key) {
	case 'i':
		o->input = arg;
		return 0;
	case 'f':
		o->force = 1;
		return 0;
	case 'F':
		o->fields = arg;
		return 0;
	case KEY_HEADER:
		o->header = 1;
		return 0;
	case KEY_INLINE:
	case KEY_NO_INLINE:
		o->no_inline = key == KEY_NO_INLINE;
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
	.doc = "Print the samples of a perf.data file as text, the way perf script does.",
};

struct script_tool {
	struct lupe_tool tool;
	struct script_printer p;
};

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct script_tool *st = (struct script_tool *)tool;

	script_print_sample(&st->p, s, evsel, sample, thread, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	return st->p.out->error ? -EIO : 0;
}

int cmd_script(int argc, char **argv)
{
	struct script_opts o = { .input = "perf.data" };
	struct script_tool st = { .tool = { .sample = on_sample, .ordered = 1 } };
	struct lupe_session *s;
	struct obuf *out;
	int idx, err;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	if (o.fields) {
		const char *bad = NULL;

		if (script_parse_fields(o.fields, &st.p.user_fields, &bad)) {
			error("unknown field '%s' in -F (try comm,tid,time,event,ip,sym,dso)", bad ? bad : "");
			return EXIT_USAGE;
		}
	}
	s = lupe_session_new(o.input, o.force);
	if (!s)
		return 1; /* the library said why */
	lupe_session_set_inline(s, !o.no_inline);
	if (lupe_unwind_install(s) == -ENOMEM)
		die("out of memory");
	{
		char why[256];
		const char *bad = script_check_fields(&st.p, s, why, sizeof(why));

		if (bad) {
			error("%s", bad);
			lupe_session_delete(s);
			return 1;
		}
	}
	out = malloc(sizeof(*out));
	if (!out)
		die("out of memory");
	out->fp = stdout;
	out->len = 0;
	out->error = 0;
	if (o.header)
		print_header(stdout, lupe_session_file(s), o.input, 1);
	script_printer_init(&st.p, s, out);
	err = lupe_session_process(s, &st.tool);
	obuf_flush(out);
	if (err == -EIO || out->error) {
		free(out);
		lupe_session_delete(s);
		return error("cannot write the output: %s", strerror(errno)), 1;
	}
	if (err) {
		error("%s", lupe_perf_file_error(lupe_session_file(s))[0] ?
		      lupe_perf_file_error(lupe_session_file(s)) : lupe_strerror(err));
		free(out);
		lupe_session_delete(s);
		return 1;
	}
	free(out);
	lupe_session_delete(s);
	return 0;
}
