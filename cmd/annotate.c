// SPDX-License-Identifier: GPL-2.0
/*
 * lupe annotate: the samples of a perf.data spread over the instructions of
 * the symbols they hit, disassembled in-process with Zydis (perf runs
 * objdump), with source lines from DWARF, in perf annotate --stdio's layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/annotate.h>
#include <lupe/perfdata.h>
#include <lupe/session.h>
#include "annotate.h"
#include "builtin.h"
#include "pager.h"

enum {
	OPT_STDIO = 0x100,
	OPT_NO_SOURCE,
	OPT_SOURCE,
};

struct annotate_opts {
	const char *input;
	const char *symbol;
	int force, no_source;
};

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "input file name (default perf.data)", 0 },
	{ "symbol", 's', "SYMBOL", 0, "symbol to annotate (default: every symbol with samples, hottest first)", 0 },
	{ "stdio", OPT_STDIO, NULL, 0, "use the stdio interface (the only one yet)", 0 },
	{ "no-source", OPT_NO_SOURCE, NULL, 0, "do not interleave source code with the instructions", 0 },
	{ "source", OPT_SOURCE, NULL, 0, "interleave source code with the instructions (default)", 0 },
	{ "force", 'f', NULL, 0, "do not complain, do it", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct annotate_opts *o = state->input;

	switch (key) {
	case 'i':
		o->input = arg;
		return 0;
	case 's':
		o->symbol = arg;
		return 0;
	case OPT_STDIO:
		return 0;
	case OPT_NO_SOURCE:
		o->no_source = 1;
		return 0;
	case OPT_SOURCE:
		o->no_source = 0;
		return 0;
	case 'f':
		o->force = 1;
		return 0;
	case ARGP_KEY_ARG: /* perf annotate [SYMBOL] */
		if (o->symbol)
			argp_error(state, "give one symbol, not '%s' and '%s'", o->symbol, arg);
		o->symbol = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[SYMBOL]",
	.doc = "Show the samples of a perf.data per instruction of a symbol, with source lines.",
};

struct annotate_tool {
	struct lupe_tool tool;
	struct annotate_opts *o;
	struct lupe_annotation ann;
	struct lupe_evsel *evsel; /* the event annotated: the file's first */
	int err;
};

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct annotate_tool *at = (struct annotate_tool *)tool;
	uint8_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct lupe_frame fr;

	/* NEEDSWORK: perf annotates each event of a file in turn; lupe the first */
	if (evsel != at->evsel)
		return 0;
	lupe_session_resolve_ip(s, thread, sample->ip,
				mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL, &fr);
	if (!fr.sym || !fr.map || (at->o->symbol && strcmp(fr.sym->name, at->o->symbol)))
		return 0;
	at->err = lupe_annotation_add(&at->ann, fr.map->dso, fr.sym, fr.vaddr,
				      sample->period ? sample->period : 1);
	return at->err;
}

static int annotate_one(const struct annotate_opts *o, const struct lupe_annotated_sym *as,
			const char *event)
{
	const struct lupe_dso *dso = as->dso;
	struct lupe_listing l;
	struct annotate_view v = {
		.event = event, .dso = lupe_dso_short_name(dso), .source = !o->no_source,
		.color = isatty(STDOUT_FILENO) || pager_in_use(), /* less -R shows colours */
	};
	int err;

	if ((lupe_dso_is_kernel(dso) || lupe_dso_long_name(dso)[0] == '[') && !o->symbol) {
		warning("'%s' in '%s' is left out: lupe cannot read kernel code yet", as->sym->name,
			lupe_dso_long_name(dso));
		return 0;
	}
	if (lupe_dso_is_kernel(dso) || lupe_dso_long_name(dso)[0] == '[')
		return error("cannot annotate '%s': its code is in '%s', which lupe cannot read yet "
			     "(annotate user space symbols)", as->sym->name, lupe_dso_long_name(dso));
	err = lupe_disasm(lupe_dso_long_name(dso), as->sym->name, as->sym->start, as->sym->end,
			  o->no_source ? LUPE_DISASM_NO_SOURCE : 0, &l);
	if (err == -LUPE_ERR_NOT_SUPPORTED)
		return error("cannot annotate '%s': lupe was built without Zydis, or '%s' is not "
			     "x86-64 code (install libzydis-dev and rebuild)", as->sym->name, lupe_dso_long_name(dso));
	if (err)
		return error("cannot annotate '%s': cannot read its code in '%s': %s", as->sym->name,
			     lupe_dso_long_name(dso), lupe_strerror(err));
	err = ui_annotate_print(stdout, &v, as, &l);
	lupe_listing_clear(&l);
	return err;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = { .input = "perf.data" };
	struct annotate_tool at = { .tool = { .sample = on_sample, .ordered = 1 }, .o = &o };
	struct lupe_session *s;
	int idx, err, ret = 0;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	s = lupe_session_new(o.input, o.force);
	if (!s)
		return 1; /* the library said why */
	if (lupe_perf_file_nr_evsels(lupe_session_file(s)))
		at.evsel = lupe_perf_file_evsel(lupe_session_file(s), 0);
	err = lupe_session_process(s, &at.tool);
	if (err || at.err) {
		error("cannot read '%s': %s", o.input, at.err ? lupe_strerror(at.err) :
		      lupe_perf_file_error(lupe_session_file(s))[0] ?
		      lupe_perf_file_error(lupe_session_file(s)) : lupe_strerror(err));
		ret = 1;
		goto out;
	}
	if (!at.ann.nr) {
		if (o.symbol)
			error("no samples in '%s' for symbol '%s' (see the symbols with lupe report)",
			      o.input, o.symbol);
		else
			error("no samples with a symbol in '%s'", o.input);
		ret = 1;
		goto out;
	}
	lupe_annotation_sort(&at.ann);
	for (size_t i = 0; i < at.ann.nr; i++)
		if (annotate_one(&o, &at.ann.syms[i], lupe_evsel_name(at.evsel)))
			ret = 1;
out:
	lupe_annotation_clear(&at.ann);
	lupe_session_delete(s);
	return ret;
}
