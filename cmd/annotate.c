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
#include "options.h"
#include "pager.h"
#include "tui/tui.h"

struct annotate_opts {
	const char *input;
	const char *symbol;
	int force, no_source, nr_samples;
	int tui; /* 1 --tui, 0 --stdio, -1 decide */
};

/* perf annotate [SYMBOL] */
static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct annotate_opts *o = state->input;

	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	if (o->symbol)
		argp_error(state, "give one symbol, not '%s' and '%s'", o->symbol, arg);
	o->symbol = arg;
	return 0;
}

#define CMD_OPTS struct annotate_opts
static const struct cmd_option options[] = {
	OPT_INPUT(input, "input file name (default perf.data)"),
	OPT_STRING('s', "symbol", "SYMBOL", symbol, "symbol to annotate (default: every symbol with samples, hottest first)"),
	OPT_SET_INT(0, "stdio", tui, 0, "use the stdio interface (the default when not on a terminal)"),
	OPT_SET_INT(0, "tui", tui, 1, "use the TUI browser (the default on a terminal)"),
	OPT_BOOL(0, "show-nr-samples", nr_samples, "show the samples of each instruction, not its percentage"),
	OPT_BOOL(0, "no-source", no_source, "do not interleave source code with the instructions"),
	OPT_SET_INT(0, "source", no_source, 0, "interleave source code with the instructions (default)"),
	OPT_FORCE(force, "do not complain, do it"),
	OPT_END()
};

static const struct cmd_argp argp = { options, parse_opt, "[SYMBOL]",
	"Show the samples of a perf.data per instruction of a symbol, with source lines." };

static int annotate_one(const struct annotate_opts *o, const struct lupe_annotated_sym *as,
			const char *event)
{
	const struct lupe_dso *dso = as->dso;
	struct lupe_listing l;
	struct annotate_view v = {
		.event = event, .dso = lupe_dso_short_name(dso), .source = !o->no_source,
		.color = isatty(STDOUT_FILENO) || pager_in_use(), /* less -R shows colours */
		.nr_samples = o->nr_samples,
	};
	char why[512];
	int err;

	if ((lupe_dso_is_kernel(dso) || lupe_dso_long_name(dso)[0] == '[') && !o->symbol) {
		warning("'%s' in '%s' is left out: lupe cannot read kernel code yet", as->sym->name,
			lupe_dso_long_name(dso));
		return 0;
	}
	if (ui_annotate_disasm(as, !o->no_source, &l, why, sizeof(why)))
		return error("%s", why);
	err = ui_annotate_print(stdout, &v, as, &l);
	lupe_listing_clear(&l);
	return err;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = { .input = "perf.data", .tui = -1 };
	struct annotate_data d;
	char why[512];
	int idx, ret = 0;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	/* NEEDSWORK: perf annotates each event of a file in turn; lupe the first */
	if (ui_annotate_load(&d, o.input, o.force, 0, o.symbol, why, sizeof(why))) {
		if (why[0])
			error("%s", why);
		return 1;
	}
	if (!d.ann.nr) {
		if (o.symbol)
			error("no samples in '%s' for symbol '%s' (see the symbols with lupe report)",
			      o.input, o.symbol);
		else
			error("no samples with a symbol in '%s'", o.input);
		ret = 1;
		goto out;
	}
	/* perf's choice: the browser on a terminal, on the hottest symbol */
	if (o.tui < 0)
		o.tui = tui_built() && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (o.tui) {
		size_t first = 0; /* the hottest that lupe can read: no kernel code */
		int rc;

		while (!o.symbol && first + 1 < d.ann.nr && (lupe_dso_is_kernel(d.ann.syms[first].dso) ||
							     lupe_dso_long_name(d.ann.syms[first].dso)[0] == '['))
			first++;
		rc = tui_annotate(&d, &d.ann.syms[first], !o.no_source);

		if (rc >= 0) {
			ret = rc;
			goto out;
		}
		/* no terminal after all: the text */
	}
	setup_pager();
	for (size_t i = 0; i < d.ann.nr; i++)
		if (annotate_one(&o, &d.ann.syms[i], lupe_evsel_name(d.evsel)))
			ret = 1;
out:
	ui_annotate_unload(&d);
	return ret;
}
