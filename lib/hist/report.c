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
	/* with -F: the order entries sort in (perf's sort list) */
	enum lupe_field order[24];
	enum lupe_sort_key order_keys[24];
	int nr_order;
	int by_trace, ready;
	char *trace; /* the sample's trace text, whole: grown to the longest */
	size_t trace_cap;
};

static const char *const key_names[] = { "comm", "pid", "tid", "dso", "sym", "cpu", "trace", "srcline", "cgroup" };

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

/* perf's -F: the columns in their order. */
static int parse_fields(const char *s, struct lupe_report_view *v)
{
	static const char *const names[] = { "overhead", "overhead_children", "sample", "period" };
	char *copy = strdup(s), *tok, *save;

	if (!copy)
		return -ENOMEM;
	v->nr_fields = 0;
	/* perf's "-F +period": these after the default columns */
	v->fields_added = s[0] == '+';
	for (tok = strtok_r(copy + v->fields_added, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = key_of(tok), f;

		for (f = 0; f < (int)ARRAY_SIZE(names) && strcmp(tok, names[f]); f++)
			;
		if ((f == (int)ARRAY_SIZE(names) && k < 0) || v->nr_fields == 8) {
			pr_err(v->nr_fields == 8 ? "too many --fields keys at '%s' (at most 8)" :
			       "unknown --fields key '%s' (try overhead,overhead_children,sample,period and the sort keys)", tok);
			free(copy);
			return -EINVAL;
		}
		v->fields[v->nr_fields] = k >= 0 ? LUPE_FIELD_KEY : (enum lupe_field)f;
		v->field_keys[v->nr_fields++] = k >= 0 ? (enum lupe_sort_key)k : 0;
	}
	free(copy);
	return 0;
}

static int has_key(const enum lupe_sort_key *keys, int nr, enum lupe_sort_key k)
{
	for (int i = 0; i < nr; i++)
		if (keys[i] == k)
			return 1;
	return 0;
}

static int has_column(const struct lupe_report_view *v, enum lupe_sort_key k)
{
	for (int i = 0; i < v->nr_fields; i++)
		if (v->fields[i] == LUPE_FIELD_KEY && v->field_keys[i] == k)
			return 1;
	return 0;
}

/*
 * perf's -F with or without -s: the entries sort by the -s keys, then by
 * the columns -s did not name; the columns are -F's, then the -s keys
 * -F did not name; an entry is keyed by all of them (perf's
 * perf_hpp__setup_output_field and perf_hpp__append_sort_keys). With
 * "-F +...", the entries keep the default order.
 */
static void merge_fields(struct lupe_report *rep, int by_sort)
{
	struct lupe_report_view *v = &rep->view;
	int nr_sort = by_sort ? v->nr_keys : 0, nr_cols = v->nr_fields;

	rep->nr_order = 0;
	for (int i = 0; i < nr_sort && !v->fields_added; i++) {
		rep->order[rep->nr_order] = LUPE_FIELD_KEY;
		rep->order_keys[rep->nr_order++] = v->keys[i];
	}
	for (int i = 0; i < nr_cols && !v->fields_added; i++) {
		if (v->fields[i] == LUPE_FIELD_KEY && has_key(v->keys, nr_sort, v->field_keys[i]))
			continue;
		rep->order[rep->nr_order] = v->fields[i];
		rep->order_keys[rep->nr_order++] = v->field_keys[i];
	}
	for (int i = 0; i < nr_sort; i++) {
		if (has_column(v, v->keys[i]) || v->nr_fields == (int)ARRAY_SIZE(v->fields))
			continue;
		v->fields[v->nr_fields] = LUPE_FIELD_KEY;
		v->field_keys[v->nr_fields++] = v->keys[i];
	}
	v->nr_keys = nr_sort;
	for (int i = 0; i < nr_cols; i++)
		if (v->fields[i] == LUPE_FIELD_KEY && !has_key(v->keys, v->nr_keys, v->field_keys[i]) &&
		    v->nr_keys < (int)ARRAY_SIZE(v->keys))
			v->keys[v->nr_keys++] = v->field_keys[i];
}

static int parse_sort(const char *s, struct lupe_report_view *v)
{
	int keys[ARRAY_SIZE(v->keys)];
	int n = lupe_parse_sort_keys(s, ",", key_names, ARRAY_SIZE(key_names), keys, ARRAY_SIZE(keys),
				     "try comm,pid,tid,dso,sym,cpu,trace,srcline,cgroup");

	if (n < 0)
		return n;
	v->nr_keys = n;
	for (int i = 0; i < n; i++)
		v->keys[i] = (enum lupe_sort_key)keys[i];
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

/* check_opts() of the caller's opts, read through lupe_opts_load(). */
static int check_opts(const struct lupe_report_opts *o)
{
	struct lupe_report_view check = { 0 };
	int caller, err = 0;

	if (o->sort)
		err = parse_sort(o->sort, &check);
	if (!err && o->call_graph)
		err = parse_cg(o->call_graph, &check, &caller);
	if (!err && o->fields)
		err = parse_fields(o->fields, &check);
	return err;
}

int lupe_report_check_opts(const struct lupe_report_opts *opts)
{
	struct lupe_report_opts o;
	int err = opts ? lupe_opts_load(&o, opts) : -EINVAL;

	return err ? err : check_opts(&o);
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev);

struct lupe_report *lupe_report_new(const struct lupe_report_opts *opts)
{
	struct lupe_report_opts o;
	struct lupe_report *rep;
	int err = opts ? lupe_opts_load(&o, opts) : -EINVAL;

	if (!err)
		err = check_opts(&o);
	if (err)
		return err_ptr(err);
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return err_ptr(-ENOMEM);
	rep->opts = o;
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
	free(rep->trace);
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
	/* perf's default threshold (cmd/report.c puts --percent-limit in call_graph) */
	v->cg_min_percent = 0.5;
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
	if (o->hierarchy) /* after the order was chosen, as perf turns cumulation off */
		v->children = 0;
	/* perf sorts a file of tracepoints only by their fields */
	if ((err = parse_sort(o->sort ? o->sort : all_tp && nev ? "trace" : "comm,dso,sym", v)))
		return err;
	if (o->fields) {
		if ((err = parse_fields(o->fields, v)))
			return err;
		/* -F +...: the default sort keys and order stay */
		merge_fields(rep, o->sort || v->fields_added);
	}
	for (int k = 0; k < v->nr_keys; k++)
		rep->by_trace |= v->keys[k] == LUPE_SORT_TRACE;
	v->filters = (o->comms || o->pids || o->tids ? LUPE_FILTER_THREAD : 0) |
		     (o->dsos ? LUPE_FILTER_DSO : 0) | (o->symbols ? LUPE_FILTER_SYMBOL : 0);
	rep->ho = (struct lupe_hist_opts){ .sz = sizeof(rep->ho), .nr_keys = v->nr_keys, .children = v->children,
					   .callchain = v->cg != LUPE_CG_NONE, .caller = caller,
					   .max_stack = o->max_stack, .long_dso_names = o->verbose,
					   .keep_filtered = o->hierarchy };
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

/*
 * --dsos and --symbols, as perf applies them: to the place of the
 * sample's own ip. Its children entries in other places stay (perf's
 * report --dso prog still shows main's callers in libc). The
 * LUPE_FILTER_* bits of those that leave it out.
 */
static unsigned place_filters(const struct lupe_report_opts *o, struct lupe_session *s, struct lupe_thread *t,
			      const struct lupe_sample *sample, uint8_t cpumode)
{
	const struct lupe_dso *dso;
	struct lupe_frame f;
	unsigned out = 0;

	lupe_session_resolve_ip(s, t, sample->ip, cpumode == PERF_RECORD_MISC_KERNEL ||
				cpumode == PERF_RECORD_MISC_GUEST_KERNEL, &f);
	dso = f.map ? f.map->dso : NULL;
	if (o->dsos && !(dso && (lupe_list_has(o->dsos, lupe_dso_short_name(dso)) ||
				 lupe_list_has(o->dsos, lupe_dso_long_name(dso)))))
		out |= LUPE_FILTER_DSO;
	if (o->symbols && !(f.sym && lupe_list_has(o->symbols, f.sym->name)))
		out |= LUPE_FILTER_SYMBOL;
	return out;
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct lupe_report *rep = (struct lupe_report *)tool;
	const struct lupe_report_opts *o = &rep->opts;
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const char *text = NULL;
	struct lupe_hists *h;
	unsigned filtered;
	int err;

	filtered = (o->pids && !lupe_list_has_id(o->pids, (int)sample->pid)) ||
		   (o->tids && !lupe_list_has_id(o->tids, (int)sample->tid)) ||
		   (o->comms && !lupe_list_has(o->comms, thread->comm ? thread->comm : "")) ?
		   LUPE_FILTER_THREAD : 0;
	if (o->dsos || o->symbols)
		filtered |= place_filters(o, s, thread, sample, cpumode);
	if (!rep->ready && (err = setup_view(rep, s)))
		return err;
	if (!(h = hists_of(rep, lupe_evsel_idx(evsel))))
		return -ENOMEM;
	if (rep->by_trace && sample->raw) {
		int n = lupe_evsel_format_trace(evsel, sample, rep->trace, rep->trace_cap);

		if (n >= 0 && (size_t)n >= rep->trace_cap) {
			char *t = realloc(rep->trace, (size_t)n + 1);

			if (!t)
				return -ENOMEM;
			rep->trace = t;
			rep->trace_cap = (size_t)n + 1;
			n = lupe_evsel_format_trace(evsel, sample, rep->trace, rep->trace_cap);
		}
		if (n >= 0)
			text = rep->trace;
	}
	if (filtered)
		return lupe_hists_add_filtered(h, s, sample, thread, cpumode, text, filtered);
	return lupe_hists_add(h, s, sample, thread, cpumode, text);
}

static const char *entry_dso(const struct lupe_hist_entry *e, int long_name)
{
	if (!e->dso)
		return "[unknown]";
	return long_name ? lupe_dso_long_name(e->dso) : lupe_dso_short_name(e->dso);
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* By a sort key, as perf's output sort compares it: names ascending. */
static int cmp_key(const struct lupe_hist_entry *x, const struct lupe_hist_entry *y, enum lupe_sort_key k,
		   int long_dso)
{
	switch (k) {
	case LUPE_SORT_COMM: return cmp_str(x->comm, y->comm);
	case LUPE_SORT_PID:
	case LUPE_SORT_TID: return x->tid < y->tid ? -1 : x->tid > y->tid;
	case LUPE_SORT_CPU: return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
	case LUPE_SORT_DSO:
		if (!x->dso || !y->dso) /* perf's cmp_null: no map last */
			return !x->dso && !y->dso ? 0 : x->dso ? -1 : 1;
		return strcmp(entry_dso(x, long_dso), entry_dso(y, long_dso));
	case LUPE_SORT_SYM:
		if (!x->sym || !y->sym) /* perf's cmp_null: the unresolved last */
			return !x->sym && !y->sym ? (x->addr < y->addr ? -1 : x->addr > y->addr) : x->sym ? -1 : 1;
		return strcmp(x->sym->name, y->sym->name);
	case LUPE_SORT_TRACE: return cmp_str(x->trace, y->trace);
	case LUPE_SORT_SRCLINE: return cmp_str(x->srcline, y->srcline);
	case LUPE_SORT_CGROUP: return x->cgroup < y->cgroup ? 1 : x->cgroup > y->cgroup ? -1 : 0;
	}
	return 0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* perf's -F order: by the sort list, then as the entries came sorted. */
static int cmp_fields(const void *a, const void *b, void *arg)
{
	const struct lupe_hist_entry *x = *(const struct lupe_hist_entry *const *)a;
	const struct lupe_hist_entry *y = *(const struct lupe_hist_entry *const *)b;
	const struct lupe_report *rep = arg;
	int c = 0;

	for (int i = 0; i < rep->nr_order && !c; i++) {
		switch (rep->order[i]) {
		case LUPE_FIELD_OVERHEAD:
		case LUPE_FIELD_PERIOD: c = cmp_u64_desc(x->self, y->self); break;
		case LUPE_FIELD_CHILDREN: /* perf has no children to compare without --children */
			c = rep->view.children ? cmp_u64_desc(x->children, y->children) : 0;
			/* and breaks their ties by the position on the stack, as the default order */
			if (!c && rep->view.children && rep->view.cg != LUPE_CG_NONE)
				c = x->depth > y->depth ? -1 : x->depth < y->depth;
			break;
		case LUPE_FIELD_SAMPLE: c = cmp_u64_desc(x->nr_samples, y->nr_samples); break;
		case LUPE_FIELD_KEY: c = cmp_key(x, y, rep->order_keys[i], rep->opts.verbose); break;
		}
	}
	return c; /* ties: perf's collapsed order (lupe_hists_sort()) */
}

int lupe_report_finish(struct lupe_report *rep)
{
	for (size_t i = 0; i < rep->nr_hists; i++) {
		long n;

		if (!rep->hists[i])
			continue;
		n = lupe_hists_finish(rep->hists[i], NULL, NULL);
		if (n < 0)
			return (int)n;
		if (rep->nr_order && (n = lupe_hists_sort(rep->hists[i], cmp_fields, rep)))
			return (int)n;
	}
	return 0;
}

void lupe_report_reset(struct lupe_report *rep)
{
	for (size_t i = 0; i < rep->nr_hists; i++)
		if (rep->hists[i])
			lupe_hists_reset(rep->hists[i]);
}
