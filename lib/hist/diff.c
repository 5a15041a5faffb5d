// SPDX-License-Identifier: GPL-2.0
/*
 * perf diff's computation (see lupe/diff.h). Each file is read by the
 * report consumer (lupe/report.h) into one histogram per event, keyed by
 * the diff's sort keys, with no callchains; a thin tool in front of it
 * counts every sample's period, the total perf's absolute percentages are
 * of. Rows are then matched by key with a sorted array and binary search
 * (n log n in the entries), and sorted with perf diff's comparison chain:
 * the -o file's computed column, the baseline's period, every file's
 * column, then the keys.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/diff.h>
#include <lupe/evlist.h>
#include <lupe/perfdata.h>
#include <lupe/report.h>
#include "util/util.h"

struct diff_file {
	struct lupe_tool tool; /* first: the session hands it back */
	struct lupe_session *s;
	struct lupe_report *rep;
	uint64_t *totals;      /* every sample's period, by event index */
	size_t nr_totals;
};

struct diff_event {
	struct lupe_evsel *evsel;
	uint64_t *totals;       /* by file */
	struct lupe_diff_row *rows;
	long nr_rows;
};

struct lupe_diff {
	struct lupe_diff_opts opts;
	struct lupe_report_opts ropts;
	char sort[64];
	enum lupe_sort_key keys[4];
	int nr_keys;
	struct diff_file **files;
	int nr_files;
	struct diff_event *events;
	int nr_events;
};

static int parse_keys(struct lupe_diff *d, const char *s)
{
	char *copy = strdup(s), *tok, *save;
	size_t len = 0;

	if (!copy)
		return -ENOMEM;
	d->nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum lupe_sort_key k;
		const char *name;

		/* perf takes any prefix of a key's name: "sym" for "symbol" */
		if (!strncmp("comm", tok, strlen(tok)) && *tok) {
			k = LUPE_SORT_COMM, name = "comm";
		} else if (!strncmp("dso", tok, strlen(tok)) && *tok) {
			k = LUPE_SORT_DSO, name = "dso";
		} else if (!strncmp("symbol", tok, strlen(tok)) && *tok) {
			k = LUPE_SORT_SYM, name = "sym";
		} else {
			pr_err("unknown sort key '%s' for diff (try dso,symbol or comm)", tok);
			free(copy);
			return -EINVAL;
		}
		if (d->nr_keys == (int)ARRAY_SIZE(d->keys)) {
			pr_err("too many sort keys in '%s'", s);
			free(copy);
			return -EINVAL;
		}
		d->keys[d->nr_keys++] = k;
		len += (size_t)snprintf(d->sort + len, sizeof(d->sort) - len, "%s%s", len ? "," : "", name);
	}
	free(copy);
	if (!d->nr_keys) {
		pr_err("no sort key in '%s'", s);
		return -EINVAL;
	}
	return 0;
}

struct lupe_diff *lupe_diff_new(const struct lupe_diff_opts *opts)
{
	struct lupe_diff_opts o;
	struct lupe_diff *d;
	int err;

	if (!opts || lupe_opts_load(&o, opts))
		return err_ptr(-EINVAL);
	if (o.compute == LUPE_DIFF_WDIFF && (!o.w1 || !o.w2)) {
		pr_err("the weighted diff needs two non-zero weights (wdiff:W1,W2)");
		return err_ptr(-EINVAL);
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return err_ptr(-ENOMEM);
	d->opts = o;
	if (d->opts.order < 0)
		d->opts.order = 1;
	if ((err = parse_keys(d, d->opts.sort ? d->opts.sort : "dso,symbol"))) {
		free(d);
		return err_ptr(err);
	}
	d->ropts = (struct lupe_report_opts){
		.sz = sizeof(d->ropts), .sort = d->sort, .call_graph = "none", .children = 0,
		.comms = o.comms, .pids = o.pids, .tids = o.tids,
		.dsos = o.dsos, .symbols = o.symbols,
	};
	if ((err = lupe_report_check_opts(&d->ropts))) {
		free(d);
		return err_ptr(err);
	}
	return d;
}

static void file_delete(struct diff_file *f)
{
	if (!f)
		return;
	lupe_report_delete(f->rep);
	lupe_session_delete(f->s);
	free(f->totals);
	free(f);
}

void lupe_diff_delete(struct lupe_diff *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->nr_events; i++) {
		for (long r = 0; r < d->events[i].nr_rows; r++)
			free(d->events[i].rows[r].cells);
		free(d->events[i].rows);
		free(d->events[i].totals);
	}
	free(d->events);
	for (int i = 0; i < d->nr_files; i++)
		file_delete(d->files[i]);
	free(d->files);
	free(d);
}

/* Count the period, then hand the sample to the report. */
static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct diff_file *f = (struct diff_file *)tool;
	struct lupe_tool *rt = lupe_report_tool(f->rep);
	size_t idx = (size_t)lupe_evsel_idx(evsel);

	if (idx >= f->nr_totals) {
		size_t n = idx + 8;
		uint64_t *v = realloc(f->totals, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + f->nr_totals, 0, (n - f->nr_totals) * sizeof(*v));
		f->totals = v;
		f->nr_totals = n;
	}
	f->totals[idx] += sample->period;
	return rt->sample(rt, s, evsel, sample, thread, ev);
}

int lupe_diff_add(struct lupe_diff *d, const char *path, int force)
{
	struct diff_file *f, **v;
	int err;

	v = realloc(d->files, (size_t)(d->nr_files + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	d->files = v;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->tool.sample = on_sample;
	f->tool.ordered = 1;
	f->s = lupe_session_open(path, force);
	if (!f->s) {
		err = -errno;
		free(f);
		return err;
	}
	lupe_session_set_inline(f->s, 1);
	f->rep = lupe_report_new(&d->ropts);
	if (!f->rep) {
		err = -errno;
		file_delete(f);
		return err;
	}
	err = lupe_session_process(f->s, &f->tool);
	if (!err)
		err = lupe_report_finish(f->rep);
	if (err) {
		const char *why = lupe_perf_file_error(lupe_session_file(f->s));

		pr_err("cannot process '%s': %s", path, why && why[0] ? why : lupe_strerror(err));
		file_delete(f);
		return err;
	}
	d->files[d->nr_files++] = f;
	return 0;
}

static int nr_file_events(struct diff_file *f)
{
	return (int)lupe_perf_file_nr_evsels(lupe_session_file(f->s));
}

/* The event of f perf pairs with base: the first of the same type and config. */
static int match_event(struct diff_file *f, const struct lupe_evsel *base)
{
	const struct perf_event_attr *b = lupe_evsel_attr(base);
	struct lupe_perf_file *pf = lupe_session_file(f->s);

	for (int i = 0; i < nr_file_events(f); i++) {
		const struct perf_event_attr *a = lupe_evsel_attr(lupe_perf_file_evsel(pf, (size_t)i));

		if (a->type == b->type && a->config == b->config)
			return i;
	}
	return -1;
}

static int cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

static int cmp_u64(uint64_t l, uint64_t r)
{
	return l < r ? -1 : l > r;
}

/* The shared objects by short name, a missing one first. */
static int cmp_dso(const struct lupe_hist_entry *l, const struct lupe_hist_entry *r)
{
	if (!l->dso || !r->dso)
		return cmp_null(l->dso, r->dso);
	return strcmp(lupe_dso_short_name(l->dso), lupe_dso_short_name(r->dso));
}

/* Same key or not, as perf's collapse compares: symbols by address, a missing one by ip. */
static int key_cmp(const struct lupe_diff *d, const struct lupe_hist_entry *l,
		   const struct lupe_hist_entry *r)
{
	for (int k = 0; k < d->nr_keys; k++) {
		int c = 0;

		switch (d->keys[k]) {
		case LUPE_SORT_COMM:
			c = strcmp(l->comm ? l->comm : "", r->comm ? r->comm : "");
			break;
		case LUPE_SORT_DSO:
			c = cmp_dso(l, r);
			break;
		case LUPE_SORT_SYM:
			/* perf's symbol key compares the shared objects too, a key or not */
			if ((c = cmp_dso(l, r)))
				break;
			if (!l->sym && !r->sym)
				c = cmp_u64(l->addr, r->addr);
			else if (!l->sym || !r->sym)
				c = cmp_null(l->sym, r->sym);
			else if (!(c = cmp_u64(l->sym->start, r->sym->start)) &&
				 !(c = cmp_u64(l->sym->end, r->sym->end)))
				c = strcmp(l->sym->name, r->sym->name);
			break;
		default:
			break;
		}
		if (c)
			return c;
	}
	return 0;
}

/* The entry standing for a row's key: the first file's that has one. */
static const struct lupe_hist_entry *row_key(const struct lupe_diff *d, const struct lupe_diff_row *r)
{
	for (int i = 0; i < d->nr_files; i++)
		if (r->cells[i].e)
			return r->cells[i].e;
	return NULL;
}

static int row_key_cmp(const void *a, const void *b, void *d)
{
	return key_cmp(d, row_key(d, a), row_key(d, b));
}

static int cmp_doubles(double l, double r)
{
	return l > r ? -1 : l < r ? 1 : 0;
}

/* perf's __hist_entry__cmp_compute: the larger value first. */
static int cmp_value(const struct lupe_diff *d, const struct lupe_diff_cell *l,
		     const struct lupe_diff_cell *r)
{
	switch (d->opts.compute) {
	case LUPE_DIFF_DELTA: return cmp_doubles(l->delta, r->delta);
	case LUPE_DIFF_DELTA_ABS: return cmp_doubles(fabs(l->delta), fabs(r->delta));
	case LUPE_DIFF_RATIO: return cmp_doubles(l->ratio, r->ratio);
	case LUPE_DIFF_WDIFF: return l->wdiff > r->wdiff ? -1 : l->wdiff < r->wdiff;
	}
	return 0;
}

static int has_pairs(const struct lupe_diff *d, const struct lupe_diff_row *r)
{
	for (int i = 1; i < d->nr_files; i++)
		if (r->cells[i].e)
			return 1;
	return 0;
}

/*
 * perf diff's output order, as a qsort comparison (negative: a first):
 * the -o file's column (rows with that file first; for ratio and wdiff
 * rows with a baseline first), the baseline period, each file's column,
 * then the keys, ascending by name, entries without one last.
 */
static int row_order(const void *pa, const void *pb, void *ctx)
{
	const struct lupe_diff *d = ctx;
	const struct lupe_diff_row *a = pa, *b = pb;
	const struct lupe_hist_entry *ka = row_key(d, a), *kb = row_key(d, b);
	int c, o = d->opts.order;

	if (o > 0) {
		const struct lupe_diff_cell *x = &a->cells[o], *y = &b->cells[o];

		if (!x->e != !y->e)
			return x->e ? -1 : 1;
		if (x->e && (d->opts.compute == LUPE_DIFF_RATIO || d->opts.compute == LUPE_DIFF_WDIFF) &&
		    !a->cells[0].e != !b->cells[0].e)
			return a->cells[0].e ? -1 : 1;
		if (x->e && (a->cells[0].e || b->cells[0].e ||
			     d->opts.compute == LUPE_DIFF_DELTA || d->opts.compute == LUPE_DIFF_DELTA_ABS) &&
		    (c = cmp_value(d, x, y)))
			return c;
	}
	c = cmp_u64(b->cells[0].e ? b->cells[0].e->self : 0, a->cells[0].e ? a->cells[0].e->self : 0);
	if (c)
		return c;
	for (int i = 1; i < d->nr_files; i++) {
		int pa_ = has_pairs(d, a), pb_ = has_pairs(d, b);

		if (!pa_ && !pb_)
			continue;
		if (!pa_ || !pb_)
			return pa_ ? -1 : 1;
		if (!a->cells[i].e != !b->cells[i].e)
			return a->cells[i].e ? -1 : 1;
		if (a->cells[i].e && (c = cmp_value(d, &a->cells[i], &b->cells[i])))
			return c;
	}
	for (int k = 0; k < d->nr_keys; k++) {
		switch (d->keys[k]) {
		case LUPE_SORT_COMM:
			c = strcmp(ka->comm ? ka->comm : "", kb->comm ? kb->comm : "");
			break;
		case LUPE_SORT_DSO:
			c = !ka->dso || !kb->dso ? -cmp_null(ka->dso, kb->dso)
						 : strcmp(lupe_dso_short_name(ka->dso), lupe_dso_short_name(kb->dso));
			break;
		case LUPE_SORT_SYM:
			c = !ka->sym || !kb->sym ? -cmp_null(ka->sym, kb->sym) : strcmp(ka->sym->name, kb->sym->name);
			break;
		default:
			c = 0;
		}
		if (c)
			return c;
	}
	return 0;
}

static struct lupe_diff_row *find_row(const struct lupe_diff *d, struct diff_event *ev, const struct lupe_hist_entry *e, long sorted)
{
	for (long lo = 0, hi = sorted; lo < hi;) {
		long mid = lo + (hi - lo) / 2;
		int c = key_cmp(d, e, row_key(d, &ev->rows[mid]));

		if (!c)
			return &ev->rows[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static int add_row(struct lupe_diff *d, struct diff_event *ev, long *cap, int file,
		   const struct lupe_hist_entry *e)
{
	struct lupe_diff_row *r;

	if (ev->nr_rows == *cap) {
		long n = *cap ? *cap * 2 : 64;
		struct lupe_diff_row *v = realloc(ev->rows, (size_t)n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ev->rows = v;
		*cap = n;
	}
	r = &ev->rows[ev->nr_rows];
	r->cells = calloc((size_t)d->nr_files, sizeof(*r->cells));
	if (!r->cells)
		return -ENOMEM;
	r->cells[file].e = e;
	ev->nr_rows++;
	return 0;
}

/* The period percentages are of: all samples, or with relative those kept. */
static uint64_t file_total(const struct lupe_diff *d, struct diff_file *f, int idx,
			   struct lupe_hists *h)
{
	uint64_t total = 0;
	struct lupe_hist_entry *e;

	if (!d->opts.relative)
		return idx >= 0 && (size_t)idx < f->nr_totals ? f->totals[idx] : 0;
	for (long i = 0; h && (e = lupe_hists_entry(h, i)); i++)
		total += e->self;
	return total;
}

/*
 * perf's -b: the rows no other file shares go, and the baseline's
 * percentages become of what is left (perf sums its entries again after
 * the computations, which stay of all the samples).
 */
static void keep_shared(const struct lupe_diff *d, struct diff_event *ev)
{
	long kept = 0;
	uint64_t total = 0;

	for (long r = 0; r < ev->nr_rows; r++) {
		struct lupe_diff_row *row = &ev->rows[r];

		if (!row->cells[0].e || !has_pairs(d, row)) {
			free(row->cells);
			continue;
		}
		total += row->cells[0].e->self;
		ev->rows[kept++] = *row;
	}
	ev->nr_rows = kept;
	ev->totals[0] = total;
	for (long r = 0; r < kept; r++)
		ev->rows[r].cells[0].percent = total ? 100.0 * (double)ev->rows[r].cells[0].e->self / (double)total : 0;
}

static int build_event(struct lupe_diff *d, struct diff_event *ev)
{
	long cap = 0;
	uint64_t *totals = calloc((size_t)d->nr_files, sizeof(*totals));
	int err = 0;

	if (!totals)
		return -ENOMEM;
	ev->totals = totals;
	for (int i = 0; i < d->nr_files && !err; i++) {
		struct diff_file *f = d->files[i];
		int idx = i ? match_event(f, ev->evsel) : lupe_evsel_idx(ev->evsel);
		struct lupe_hists *h = idx >= 0 ? lupe_report_hists(f->rep, idx) : NULL;
		long sorted = ev->nr_rows;
		struct lupe_hist_entry *e;

		totals[i] = file_total(d, f, idx, h);
		for (long j = 0; h && (e = lupe_hists_entry(h, j)) && !err; j++) {
			struct lupe_diff_row *r = i ? find_row(d, ev, e, sorted) : NULL;

			if (r && !r->cells[i].e)
				r->cells[i].e = e;
			else
				err = add_row(d, ev, &cap, i, e);
		}
		qsort_r(ev->rows, (size_t)ev->nr_rows, sizeof(*ev->rows), row_key_cmp, d);
	}
	for (long r = 0; r < ev->nr_rows && !err; r++) {
		struct lupe_diff_cell *c = ev->rows[r].cells;
		uint64_t base = c[0].e ? c[0].e->self : 0;

		for (int i = 0; i < d->nr_files; i++) {
			uint64_t p = c[i].e ? c[i].e->self : 0;

			/* as perf: of an event without samples in the baseline, 0/0, so the deltas print -nan */
			c[i].percent = 100.0 * (double)p / (double)totals[i];
			if (!i || !c[i].e)
				continue;
			c[i].delta = c[i].percent - c[0].percent;
			c[i].ratio = (double)p / (double)(base ? base : 1);
			c[i].wdiff = (int64_t)p * d->opts.w2 - (int64_t)base * d->opts.w1;
		}
	}
	if (!err && d->opts.baseline_only)
		keep_shared(d, ev);
	if (!err)
		qsort_r(ev->rows, (size_t)ev->nr_rows, sizeof(*ev->rows), row_order, d);
	return err;
}

int lupe_diff_finish(struct lupe_diff *d)
{
	struct lupe_perf_file *pf;
	int n, err = 0;

	if (d->nr_files < 2) {
		pr_err("a diff needs two files at least");
		return -EINVAL;
	}
	if (d->opts.order >= d->nr_files) {
		pr_err("order %d is past the last file (%d)", d->opts.order, d->nr_files - 1);
		return -EINVAL;
	}
	pf = lupe_session_file(d->files[0]->s);
	n = nr_file_events(d->files[0]);
	d->events = calloc((size_t)n, sizeof(*d->events));
	if (!d->events)
		return -ENOMEM;
	d->nr_events = n;
	for (int i = 0; i < n && !err; i++) {
		d->events[i].evsel = lupe_perf_file_evsel(pf, (size_t)i);
		err = build_event(d, &d->events[i]);
	}
	return err;
}

int lupe_diff_nr_files(const struct lupe_diff *d)
{
	return d->nr_files;
}

int lupe_diff_nr_events(const struct lupe_diff *d)
{
	return d->nr_events;
}

struct lupe_evsel *lupe_diff_event(struct lupe_diff *d, int ev)
{
	return ev >= 0 && ev < d->nr_events ? d->events[ev].evsel : NULL;
}

long lupe_diff_nr_rows(const struct lupe_diff *d, int ev)
{
	return ev >= 0 && ev < d->nr_events ? d->events[ev].nr_rows : 0;
}

const struct lupe_diff_row *lupe_diff_row(const struct lupe_diff *d, int ev, long idx)
{
	if (ev < 0 || ev >= d->nr_events || idx < 0 || idx >= d->events[ev].nr_rows)
		return NULL;
	return &d->events[ev].rows[idx];
}

uint64_t lupe_diff_total(const struct lupe_diff *d, int ev, int file)
{
	if (ev < 0 || ev >= d->nr_events || file < 0 || file >= d->nr_files || !d->events[ev].totals)
		return 0;
	return d->events[ev].totals[file];
}

int lupe_diff_keys(const struct lupe_diff *d, const enum lupe_sort_key **keys)
{
	*keys = d->keys;
	return d->nr_keys;
}
