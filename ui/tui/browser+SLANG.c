// SPDX-License-Identifier: GPL-2.0
/*
 * The hists browser (slang): perf report's TUI over the same entries and
 * the same line layout as --stdio (ui/hist.c formats both). The entries
 * become a flat list of rows (an entry, then its callchain when expanded)
 * rebuilt whenever the view changes: a filter, a zoom, an expansion, or
 * top's refresh, which frees the entries the rows pointed to. Only the
 * rows on screen are formatted, so a refresh costs the rebuild of the row
 * list, not a redraw of the whole histogram.
 *
 * perf's keys and menu: a opens the annotate browser (ui/tui/annotate+SLANG.c)
 * on the entry's symbol, m or Enter without a callchain the menu; TAB
 * switches between the events of a file of several. The terminal is
 * term+SLANG.c's from tui_enter() to tui_leave(): every way out of the
 * key loop (a key, SIGINT/SIGTERM/SIGHUP, a read error when the terminal
 * went away) passes through that one reset.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <glob.h>
#include <lupe/evlist.h>
#include <lupe/symbols.h>
#include "header.h"
#include "tui/slang.h"
#include "tui/tui.h"

enum row_kind { ROW_ENTRY, ROW_NODE, ROW_PATH };

struct row {
	enum row_kind kind;
	struct lupe_hist_entry *e;
	const struct lupe_cc_node *n; /* ROW_NODE */
	int depth;
	double pct; /* ROW_NODE: < 0 continues a run, no percentage */
	char *text; /* ROW_PATH: the folded path */
};

/* What names an entry across top's refreshes (the entries are rebuilt). */
struct ekey {
	const void *sym, *dso;
	uint64_t addr;
	const char *comm;
	int tid, cpu;
};

struct browser {
	struct tui_hists *th;
	struct row *rows;
	long nr_rows, alloc;
	long top, sel;
	int width[REPORT_MAX_COLS];
	long shown;
	uint64_t total;
	int expand_all;
	struct ekey *toggled; /* entries whose expansion differs from expand_all */
	int nr_toggled, alloc_toggled;
	/* zooms and the filter */
	int zdso_on, zthread_on, zsym_on;
	const struct lupe_dso *zdso;
	int ztid;
	char zthread_name[64];
	const struct lupe_symbol *zsym;
	uint64_t zaddr;
	char zsym_name[128];
	char filter[128];
	int filtered_pct; /* F: percentages of the entries on view, not of all */
	char msg[256];
};

int tui_built(void)
{
	return 1;
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

static const char *sym_name(const struct lupe_hist_entry *e, char *buf, size_t size)
{
	if (e->sym)
		return e->sym->name;
	snprintf(buf, size, "%#llx", (unsigned long long)e->addr);
	return buf;
}

static struct ekey key_of(const struct lupe_hist_entry *e)
{
	return (struct ekey){ e->sym, e->dso, e->sym ? 0 : e->addr, e->comm, e->tid, e->cpu };
}

static int toggled_at(const struct browser *b, const struct lupe_hist_entry *e)
{
	struct ekey k = key_of(e);

	for (int i = 0; i < b->nr_toggled; i++)
		if (!memcmp(&b->toggled[i], &k, sizeof(k)))
			return i;
	return -1;
}

static int expanded(const struct browser *b, const struct lupe_hist_entry *e)
{
	return b->expand_all ^ (toggled_at(b, e) >= 0);
}

static void toggle(struct browser *b, const struct lupe_hist_entry *e)
{
	int i = toggled_at(b, e);

	if (i >= 0) {
		b->toggled[i] = b->toggled[--b->nr_toggled];
		return;
	}
	if (b->nr_toggled == b->alloc_toggled) {
		int n = b->alloc_toggled ? 2 * b->alloc_toggled : 16;
		struct ekey *t = realloc(b->toggled, (size_t)n * sizeof(*t));

		if (!t)
			return;
		b->toggled = t;
		b->alloc_toggled = n;
	}
	b->toggled[b->nr_toggled++] = key_of(e);
}

static struct row *add_row(struct browser *b, enum row_kind kind, struct lupe_hist_entry *e)
{
	struct row *r;

	if (b->nr_rows == b->alloc) {
		long n = b->alloc ? 2 * b->alloc : 256;
		struct row *rows = realloc(b->rows, (size_t)n * sizeof(*rows));

		if (!rows)
			return NULL;
		b->rows = rows;
		b->alloc = n;
	}
	r = &b->rows[b->nr_rows++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->e = e;
	return r;
}

static void clear_rows(struct browser *b)
{
	for (long i = 0; i < b->nr_rows; i++)
		free(b->rows[i].text);
	b->nr_rows = 0;
}

/* The callchain as graph rows: a branch with its percentage, then its run. */
static void add_graph(struct browser *b, struct lupe_hist_entry *e,
		      const struct lupe_cc_node *parent, uint64_t level, int depth)
{
	const struct lupe_report_view *v = b->th->view;
	uint64_t ltotal = v->cg_fractal ? level : b->total;
	uint64_t min_hit = report_min_hit(ltotal, v->cg_min_percent);

	if (depth > 64)
		return;
	for (const struct lupe_cc_node *c = parent->child; c; c = c->next) {
		const struct lupe_cc_node *n = c;
		struct row *r;

		if (!c->cumul || c->cumul < min_hit)
			continue;
		r = add_row(b, ROW_NODE, e);
		if (!r)
			return;
		r->n = c;
		r->depth = depth;
		r->pct = pct(c->cumul, ltotal);
		while (!n->hit && n->child && !n->child->next) {
			n = n->child;
			if (!(r = add_row(b, ROW_NODE, e)))
				return;
			r->n = n;
			r->depth = depth;
			r->pct = -1;
		}
		add_graph(b, e, n, n->cumul - n->hit, depth + 1);
	}
}

/* flat and folded: one row per path that ends in a hit, as "NN.NN% a;b;c". */
static void add_paths(struct browser *b, struct lupe_hist_entry *e,
		      const struct lupe_cc_node **path, int depth, const struct lupe_cc_node *n)
{
	char name[512];

	path[depth++] = n;
	if (n->hit && depth > 1) {
		size_t len = 0, size = 64;
		char *text = malloc(size);
		struct row *r;

		for (int i = 1; text && i < depth; i++) {
			report_node_name(path[i], name, sizeof(name));
			while (text && len + strlen(name) + 2 > size)
				text = realloc(text, size *= 2);
			if (text)
				len += (size_t)sprintf(text + len, "%s%s", i > 1 ? ";" : "", name);
		}
		if (!text || !(r = add_row(b, ROW_PATH, e))) {
			free(text);
			return;
		}
		r->text = text;
		r->pct = pct(n->hit, b->total);
	}
	if (depth >= 256)
		return;
	for (const struct lupe_cc_node *c = n->child; c; c = c->next)
		add_paths(b, e, path, depth, c);
}

static int passes(const struct browser *b, const struct lupe_hist_entry *e)
{
	char buf[32];

	if (b->zdso_on && e->dso != b->zdso)
		return 0;
	if (b->zthread_on && e->tid != b->ztid)
		return 0;
	if (b->zsym_on && (e->sym != b->zsym || (!e->sym && e->addr != b->zaddr)))
		return 0;
	return !b->filter[0] || strstr(sym_name(e, buf, sizeof(buf)), b->filter);
}

static int narrowed(const struct browser *b)
{
	return b->zdso_on || b->zthread_on || b->zsym_on || b->filter[0];
}

static void rebuild(struct browser *b)
{
	const struct lupe_report_view *v = b->th->view;
	const struct lupe_cc_node *path[256];

	clear_rows(b);
	if (!v || !b->th->h) {
		b->shown = 0;
		return;
	}
	b->total = lupe_hists_total_period(b->th->h);
	report_widths(v, &b->th->po, b->th->h, b->width, &b->shown);
	if (b->filtered_pct && narrowed(b)) {
		uint64_t sum = 0;

		for (long i = 0; i < b->shown; i++) {
			struct lupe_hist_entry *e = lupe_hists_entry(b->th->h, i);

			if (passes(b, e))
				sum += e->self;
		}
		b->total = sum;
	}
	for (long i = 0; i < b->shown; i++) {
		struct lupe_hist_entry *e = lupe_hists_entry(b->th->h, i);

		if (!passes(b, e) || !add_row(b, ROW_ENTRY, e))
			continue;
		if (v->cg == LUPE_CG_NONE || !e->chain.child || !expanded(b, e))
			continue;
		if (v->cg == LUPE_CG_GRAPH)
			add_graph(b, e, &e->chain, v->children ? e->children : e->self, 0);
		else
			add_paths(b, e, path, 0, &e->chain);
	}
	if (b->sel >= b->nr_rows)
		b->sel = b->nr_rows ? b->nr_rows - 1 : 0;
}

/* A row's text as shown (and as P writes it). */
static void row_text(const struct browser *b, const struct row *r, char *buf, size_t size)
{
	char name[1024];
	int indent;

	switch (r->kind) {
	case ROW_ENTRY:
		buf[0] = !r->e->chain.child || b->th->view->cg == LUPE_CG_NONE ? ' '
			 : expanded(b, r->e)				       ? '-'
									       : '+';
		report_format_entry(buf + 1, size - 1, b->th->view, &b->th->po, b->width, r->e,
				    b->total);
		break;
	case ROW_NODE:
		report_node_name(r->n, name, sizeof(name));
		if (b->th->po.verbose) /* V: perf's DSO after the name */
			snprintf(name + strlen(name), sizeof(name) - strlen(name), " %s",
				 r->n->dso ? lupe_dso_short_name(r->n->dso) : "[unknown]");
		indent = 12 + 3 * r->depth;
		if (r->pct >= 0)
			snprintf(buf, size, "%*s--%.2f%%--%s", indent, "", r->pct, name);
		else
			snprintf(buf, size, "%*s%s", indent + 10, "", name);
		break;
	case ROW_PATH: snprintf(buf, size, "%12s%.2f%% %s", "", r->pct, r->text); break;
	}
}

static void header_text(const struct browser *b, char *buf, size_t size)
{
	const struct tui_hists *th = b->th;
	uint64_t n = th->nr_samples;
	const char *u = report_units(&n);
	size_t len = 0;

	if (th->title)
		len = (size_t)snprintf(buf, size, "%s: ", th->title);
	if (!th->view || !th->h) {
		snprintf(buf + len, size - len, "waiting for samples, Lost: %llu",
			 (unsigned long long)th->nr_lost);
		return;
	}
	len += (size_t)snprintf(
		buf + len, size - len,
		"Samples: %llu%s of event '%s', Lost: %llu, Event count (approx.): %llu",
		(unsigned long long)n, u[0] == ' ' ? "" : u,
		th->evsel ? lupe_evsel_name(th->evsel) : "", (unsigned long long)th->nr_lost,
		(unsigned long long)b->total);
	if (b->zthread_on && len < size)
		len += (size_t)snprintf(buf + len, size - len, ", Thread: %s", b->zthread_name);
	if (b->zdso_on && len < size)
		len += (size_t)snprintf(buf + len, size - len, ", DSO: %s",
					b->zdso ? lupe_dso_short_name(b->zdso) : "[unknown]");
	if (b->zsym_on && len < size)
		len += (size_t)snprintf(buf + len, size - len, ", Symbol: %s", b->zsym_name);
	if (b->filter[0] && len < size)
		snprintf(buf + len, size - len, ", Filter: '%s'", b->filter);
}

static int list_rows(void)
{
	return SLtt_Screen_Rows > 3 ? SLtt_Screen_Rows - 3 : 1;
}

static void draw(struct browser *b)
{
	char buf[4096];
	int cols = SLtt_Screen_Cols, nlist = list_rows();

	header_text(b, buf, sizeof(buf));
	tui_frame(b->sel, &b->top, nlist, buf);
	SLsmg_gotorc(1, 0);
	SLsmg_set_color(C_NORMAL);
	if (b->th->view) {
		/* where --stdio has "# ", as the entries have the marker and a space */
		buf[0] = buf[1] = ' ';
		report_format_head(buf + 2, sizeof(buf) - 2, b->th->view, &b->th->po, b->width);
		SLsmg_write_nstring(buf, (unsigned)cols);
	}
	for (int i = 0; i < nlist && b->top + i < b->nr_rows; i++) {
		const struct row *r = &b->rows[b->top + i];
		int selected = b->top + i == b->sel;

		row_text(b, r, buf, sizeof(buf));
		SLsmg_gotorc(2 + i, 0);
		if (selected || r->kind != ROW_ENTRY) {
			SLsmg_set_color(selected ? C_SELECTED : C_NORMAL);
			SLsmg_write_nstring(buf, (unsigned)cols);
			continue;
		}
		/* the overhead columns in perf's colours: hotter is redder */
		SLsmg_set_color(C_NORMAL);
		SLsmg_write_nchars(buf, 1);
		for (int k = 0; k < (b->th->view->children ? 2 : 1); k++) {
			uint64_t v = b->th->view->children && !k ? r->e->children : r->e->self;

			SLsmg_set_color(tui_pct_color(pct(v, b->total)));
			SLsmg_write_nchars(buf + 1 + 10 * k, 10);
		}
		SLsmg_set_color(C_NORMAL);
		{
			size_t off = b->th->view->children ? 21 : 11;

			if (strlen(buf) > off)
				SLsmg_write_nstring(
					buf + off,
					(unsigned)(cols > (int)off ? cols - (int)off : 0));
		}
	}
	snprintf(buf, sizeof(buf), "Press '?' for help on key bindings");
	if (b->th->refresh_ms)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ", refresh every %gs",
			 b->th->refresh_ms / 1000.0);
	tui_status(b->msg[0] ? b->msg : buf);
}

/* P: the rows of the view, as shown, to the first free lupe.hist.N. */
static void print_view(struct browser *b)
{
	char name[64], buf[4096];
	FILE *fp = NULL;
	int fd = -1;

	for (int i = 0; i < 1000 && fd < 0; i++) {
		snprintf(name, sizeof(name), "lupe.hist.%d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		snprintf(b->msg, sizeof(b->msg), "cannot write '%s': %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	header_text(b, buf, sizeof(buf));
	fprintf(fp, "# %s\n", buf);
	if (b->th->view) {
		report_format_head(buf, sizeof(buf), b->th->view, &b->th->po, b->width);
		fprintf(fp, "# %s\n", buf);
	}
	for (long i = 0; i < b->nr_rows; i++) {
		size_t len;

		row_text(b, &b->rows[i], buf, sizeof(buf));
		len = strlen(buf);
		while (len && buf[len - 1] == ' ')
			buf[--len] = 0;
		fprintf(fp, "%s\n", buf);
	}
	if (fclose(fp))
		snprintf(b->msg, sizeof(b->msg), "cannot write '%s': %s", name, strerror(errno));
	else
		snprintf(b->msg, sizeof(b->msg), "%s written", name);
}

static struct lupe_hist_entry *selected_entry(const struct browser *b)
{
	return b->sel < b->nr_rows ? b->rows[b->sel].e : NULL;
}

/* Put the selection back on e's row (after a rebuild). */
static void select_entry(struct browser *b, const struct lupe_hist_entry *e)
{
	for (long i = 0; e && i < b->nr_rows; i++)
		if (b->rows[i].kind == ROW_ENTRY && b->rows[i].e == e) {
			b->sel = i;
			return;
		}
}

static void zoom(struct browser *b, int key)
{
	struct lupe_hist_entry *e = selected_entry(b);
	char buf[32];

	switch (key) {
	case 'd':
		if (!b->zdso_on && e) {
			b->zdso = e->dso;
			b->zdso_on = 1;
		} else {
			b->zdso_on = 0;
		}
		break;
	case 't':
		if (!b->zthread_on && e) {
			b->ztid = e->tid;
			snprintf(b->zthread_name, sizeof(b->zthread_name), "%s(%d)",
				 e->comm ? e->comm : "", e->tid);
			b->zthread_on = 1;
		} else {
			b->zthread_on = 0;
		}
		break;
	case 's':
		if (!b->zsym_on && e) {
			b->zsym = e->sym;
			b->zaddr = e->addr;
			snprintf(b->zsym_name, sizeof(b->zsym_name), "%s",
				 sym_name(e, buf, sizeof(buf)));
			b->zsym_on = 1;
		} else {
			b->zsym_on = 0;
		}
		break;
	}
	rebuild(b);
	b->sel = 0;
	select_entry(b, e);
}

/* Left/ESC: undo the last narrowing; 0 when there was none. */
static int zoom_out(struct browser *b)
{
	struct lupe_hist_entry *e = selected_entry(b);

	if (b->zsym_on)
		b->zsym_on = 0;
	else if (b->zthread_on)
		b->zthread_on = 0;
	else if (b->zdso_on)
		b->zdso_on = 0;
	else if (b->filter[0])
		b->filter[0] = 0;
	else
		return 0;
	rebuild(b);
	select_entry(b, e);
	return 1;
}

static void lock(struct tui_hists *th)
{
	if (th->lock)
		th->lock(th);
}

static void unlock(struct tui_hists *th)
{
	if (th->unlock)
		th->unlock(th);
}

static const char *const help_common[] = {
	"UP/DOWN PGUP/PGDN HOME/END  move",
	"ENTER         expand/collapse the callchain (no callchain: the menu)",
	"+ RIGHT       expand/collapse the callchain",
	"e             expand/collapse this entry's callchains",
	"E / C         expand / collapse all callchains",
	"a             annotate the symbol",
	"m             the menu of this entry",
	"/             filter by symbol (empty: none)",
	"d / t / s     zoom into the DSO / thread / symbol (again: out)",
	"k             zoom into the kernel map",
	"LEFT / ESC    zoom out (ESC at the top: quit)",
	"F             percentages of the entries on view / of all",
	"L             the percent limit",
	"V             verbose: DSO paths, DSOs in callchains",
	"H             the hottest entry",
	"P             print the view to lupe.hist.N",
	"h / ?         this help",
	"q / ESC / ^C  quit",
};

static void show_help(struct browser *b)
{
	const char *lines[32];
	int n = 0;

	for (size_t i = 0; i < sizeof(help_common) / sizeof(help_common[0]); i++)
		lines[n++] = help_common[i];
	if (b->th->nr_events > 1)
		lines[n++] = "TAB / UNTAB   the next / previous event";
	if (b->th->file)
		lines[n++] = "i             the header of the file (--header-only)";
	if (b->th->zero)
		lines[n++] = "z             zero the samples at each refresh (on/off)";
	if (b->th->toggle_events)
		lines[n++] = "f             disable / enable the events";
	tui_help(lines, n);
}

/* a: annotate the entry's symbol, or the callchain node's under the cursor. */
static int annotate(struct browser *b)
{
	const struct row *r = b->sel < b->nr_rows ? &b->rows[b->sel] : NULL;
	struct lupe_hist_entry fake;
	int rc;

	if (!r)
		return 0;
	if (r->kind == ROW_NODE) {
		memset(&fake, 0, sizeof(fake));
		fake.sym = r->n->sym;
		fake.dso = r->n->dso;
	}
	unlock(b->th); /* top reads on while its annotation is browsed */
	rc = tui_annotate_entry(b->th, r->kind == ROW_NODE ? &fake : r->e, b->msg, sizeof(b->msg));
	lock(b->th);
	return rc;
}

/* i: the file's header, as report --header-only prints it. */
static void show_header(struct browser *b)
{
	char *text = NULL, title[300];
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (!fp) {
		snprintf(b->msg, sizeof(b->msg), "out of memory");
		return;
	}
	print_header(fp, b->th->file, b->th->input, 1);
	fclose(fp);
	snprintf(title, sizeof(title), "Header of %s", b->th->input);
	tui_text_str(title, text);
	free(text);
}

/* Browse map details: the DSO and the symbols of it on view. */
static void map_details(struct browser *b, const struct lupe_hist_entry *e)
{
	char *text = NULL, title[300], hex[130];
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	const uint8_t *id;
	int idlen = 0;

	if (!fp) {
		snprintf(b->msg, sizeof(b->msg), "out of memory");
		return;
	}
	fprintf(fp, "DSO:        %s\n", e->dso ? lupe_dso_long_name(e->dso) : "[unknown]");
	fprintf(fp, "Short name: %s\n", e->dso ? lupe_dso_short_name(e->dso) : "[unknown]");
	id = e->dso ? lupe_dso_build_id(e->dso, &idlen) : NULL;
	if (id && idlen > 0 && idlen <= 64) {
		lupe_build_id_to_hex(id, idlen, hex);
		fprintf(fp, "Build id:   %s\n", hex);
	}
	fprintf(fp, "Kernel:     %s\n\nSymbols with samples:\n", e->dso && lupe_dso_is_kernel(e->dso) ? "yes" : "no");
	for (long i = 0; i < b->shown; i++) {
		const struct lupe_hist_entry *x = lupe_hists_entry(b->th->h, i);

		if (x->dso == e->dso && x->sym)
			fprintf(fp, "  %016llx-%016llx  %s\n", (unsigned long long)x->sym->start,
				(unsigned long long)x->sym->end, x->sym->name);
	}
	fclose(fp);
	snprintf(title, sizeof(title), "Map of %s", e->dso ? lupe_dso_short_name(e->dso) : "[unknown]");
	tui_text_str(title, text);
	free(text);
}

/* Switch to another data file: the perf.data files here; 1 when one was picked. */
static int switch_file(struct browser *b)
{
	const char *items[64];
	glob_t g;
	int n = 0, pick;

	if (glob("*", 0, NULL, &g)) {
		snprintf(b->msg, sizeof(b->msg), "no perf.data file here");
		return 0;
	}
	for (size_t i = 0; i < g.gl_pathc && n < 64; i++) {
		char magic[8];
		FILE *f = fopen(g.gl_pathv[i], "re");

		if (!f)
			continue;
		if (fread(magic, 1, 8, f) == 8 && !memcmp(magic, "PERFILE2", 8))
			items[n++] = g.gl_pathv[i];
		fclose(f);
	}
	if (!n) {
		snprintf(b->msg, sizeof(b->msg), "no perf.data file here");
		globfree(&g);
		return 0;
	}
	pick = tui_menu("Switch to another data file", items, n);
	if (pick >= 0)
		snprintf(b->th->next_input, sizeof(b->th->next_input), "%s", items[pick]);
	globfree(&g);
	return pick >= 0;
}

/* TAB / shift-TAB: the next or previous event of the file. */
static void switch_event(struct browser *b, int dir)
{
	struct tui_hists *th = b->th;
	struct tui_event *ev;

	if (th->nr_events < 2)
		return;
	th->cur_event = (th->cur_event + dir + th->nr_events) % th->nr_events;
	ev = &th->events[th->cur_event];
	th->evsel = ev->evsel;
	th->h = ev->h;
	th->nr_samples = ev->nr_samples;
	th->evidx = ev->idx;
	b->nr_toggled = 0;
	b->sel = b->top = 0;
	rebuild(b);
}

/* m, or Enter on an entry without a callchain: perf's menu; 1 to quit. */
static int menu(struct browser *b, struct lupe_hist_entry *e)
{
	enum { M_ANNOTATE, M_THREAD, M_DSO, M_MAP, M_SWITCH, M_EXIT };
	char lines[5][300];
	const char *items[6];
	int what[6], n = 0, pick;

	if (e && e->sym) {
		snprintf(lines[n], sizeof(lines[n]), "Annotate %s", e->sym->name);
		what[n] = M_ANNOTATE;
		items[n] = lines[n];
		n++;
	}
	if (e) {
		if (b->zthread_on)
			snprintf(lines[n], sizeof(lines[n]), "Zoom out of %s thread", b->zthread_name);
		else
			snprintf(lines[n], sizeof(lines[n]), "Zoom into %s(%d) thread", e->comm ? e->comm : "", e->tid);
		what[n] = M_THREAD;
		items[n] = lines[n];
		n++;
		snprintf(lines[n], sizeof(lines[n]), "Zoom %s %s DSO", b->zdso_on ? "out of" : "into",
			 b->zdso_on ? (b->zdso ? lupe_dso_short_name(b->zdso) : "[unknown]")
				    : (e->dso ? lupe_dso_short_name(e->dso) : "[unknown]"));
		what[n] = M_DSO;
		items[n] = lines[n];
		n++;
		what[n] = M_MAP;
		items[n++] = "Browse map details";
	}
	if (b->th->input && !b->th->refresh_ms) {
		what[n] = M_SWITCH;
		items[n++] = "Switch to another data file in PWD";
	}
	what[n] = M_EXIT;
	items[n++] = "Exit";
	pick = tui_menu("Options", items, n);
	draw(b); /* the menu off the screen */
	if (pick < 0)
		return 0;
	switch (what[pick]) {
	case M_ANNOTATE: return annotate(b);
	case M_THREAD: zoom(b, 't'); break;
	case M_DSO: zoom(b, 'd'); break;
	case M_MAP: map_details(b, e); break;
	case M_SWITCH: return switch_file(b);
	case M_EXIT: return 1;
	}
	return 0;
}

/* k: zoom into the kernel's map (the first kernel entry's DSO). */
static void zoom_kernel(struct browser *b)
{
	for (long i = 0; i < b->shown; i++) {
		const struct lupe_hist_entry *x = lupe_hists_entry(b->th->h, i);

		if (x->dso && lupe_dso_is_kernel(x->dso)) {
			b->zdso = x->dso;
			b->zdso_on = 1;
			rebuild(b);
			b->sel = 0;
			return;
		}
	}
	snprintf(b->msg, sizeof(b->msg), "no kernel samples to zoom into");
}

/* One key; returns 1 to quit. */
static int handle_key(struct browser *b, int k)
{
	struct lupe_hist_entry *e = selected_entry(b);
	long page = list_rows();

	b->msg[0] = 0;
	if (tui_move(&b->sel, &b->top, b->nr_rows, page, k))
		return 0;
	switch (k) {
	case '\r':
	case '\n':
	case SL_KEY_ENTER:
		/* perf: Enter folds a callchain, else it opens the menu */
		if (e && (b->th->view->cg == LUPE_CG_NONE || !e->chain.child))
			return menu(b, e);
		/* fall through */
	case '+':
	case 'e':
	case SL_KEY_RIGHT:
		if (!e || (k == SL_KEY_RIGHT && expanded(b, e)))
			break;
		toggle(b, e);
		rebuild(b);
		select_entry(b, e);
		break;
	case 'E':
	case 'C':
		b->expand_all = k == 'E';
		b->nr_toggled = 0;
		rebuild(b);
		select_entry(b, e);
		break;
	case '/':
		if (!tui_prompt("Filter by symbol: ", b->filter, sizeof(b->filter))) {
			rebuild(b);
			b->sel = 0;
		}
		break;
	case 'd':
	case 't':
	case 's': zoom(b, k); break;
	case SL_KEY_LEFT: zoom_out(b); break;
	case 27:
		if (!zoom_out(b))
			return 1;
		break;
	case 'H': {
		/* the largest share among the entries on view (zooms keep the order) */
		uint64_t best = 0;

		for (long i = 0; i < b->nr_rows; i++) {
			const struct lupe_hist_entry *r = b->rows[i].e;
			uint64_t v = b->th->view->children ? r->children : r->self;

			if (b->rows[i].kind == ROW_ENTRY && (v > best || !i)) {
				best = v;
				b->sel = i;
			}
		}
		break;
	}
	case 'P': print_view(b); break;
	case 'h':
	case '?': show_help(b); break;
	case 'a': return annotate(b);
	case 'm': return menu(b, e);
	case 'k': zoom_kernel(b); break;
	case 'F':
		b->filtered_pct = !b->filtered_pct;
		rebuild(b);
		select_entry(b, e);
		snprintf(b->msg, sizeof(b->msg), "percentages of %s", b->filtered_pct ? "the entries on view" : "all entries");
		break;
	case 'V':
		b->th->po.verbose = !b->th->po.verbose;
		rebuild(b);
		select_entry(b, e);
		break;
	case 'L': {
		char buf[32], *end;
		double l;

		if (tui_prompt("Percent limit: ", buf, sizeof(buf)) || !buf[0])
			break;
		l = strtod(buf, &end);
		if (*end || l < 0 || l > 100) {
			snprintf(b->msg, sizeof(b->msg), "'%s' is no percentage (0 to 100)", buf);
			break;
		}
		b->th->po.percent_limit = l;
		rebuild(b);
		b->sel = 0;
		break;
	}
	case 'i':
		if (b->th->file)
			show_header(b);
		break;
	case '\t': switch_event(b, 1); break;
	case KEY_UNTAB: switch_event(b, -1); break;
	case 'z':
		if (b->th->zero)
			snprintf(b->msg, sizeof(b->msg), "zeroing of the samples at each refresh %s",
				 b->th->zero(b->th) ? "on" : "off");
		break;
	case 'f':
		if (b->th->toggle_events)
			snprintf(b->msg, sizeof(b->msg), "events %s",
				 b->th->toggle_events(b->th) ? "enabled" : "disabled: no samples counted");
		break;
	case 'q':
	case 'Q':
	case 3: return 1;
	default: break;
	}
	return 0;
}

int tui_browse_hists(struct tui_hists *th)
{
	struct browser b = { .th = th };
	long next = th->refresh_ms ? tui_now_ms() + th->refresh_ms : 0;
	int quit = 0, dirty = 1, ret;

	if (tui_enter())
		return -1;
	th->next_input[0] = 0;
	lock(th);
	rebuild(&b);
	unlock(th);
	while (!quit && !tui_got_signal) {
		int k;

		if (tui_resized) {
			tui_resize();
			dirty = 1;
		}
		if (next && tui_now_ms() >= next) {
			lock(th);
			th->refresh(th);
			rebuild(&b);
			unlock(th);
			next = tui_now_ms() + th->refresh_ms;
			dirty = 1;
		}
		if (dirty) {
			lock(th);
			draw(&b);
			unlock(th);
			dirty = 0;
		}
		k = tui_wait_key();
		if (k < 0) /* the terminal went away */
			break;
		if (!k || tui_got_signal)
			continue;
		k = tui_getkey();
		if (k == SL_KEY_ERR || tui_got_signal)
			break;
		lock(th);
		quit = handle_key(&b, k);
		unlock(th);
		dirty = 1;
	}
	ret = tui_leave();
	clear_rows(&b);
	free(b.rows);
	free(b.toggled);
	return ret;
}
