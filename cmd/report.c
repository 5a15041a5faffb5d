// SPDX-License-Identifier: GPL-2.0
/*
 * lupe report: the profile in a perf.data as perf report --stdio shows it.
 * Without --stdio on a terminal the same text is shown (the TUI comes later).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/hist.h>
#include <lupe/session.h>
#include "builtin.h"
#include "header.h"
#include "hist.h"
#include "pager.h"

enum {
	KEY_STDIO = 0x100, KEY_NO_CHILDREN, KEY_CHILDREN, KEY_PERCENT_LIMIT, KEY_COMM, KEY_DSO,
	KEY_PID, KEY_TID, KEY_SYMBOLS, KEY_HEADER, KEY_HEADER_ONLY, KEY_TUI, KEY_INLINE, KEY_NO_INLINE,
};

struct report_opts {
	const char *input;
	int force, header, header_only, no_inline;
	int children; /* -1: perf's default (on when there are callchains) */
	const char *sort, *cg;
	int cg_pending;
	char *comms, *dsos, *pids, *tids, *syms;
	struct report_view view;
};

static const struct argp_option options[] = {
	{ "input", 'i', "FILE", 0, "input file name (default: perf.data; - reads stdin)", 0 },
	{ "force", 'f', NULL, 0, "read a file not owned by you", 0 },
	{ "stdio", KEY_STDIO, NULL, 0, "plain text output (the default for now)", 0 },
	{ "tui", KEY_TUI, NULL, 0, "the interactive browser (not built yet: text is shown)", 0 },
	{ "children", KEY_CHILDREN, NULL, 0, "accumulate callers' overhead (the default with callchains)", 0 },
	{ "no-children", KEY_NO_CHILDREN, NULL, 0, "show self overhead only", 0 },
	{ "sort", 's', "KEYS", 0, "sort by keys: comm,pid,tid,dso,sym,cpu,trace,srcline (default comm,dso,sym)", 0 },
	{ "show-nr-samples", 'n', NULL, 0, "show the number of samples of each entry", 0 },
	{ "percent-limit", KEY_PERCENT_LIMIT, "PCT", 0, "hide entries below PCT percent", 0 },
	{ "call-graph", 'g', "MODE", OPTION_ARG_OPTIONAL,
	  "callchains: graph|flat|folded|none[,min_percent][,caller|callee]", 0 },
	{ "comms", KEY_COMM, "LIST", 0, "only these commands", 0 },
	{ "comm", KEY_COMM, "LIST", OPTION_ALIAS, NULL, 0 },
	{ "dsos", KEY_DSO, "LIST", 0, "only these shared objects", 0 },
	{ "dso", KEY_DSO, "LIST", OPTION_ALIAS, NULL, 0 },
	{ "pid", KEY_PID, "LIST", 0, "only these process ids", 0 },
	{ "tid", KEY_TID, "LIST", 0, "only these thread ids", 0 },
	{ "symbols", KEY_SYMBOLS, "LIST", 0, "only these symbols", 0 },
	{ "inline", KEY_INLINE, NULL, 0, "show inlined functions in callchains (the default)", 0 },
	{ "no-inline", KEY_NO_INLINE, NULL, 0, "do not show inlined functions in callchains", 0 },
	{ "header", KEY_HEADER, NULL, 0, "show the data header first", 0 },
	{ "header-only", KEY_HEADER_ONLY, NULL, 0, "show only the data header", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;
	char *end;

	if (key != ARGP_KEY_ARG && key > 0 && key != 'g')
		o->cg_pending = 0;
	switch (key) {
	case 'i': o->input = arg; return 0;
	case 'f': o->force = 1; return 0;
	case KEY_STDIO: case KEY_TUI: return 0;
	case KEY_CHILDREN: o->children = 1; return 0;
	case KEY_NO_CHILDREN: o->children = 0; return 0;
	case 's': o->sort = arg; return 0;
	case 'n': o->view.show_nr = 1; return 0;
	case KEY_PERCENT_LIMIT:
		o->view.percent_limit = strtod(arg, &end);
		if (end == arg || *end)
			argp_error(state, "--percent-limit wants a number, not '%s'", arg);
		return 0;
	case 'g':
		o->cg = arg ? arg : "graph";
		o->cg_pending = !arg;
		return 0;
	case KEY_COMM: o->comms = arg; return 0;
	case KEY_DSO: o->dsos = arg; return 0;
	case KEY_PID: o->pids = arg; return 0;
	case KEY_TID: o->tids = arg; return 0;
	case KEY_SYMBOLS: o->syms = arg; return 0;
	case KEY_HEADER: o->header = 1; return 0;
	case KEY_INLINE: o->no_inline = 0; return 0;
	case KEY_NO_INLINE: o->no_inline = 1; return 0;
	case KEY_HEADER_ONLY: o->header_only = 1; return 0;
	case ARGP_KEY_ARG:
		if (o->cg_pending) {
			/* perf takes "-g flat": the next word is -g's parameter */
			o->cg = arg;
			o->cg_pending = 0;
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
	.doc = "Show the profile in a perf.data file, the way perf report --stdio does.",
};

/* Whether word is in the comma-separated list (NULL: everything is). */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	if (!list)
		return 1;
	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

static int in_id_list(const char *list, int id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", id);
	return in_list(list, buf);
}

static int parse_sort(const char *s, struct report_view *v)
{
	static const char *const names[] = { "comm", "pid", "tid", "dso", "sym", "cpu", "trace", "srcline" };
	char *copy = strdup(s), *tok, *save;

	v->nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(*names); i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == sizeof(names) / sizeof(*names) || v->nr_keys == 8) {
			error("unknown sort key '%s' (try comm,pid,tid,dso,sym,cpu,trace,srcline)", tok);
			free(copy);
			return -1;
		}
		v->keys[v->nr_keys++] = (enum lupe_sort_key)i;
	}
	free(copy);
	return 0;
}

static int parse_cg(const char *s, struct report_view *v, int *caller)
{
	char *copy = strdup(s), *tok, *save, *end;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "graph") || !strcmp(tok, "fractal")) {
			v->cg = CG_GRAPH;
			v->cg_fractal = !strcmp(tok, "fractal");
		}
		else if (!strcmp(tok, "flat"))
			v->cg = CG_FLAT;
		else if (!strcmp(tok, "folded"))
			v->cg = CG_FOLDED;
		else if (!strcmp(tok, "none"))
			v->cg = CG_NONE;
		else if (!strcmp(tok, "caller"))
			*caller = 1;
		else if (!strcmp(tok, "callee"))
			*caller = 0;
		else if (!strcmp(tok, "function") || !strcmp(tok, "address") || !strcmp(tok, "percent"))
			continue;
		else if ((v->cg_min_percent = strtod(tok, &end)), end == tok || *end) {
			error("unknown call-graph parameter '%s' (try graph,0.5,caller)", tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	return 0;
}

struct report_tool {
	struct lupe_tool tool;
	struct report_opts *o;
	struct lupe_hists **hists;
	size_t nr_hists;
	struct lupe_hist_opts ho;
	int by_trace, ready, failed;
};

static int setup_view(struct report_tool *rt, struct lupe_perf_file *f);
static struct lupe_hists *hists_of(struct report_tool *rt, int idx);

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct report_tool *rt = (struct report_tool *)tool;
	struct report_opts *o = rt->o;
	char trace[4096];
	const char *text = NULL;

	if (o->pids && !in_id_list(o->pids, (int)sample->pid))
		return 0;
	if (o->tids && !in_id_list(o->tids, (int)sample->tid))
		return 0;
	if (o->comms && !in_list(o->comms, thread->comm ? thread->comm : ""))
		return 0;
	struct lupe_hists *h;

	if (!rt->ready && setup_view(rt, lupe_session_file(s))) {
		rt->failed = 1;
		return 1; /* stop: the options were refused */
	}
	if (!(h = hists_of(rt, evsel->idx)))
		return -ENOMEM;
	if (rt->by_trace && sample->raw && lupe_evsel_format_trace(evsel, sample, trace, sizeof(trace)) >= 0)
		text = trace;
	return lupe_hists_add(h, s, sample, thread, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK, text);
}

static int keep_entry(const struct lupe_hist_entry *e, void *arg)
{
	struct report_opts *o = arg;

	if (o->dsos && !(e->dso && (in_list(o->dsos, e->dso->short_name) ||
				    in_list(o->dsos, e->dso->long_name))))
		return 0;
	if (o->syms && !(e->sym && in_list(o->syms, e->sym->name)))
		return 0;
	return 1;
}

/*
 * Decide the view from the events: callchains, children, the default sort.
 * In pipe mode the events are only known once the first sample comes.
 */
static int setup_view(struct report_tool *rt, struct lupe_perf_file *f)
{
	struct report_opts *o = rt->o;
	int has_chain = 0, all_tp = 1, caller = -1;
	size_t nev = lupe_perf_file_nr_evsels(f);

	for (size_t i = 0; i < nev; i++) {
		has_chain |= !!(lupe_perf_file_evsel(f, i)->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
		all_tp &= lupe_perf_file_evsel(f, i)->attr.type == PERF_TYPE_TRACEPOINT;
	}
	o->view.cg = has_chain ? CG_GRAPH : CG_NONE;
	o->view.cg_min_percent = 0.5;
	if (o->cg && parse_cg(o->cg, &o->view, &caller))
		return -1;
	if (!has_chain)
		o->view.cg = CG_NONE;
	/* perf decides children before a pipe's events are known: off there */
	o->view.children = o->children < 0 ? has_chain && !lupe_perf_file_is_pipe(f) :
			   o->children && has_chain;
	if (caller < 0) /* perf's pipe mode keeps the caller order it set for children */
		caller = o->view.children || (lupe_perf_file_is_pipe(f) && o->children < 0);
	/* perf sorts a file of tracepoints only by their fields */
	if (parse_sort(o->sort ? o->sort : all_tp && nev ? "trace" : "comm,dso,sym", &o->view))
		return -1;
	for (int k = 0; k < o->view.nr_keys; k++)
		rt->by_trace |= o->view.keys[k] == LUPE_SORT_TRACE;
	rt->ho = (struct lupe_hist_opts){ .nr_keys = o->view.nr_keys, .children = o->view.children,
					  .callchain = o->view.cg != CG_NONE, .caller = caller };
	memcpy(rt->ho.keys, o->view.keys, sizeof(rt->ho.keys));
	rt->ready = 1;
	return 0;
}

/* The histogram of event idx, made when its first sample comes. */
static struct lupe_hists *hists_of(struct report_tool *rt, int idx)
{
	if ((size_t)idx >= rt->nr_hists) {
		size_t n = (size_t)idx + 8;
		struct lupe_hists **v = realloc(rt->hists, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + rt->nr_hists, 0, (n - rt->nr_hists) * sizeof(*v));
		rt->hists = v;
		rt->nr_hists = n;
	}
	if (!rt->hists[idx])
		rt->hists[idx] = lupe_hists_new(&rt->ho);
	return rt->hists[idx];
}

static int report(struct report_opts *o)
{
	struct report_tool rt = { .tool = { .sample = on_sample, .ordered = 1 }, .o = o };
	struct lupe_perf_file *f;
	struct lupe_session *s;
	const struct lupe_session_stats *st;
	int err, ret = 1;

	s = lupe_session_new(o->input, o->force);
	if (!s)
		return 1;
	lupe_session_set_inline(s, !o->no_inline);
	f = lupe_session_file(s);
	if (o->header || o->header_only)
		print_header(stdout, f, o->input, 1);
	if (o->header_only) {
		lupe_session_delete(s);
		return 0;
	}
	if (!o->header)
		printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	if (!lupe_perf_file_is_pipe(f) && setup_view(&rt, f))
		goto out;
	err = lupe_session_process(s, &rt.tool);
	if (rt.failed)
		goto out;
	if (err) {
		const char *why = lupe_perf_file_error(f);

		error("%s", why[0] ? why : lupe_strerror(err));
		if (!lupe_session_stats(s)->nr_samples)
			goto out;
		warning("showing the %llu samples read before the problem",
			(unsigned long long)lupe_session_stats(s)->nr_samples);
	}
	st = lupe_session_stats(s);
	if (st->nr_lost_records)
		warning("processed %llu events and lost %llu chunks: check IO/CPU overload (record with a larger -m or a lower -F)",
			(unsigned long long)st->nr_records, (unsigned long long)st->nr_lost_records);
	if (!st->nr_samples) {
		error("'%s' holds no samples", o->input);
		goto out;
	}
	if (st->nr_lost_samples) {
		uint64_t all = st->nr_samples + st->nr_lost_samples;

		warning("processed %llu samples and lost %.2f%% of them",
			(unsigned long long)all, 100.0 * (double)st->nr_lost_samples / (double)all);
	}
	printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)st->nr_lost_samples);
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(f) && i < rt.nr_hists; i++) {
		struct lupe_evsel *e = lupe_perf_file_evsel(f, i);

		if (!e->nr_samples || !rt.hists[i])
			continue;
		if (lupe_hists_finish(rt.hists[i], keep_entry, o) < 0)
			goto out;
		report_print_hists(stdout, &o->view, e, rt.hists[i], e->nr_samples);
	}
	ret = err ? 1 : 0;
out:
	for (size_t i = 0; i < rt.nr_hists; i++)
		lupe_hists_delete(rt.hists[i]);
	free(rt.hists);
	lupe_session_delete(s);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .input = "perf.data", .children = -1 };
	int idx;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		return EXIT_USAGE;
	{
		/* refuse bad --sort and -g values before reading anything */
		struct report_view check = { 0 };
		int caller;

		if ((o.sort && parse_sort(o.sort, &check)) || (o.cg && parse_cg(o.cg, &check, &caller)))
			return EXIT_USAGE;
	}
	setup_pager();
	return report(&o);
}
