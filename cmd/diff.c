// SPDX-License-Identifier: GPL-2.0
/*
 * lupe diff: two or more perf.data files side by side, as perf diff shows
 * them: the baseline's percentages, then per file the delta (or the ratio,
 * or the weighted diff) against it, one row per shared object and symbol.
 * The computation and the order are the library's (lupe/diff.h); this file
 * parses perf's options and prints perf's text.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/diff.h>
#include <lupe/evlist.h>
#include <lupe/symbols.h>
#include "builtin.h"
#include "options.h"
#include "web.h"

struct diff_opts {
	struct lupe_diff_opts lib;
	char **files; /* the baseline, then the others */
	int nr_files, force, quiet, period, formula;
	int web; /* --web: the browser view of the two files (cmd/web.c) */
	const char *listen;
};

/* The columns before the keys, in perf's order: per file its value, formula and period. */
enum col_kind { COL_BASELINE, COL_BASE_PERIOD, COL_COMPUTE, COL_FORMULA, COL_PERIOD };

struct col {
	enum col_kind kind;
	int file, width;
	char head[128];
};

/* perf's -c: METHOD or wdiff:W1,W2. */
static int parse_compute(struct lupe_diff_opts *o, const char *arg)
{
	static const struct { const char *name; enum lupe_diff_compute c; } methods[] = {
		{ "delta", LUPE_DIFF_DELTA }, { "delta-abs", LUPE_DIFF_DELTA_ABS },
		{ "ratio", LUPE_DIFF_RATIO }, { "wdiff", LUPE_DIFF_WDIFF },
	};
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		char *end;

		if (strlen(methods[i].name) != len || strncmp(arg, methods[i].name, len))
			continue;
		o->compute = methods[i].c;
		if (o->compute != LUPE_DIFF_WDIFF) {
			if (colon)
				return error("'%s' takes no parameter (only wdiff:W1,W2 does)", arg);
			return 0;
		}
		if (!colon || (o->w1 = strtoll(colon + 1, &end, 10), *end != ',') ||
		    (o->w2 = strtoll(end + 1, &end, 10), *end) || !o->w1 || !o->w2)
			return error("wrong weights in '%s' (use wdiff:W1,W2, both non-zero)", arg);
		return 0;
	}
	return error("'%s' is not a computation method (use delta, delta-abs, ratio or wdiff:W1,W2)", arg);
}

static error_t set_compute(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	(void)opt;
	return parse_compute(&((struct diff_opts *)state->input)->lib, arg) ? EINVAL : 0;
}

static error_t set_percentage(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct diff_opts *o = state->input;

	(void)opt;
	if (strcmp(arg, "relative") && strcmp(arg, "absolute"))
		argp_error(state, "--percentage takes relative or absolute, not '%s'", arg);
	o->lib.relative = !strcmp(arg, "relative");
	return 0;
}

static error_t set_web(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct diff_opts *o = state->input;

	(void)opt;
	o->web = 1;
	o->listen = arg;
	return 0;
}

#define CMD_OPTS struct diff_opts
static const struct cmd_option options[] = {
	OPT_CALLBACK('c', "compute", "METHOD", 0, set_compute,
		     "delta, delta-abs (the default), ratio or wdiff:W1,W2: how each file compares with the baseline"),
	OPT_INT('o', "order", "N", lib.order, 0, INT32_MAX, "sort by the computed column of file N first (default 1; 0: by the baseline)"),
	OPT_CALLBACK(0, "percentage", "relative|absolute", 0, set_percentage,
		     "percentages of the entries the filters keep, or of all samples (the default)"),
	OPT_STRING('s', "sort", "KEYS", lib.sort, "the keys entries are matched and shown by: dso,symbol (the default), comm"),
	OPT_BOOL('p', "period", period, "show the periods too"),
	OPT_BOOL('F', "formula", formula, "show the formula of each computed value"),
	OPT_BOOL('b', "baseline-only", lib.baseline_only, "only the symbols another file shares with the baseline"),
	OPT_FORCE(force, "read files not owned by you"),
	OPT_QUIET(quiet, "print the rows only, no headers"),
	OPT_STRING('d', "dsos", "LIST", lib.dsos, "only these shared objects"),
	OPT_STRING('C', "comms", "LIST", lib.comms, "only these commands"),
	OPT_STRING('S', "symbols", "LIST", lib.symbols, "only these symbols"),
	OPT_TASK_FILTERS(lib),
	OPT_CALLBACK(0, "web", "ADDR:PORT", OPTION_ARG_OPTIONAL, set_web, "serve the two files as a page for a browser: deltas and a differential flame graph (default: 127.0.0.1, a free port)"),
	OPT_ARGS(files, nr_files),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, "[OLD_FILE] [NEW_FILE...]",
	"Compare perf.data files: the baseline (the first, default perf.data.old) and the "
	"change in each other file (default perf.data), per shared object and symbol." };

/* The columns, with perf's names ("Delta Abs/1" with three files) and least widths. */
static int make_cols(const struct diff_opts *o, struct col *cols)
{
	static const struct { const char *name; int width; } methods[] = {
		[LUPE_DIFF_DELTA_ABS] = { "Delta Abs", 7 }, [LUPE_DIFF_DELTA] = { "Delta", 7 },
		[LUPE_DIFF_RATIO] = { "Ratio", 14 }, [LUPE_DIFF_WDIFF] = { "Weighted diff", 14 },
	};
	int n = 0;

	for (int i = 0; i < o->nr_files; i++) {
		enum col_kind kinds[3];
		int nk = 0;

		kinds[nk++] = i ? COL_COMPUTE : COL_BASELINE;
		if (i && o->formula)
			kinds[nk++] = COL_FORMULA;
		if (o->period)
			kinds[nk++] = i ? COL_PERIOD : COL_BASE_PERIOD;
		for (int k = 0; k < nk; k++) {
			struct col *c = &cols[n++];
			const char *name = "Baseline";
			int least = 0;

			switch (kinds[k]) {
			case COL_BASELINE: break;
			case COL_BASE_PERIOD: name = "Base period", least = 14; break;
			case COL_COMPUTE:
				name = methods[o->lib.compute].name, least = methods[o->lib.compute].width;
				break;
			case COL_FORMULA: name = "Formula", least = 70; break;
			case COL_PERIOD: name = "Period", least = 14; break;
			}
			c->kind = kinds[k];
			c->file = i;
			if (o->nr_files > 2)
				snprintf(c->head, sizeof(c->head), "%s/%d", name, i);
			else
				snprintf(c->head, sizeof(c->head), "%s", name);
			c->width = (int)strlen(c->head) > least ? (int)strlen(c->head) : least;
		}
	}
	return n;
}

/* perf's formula of a computed value: the periods and totals it came from. */
static void formula_text(const struct diff_opts *o, struct lupe_diff *d, int ev,
			 const struct lupe_diff_row *r, int file, char *buf, size_t size)
{
	uint64_t p = r->cells[file].e->self, b = r->cells[0].e ? r->cells[0].e->self : 0;

	switch (o->lib.compute) {
	case LUPE_DIFF_DELTA:
	case LUPE_DIFF_DELTA_ABS:
		snprintf(buf, size, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
			 p, lupe_diff_total(d, ev, file), b, lupe_diff_total(d, ev, 0));
		break;
	case LUPE_DIFF_RATIO:
		snprintf(buf, size, "%" PRIu64 " / %" PRIu64, p, b);
		break;
	case LUPE_DIFF_WDIFF:
		snprintf(buf, size, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
			 p, o->lib.w2, b, o->lib.w1);
		break;
	}
}

/*
 * A computed cell as perf's stdio prints it (its colour printers, used
 * even without colours): right-aligned in the column, but the weighted
 * diff is "%14ld" left in a wider column, and zero prints.
 */
static void cell_text(const struct diff_opts *o, struct lupe_diff *d, int ev, const struct lupe_diff_row *r,
		      const struct col *col, char *buf, size_t size)
{
	int file = col->file, width = col->width;
	const struct lupe_diff_cell *c = &r->cells[file];
	char val[256] = "";

	if (col->kind == COL_BASE_PERIOD) {
		snprintf(val, sizeof(val), "%" PRIu64, c->e ? c->e->self : 0);
	} else if (col->kind == COL_PERIOD) {
		if (c->e)
			snprintf(val, sizeof(val), "%" PRIu64, c->e->self);
	} else if (col->kind == COL_FORMULA) {
		if (c->e)
			formula_text(o, d, ev, r, file, val, sizeof(val));
	} else if (!file) {
		if (c->e)
			snprintf(val, sizeof(val), "%6.2f%%", c->percent);
	} else if (c->e && !r->cells[0].e &&
		   (o->lib.compute == LUPE_DIFF_RATIO || o->lib.compute == LUPE_DIFF_WDIFF)) {
		snprintf(val, sizeof(val), "N/A");
	} else if (c->e) {
		switch (o->lib.compute) {
		case LUPE_DIFF_DELTA:
		case LUPE_DIFF_DELTA_ABS:
			snprintf(val, sizeof(val), "%+.2f%%", c->delta);
			break;
		case LUPE_DIFF_RATIO:
			snprintf(val, sizeof(val), "%.6f", c->ratio);
			break;
		case LUPE_DIFF_WDIFF:
			snprintf(val, sizeof(val), "%14" PRId64, c->wdiff);
			snprintf(buf, size, "%-*s", width, val);
			return;
		}
	}
	snprintf(buf, size, "%*s", width, val);
}

static const char *key_head(enum lupe_sort_key k)
{
	return k == LUPE_SORT_COMM ? "Command" : k == LUPE_SORT_DSO ? "Shared Object" : "Symbol";
}

static void key_text(const struct lupe_hist_entry *e, enum lupe_sort_key k, char *buf, size_t size)
{
	char lvl = e->kernel ? 'k' : '.';

	if (k == LUPE_SORT_COMM)
		snprintf(buf, size, "%s", e->comm ? e->comm : "");
	else if (k == LUPE_SORT_DSO)
		snprintf(buf, size, "%s", e->dso ? lupe_dso_short_name(e->dso) : "[unknown]");
	else if (e->sym)
		snprintf(buf, size, "[%c] %s", lvl, e->sym->name);
	else
		snprintf(buf, size, "[%c] %#018llx", lvl, (unsigned long long)e->addr);
}

/* perf hides a key column whose filter lets one value through (-d demo), unless all would hide. */
static void elide_keys(const struct diff_opts *o, const enum lupe_sort_key *keys, int nk, int *elide)
{
	int all = 1;

	for (int k = 0; k < nk; k++) {
		const char *list = keys[k] == LUPE_SORT_COMM ? o->lib.comms :
				   keys[k] == LUPE_SORT_DSO ? o->lib.dsos : o->lib.symbols;

		elide[k] = list && *list && !strchr(list, ',');
		all &= elide[k];
	}
	if (all)
		memset(elide, 0, (size_t)nk * sizeof(*elide));
}

static const struct lupe_hist_entry *row_entry(const struct lupe_diff_row *r, int nr_files)
{
	for (int i = 0; i < nr_files; i++)
		if (r->cells[i].e)
			return r->cells[i].e;
	return NULL;
}

static void print_event(const struct diff_opts *o, struct lupe_diff *d, int ev)
{
	const enum lupe_sort_key *keys;
	int nk = lupe_diff_keys(d, &keys), kwidth[4] = { 0 }, elide[4], nc;
	struct col cols[64 * 3];
	long nr = lupe_diff_nr_rows(d, ev);
	char buf[4096];

	if (!o->quiet) {
		printf("%s# Event '%s'\n#\n", ev ? "\n" : "", lupe_evsel_name(lupe_diff_event(d, ev)));
		if (o->nr_files > 2) {
			printf("# Data files:\n");
			for (int i = 0; i < o->nr_files; i++)
				printf("#  [%d] %s %s\n", i, o->files[i], i ? "" : "(Baseline)");
			printf("#\n");
		}
	}
	elide_keys(o, keys, nk, elide);
	/* key columns as wide as their longest value; perf's least for an unresolved one */
	for (long r = 0; r < nr; r++) {
		const struct lupe_hist_entry *e = row_entry(lupe_diff_row(d, ev, r), o->nr_files);

		for (int k = 0; k < nk; k++) {
			int len;

			key_text(e, keys[k], buf, sizeof(buf));
			len = (int)strlen(buf);
			if (keys[k] == LUPE_SORT_DSO && !e->dso && len < 16)
				len = 16;
			if (len > kwidth[k])
				kwidth[k] = len;
		}
	}
	for (int k = 0; k < nk; k++)
		if ((int)strlen(key_head(keys[k])) > kwidth[k])
			kwidth[k] = (int)strlen(key_head(keys[k]));
	nc = make_cols(o, cols);
	if (!o->quiet) {
		printf("#");
		for (int i = 0; i < nc; i++)
			printf("%s%*s", i ? "  " : " ", cols[i].width, cols[i].head);
		for (int k = 0; k < nk; k++)
			if (!elide[k])
				printf("  %-*s", kwidth[k], key_head(keys[k]));
		printf("\n#");
		for (int i = 0; i < nc + nk; i++) {
			int w = i < nc ? cols[i].width : kwidth[i - nc];

			if (i >= nc && elide[i - nc])
				continue;
			printf("%s", i ? "  " : " ");
			for (int j = 0; j < w; j++)
				putchar('.');
		}
		printf("\n#\n");
	}
	for (long r = 0; r < nr; r++) {
		const struct lupe_diff_row *row = lupe_diff_row(d, ev, r);
		const struct lupe_hist_entry *e = row_entry(row, o->nr_files);
		char cell[1024];

		for (int i = 0; i < nc; i++) {
			cell_text(o, d, ev, row, &cols[i], cell, sizeof(cell));
			printf("  %s", cell);
		}
		for (int k = 0; k < nk; k++) {
			/* perf pads every key column but a last symbol */
			int pad = k + 1 < nk || keys[k] != LUPE_SORT_SYM;

			if (elide[k])
				continue;
			key_text(e, keys[k], cell, sizeof(cell));
			printf("  %-*s", pad ? kwidth[k] : 0, cell);
		}
		putchar('\n');
	}
}

/* Compare the files (at least two), or serve them to a browser (--web). */
static int diff_files(const struct diff_opts *o)
{
	struct lupe_diff *d;
	int ret = 1;

	if (o->lib.order >= o->nr_files) {
		error("--order %d is past the last file (%d): give 0 to %d", o->lib.order,
		      o->nr_files - 1, o->nr_files - 1);
		return EXIT_USAGE;
	}
	if (o->web) {
		struct web_opts wo = { .listen = o->listen, .force = o->force };

		if (o->nr_files != 2)
			return error("--web compares two files: lupe diff --web BEFORE AFTER"), EXIT_USAGE;
		return web_diff(o->files[0], o->files[1], &wo);
	}
	d = lupe_diff_new(&o->lib);
	if (!d)
		return EXIT_USAGE;
	for (int i = 0; i < o->nr_files; i++)
		if (lupe_diff_add(d, o->files[i], o->force))
			goto out;
	if (lupe_diff_finish(d))
		goto out;
	for (int ev = 0; ev < lupe_diff_nr_events(d); ev++)
		print_event(o, d, ev);
	ret = 0;
out:
	lupe_diff_delete(d);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .lib = { .sz = sizeof(struct lupe_diff_opts), .order = -1 } };
	int idx, ret;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o)) {
		free(o.files);
		return EXIT_USAGE;
	}
	/* as perf: no file is perf.data.old against perf.data, one is perf.data.old against it */
	if (o.nr_files < 2) {
		char **f = realloc(o.files, 2 * sizeof(*f));

		if (!f) {
			free(o.files);
			return error("out of memory"), 1;
		}
		f[1] = o.nr_files ? f[0] : (char *)"perf.data";
		f[0] = (char *)"perf.data.old";
		o.files = f;
		o.nr_files = 2;
	}
	ret = diff_files(&o);
	free(o.files);
	return ret;
}
