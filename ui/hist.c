// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's stdio layout: overhead columns, sort-key columns sized to
 * their longest value, and callchains drawn as perf draws them (graph with
 * "|--NN.NN%--" branches, flat, folded), hiding what is below the
 * callchain threshold.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "hist-hierarchy.h"

/* Room for an address in hex: names are printed from where they are, whole. */
#define ADDR_BUF 24

static const char *dso_col(const struct lupe_hist_entry *e, int verbose)
{
	if (!e->dso)
		return "[unknown]";
	return verbose ? lupe_dso_long_name(e->dso) : lupe_dso_short_name(e->dso);
}

/* perf's symbol column: "[.] name", -v's address and origin before it; malloc'd, NULL: no memory */
static char *sym_col(const struct lupe_hist_entry *e, int verbose)
{
	char lvl = e->kernel ? 'k' : '.', pre[64] = "", *out;
	int n;

	/* perf -v: the address of the entry's first sample and where the symbols came from */
	if (verbose)
		snprintf(pre, sizeof(pre), "%-#18llx %c ", (unsigned long long)e->addr,
			 e->dso ? lupe_dso_origin(e->dso) : '!');
	if (e->sym)
		n = asprintf(&out, "%s[%c] %s", pre, lvl, e->sym->name);
	else
		n = asprintf(&out, e->addr ? "%s[%c] %#018llx" : "%s[%c] %016llx", pre, lvl,
			     (unsigned long long)e->addr);
	return n < 0 ? NULL : out;
}

/* A node's function name, whole, or its address written into buf. */
static const char *node_name(const struct lupe_cc_node *n, char buf[ADDR_BUF])
{
	if (n->sym)
		return n->sym->name;
	snprintf(buf, ADDR_BUF, "%#llx", (unsigned long long)n->addr);
	return buf;
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

uint64_t report_min_hit(uint64_t total, double min_percent)
{
	/* perf's u64 of a negative product is huge: no chain shows */
	if (min_percent < 0)
		return UINT64_MAX;
	/* in perf's order of operations, for the same rounding */
	return (uint64_t)((double)total * (min_percent / 100));
}

struct gctx {
	FILE *fp;
	uint64_t total, min_hit; /* graph: of the whole histogram */
	int fractal;             /* percentages of the parent, thresholds too */
	double min_percent;
	const char *sep;         /* between folded frames: ';', or -t's */
	int skip_first;          /* a single root's first function is not printed */
};

/*
 * A level of the graph: the total its percentages are of and the
 * threshold its branches must reach. Without fractal both are the whole
 * histogram's. With fractal perf's sort keeps a node's children that
 * reach min_percent of the node's children hits (ceil), and its printer
 * divides by the same children hits, but at the top (and below a single
 * root run printed without a percentage) by the entry's own period.
 */
struct level {
	uint64_t total, min_hit;
};

static struct level level_of(const struct gctx *g, uint64_t total, uint64_t below)
{
	if (!g->fractal)
		return (struct level){ g->total, g->min_hit };
	return (struct level){ total, (uint64_t)ceil((double)below * (g->min_percent / 100.0)) };
}

static struct level level_under(const struct gctx *g, uint64_t below)
{
	return level_of(g, below, below);
}

static int visible(const struct level *l, const struct lupe_cc_node *n)
{
	return n->cumul >= l->min_hit && n->cumul;
}

static void margin(FILE *fp, int left)
{
	fprintf(fp, "            %*s", left, "");
}

/* A node's run: itself and the single children below it with nothing ending between. */
static const struct lupe_cc_node *run_end(const struct lupe_cc_node *n)
{
	while (!n->hit && n->child && !n->child->next)
		n = n->child;
	return n;
}

/* Returns whether it printed a line. */
static int graph_level(struct gctx *g, const struct lupe_cc_node *parent, struct level l,
		       int depth, unsigned mask, int left)
{
	const struct lupe_cc_node *c, *next;
	uint64_t remaining = l.total;
	char name[ADDR_BUF];

	for (c = parent->child; c && !visible(&l, c); c = c->next)
		;
	if (!c)
		return 0;
	for (; c; c = next) {
		unsigned newmask = mask;
		const struct lupe_cc_node *n, *end = run_end(c);
		int period = 0;

		remaining -= c->cumul < remaining ? c->cumul : remaining;
		for (next = c->next; next && !visible(&l, next); next = next->next)
			;
		/* with fractal, a bar stays for the "[...]" of what the children leave */
		if (!next && (!g->fractal || !remaining))
			newmask &= ~(1u << (depth - 1));
		margin(g->fp, left);
		for (int i = 0; i < depth; i++)
			fputs(mask & (1u << i) ? "|          " : "           ", g->fp);
		fputc('\n', g->fp);
		for (n = c;; n = n->child) {
			margin(g->fp, left);
			for (int i = 0; i < depth; i++) {
				fputc(newmask & (1u << i) ? '|' : ' ', g->fp);
				if (!period && i == depth - 1)
					fprintf(g->fp, "--%.2f%%--", pct(c->cumul, l.total));
				else
					fputs("          ", g->fp);
			}
			period++;
			fprintf(g->fp, "%s\n", node_name(n, name));
			if (n == end)
				break;
		}
		graph_level(g, end, level_under(g, end->cumul - end->hit), depth + 1,
			    newmask | (1u << depth), left);
		mask = newmask;
	}
	if (g->fractal && remaining && remaining != l.total) {
		margin(g->fp, left);
		for (int i = 0; i < depth; i++) {
			fputc(mask & (1u << i) && i < depth - 1 ? '|' : ' ', g->fp);
			if (i == depth - 1)
				fprintf(g->fp, "--%.2f%%--", pct(remaining, l.total));
			else
				fputs("          ", g->fp);
		}
		fputs("[...]\n", g->fp);
	}
	return 1;
}

static void print_graph(struct gctx *g, const struct lupe_cc_node *root, uint64_t parent)
{
	const struct lupe_cc_node *first, *c;
	int nvis = 0, left = 0;
	char name[ADDR_BUF];

	/* the chain root's children hits are the entry's, filtered samples aside */
	struct level l = level_of(g, parent, root->cumul - root->hit);

	first = NULL;
	for (c = root->child; c; c = c->next)
		if (visible(&l, c) && !nvis++)
			first = c;
	if (!nvis)
		return;
	/* perf drops the root's percentage only when it is the whole entry's */
	if (nvis == 1 && first->cumul == parent) {
		const struct lupe_cc_node *n, *end = run_end(first);
		int printed = 0;

		/* One root: print its run without a percentage, one level less deep. */
		for (n = first;; n = n->child) {
			/* perf's -s sym...: the run's first function is the entry's own, not shown twice */
			if (n != first || !g->skip_first) {
				margin(g->fp, left);
				if (!printed++) {
					fputs("|\n", g->fp);
					margin(g->fp, left);
					fputs("---", g->fp);
					left += 3;
				}
				fprintf(g->fp, "%s\n", node_name(n, name));
			}
			if (n == end)
				break;
		}
		root = end;
		l = level_of(g, parent, end->cumul - end->hit);
	}
	/* perf ends a chain with an empty line, unless it printed nothing (-s sym's lone own function) */
	if (graph_level(g, root, l, 1, 1, left) || left)
		fputc('\n', g->fp);
}

/* A chain that ends at a node with hits, for flat and folded output. */
struct flat_path {
	uint64_t hit;
	size_t seq;
	int depth;
	const struct lupe_cc_node **nodes;
};

struct flat_set {
	struct flat_path *v;
	size_t nr, cap;
};

/* Post-order, as perf's __sort_chain_flat() inserts them. */
static void collect_flat_paths(struct gctx *g, const struct lupe_cc_node **path, int depth,
			       const struct lupe_cc_node *n, struct flat_set *set)
{
	uint32_t nr = 0;

	path[depth++] = n;
	/* perf walks the children in its tree's order, not by value: equal paths come so */
	for (const struct lupe_cc_node *c = n->child; c && depth < 1024; c = c->next)
		nr++;
	for (uint32_t r = 0; r < nr; r++)
		for (const struct lupe_cc_node *c = n->child; c; c = c->next)
			if (c->key_rank == r) {
				collect_flat_paths(g, path, depth, c, set);
				break;
			}
	if (!n->hit || n->hit < g->min_hit)
		return;
	if (set->nr == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 64;
		struct flat_path *v = realloc(set->v, cap * sizeof(*v));

		if (!v)
			return;
		set->v = v;
		set->cap = cap;
	}
	set->v[set->nr].nodes = malloc(depth * sizeof(*path));
	if (!set->v[set->nr].nodes)
		return;
	memcpy(set->v[set->nr].nodes, path, depth * sizeof(*path));
	set->v[set->nr].depth = depth;
	set->v[set->nr].hit = n->hit;
	set->v[set->nr].seq = set->nr;
	set->nr++;
}

/* Largest first; equal ones in the order they came (perf's rb tree puts them right). */
static int cmp_flat(const void *a, const void *b)
{
	const struct flat_path *x = a, *y = b;

	if (x->hit != y->hit)
		return x->hit > y->hit ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void print_flat_paths(struct gctx *g, const struct lupe_cc_node **path, int depth,
			     const struct lupe_cc_node *n, int folded)
{
	struct flat_set set = { 0 };
	char name[ADDR_BUF];

	collect_flat_paths(g, path, depth, n, &set);
	qsort(set.v, set.nr, sizeof(*set.v), cmp_flat);
	for (size_t k = 0; k < set.nr; k++) {
		const struct flat_path *fp = &set.v[k];
		int d = fp->depth;

		if (folded) {
			fprintf(g->fp, "%.2f%% ", pct(fp->hit, g->total));
			for (int i = 1; i < d; i++)
				fprintf(g->fp, "%s%s", i > 1 ? g->sep : "", node_name(fp->nodes[i], name));
			fputc('\n', g->fp);
		} else {
			/* perf's flat value is the node's cumulated one, folded's its own hits */
			fprintf(g->fp, "           %.2f%%\n", pct(fp->nodes[d - 1]->cumul, g->total));
			for (int i = 1; i < d; i++)
				fprintf(g->fp, "                %s\n", node_name(fp->nodes[i], name));
			fputc('\n', g->fp);
		}
	}
	for (size_t k = 0; k < set.nr; k++)
		free((void *)set.v[k].nodes);
	free(set.v);
}

static const char *key_head(enum lupe_sort_key k)
{
	switch (k) {
	case LUPE_SORT_COMM: return "Command";
	case LUPE_SORT_PID: return "    Pid:Command"; /* perf's, spaces and all */
	case LUPE_SORT_TID: return "Tid";
	case LUPE_SORT_DSO: return "Shared Object";
	case LUPE_SORT_SYM: return "Symbol";
	case LUPE_SORT_CPU: return "CPU";
	case LUPE_SORT_TRACE: return "Trace output";
	case LUPE_SORT_SRCLINE: return "Source:Line";
	case LUPE_SORT_CGROUP: return "Cgroup";
	}
	return "";
}

/* An entry's value of key k, as its column shows it before padding: malloc'd, NULL: no memory. */
static char *key_val(const struct lupe_hist_entry *e, enum lupe_sort_key k, int verbose)
{
	const char *str = "";
	char *out;

	switch (k) {
	case LUPE_SORT_COMM: str = e->comm ? e->comm : ""; break;
	case LUPE_SORT_PID:
		return asprintf(&out, "%7d:%s", e->tid,
				e->thread && e->thread->comm ? e->thread->comm : e->comm ? e->comm : "") < 0
			       ? NULL : out;
	case LUPE_SORT_TID: return asprintf(&out, "%d", e->tid) < 0 ? NULL : out;
	case LUPE_SORT_DSO: str = dso_col(e, verbose); break;
	case LUPE_SORT_SYM: return sym_col(e, verbose);
	case LUPE_SORT_CPU: return asprintf(&out, "%.3d", e->cpu) < 0 ? NULL : out; /* perf: -1 is -001 */
	case LUPE_SORT_TRACE: str = e->trace ? e->trace : ""; break;
	case LUPE_SORT_SRCLINE: str = e->srcline ? e->srcline : ""; break;
	case LUPE_SORT_CGROUP: str = e->cgroup_name ? e->cgroup_name : "N/A"; break;
	}
	return strdup(str);
}

const char *report_units(uint64_t *v)
{
	if (*v > 1000000000ULL) {
		*v /= 1000000000ULL;
		return "G";
	}
	if (*v > 1000000ULL) {
		*v /= 1000000ULL;
		return "M";
	}
	if (*v > 1000ULL) {
		*v /= 1000ULL;
		return "K";
	}
	return " ";
}

/*
 * A line's columns: -F's, else perf's default ones (children and self,
 * or the overhead; -n's samples; the sort keys).
 */
struct column {
	enum lupe_field f;
	enum lupe_sort_key k; /* with LUPE_FIELD_KEY */
};

static int columns(const struct lupe_report_view *v, const struct report_print_opts *po,
		   struct column *col)
{
	int n = 0;

	if (!v->nr_fields || v->fields_added) {
		if (v->children)
			col[n++] = (struct column){ LUPE_FIELD_CHILDREN, 0 };
		col[n++] = (struct column){ LUPE_FIELD_OVERHEAD, 0 };
		if (po->show_nr)
			col[n++] = (struct column){ LUPE_FIELD_SAMPLE, 0 };
		if (po->show_period)
			col[n++] = (struct column){ LUPE_FIELD_PERIOD, 0 };
	}
	for (int i = 0; i < v->nr_fields && n < REPORT_MAX_COLS; i++)
		if (v->fields[i] != LUPE_FIELD_KEY || !(po->elide & (1u << v->field_keys[i])))
			col[n++] = (struct column){ v->fields[i], v->field_keys[i] };
	for (int k = 0; !v->nr_fields && k < v->nr_keys && n < REPORT_MAX_COLS; k++)
		if (!(po->elide & (1u << v->keys[k])))
			col[n++] = (struct column){ LUPE_FIELD_KEY, v->keys[k] };
	return n;
}

unsigned report_elide(FILE *fp, const struct lupe_report_view *v, const struct report_print_opts *po,
		      const char *comms, const char *dsos, const char *symbols)
{
	struct report_print_opts all = *po;
	struct column col[REPORT_MAX_COLS];
	unsigned elide = 0;
	int nr, nr_keys = 0;

	all.elide = 0;
	nr = columns(v, &all, col);
	for (int i = 0; i < nr; i++) {
		const char *one = NULL, *name = NULL;

		if (col[i].f != LUPE_FIELD_KEY)
			continue;
		nr_keys++;
		switch (col[i].k) {
		case LUPE_SORT_COMM: one = comms, name = "comm"; break;
		case LUPE_SORT_DSO: one = dsos, name = "dso"; break;
		case LUPE_SORT_SYM: one = symbols, name = "symbol"; break;
		default: break;
		}
		/* perf's strlist: one value is a list without a comma */
		if (!one || !*one || strchr(one, ','))
			continue;
		fprintf(fp, "# %s: %s\n", name, one);
		elide |= 1u << col[i].k;
	}
	return __builtin_popcount(elide) < nr_keys ? elide : 0;
}

/* perf's hpp columns: percentages 8 wide, counts 12, right-aligned. */
static int value_width(enum lupe_field f)
{
	return f == LUPE_FIELD_SAMPLE || f == LUPE_FIELD_PERIOD ? 12 : 8;
}

static const char *column_head(const struct lupe_report_view *v, const struct column *c)
{
	switch (c->f) {
	/* perf calls the self column Self beside its default Children one */
	case LUPE_FIELD_OVERHEAD: return v->children && (!v->nr_fields || v->fields_added) ? "Self" : "Overhead";
	case LUPE_FIELD_CHILDREN: return "Children";
	case LUPE_FIELD_SAMPLE: return "Samples";
	case LUPE_FIELD_PERIOD: return "Period";
	case LUPE_FIELD_KEY: break;
	}
	return key_head(c->k);
}

/*
 * Under --percent-limit: perf hides each entry whose overhead (Children
 * with --children) is below it, compared in float as perf's limit is.
 */
static int below_limit(const struct lupe_report_view *v, const struct report_print_opts *po,
		       const struct lupe_hist_entry *e, uint64_t total)
{
	return (float)pct(v->children ? e->children : e->self, total) < (float)po->percent_limit;
}

void report_widths_add(const struct lupe_report_view *v, const struct report_print_opts *po,
		       const struct lupe_hist_entry *e, int width[REPORT_MAX_COLS])
{
	struct column col[REPORT_MAX_COLS];
	int nr = columns(v, po, col);

	for (int k = 0; k < nr; k++) {
		char *buf;
		int len;

		/* perf's CPU column stays 3 wide, a -001 sticks out */
		if (col[k].f != LUPE_FIELD_KEY || col[k].k == LUPE_SORT_CPU)
			continue;
		if (!(buf = key_val(e, col[k].k, po->verbose)))
			continue;
		len = strlen(buf) < INT_MAX ? (int)strlen(buf) : INT_MAX;
		/*
		 * perf sizes the comm column by the thread's last comm,
		 * not the entry's, and cuts wider entries to fit: a
		 * perf-exec entry of a thread now called demo shows as
		 * "perf-ex" under "Command".
		 */
		if (col[k].k == LUPE_SORT_COMM && e->thread && e->thread->comm)
			len = (int)strlen(e->thread->comm);
		/* perf sizes an inlined function's column by its name alone */
		if (col[k].k == LUPE_SORT_SYM && e->sym && len > 10 &&
		    !strcmp(buf + len - 10, " (inlined)"))
			len -= 10;
		if (len > width[k])
			width[k] = len;
		free(buf);
	}
}

void report_widths_heads(const struct lupe_report_view *v, const struct report_print_opts *po,
			 int width[REPORT_MAX_COLS])
{
	struct column col[REPORT_MAX_COLS];
	int nr = columns(v, po, col);

	for (int k = 0; k < nr; k++) {
		int head = (int)strlen(column_head(v, &col[k]));

		if (col[k].f != LUPE_FIELD_KEY)
			width[k] = value_width(col[k].f);
		else if (head > width[k])
			width[k] = head;
	}
}

void report_widths(const struct lupe_report_view *v, const struct report_print_opts *po,
		   struct lupe_hists *h, int width[REPORT_MAX_COLS], long *shown)
{
	uint64_t total = lupe_hists_total_period(h);
	struct lupe_hist_entry *e;

	memset(width, 0, REPORT_MAX_COLS * sizeof(*width));
	*shown = 0;
	for (long i = 0; (e = lupe_hists_entry(h, i)); i++) {
		if (po->max_entries && i >= po->max_entries)
			break;
		/* perf sizes the columns by every entry, those below --percent-limit too */
		if (!below_limit(v, po, e, total))
			*shown = i + 1;
		report_widths_add(v, po, e, width);
	}
	report_widths_heads(v, po, width);
}

char *report_head_line(const struct lupe_report_view *v, const struct report_print_opts *po,
		       const int width[REPORT_MAX_COLS])
{
	struct column col[REPORT_MAX_COLS];
	int nr = columns(v, po, col);
	const char *sep = po->field_sep ? po->field_sep : "  ";
	char *line = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&line, &size);

	if (!m)
		return NULL;
	for (int k = 0; k < nr; k++)
		fprintf(m, col[k].f == LUPE_FIELD_KEY ? "%s%-*s" : "%s%*s", k ? sep : "", width[k],
			column_head(v, &col[k]));
	if (fclose(m)) {
		free(line);
		return NULL;
	}
	return line;
}

/* The TUI's rows are a screen wide: cut to its buffer. */
static void cut_into(char *buf, size_t size, char *line)
{
	if (size)
		snprintf(buf, size, "%s", line ? line : "");
	free(line);
}

void report_format_head(char *buf, size_t size, const struct lupe_report_view *v,
			const struct report_print_opts *po, const int width[REPORT_MAX_COLS])
{
	cut_into(buf, size, report_head_line(v, po, width));
}

/* A value column: percentages, counts, or N/A for children without them, as perf's hpp. */
static int format_value(char *buf, size_t size, const struct lupe_report_view *v, int sep,
			enum lupe_field f, const struct lupe_hist_entry *e, uint64_t total)
{
	int len = sep ? 1 : value_width(f) - (f == LUPE_FIELD_OVERHEAD || f == LUPE_FIELD_CHILDREN ? 2 : 1);

	switch (f) {
	case LUPE_FIELD_CHILDREN:
		if (!v->children)
			return snprintf(buf, size, " %*s", value_width(f) - 1, "N/A");
		return snprintf(buf, size, " %*.2f%%", len, pct(e->children, total));
	case LUPE_FIELD_OVERHEAD: return snprintf(buf, size, " %*.2f%%", len, pct(e->self, total));
	case LUPE_FIELD_SAMPLE: return snprintf(buf, size, " %*llu", len, (unsigned long long)e->nr_samples);
	case LUPE_FIELD_PERIOD: return snprintf(buf, size, " %*llu", len, (unsigned long long)e->self);
	case LUPE_FIELD_KEY: break;
	}
	return 0;
}

char *report_entry_line(const struct lupe_report_view *v, const struct report_print_opts *po,
			const int width[REPORT_MAX_COLS], const struct lupe_hist_entry *e, uint64_t total)
{
	struct column col[REPORT_MAX_COLS];
	int nr = columns(v, po, col);
	const char *sep = po->field_sep;
	char *line = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&line, &size);

	if (!m)
		return NULL;
	for (int k = 0; k < nr; k++) {
		int last = k + 1 == nr, len;
		char val[64], *key, *text;

		/* perf starts a line with two spaces without -t */
		fputs(sep ? k ? sep : "" : "  ", m);
		if (col[k].f != LUPE_FIELD_KEY) {
			len = format_value(val, sizeof(val), v, !!sep, col[k].f, e, total);
			/* perf pads every column but the last to its width */
			fprintf(m, "%s%*s", val, !last && len < width[k] ? width[k] - len : 0, "");
			continue;
		}
		if (!(key = key_val(e, col[k].k, po->verbose)))
			goto fail;
		/* perf pads every key but a last symbol, trace, srcline or cgroup one; cuts a comm */
		if (col[k].k == LUPE_SORT_COMM)
			len = asprintf(&text, "%-*.*s", width[k], width[k], key);
		else
			len = asprintf(&text, "%-*s",
				       !last || (col[k].k != LUPE_SORT_SYM && col[k].k != LUPE_SORT_TRACE &&
						 col[k].k != LUPE_SORT_SRCLINE && col[k].k != LUPE_SORT_CGROUP) ? width[k] : 0,
				       key);
		free(key);
		if (len < 0)
			goto fail;
		/* with -t, perf turns the separator inside a value into dots */
		for (char *p = text; sep && *sep && (p = strchr(p, *sep)); )
			*p = '.';
		fputs(text, m);
		free(text);
	}
	if (fclose(m)) {
		free(line);
		return NULL;
	}
	return line;
fail:
	fclose(m);
	free(line);
	return NULL;
}

void report_format_entry(char *buf, size_t size, const struct lupe_report_view *v,
			 const struct report_print_opts *po, const int width[REPORT_MAX_COLS],
			 const struct lupe_hist_entry *e, uint64_t total)
{
	cut_into(buf, size, report_entry_line(v, po, width, e, total));
}

void report_node_name(const struct lupe_cc_node *n, char *buf, size_t size)
{
	char addr[ADDR_BUF];

	if (size)
		snprintf(buf, size, "%s", node_name(n, addr));
}

void report_print_hists(FILE *fp, const struct lupe_report_view *v, const struct report_print_opts *po,
			const struct lupe_evsel *evsel,
			struct lupe_hists *h, uint64_t nr_samples)
{
	uint64_t total = lupe_hists_total_period(h), n = nr_samples;
	const char *u = report_units(&n);
	int width[REPORT_MAX_COLS];
	long shown;
	struct lupe_hist_entry *e;
	char *line;

	fprintf(fp, "# Samples: %llu%s of event '%s'\n", (unsigned long long)n, u, lupe_evsel_name(evsel));
	fprintf(fp, "# Event count (approx.): %llu\n#\n", (unsigned long long)total);
	if (po->hierarchy) {
		report_print_hierarchy(fp, v, po, h);
		fputs("\n\n", fp);
		return;
	}
	report_widths(v, po, h, width, &shown);
	line = report_head_line(v, po, width);
	fprintf(fp, "# %s\n", line ? line : "");
	free(line);
	/* perf's dots under the heads, not with -t */
	for (int k = 0; !po->field_sep && k < REPORT_MAX_COLS && width[k]; k++) {
		fputs(k ? "  " : "# ", fp);
		for (int i = 0; i < width[k]; i++)
			fputc('.', fp);
	}
	if (!po->field_sep)
		fputs("\n#\n", fp);
	for (long i = 0; i < shown; i++) {
		e = lupe_hists_entry(h, i);
		if (below_limit(v, po, e, total))
			continue;
		/* NULL only when out of memory: the line is left out, not cut */
		if ((line = report_entry_line(v, po, width, e, total)))
			fprintf(fp, "%s\n", line);
		free(line);
		report_print_chain(fp, v, po, e, total);
	}
	fputs("\n\n", fp);
}

/* Pieces for the --hierarchy printer (ui/hist-hierarchy.c): the same heads, values and chains. */
const char *report_key_head(enum lupe_sort_key k)
{
	return key_head(k);
}

char *report_key_str(const struct lupe_hist_entry *e, enum lupe_sort_key k, int verbose)
{
	return key_val(e, k, verbose);
}

void report_print_chain(FILE *fp, const struct lupe_report_view *v, const struct report_print_opts *po,
			const struct lupe_hist_entry *e, uint64_t total)
{
	struct gctx g = { fp, total, report_min_hit(total, v->cg_min_percent), v->cg_fractal,
			  v->cg_min_percent, po->field_sep ? po->field_sep : ";",
			  po->sym_first };
	const struct lupe_cc_node *path[1024];

	if (v->cg == LUPE_CG_GRAPH)
		print_graph(&g, &e->chain, v->children ? e->children : e->self);
	else if (v->cg == LUPE_CG_FLAT || v->cg == LUPE_CG_FOLDED)
		print_flat_paths(&g, path, 0, &e->chain, v->cg == LUPE_CG_FOLDED);
}
