// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate browser (slang): perf annotate's TUI over the lines `lupe
 * annotate --stdio` prints (ui/annotate.c makes both), so a share on screen
 * is the share in the text. The cursor starts on the hottest instruction;
 * TAB walks the instructions with samples, hottest first; Enter follows a
 * jump inside the symbol or browses a call's callee (q comes back). In top
 * the shares come from the live annotation top keeps, re-read at each
 * refresh; report and `lupe annotate` browse a file's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <lupe/evlist.h>
#include <lupe/output.h>
#include <lupe/symbols.h>
#include "tui/slang.h"
#include "tui/tui.h"

enum value_kind { V_PERCENT, V_PERIOD, V_SAMPLES };

struct abrowser {
	struct annotate_data *d;           /* NULL: top's live annotation */
	struct tui_hists *live;            /* top: the lock, refresh_ms and the annotation */
	const struct lupe_symbol *sym;
	struct lupe_annotated_sym *as;
	const char *event;
	uint64_t total_period;             /* the event's (global percentages) */
	struct lupe_listing l;
	struct annotate_lines al;
	long *vis, nr_vis;                 /* the lines shown: indices into al */
	long top, sel;                     /* into vis */
	long *hot, nr_hot, cur_hot;        /* instructions with samples, hottest first */
	int *jumps_to;                     /* per line: the jumps that land on its instruction */
	bool source, arrows, counts, offsets, line_nrs, global;
	int addr_level;                    /* 0 jump targets, 1 and calls, 2 all (O) */
	enum value_kind value;
	char search[128];
	char msg[256];
	uint64_t nr_samples; /* as's, when the lines were made (top's grows under its lock) */
	int moved; /* a key was pressed: top's refresh keeps the cursor where it is */
};

static const struct annotate_line *line_at(const struct abrowser *b, long v)
{
	return v >= 0 && v < b->nr_vis ? &b->al.lines[b->vis[v]] : NULL;
}

static int is_call(const struct lupe_insn *in)
{
	return in && in->target && !in->jump && !strncmp(in->text, "call", 4);
}

static int by_period(const void *x, const void *y, void *arg)
{
	const struct annotate_lines *al = arg;
	uint64_t a = al->lines[*(const long *)x].period, b = al->lines[*(const long *)y].period;

	return a != b ? (a < b ? 1 : -1) : (*(const long *)x > *(const long *)y) - (*(const long *)x < *(const long *)y);
}

/* The lines shown (source ones when s says so) and the hot list, after a change. */
static void layout(struct abrowser *b)
{
	long keep = b->sel < b->nr_vis ? b->vis[b->sel] : -1;

	b->nr_vis = b->nr_hot = 0;
	for (size_t i = 0; i < b->al.nr; i++) {
		const struct annotate_line *l = &b->al.lines[i];

		if (!l->in && !b->source)
			continue;
		if (keep >= 0 && (long)i == keep)
			b->sel = b->nr_vis;
		b->vis[b->nr_vis++] = (long)i;
		if (l->in && l->period)
			b->hot[b->nr_hot++] = (long)i;
	}
	qsort_r(b->hot, (size_t)b->nr_hot, sizeof(*b->hot), by_period, &b->al);
	if (keep >= 0 && !b->al.lines[keep].in) /* a source line hidden: the next insn */
		for (long v = 0; v < b->nr_vis; v++)
			if (b->vis[v] > keep) {
				b->sel = v;
				break;
			}
	if (b->sel >= b->nr_vis)
		b->sel = b->nr_vis ? b->nr_vis - 1 : 0;
}

static void select_line(struct abrowser *b, long li)
{
	for (long v = 0; v < b->nr_vis; v++)
		if (b->vis[v] == li) {
			b->sel = v;
			return;
		}
}

/* Take the shares from b->as again (top: after a refresh). */
static int relines(struct abrowser *b)
{
	long keep = b->sel < b->nr_vis ? b->vis[b->sel] : -1;
	size_t n;

	long *line_of; /* an instruction's line */

	ui_annotate_lines_clear(&b->al);
	free(b->vis);
	free(b->hot);
	free(b->jumps_to);
	b->vis = b->hot = NULL;
	b->jumps_to = NULL;
	b->nr_vis = b->nr_hot = 0;
	if (ui_annotate_lines(b->as, &b->l, true, &b->al))
		return -ENOMEM;
	b->nr_samples = b->as->nr_samples;
	n = b->al.nr ? b->al.nr : 1;
	b->vis = calloc(n, sizeof(*b->vis));
	b->hot = calloc(n, sizeof(*b->hot));
	b->jumps_to = calloc(n, sizeof(*b->jumps_to));
	line_of = calloc(b->l.nr ? b->l.nr : 1, sizeof(*line_of));
	if (!b->vis || !b->hot || !b->jumps_to || !line_of) {
		free(line_of);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->al.nr; i++)
		if (b->al.lines[i].in)
			line_of[b->al.lines[i].in - b->l.insns] = (long)i;
	/* the jumps to each instruction: its address looked up in the listing (sorted) */
	for (size_t i = 0; i < b->l.nr; i++) {
		size_t lo = 0, hi = b->l.nr;

		if (!b->l.insns[i].jump)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (b->l.insns[mid].addr < b->l.insns[i].target)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < b->l.nr && b->l.insns[lo].addr == b->l.insns[i].target)
			b->jumps_to[line_of[lo]]++;
	}
	free(line_of);
	layout(b);
	if (keep >= 0)
		select_line(b, keep);
	return 0;
}

static int list_rows(void)
{
	return SLtt_Screen_Rows > 2 ? SLtt_Screen_Rows - 2 : 1;
}

/* A line's text as shown (and as P writes it). */
static void line_text(const struct abrowser *b, const struct annotate_line *l, char *buf, size_t size)
{
	size_t len = 0;
	char addr[40] = "";

#define ADD(...) (len += (size_t)snprintf(buf + len, len < size ? size - len : 0, __VA_ARGS__))
	if (!l->in) {
		ADD("%*s :", b->value == V_PERIOD ? 12 : 8, "");
		if (b->line_nrs)
			ADD(" %5s", "");
		if (b->counts)
			ADD(" %3s", "");
		if (b->arrows)
			ADD("  ");
		ADD(" %-5d%s", l->line, l->src ? l->src : "");
		return;
	}
	switch (b->value) {
	case V_PERCENT: {
		double p = b->global ? (b->total_period ? 100.0 * l->period / b->total_period : 0) : l->pct;

		ADD("%8.2f", p);
		break;
	}
	case V_PERIOD: ADD("%12" PRIu64, l->period); break;
	case V_SAMPLES: ADD("%8" PRIu64, l->samples); break;
	}
	ADD(" :");
	if (b->line_nrs)
		ADD(" %5d", l->line);
	if (b->counts) {
		int n = b->jumps_to[l - b->al.lines];

		if (n)
			ADD(" %3d", n);
		else
			ADD(" %3s", "");
	}
	if (b->arrows) {
		int n = b->jumps_to[l - b->al.lines];

		ADD(" %c", l->in->jump ? (l->in->target <= l->in->addr ? '^' : 'v') : n ? '>' : ' ');
	}
	if (b->addr_level >= 2 || b->jumps_to[l - b->al.lines] || (b->addr_level == 1 && is_call(l->in))) {
		if (b->offsets)
			snprintf(addr, sizeof(addr), "+%#" PRIx64 ":", l->in->addr - b->sym->start);
		else
			snprintf(addr, sizeof(addr), "%" PRIx64 ":", l->in->addr);
	}
	ADD("   %-8s%s", addr, l->in->text);
#undef ADD
}

static void title_text(const struct abrowser *b, char *buf, size_t size)
{
	static const char *const kind[] = { "percent", "period", "samples" };

	snprintf(buf, size, "Annotate %s (%s): %" PRIu64 " samples of '%s', %s: %s",
		 b->sym->name, lupe_dso_short_name(b->as->dso), b->nr_samples, b->event,
		 kind[b->value], b->value == V_PERCENT ? (b->global ? "global period" : "local period")
						       : "per instruction");
}

static void draw(struct abrowser *b)
{
	char buf[1024];
	int cols = SLtt_Screen_Cols, nlist = list_rows();

	title_text(b, buf, sizeof(buf));
	tui_frame(b->sel, &b->top, nlist, buf);
	for (int i = 0; i < nlist && b->top + i < b->nr_vis; i++) {
		const struct annotate_line *l = line_at(b, b->top + i);
		int selected = b->top + i == b->sel;

		line_text(b, l, buf, sizeof(buf));
		SLsmg_gotorc(1 + i, 0);
		if (selected || !l->in) {
			SLsmg_set_color(selected ? C_SELECTED : C_NORMAL);
			SLsmg_write_nstring(buf, (unsigned)cols);
			continue;
		}
		{
			int w = (int)strcspn(buf, ":");

			SLsmg_set_color(tui_pct_color(l->pct));
			SLsmg_write_nchars(buf, (unsigned)w);
			SLsmg_set_color(C_NORMAL);
			SLsmg_write_nstring(buf + w, (unsigned)(cols > w ? cols - w : 0));
		}
	}
	tui_status(b->msg[0] ? b->msg : "Press 'h' for help on key bindings");
}

static const char *const help[] = {
	"UP/DOWN PGUP/PGDN HOME/END  move",
	"H             go to the hottest instruction",
	"TAB/UNTAB     cycle through the hottest instructions",
	"ENTER         a call: annotate the callee; a jump: go to its target",
	"q/ESC/LEFT    back (CTRL+C: quit)",
	"j             jump arrows (^ up, v down, > a target)",
	"J             the number of jumps to each target",
	"s             source lines on/off",
	"o             offsets from the symbol's start / addresses",
	"O             addresses on jump targets / and calls / all",
	"t             percent / period / samples",
	"p             local / global percentage",
	"k             source line numbers",
	"/             search forward",
	"n             search again",
	"?             search backward",
	"P             print the view to SYMBOL.annotation",
	"h             this help",
};

/* Search for what from the line after (before) the cursor; 1 when found. */
static int search(struct abrowser *b, const char *what, int dir)
{
	for (long v = b->sel + dir; v >= 0 && v < b->nr_vis; v += dir) {
		const struct annotate_line *l = line_at(b, v);
		const char *text = l->in ? l->in->text : l->src;

		if (text && strstr(text, what)) {
			b->sel = v;
			return 1;
		}
	}
	snprintf(b->msg, sizeof(b->msg), "'%s' not found", what);
	return 0;
}

/* P: the view to SYMBOL.annotation, through lupe_output_open. */
static void print_view(struct abrowser *b)
{
	char name[256], buf[1024];
	struct lupe_output out;
	FILE *fp = NULL;
	int err;

	snprintf(name, sizeof(name), "%s.annotation", b->sym->name);
	err = lupe_output_open(&out, name, 0);
	if (err) {
		snprintf(b->msg, sizeof(b->msg), "cannot write '%.200s': %s", name, strerror(-err));
		return;
	}
	if (!(fp = fdopen(out.fd, "w"))) {
		err = -errno;
		close(out.fd);
	} else {
		title_text(b, buf, sizeof(buf));
		fprintf(fp, "%s\n", buf);
		for (long v = 0; v < b->nr_vis; v++) {
			line_text(b, line_at(b, v), buf, sizeof(buf));
			fprintf(fp, "%s\n", buf);
		}
		if (fclose(fp))
			err = -errno;
	}
	if (!err)
		err = lupe_output_commit(&out);
	if (err) {
		lupe_output_abort(&out);
		snprintf(b->msg, sizeof(b->msg), "cannot write '%.200s': %s", name, strerror(-err));
	} else {
		snprintf(b->msg, sizeof(b->msg), "%.200s written", name);
	}
	lupe_output_release(&out);
}

/* The callee at target, without samples when it had none (b->as goes stale: see follow). */
static struct lupe_annotated_sym *callee(struct abrowser *b, uint64_t target)
{
	return b->d ? lupe_annotation_sym_at(&b->d->ann, b->as->dso, target) : NULL;
}

static struct lupe_annotated_sym *refind(struct annotate_data *d, const struct lupe_symbol *sym)
{
	for (size_t i = 0; i < d->ann.nr; i++)
		if (d->ann.syms[i].sym == sym)
			return &d->ann.syms[i];
	return NULL;
}

static int browse(struct annotate_data *d, struct tui_hists *live, struct lupe_annotated_sym *as,
		  const char *event, uint64_t total, bool source);

static void lock(struct abrowser *b)
{
	if (b->live && b->live->lock)
		b->live->lock(b->live);
}

static void unlock(struct abrowser *b)
{
	if (b->live && b->live->unlock)
		b->live->unlock(b->live);
}

/* Enter: follow the jump or the call under the cursor; 1 to quit all. */
static int follow(struct abrowser *b)
{
	const struct annotate_line *l = line_at(b, b->sel);
	struct lupe_annotated_sym *as;
	const char *name;

	if (!l || !l->in || !l->in->target) {
		snprintf(b->msg, sizeof(b->msg), "ENTER follows a call or a jump: this line is neither");
		return 0;
	}
	if (l->in->jump || (l->in->target >= b->sym->start && l->in->target < b->sym->end)) {
		for (long v = 0; v < b->nr_vis; v++)
			if (line_at(b, v)->in && line_at(b, v)->in->addr == l->in->target) {
				b->sel = v;
				return 0;
			}
		snprintf(b->msg, sizeof(b->msg), "the target %#" PRIx64 " is no instruction here", l->in->target);
		return 0;
	}
	as = callee(b, l->in->target);
	if (!as) {
		name = strchr(l->in->text, '<');
		snprintf(b->msg, sizeof(b->msg), "%s%s: no symbol there to annotate",
			 b->live ? "in top, a callee can not be annotated yet: " : "", name ? name : "the callee");
		return 0;
	}
	{
		int rc = browse(b->d, NULL, as, b->event, b->total_period, b->source);

		b->as = refind(b->d, b->sym); /* the callee may have moved the symbols */
		return rc;
	}
}

/* One key; returns 1 back, 2 quit all. */
static int handle_key(struct abrowser *b, int k)
{
	long page = list_rows();
	char what[128];

	b->msg[0] = 0;
	if (tui_move(&b->sel, &b->top, b->nr_vis, page, k))
		return 0;
	switch (k) {
	case 'H':
		b->cur_hot = 0;
		if (b->nr_hot)
			select_line(b, b->hot[0]);
		break;
	case '\t':
	case KEY_UNTAB:
		if (!b->nr_hot)
			break;
		b->cur_hot = (b->cur_hot + (k == '\t' ? 1 : b->nr_hot - 1)) % b->nr_hot;
		select_line(b, b->hot[b->cur_hot]);
		break;
	case '\r':
	case '\n':
	case SL_KEY_ENTER:
	case SL_KEY_RIGHT:
		if (follow(b))
			return 2;
		break;
	case 'j': b->arrows = !b->arrows; break;
	case 'J': b->counts = !b->counts; break;
	case 's':
		b->source = !b->source;
		layout(b);
		break;
	case 'o': b->offsets = !b->offsets; break;
	case 'O': b->addr_level = (b->addr_level + 1) % 3; break;
	case 't': b->value = (b->value + 1) % 3; break;
	case 'p': b->global = !b->global; break;
	case 'k': b->line_nrs = !b->line_nrs; break;
	case '/':
	case '?':
		if (!tui_prompt(k == '/' ? "Search: " : "Search backward: ", what, sizeof(what)) && what[0]) {
			snprintf(b->search, sizeof(b->search), "%s", what);
			search(b, b->search, k == '/' ? 1 : -1);
		}
		break;
	case 'n':
		if (b->search[0])
			search(b, b->search, 1);
		else
			snprintf(b->msg, sizeof(b->msg), "no search yet: / searches");
		break;
	case 'P': print_view(b); break;
	case 'h':
	case SL_KEY_F(1): tui_help(help, (int)(sizeof(help) / sizeof(help[0]))); break;
	case 'q':
	case 'Q':
	case 27:
	case SL_KEY_LEFT: return 1;
	case 3: return 2;
	default: break;
	}
	return 0;
}

/* Browse as until back (0) or quit all (1). */
static int browse(struct annotate_data *d, struct tui_hists *live, struct lupe_annotated_sym *as,
		  const char *event, uint64_t total, bool source)
{
	struct abrowser b = { .d = d, .live = live, .as = as, .sym = as->sym, .event = event,
			      .total_period = total, .source = source, .addr_level = 2 };
	long next = live && live->refresh_ms ? tui_now_ms() + live->refresh_ms : 0;
	int rc = 0, dirty = 1;

	if (ui_annotate_disasm(as, true, &b.l, b.msg, sizeof(b.msg))) {
		/* the reason on the caller's status line would be lost: show it */
		const char *lines[] = { b.msg };

		tui_help(lines, 1);
		return 0;
	}
	if (relines(&b)) {
		rc = 0;
		goto out;
	}
	if (b.nr_hot)
		select_line(&b, b.hot[0]);
	while (!rc && !tui_got_signal) {
		int k;

		if (tui_resized) {
			tui_resize();
			dirty = 1;
		}
		if (next && tui_now_ms() >= next) {
			struct lupe_annotated_sym *now;

			lock(&b);
			now = live->annotate(live, b.as->dso, b.sym);
			if (now) {
				b.as = now;
				b.total_period = live->h ? lupe_hists_total_period(live->h) : 0;
				relines(&b);
				/* until a key moves it, the cursor is on the hottest line */
				if (!b.moved && b.nr_hot)
					select_line(&b, b.hot[0]);
			}
			unlock(&b);
			next = tui_now_ms() + live->refresh_ms;
			dirty = 1;
		}
		if (dirty) {
			draw(&b);
			dirty = 0;
		}
		k = tui_wait_key();
		if (k < 0)
			break;
		if (!k || tui_got_signal)
			continue;
		k = tui_getkey();
		if (k == SL_KEY_ERR)
			break;
		/* (no lock: the keys look at the lines, which are the browser's own) */
		b.moved = 1;
		rc = handle_key(&b, k);
		dirty = 1;
	}
out:
	lupe_listing_clear(&b.l);
	ui_annotate_lines_clear(&b.al);
	free(b.vis);
	free(b.hot);
	free(b.jumps_to);
	return rc == 2 || tui_got_signal;
}

int tui_annotate(struct annotate_data *d, struct lupe_annotated_sym *as, bool source)
{
	if (tui_enter())
		return -1;
	browse(d, NULL, as, lupe_evsel_name(d->evsel), d->total_period, source);
	return tui_leave();
}

/* From the hists browser (the terminal is set up): 1 to quit all. */
int tui_annotate_entry(struct tui_hists *th, const struct lupe_hist_entry *e, char *msg, size_t size)
{
	struct annotate_data d;
	struct lupe_annotated_sym *as;
	uint64_t total;
	char why[512];
	int rc;

	if (!e || !e->sym) {
		snprintf(msg, size, "no symbol to annotate here");
		return 0;
	}
	if (th->annotate) { /* top: live, from now on */
		if (th->lock)
			th->lock(th);
		as = e->dso ? th->annotate(th, e->dso, e->sym) : NULL;
		total = th->h ? lupe_hists_total_period(th->h) : 0;
		if (th->unlock)
			th->unlock(th);
		if (!as) {
			snprintf(msg, size, "cannot annotate %s here", e->sym->name);
			return 0;
		}
		rc = browse(NULL, th, as, th->evsel ? lupe_evsel_name(th->evsel) : "", total, true);
		if (th->lock)
			th->lock(th);
		th->annotate(th, NULL, NULL);
		if (th->unlock)
			th->unlock(th);
		return rc;
	}
	if (!th->input) {
		snprintf(msg, size, "annotate is not offered here");
		return 0;
	}
	snprintf(msg, size, "Annotating %s...", e->sym->name);
	tui_status(msg);
	msg[0] = 0;
	if (ui_annotate_load(&d, th->input, th->force,
			     th->nr_events > 1 ? th->events[th->cur_event].idx : th->evidx, NULL, why,
			     sizeof(why))) {
		snprintf(msg, size, "%s", why[0] ? why : "cannot read the file again");
		return 0;
	}
	as = ui_annotate_find(&d, e->sym->name, e->dso ? lupe_dso_long_name(e->dso) : NULL);
	/* no samples of its own (a caller in --children): its code with none */
	for (size_t i = 0; !as && e->dso && i < d.ann.nr; i++)
		if (!strcmp(lupe_dso_long_name(d.ann.syms[i].dso), lupe_dso_long_name(e->dso)))
			as = lupe_annotation_sym_at(&d.ann, d.ann.syms[i].dso, e->sym->start);
	if (!as) {
		snprintf(msg, size, "%s has no samples of its own to annotate", e->sym->name);
		ui_annotate_unload(&d);
		return 0;
	}
	rc = browse(&d, NULL, as, lupe_evsel_name(d.evsel), d.total_period, true);
	ui_annotate_unload(&d);
	return rc;
}
