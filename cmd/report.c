// SPDX-License-Identifier: GPL-2.0
/*
 * lupe report: the profile in a perf.data as perf report --stdio shows it.
 * On a terminal without --stdio the same histogram opens in the TUI
 * browser (ui/tui); without a terminal, or without slang, text is printed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/hist.h>
#include <lupe/report.h>
#include <lupe/session.h>
#include <lupe/unwind.h>
#include "builtin.h"
#include "header.h"
#include "dump.h"
#include "hist.h"
#include "options.h"
#include "pager.h"
#include "tasks.h"
#include "tui/tui.h"
#include "web.h"

enum { KEY_PERCENT_LIMIT = 0x100, KEY_MAX_STACK, KEY_WEB };

struct report_opts {
	const char *input;
	int force, header, header_only, no_inline, dump, stats, quiet, tasks;
	int tui;                      /* 1 --tui, 0 --stdio, -1 decide */
	char *next_input, *next_free; /* the TUI's Switch to another data file */
	int cg_pending;               /* after a bare -g: the index of the word that may be its parameter */
	const char *cg_before;        /* the call graph before a bare -g, for the word after it */
	char cg_buf[256];             /* -g's parameters with --percent-limit's threshold */
	char pl_text[32];             /* --percent-limit's value, "" before one */
	struct lupe_report_opts rep;  /* sort, call graph, children, filters: the library's */
	struct report_print_opts print;
	int web;                      /* --web or --html: the browser view (cmd/web.c) */
	struct web_opts wo;
};

#define CMD_OPTS struct report_opts
static const struct cmd_option options[] = {
	OPT_INPUT(input, "input file name (default: perf.data; - reads stdin)"),
	OPT_FORCE(force, "read a file not owned by you"),
	OPT_SET_INT(0, "stdio", tui, 0, "plain text output (the default without a terminal)"),
	OPT_SET_INT(0, "tui", tui, 1, "the interactive browser (the default on a terminal)"),
	OPT_SET_INT(0, "children", rep.children, 1, "accumulate callers' overhead (the default with callchains)"),
	OPT_SET_INT(0, "no-children", rep.children, 0, "show self overhead only"),
	OPT_STRING('s', "sort", "KEYS", rep.sort, "sort by keys: comm,pid,tid,dso,sym,cpu,trace,srcline (default comm,dso,sym)"),
	OPT_BOOL('n', "show-nr-samples", print.show_nr, "show the number of samples of each entry"),
	OPT_BOOL(0, "show-total-period", print.show_period, "show the period of each entry (its own, in children mode too)"),
	OPT_ROW(KEY_PERCENT_LIMIT, "percent-limit", "PCT", 0, "hide entries below PCT percent (of Children with --children), and callchains below it"),
	OPT_ROW(KEY_MAX_STACK, "max-stack", "N", 0, "use at most N callchain entries (from the caller end with caller order)"),
	OPT_BOOL('G', "inverted", rep.inverted, "callchains in caller order (perf's alias for -g caller)"),
	OPT_ROW('g', "call-graph", "MODE", OPTION_ARG_OPTIONAL, "callchains: graph|flat|folded|none[,min_percent][,caller|callee]"),
	OPT_STRING(0, "comms", "LIST", rep.comms, "only these commands"),
	OPT_ALIAS("comm", "LIST"),
	OPT_STRING(0, "dsos", "LIST", rep.dsos, "only these shared objects"),
	OPT_ALIAS("dso", "LIST"),
	OPT_STRING(0, "pid", "LIST", rep.pids, "only these process ids"),
	OPT_STRING(0, "tid", "LIST", rep.tids, "only these thread ids"),
	OPT_STRING(0, "symbols", "LIST", rep.symbols, "only these symbols"),
	OPT_SET_INT(0, "inline", no_inline, 0, "show inlined functions in callchains (the default)"),
	OPT_BOOL(0, "no-inline", no_inline, "do not show inlined functions in callchains"),
	OPT_BOOL(0, "header", header, "show the data header first"),
	OPT_BOOL(0, "header-only", header_only, "show only the data header"),
	OPT_BOOL(0, "stats", stats, "show the counts of each record type and of each event's samples (no report)"),
	OPT_BOOL(0, "tasks", tasks, "show the recorded tasks, each under its parent (no report)"),
	OPT_QUIET(quiet, "print no '#' lines: the entries only (and no --header)"),
	OPT_BOOL(0, "hierarchy", print.hierarchy, "group the entries level by level, one level per sort key (no children)"),
	OPT_STRING('F', "fields", "KEYS", rep.fields, "output columns: overhead,overhead_children,sample,period and sort keys"),
	OPT_STRING('t', "field-separator", "SEP", print.field_sep, "separate the columns with SEP, without padding dots"),
	OPT_VERBOSE(print.verbose, "full DSO paths, and each symbol's address and where its symbols came from"),
	OPT_BOOL('D', "dump-raw-trace", dump, "dump each record's bytes and fields, then the record counts (no report)"),
	OPT_ROW(KEY_WEB, "web", "ADDR:PORT", OPTION_ARG_OPTIONAL, "serve the profile as a page for a browser (default: 127.0.0.1, a free port; the URL is printed)"),
	OPT_SET_INT(0, "html", web, 2, "write the browser page as one self-contained file (with -o FILE)"),
	OPT_STRING('o', "output", "FILE", wo.html, "the file --html writes"),
	OPT_END()
};
#undef CMD_OPTS

/*
 * -g's parameter: first then second (a number in second wins over one in
 * first, as the later of perf's -g number and --percent-limit wins).
 */
static void set_cg(struct report_opts *o, const char *first, const char *second)
{
	char cg[sizeof(o->cg_buf)];

	snprintf(cg, sizeof(cg), "%.120s%s%.120s", first, first[0] && second[0] ? "," : "", second);
	memcpy(o->cg_buf, cg, sizeof(cg));
	o->rep.call_graph = o->cg_buf;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;
	char *end;

	switch (key) {
	case KEY_PERCENT_LIMIT: {
		/*
		 * As perf: strtof without a check, and the callchain threshold
		 * too (also 0 or below): the later of it and -g's number wins.
		 */
		o->print.percent_limit = strtof(arg, NULL);
		snprintf(o->pl_text, sizeof(o->pl_text), "%.17g", o->print.percent_limit);
		set_cg(o, o->rep.call_graph ? o->rep.call_graph : "", o->pl_text);
		return 0;
	}
	case KEY_MAX_STACK: {
		long n = strtol(arg, &end, 0);

		if (end == arg || *end)
			argp_error(state, "--max-stack wants a number, not '%s'", arg);
		/* perf's 0 and below: no callchain entries at all */
		o->rep.max_stack = n > 0 ? (n > INT_MAX ? INT_MAX : (int)n) : -1;
		return 0;
	}
	case 'g':
		/*
		 * perf's bare -g is its default parameter: graph,0.5,caller;
		 * a -g with words changes what they name, the rest stays
		 * (-g fractal,5 -g callee: fractal,5,callee)
		 */
		o->cg_before = o->rep.call_graph ? o->rep.call_graph : o->pl_text;
		if (arg)
			set_cg(o, o->cg_before, arg);
		else
			o->rep.call_graph = "graph,0.5,caller";
		o->cg_pending = arg ? 0 : state->next;
		return 0;
	case KEY_WEB: o->web = 1; o->wo.listen = arg; return 0;
	case ARGP_KEY_ARG:
		if (o->cg_pending && o->cg_pending == state->next - 1) {
			/* perf takes "-g flat": the word right after a bare -g is its parameter */
			set_cg(o, o->cg_before, arg);
			o->cg_pending = 0;
			return 0;
		}
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	case ARGP_KEY_END:
		o->rep.hierarchy = o->print.hierarchy;
		o->rep.verbose = o->print.verbose;
		if (o->dump || o->stats || o->tasks)
			o->tui = 0; /* they print no report */
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct cmd_argp argp = {
	.options = options,
	.parser = parse_opt,
	.doc = "Show the profile in a perf.data file, the way perf report does.",
};

/* The TUI on the events with samples (TAB switches); -1 when it could not start. */
static int browse(struct report_opts *o, struct lupe_report *rep, struct lupe_perf_file *f,
		  const struct lupe_session_stats *st)
{
	const struct lupe_report_view *view = lupe_report_view(rep);
	struct tui_event ev[64];
	struct tui_hists th = {
		.view = view, .nr_lost = st->nr_lost_samples, .po = o->print,
		.input = o->input, .force = o->force, .file = f, .events = ev,
	};
	int rc;

	for (size_t i = 0; view && i < lupe_perf_file_nr_evsels(f) && th.nr_events < 64; i++) {
		struct lupe_evsel *e = lupe_perf_file_evsel(f, i);
		struct tui_event *t = &ev[th.nr_events];

		*t = (struct tui_event){ .evsel = e, .h = lupe_report_hists(rep, (int)i),
					 .nr_samples = lupe_evsel_stats(e)->nr_samples, .idx = (int)i };
		if (t->nr_samples && t->h)
			th.nr_events++;
	}
	if (!th.nr_events)
		return -1;
	th.evsel = ev[0].evsel;
	th.h = ev[0].h;
	th.nr_samples = ev[0].nr_samples;
	th.evidx = ev[0].idx;
	rc = tui_browse_hists(&th);
	/* Switch to another data file: the menu picked one */
	if (!rc && th.next_input[0] && (o->next_input = strdup(th.next_input)))
		return -2;
	return rc;
}

/* -q: the text of one event's table without its '#' lines, as perf -q prints it. */
static void print_quiet(const struct lupe_report_view *view, const struct report_print_opts *po,
			struct lupe_evsel *e, struct lupe_hists *h)
{
	char *text = NULL, *line, *end;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		die("out of memory");
	report_print_hists(mem, view, po, e, h, lupe_evsel_stats(e)->nr_samples);
	if (fclose(mem))
		die("out of memory");
	for (line = text; *line; line = end + 1) {
		end = strchrnul(line, '\n');
		if (line[0] != '#')
			printf("%.*s\n", (int)(end - line), line);
		if (!*end)
			break;
	}
	free(text);
}

static int report(struct report_opts *o)
{
	struct lupe_report *rep = NULL;
	struct lupe_perf_file *f;
	struct lupe_session *s;
	const struct lupe_session_stats *st;
	const struct lupe_report_view *view;
	struct header_tool ht;
	struct lupe_tool *tool;
	int err, ret = 1;

	s = lupe_session_new(o->input, o->force);
	if (!s)
		return 1;
	lupe_session_set_inline(s, !o->no_inline);
	if (lupe_unwind_install(s) == -ENOMEM)
		die("out of memory");
	f = lupe_session_file(s);
	if (o->header || o->header_only)
		print_header(stdout, f, o->input, 1);
	if (o->header_only) {
		/* a pipe's features are records: read up to the last one */
		if (lupe_perf_file_is_pipe(f) && lupe_session_process(s, header_tool(&ht, NULL, stdout, f)))
			error("%s", lupe_perf_file_error(f));
		lupe_session_delete(s);
		return 0;
	}
	if (!o->header && !o->tui && !o->quiet && !o->stats && !o->tasks)
		printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (o->dump || o->stats) {
		err = dump_session(s, o->input, stdout, o->stats);
		if (err)
			error("%s", lupe_perf_file_error(f)[0] ? lupe_perf_file_error(f) : lupe_strerror(err));
		ret = err ? 1 : 0;
		goto out;
	}
	if (o->tasks) {
		err = print_tasks(s, stdout);
		if (err == -ENOENT) /* as perf: a parent that is not among the threads */
			error("failed to process tasks: a thread's parent is not in '%s'", o->input);
		else if (err)
			error("%s", lupe_perf_file_error(f)[0] ? lupe_perf_file_error(f) : lupe_strerror(err));
		ret = err ? 1 : 0;
		goto out;
	}
	rep = lupe_report_new(&o->rep);
	if (!rep)
		goto out;
	tool = lupe_report_tool(rep);
	if (o->header && lupe_perf_file_is_pipe(f)) /* perf prints a pipe's features as they come */
		tool = header_tool(&ht, tool, stdout, f);
	err = lupe_session_process(s, tool);
	if (err) {
		const char *why = lupe_perf_file_error(f);

		error("%s", why[0] ? why : lupe_strerror(err));
		if (!lupe_session_stats(s)->nr_samples)
			goto out;
		warning("showing the %llu samples read before the problem",
			(unsigned long long)lupe_session_stats(s)->nr_samples);
	}
	st = lupe_session_stats(s);
	if (!st->nr_samples) {
		error("'%s' holds no samples", o->input);
		goto out;
	}
	warn_lost(st, 1);
	if (lupe_report_finish(rep) < 0)
		goto out;
	if (o->tui) {
		int rc = browse(o, rep, f, st);

		if (rc == -2) { /* another file: report it next */
			ret = -2;
			goto out;
		}
		if (rc >= 0) {
			ret = rc ? rc : err ? 1 : 0;
			goto out;
		}
		/* no terminal after all: the text */
		printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	}
	/* perf prints these lines for --hierarchy too, but keeps its levels */
	if ((view = lupe_report_view(rep))) {
		unsigned elide = report_elide(stdout, view, &o->print, o->rep.comms, o->rep.dsos,
					      o->rep.symbols);

		o->print.elide = o->print.hierarchy ? 0 : elide;
	}
	if (!o->quiet)
		printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)st->nr_lost_samples);
	/* filtered samples make the view too: none only without samples */
	for (size_t i = 0; (view = lupe_report_view(rep)) && i < lupe_perf_file_nr_evsels(f); i++) {
		struct lupe_evsel *e = lupe_perf_file_evsel(f, i);
		struct lupe_hists *h = lupe_report_hists(rep, (int)i);

		if (!lupe_evsel_stats(e)->nr_samples || !h)
			continue;
		if (o->quiet)
			print_quiet(view, &o->print, e, h);
		else
			report_print_hists(stdout, view, &o->print, e, h, lupe_evsel_stats(e)->nr_samples);
	}
	ret = err ? 1 : 0;
out:
	lupe_report_delete(rep);
	lupe_session_delete(s);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {
		.input = "perf.data",
		.tui = -1,
		/* perf's config: report.children = false is --no-children */
		.rep = { .sz = sizeof(struct lupe_report_opts),
			 .children = cmd_config_bool("report.children", 1) ? -1 : 0 },
	};
	const char *pl = cmd_config_get("report.percent-limit");
	int idx, ret;

	/* report.percent-limit is --percent-limit given first, as perf takes it */
	if (pl) {
		o.print.percent_limit = strtof(pl, NULL);
		snprintf(o.pl_text, sizeof(o.pl_text), "%.17g", o.print.percent_limit);
		set_cg(&o, "", o.pl_text);
	}
	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	/* refuse bad --sort and -g values before reading anything */
	if (lupe_report_check_opts(&o.rep))
		return EXIT_USAGE;
	o.print.sym_first = o.rep.sort && !strncmp(o.rep.sort, "sym", 3) && !o.rep.fields;
	if (o.web || o.wo.html) { /* the browser view: cmd/web.c */
		if (o.web != 2 && o.wo.html)
			return error("-o is the file --html writes: say --html -o FILE"), EXIT_USAGE;
		if (o.web == 2 && !o.wo.html)
			return error("--html wants the file to write: --html -o FILE"), EXIT_USAGE;
		o.wo.force = o.force;
		return web_report(o.input, &o.wo);
	}
	if (o.tasks && o.stats) /* perf refuses it too */
		return error("'--tasks' cannot be used together with '--stats': pick one"), EXIT_USAGE;
	if (o.print.hierarchy && o.rep.fields) {
		error("--hierarchy and --fields options cannot be used together");
		return EXIT_USAGE;
	}
	if (o.print.hierarchy && o.tui > 0)
		warning("the TUI cannot show --hierarchy yet: printing text");
	if (o.print.hierarchy) /* NEEDSWORK: the TUI has no hierarchy view */
		o.tui = 0;
	if (o.quiet) /* as perf: -q has no header to show */
		o.header = o.header_only = 0;
	/* perf's choice: the TUI on a terminal, text on a pipe or without slang */
	if (o.tui < 0)
		o.tui = tui_built() && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && !o.header_only;
	if (!o.tui)
		setup_pager();
	while ((ret = report(&o)) == -2) {
		free(o.next_free);
		o.input = o.next_free = o.next_input;
		o.next_input = NULL;
	}
	free(o.next_free);
	return ret;
}
