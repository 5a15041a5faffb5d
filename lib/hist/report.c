// SPDX-License-Identifier: GPL-2.0
/*
 * The report consumer (see lupe/report.h): the view decided from the
 * options and the events at the first sample (in pipe mode the events are
 * only known then), then each sample filtered and added to its event's
 * histogram. The work per sample is the filters and one hash lookup in the
 * histogram; nothing is allocated per sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/evlist.h>
#include <lupe/perfdata.h>
#include <lupe/report.h>
#include "util/util.h"

struct lupe_report {
	struct lupe_tool tool; /* first: the session hands it back */
	struct lupe_report_opts opts;
	struct lupe_report_view view;
	struct lupe_hist_opts ho;
	struct lupe_hists **hists;
	size_t nr_hists;
	int by_trace, ready;
	char trace[4096];
};

static const char *const key_names[] = { "comm", "pid", "tid", "dso", "sym", "cpu", "trace", "srcline" };

/* A sort key by name (perf's "symbol" is "sym"), -1 when none. */
static int key_of(const char *name)
{
	if (!strcmp(name, "symbol"))
		return LUPE_SORT_SYM;
	for (size_t i = 0; i < ARRAY_SIZE(key_names); i++)
		if (!strcmp(name, key_names[i]))
			return (int)i;
	return -1;
}

/* perf's -F: columns, and (unless -s) the sort keys among them. */
static int parse_fields(const char *s, struct lupe_report_view *v, int keys_too)
{
	static const char *const names[] = { "overhead", "overhead_children", "sample", "period" };
	char *copy = strdup(s), *tok, *save;

	if (!copy)
		return -ENOMEM;
	v->nr_fields = 0;
	if (keys_too)
		v->nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = key_of(tok), f;

		for (f = 0; f < (int)ARRAY_SIZE(names) && strcmp(tok, names[f]); f++)
			;
		if ((f == (int)ARRAY_SIZE(names) && k < 0) || v->nr_fields == 16 ||
		    (k >= 0 && keys_too && v->nr_keys == 8)) {
			pr_err("unknown --fields key '%s' (try overhead,overhead_children,sample,period and the sort keys)", tok);
			free(copy);
			return -EINVAL;
		}
		v->fields[v->nr_fields] = k >= 0 ? LUPE_FIELD_KEY : (enum lupe_field)f;
		v->field_keys[v->nr_fields++] = k >= 0 ? (enum lupe_sort_key)k : 0;
		if (k >= 0 && keys_too)
			v->keys[v->nr_keys++] = (enum lupe_sort_key)k;
	}
	free(copy);
	return 0;
}

static int parse_sort(const char *s, struct lupe_report_view *v)
{
	char *copy = strdup(s), *tok, *save;

	if (!copy)
		return -ENOMEM;
	v->nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(key_names); i++)
			if (!strcmp(tok, key_names[i]))
				break;
		if (i == ARRAY_SIZE(key_names) || v->nr_keys == 8) {
			pr_err("unknown sort key '%s' (try comm,pid,tid,dso,sym,cpu,trace,srcline)", tok);
			free(copy);
			return -EINVAL;
		}
		v->keys[v->nr_keys++] = (enum lupe_sort_key)i;
	}
	free(copy);
	return 0;
}

static int parse_cg(const char *s, struct lupe_report_view *v, int *caller)
{
	char *copy = strdup(s), *tok, *save, *end;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "graph") || !strcmp(tok, "fractal")) {
			v->cg = LUPE_CG_GRAPH;
			v->cg_fractal = !strcmp(tok, "fractal");
		} else if (!strcmp(tok, "flat")) {
			v->cg = LUPE_CG_FLAT;
		} else if (!strcmp(tok, "folded")) {
			v->cg = LUPE_CG_FOLDED;
		} else if (!strcmp(tok, "none")) {
			v->cg = LUPE_CG_NONE;
		} else if (!strcmp(tok, "caller")) {
			*caller = 1;
		} else if (!strcmp(tok, "callee")) {
			*caller = 0;
		} else if (!strcmp(tok, "function") || !strcmp(tok, "address") ||
			   !strcmp(tok, "percent")) {
			continue;
		} else if ((v->cg_min_percent = strtod(tok, &end)), end == tok || *end) {
			pr_err("unknown call-graph parameter '%s' (try graph,0.5,caller)", tok);
			free(copy);
			return -EINVAL;
		}
	}
	free(copy);
	return 0;
}

int lupe_report_check_opts(const struct lupe_report_opts *opts)
{
	struct lupe_report_view check = { 0 };
	int caller, err = 0;

	if (!opts || !lupe_opts_valid(opts, opts->sz, sizeof(*opts)))
		return -EINVAL;
	if (opts->sort)
		err = parse_sort(opts->sort, &check);
	if (!err && opts->call_graph)
		err = parse_cg(opts->call_graph, &check, &caller);
	if (!err && opts->fields)
		err = parse_fields(opts->fields, &check, 1);
	return err;
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev);

struct lupe_report *lupe_report_new(const struct lupe_report_opts *opts)
{
	struct lupe_report *rep;
	int err = lupe_report_check_opts(opts);

	if (err)
		return err_ptr(err);
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return err_ptr(-ENOMEM);
	memcpy(&rep->opts, opts, opts->sz < sizeof(rep->opts) ? opts->sz : sizeof(rep->opts));
	rep->tool.sample = on_sample;
	rep->tool.ordered = 1;
	return rep;
}

void lupe_report_delete(struct lupe_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->nr_hists; i++)
		lupe_hists_delete(rep->hists[i]);
	free(rep->hists);
	free(rep);
}

struct lupe_tool *lupe_report_tool(struct lupe_report *rep)
{
	return &rep->tool;
}

const struct lupe_report_view *lupe_report_view(const struct lupe_report *rep)
{
	return rep->ready ? &rep->view : NULL;
}

struct lupe_hists *lupe_report_hists(struct lupe_report *rep, int idx)
{
	return idx >= 0 && (size_t)idx < rep->nr_hists ? rep->hists[idx] : NULL;
}

/*
 * Decide the view from the events: callchains, children, the default sort.
 * In pipe mode the events are only known once the first sample comes.
 */
static int setup_view(struct lupe_report *rep, struct lupe_session *s)
{
	struct lupe_report_opts *o = &rep->opts;
	struct lupe_report_view *v = &rep->view;
	struct lupe_evlist *evlist = lupe_session_evlist(s);
	struct lupe_perf_file *f = lupe_session_file(s);
	int has_chain = 0, all_tp = 1, caller = -1, nev = evlist ? lupe_evlist_nr(evlist) : 0;
	int pipe = f && lupe_perf_file_is_pipe(f), err;

	for (int i = 0; i < nev; i++) {
		const struct perf_event_attr *a = lupe_evsel_attr(lupe_evlist_evsel(evlist, i));

		has_chain |= !!(a->sample_type & PERF_SAMPLE_CALLCHAIN);
		all_tp &= a->type == PERF_TYPE_TRACEPOINT;
	}
	v->cg = has_chain ? LUPE_CG_GRAPH : LUPE_CG_NONE;
	/* perf's --percent-limit sets the callchain threshold too */
	v->cg_min_percent = o->percent_limit > 0 ? o->percent_limit : 0.5;
	if (o->call_graph && (err = parse_cg(o->call_graph, v, &caller)))
		return err;
	if (!has_chain)
		v->cg = LUPE_CG_NONE;
	/* perf decides children before a pipe's events are known: off there */
	v->children = o->children < 0 ? has_chain && !pipe : o->children && has_chain;
	if (caller < 0) /* perf's pipe mode keeps the caller order it set for children */
		caller = v->children || (pipe && o->children < 0);
	if (o->inverted) /* perf's -G wins over the -g order */
		caller = 1;
	v->caller = caller;
	/* perf sorts a file of tracepoints only by their fields */
	if ((err = parse_sort(o->sort ? o->sort : all_tp && nev ? "trace" : "comm,dso,sym", v)))
		return err;
	/* -F without -s: its keys are the sort keys */
	if (o->fields && (err = parse_fields(o->fields, v, !o->sort)))
		return err;
	for (int k = 0; k < v->nr_keys; k++)
		rep->by_trace |= v->keys[k] == LUPE_SORT_TRACE;
	rep->ho = (struct lupe_hist_opts){ .nr_keys = v->nr_keys, .children = v->children,
					   .callchain = v->cg != LUPE_CG_NONE, .caller = caller,
					   .max_stack = o->max_stack };
	memcpy(rep->ho.keys, v->keys, sizeof(rep->ho.keys));
	rep->ready = 1;
	return 0;
}

/* The histogram of event idx, made when its first sample comes. */
static struct lupe_hists *hists_of(struct lupe_report *rep, int idx)
{
	if ((size_t)idx >= rep->nr_hists) {
		size_t n = (size_t)idx + 8;
		struct lupe_hists **v = realloc(rep->hists, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + rep->nr_hists, 0, (n - rep->nr_hists) * sizeof(*v));
		rep->hists = v;
		rep->nr_hists = n;
	}
	if (!rep->hists[idx])
		rep->hists[idx] = lupe_hists_new(&rep->ho);
	return rep->hists[idx];
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct lupe_report *rep = (struct lupe_report *)tool;
	const struct lupe_report_opts *o = &rep->opts;
	const char *text = NULL;
	struct lupe_hists *h;
	int err;

	if (o->pids && !lupe_list_has_id(o->pids, (int)sample->pid))
		return 0;
	if (o->tids && !lupe_list_has_id(o->tids, (int)sample->tid))
		return 0;
	if (o->comms && !lupe_list_has(o->comms, thread->comm ? thread->comm : ""))
		return 0;
	if (!rep->ready && (err = setup_view(rep, s)))
		return err;
	if (!(h = hists_of(rep, lupe_evsel_idx(evsel))))
		return -ENOMEM;
	if (rep->by_trace && sample->raw &&
	    lupe_evsel_format_trace(evsel, sample, rep->trace, sizeof(rep->trace)) >= 0)
		text = rep->trace;
	return lupe_hists_add(h, s, sample, thread, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK, text);
}

static int keep_entry(const struct lupe_hist_entry *e, void *arg)
{
	const struct lupe_report_opts *o = arg;

	if (o->dsos && !(e->dso && (lupe_list_has(o->dsos, lupe_dso_short_name(e->dso)) ||
				    lupe_list_has(o->dsos, lupe_dso_long_name(e->dso)))))
		return 0;
	if (o->symbols && !(e->sym && lupe_list_has(o->symbols, e->sym->name)))
		return 0;
	return 1;
}

static const char *entry_dso(const struct lupe_hist_entry *e)
{
	return e->dso ? lupe_dso_short_name(e->dso) : "[unknown]";
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* By a sort key, as perf's output sort compares it: names ascending. */
static int cmp_key(const struct lupe_hist_entry *x, const struct lupe_hist_entry *y, enum lupe_sort_key k)
{
	switch (k) {
	case LUPE_SORT_COMM: return cmp_str(x->comm, y->comm);
	case LUPE_SORT_PID:
	case LUPE_SORT_TID: return x->tid < y->tid ? -1 : x->tid > y->tid;
	case LUPE_SORT_CPU: return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
	case LUPE_SORT_DSO: return strcmp(entry_dso(x), entry_dso(y));
	case LUPE_SORT_SYM:
		if (!x->sym || !y->sym) /* perf's cmp_null: the unresolved last */
			return !x->sym && !y->sym ? (x->addr < y->addr ? -1 : x->addr > y->addr) : x->sym ? -1 : 1;
		return strcmp(x->sym->name, y->sym->name);
	case LUPE_SORT_TRACE: return cmp_str(x->trace, y->trace);
	case LUPE_SORT_SRCLINE: return cmp_str(x->srcline, y->srcline);
	}
	return 0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* perf's strict -F order: the entries sort by the columns, in their order. */
static int cmp_fields(const void *a, const void *b, void *arg)
{
	const struct lupe_hist_entry *x = *(const struct lupe_hist_entry *const *)a;
	const struct lupe_hist_entry *y = *(const struct lupe_hist_entry *const *)b;
	const struct lupe_report_view *v = arg;
	int c = 0;

	for (int i = 0; i < v->nr_fields && !c; i++) {
		switch (v->fields[i]) {
		case LUPE_FIELD_OVERHEAD:
		case LUPE_FIELD_PERIOD: c = cmp_u64_desc(x->self, y->self); break;
		case LUPE_FIELD_CHILDREN: c = cmp_u64_desc(x->children, y->children); break;
		case LUPE_FIELD_SAMPLE: c = cmp_u64_desc(x->nr_samples, y->nr_samples); break;
		case LUPE_FIELD_KEY: c = cmp_key(x, y, v->field_keys[i]); break;
		}
	}
	return c;
}

int lupe_report_finish(struct lupe_report *rep)
{
	for (size_t i = 0; i < rep->nr_hists; i++) {
		long n;

		if (!rep->hists[i])
			continue;
		n = lupe_hists_finish(rep->hists[i], keep_entry, &rep->opts);
		if (n < 0)
			return (int)n;
		if (rep->view.nr_fields && !rep->opts.sort)
			lupe_hists_sort(rep->hists[i], cmp_fields, &rep->view);
	}
	return 0;
}

void lupe_report_reset(struct lupe_report *rep)
{
	for (size_t i = 0; i < rep->nr_hists; i++)
		if (rep->hists[i])
			lupe_hists_reset(rep->hists[i]);
}
