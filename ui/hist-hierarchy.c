// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --stdio --hierarchy's layout over lupe/hierarchy.h's tree.
 * perf keeps the overhead columns at the left, then indents each level's
 * key by three spaces a level, after a margin as wide as the deepest
 * indent; the key columns keep the widths of the flat report (the same
 * values, the same padding, leading spaces cut), and the column heads are
 * joined into one ("Command / Shared Object / Symbol") whose dots line
 * reaches the widest level. Callchains hang under the last level only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/hierarchy.h>
#include "hist-hierarchy.h"

#define INDENT 3    /* perf's HIERARCHY_INDENT */
#define MAX_DOTS 207 /* the length of perf's string of dots */

struct hctx {
	FILE *fp;
	const struct lupe_report_view *v;
	const struct report_print_opts *po;
	const int *width;
	uint64_t total;
};

/* perf's percentage test: as floats, the way perf's percent limit compares them */
static float percent(const struct hctx *c, uint64_t period)
{
	return c->total ? (float)((double)period * 100.0 / (double)c->total) : 0.0f;
}

static int shown(const struct hctx *c, const struct lupe_hier_node *n)
{
	return percent(c, n->period) >= (float)c->po->percent_limit;
}

/* Key k of e as its column shows it: padded as the flat report pads it, leading spaces cut. */
static void print_key(const struct hctx *c, const struct lupe_hist_entry *e, int k)
{
	enum lupe_sort_key key = c->v->keys[k];
	char *val = report_key_str(e, key, c->po->verbose), *text = NULL;
	const char *p;
	int n;

	if (!val)
		return;
	if (key == LUPE_SORT_COMM)
		n = asprintf(&text, "%-*.*s", c->width[k], c->width[k], val);
	else if (key == LUPE_SORT_SYM || key == LUPE_SORT_TRACE || key == LUPE_SORT_SRCLINE)
		n = asprintf(&text, "%s", val);
	else
		n = asprintf(&text, "%-*s", c->width[k], val);
	free(val);
	if (n < 0)
		return;
	for (p = text; *p == ' '; p++)
		;
	fputs(p, c->fp);
	free(text);
}

/* The first child perf would show (filters aside), NULL: none. */
static const struct lupe_hier_node *first_unfiltered(const struct lupe_hier_node *n)
{
	const struct lupe_hier_node *c = n->child;

	while (c && c->filtered)
		c = c->next;
	return c;
}

/*
 * A node's overhead and -n's samples after its indent. With -t perf
 * prints them unaligned, padded to their columns' widths, each after the
 * separator but the first.
 */
static void print_values(const struct hctx *c, const struct lupe_hier_node *n)
{
	double pct = c->total ? 100.0 * (double)n->period / (double)c->total : 0.0;
	const char *sep = c->po->field_sep;
	char val[64];

	if (!sep) {
		fprintf(c->fp, "%*s  %7.2f%%", n->depth * INDENT, "", pct);
		if (c->po->show_nr)
			fprintf(c->fp, "  %12llu", (unsigned long long)n->nr_samples);
		return;
	}
	snprintf(val, sizeof(val), " %.2f%%", pct);
	fprintf(c->fp, "%*s%-8s", n->depth * INDENT, "", val);
	if (c->po->show_nr) {
		snprintf(val, sizeof(val), " %llu", (unsigned long long)n->nr_samples);
		fprintf(c->fp, "%s%-12s", sep, val);
	}
}

/*
 * Like perf, every node is looked at, those hidden by a filter or the
 * limit too: below a hidden one nothing shows but what a filter of a
 * deeper key lets through.
 */
static void print_level(const struct hctx *c, const struct lupe_hier_node *parent)
{
	int margin = (c->v->nr_keys - 1) * INDENT;
	const char *sep = c->po->field_sep;

	for (const struct lupe_hier_node *n = parent->child; n; n = n->next) {
		if (!n->filtered && shown(c, n)) {
			const struct lupe_hier_node *first = first_unfiltered(n);

			print_values(c, n);
			fprintf(c->fp, "%*s%s", sep ? 0 : margin, "", sep ? sep : "  ");
			print_key(c, n->entry, n->depth);
			fputc('\n', c->fp);
			if (n->leaf && c->v->cg != LUPE_CG_NONE)
				report_print_chain(c->fp, c->v, c->po, n->entry, c->total);
			/* the first child shown is the largest: nothing below shows when it does not */
			if (!n->leaf && (!first || !shown(c, first)))
				fprintf(c->fp, "%*s%*sno entry >= %.2f%%\n",
					sep ? 0 : (c->v->nr_keys + n->depth) * INDENT, "",
					(c->po->show_nr ? 8 + 2 + 12 : 8) + 4, "", c->po->percent_limit);
		}
		if (!n->leaf)
			print_level(c, n);
	}
}

/* The key columns' widths: perf's of the nodes it shows, each node's values those of its entry. */
static void node_widths(const struct hctx *c, const struct report_print_opts *po,
			const struct lupe_hier_node *parent, int *width)
{
	for (const struct lupe_hier_node *n = parent->child; n; n = n->next) {
		if (!n->filtered)
			report_widths_add(c->v, po, n->entry, width);
		if (!n->leaf)
			node_widths(c, po, n, width);
	}
}

/* The heads, joined; the dots reach the widest of the heads and of each level's column. */
static void print_heads(const struct hctx *c)
{
	int margin = (c->v->nr_keys - 1) * INDENT, len = 0, dots;
	const char *sep = c->po->field_sep;

	if (sep)
		fprintf(c->fp, "# Overhead%s%s%s", sep, c->po->show_nr ? "     Samples" : "",
			c->po->show_nr ? sep : "");
	else
		fprintf(c->fp, "# %*s%s  %s", margin, "", "Overhead", c->po->show_nr ? "     Samples  " : "");
	for (int k = 0; k < c->v->nr_keys; k++) {
		const char *head = report_key_head(c->v->keys[k]);
		int n = (int)strlen(head);

		while (*head == ' ')
			head++, n--;
		while (n > 0 && head[n - 1] == ' ')
			n--;
		len += fprintf(c->fp, "%s%.*s", k ? " / " : "", n, head);
	}
	dots = len;
	for (int k = 0; k < c->v->nr_keys; k++)
		if (k * INDENT + c->width[k] > dots)
			dots = k * INDENT + c->width[k];
	/* perf prints them from a string of 207 dots: no more */
	if (dots > MAX_DOTS)
		dots = MAX_DOTS;
	fprintf(c->fp, "\n# %.*s", (sep ? 0 : margin) + 8, "..................................................");
	/* without -t perf runs the Samples dots into Overhead's */
	if (c->po->show_nr)
		fprintf(c->fp, "%s............", sep ? sep : "..");
	fputs(sep ? sep : "  ", c->fp);
	for (int i = 0; i < dots; i++)
		fputc('.', c->fp);
	fputs("\n#\n", c->fp);
}

/*
 * With report filters the histogram holds the entries filtered samples
 * made too: perf sums them into the levels above the filter's key and
 * hides the rest level by level (lupe_hierarchy_opts.filters).
 */
void report_print_hierarchy(FILE *fp, const struct lupe_report_view *v,
			    const struct report_print_opts *po, struct lupe_hists *h)
{
	/* the key columns are as wide as all shown nodes need: no limit applies to widths */
	struct report_print_opts all = { .show_nr = po->show_nr, .verbose = po->verbose };
	struct lupe_hist_entry **entries, *e;
	struct lupe_hierarchy *hier;
	LUPE_OPTS(lupe_hierarchy_opts, ho, .long_dso_names = po->verbose, .filters = v->filters);
	struct hctx c = { fp, v, po, NULL, lupe_hists_total_period(h) };
	int width[REPORT_MAX_COLS] = { 0 };
	long nr = 0;

	while (lupe_hists_entry(h, nr))
		nr++;
	entries = malloc(((size_t)nr + 1) * sizeof(*entries));
	if (!entries) {
		fprintf(stderr, "lupe: cannot group the entries: %s\n", strerror(ENOMEM));
		return;
	}
	for (long i = 0; (e = lupe_hists_entry(h, i)); i++)
		entries[i] = e;
	hier = lupe_hierarchy_new_opts(entries, nr, v->keys, v->nr_keys, &ho);
	free(entries);
	if (!hier) {
		fprintf(stderr, "lupe: cannot group the entries: %s\n", strerror(errno));
		return;
	}
	node_widths(&c, &all, lupe_hierarchy_root(hier), width);
	report_widths_heads(v, &all, width);
	/* the key columns follow Overhead and -n's Samples (no -F, no Children here) */
	c.width = width + 1 + !!po->show_nr;
	print_heads(&c);
	print_level(&c, lupe_hierarchy_root(hier));
	lupe_hierarchy_delete(hier);
}
