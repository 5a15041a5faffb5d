// SPDX-License-Identifier: GPL-2.0
/*
 * An interactive SVG flame graph drawn from folded stacks, in the manner
 * of FlameGraph's flamegraph.pl: the stacks, sorted, are walked once; a
 * frame opens where a stack leaves the previous one's prefix and closes
 * where the next leaves its own, so each frame's width is the weight of
 * the stacks that pass through it. A small script in the SVG gives hover
 * details, zoom on click, search (Ctrl-F) with the matched share, and reset.
 * The differential graph (before given) colours frames by the change of
 * their self weight, as flamegraph.pl does with difffolded.pl's input.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "export/profile.h"
#include "util/phash.h"
#include "util/util.h"

#define FRAME_H 16
#define FONT_SIZE 12
#define FONT_W 0.59
#define XPAD 10
#define YPAD1 (FONT_SIZE * 4)
#define YPAD2 (FONT_SIZE * 2 + 10)
#define MIN_W 0.1

struct fnode {
	const char *name;
	size_t len;
	uint32_t depth;
	char kind;
	uint64_t start, end;
	double delta;
};

struct open_frame {
	const char *name;
	size_t len;
	char kind;
	uint64_t start;
	double delta;
};

struct flow {
	struct open_frame *open;
	size_t nr_open, cap_open;
	struct fnode *nodes;
	size_t nr_nodes, cap_nodes;
	uint32_t max_depth;
	double max_delta;
	int err;
};

/* An input line: weight after, change of weight. */
struct iline {
	const char *stack, *kinds;
	uint64_t weight;
	double delta;
};

static void close_frames(struct flow *fl, size_t keep, uint64_t x)
{
	while (fl->nr_open > keep) {
		struct open_frame *o = &fl->open[--fl->nr_open];

		if (lupe_grow(&fl->nodes, &fl->cap_nodes, fl->nr_nodes + 1, sizeof(*fl->nodes))) {
			fl->err = -ENOMEM;
			return;
		}
		fl->nodes[fl->nr_nodes++] = (struct fnode){ o->name, o->len, (uint32_t)fl->nr_open, o->kind,
							    o->start, x, o->delta };
		if (fabs(o->delta) > fl->max_delta)
			fl->max_delta = fabs(o->delta);
	}
}

/* Take one stack: close what differs from the open frames, open the rest. */
static void flow_line(struct flow *fl, const struct iline *l, uint64_t x)
{
	const char *s = l->stack;
	size_t depth = 1, ki = 0; /* depth 0 is "all" */

	while (*s || depth == 1) {
		const char *semi = strchr(s, ';');
		size_t len = semi ? (size_t)(semi - s) : strlen(s);
		char kind = l->kinds && l->kinds[ki] ? l->kinds[ki] : 'u';

		if (depth < fl->nr_open && !(fl->open[depth].len == len && !memcmp(fl->open[depth].name, s, len)))
			close_frames(fl, depth, x);
		if (depth >= fl->nr_open) {
			if (lupe_grow(&fl->open, &fl->cap_open, depth + 1, sizeof(*fl->open))) {
				fl->err = -ENOMEM;
				return;
			}
			fl->open[depth] = (struct open_frame){ s, len, kind, x, 0 };
			fl->nr_open = depth + 1;
		}
		if (depth > fl->max_depth)
			fl->max_depth = (uint32_t)depth;
		depth++;
		ki++;
		if (!semi)
			break;
		s = semi + 1;
	}
	close_frames(fl, depth, x);
	fl->open[depth - 1].delta += l->delta;
}

static uint32_t name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void frame_colour(const struct fnode *n, double max_delta, int diff, char *buf, size_t size)
{
	uint32_t h = name_hash(n->name, n->len);
	double v1 = (h & 0xff) / 255.0, v2 = ((h >> 8) & 0xff) / 255.0, v3 = ((h >> 16) & 0xff) / 255.0;

	if (diff) {
		int r = 255, g = 255, b = 255;

		if (n->delta > 0 && max_delta > 0)
			g = b = (int)(210 * (max_delta - n->delta) / max_delta);
		else if (n->delta < 0 && max_delta > 0)
			r = g = (int)(210 * (max_delta + n->delta) / max_delta);
		snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
		return;
	}
	switch (n->depth ? n->kind : 'a') {
	case 'k': /* kernel: orange */
		snprintf(buf, size, "rgb(%d,%d,0)", 215 + (int)(40 * v1), 110 + (int)(70 * v1));
		break;
	case 'j': /* JIT: green */
		snprintf(buf, size, "rgb(%d,%d,%d)", 50 + (int)(60 * v1), 190 + (int)(55 * v1), 50 + (int)(60 * v1));
		break;
	case 'i': /* inlined: aqua */
		snprintf(buf, size, "rgb(%d,%d,%d)", 50 + (int)(60 * v1), 165 + (int)(55 * v1), 165 + (int)(55 * v1));
		break;
	case 'c': case 'a': /* the process and the root: grey */
		snprintf(buf, size, "rgb(%d,%d,%d)", 190 + (int)(20 * v1), 190 + (int)(20 * v1), 200 + (int)(20 * v1));
		break;
	default: /* user code: flamegraph.pl's warm colours */
		snprintf(buf, size, "rgb(%d,%d,%d)", 205 + (int)(50 * v3), (int)(230 * v1), (int)(55 * v2));
	}
}

/* The script: details on hover, zoom on click, search, reset. */
static const char script[] =
"var W, PAD = " "10" ", total, frames, details, matched, searching = null;\n"
"function num(g, k) { return +g.getAttribute('data-' + k); }\n"
"function fname(g) { return g.getAttribute('data-n'); }\n"
"function label(g, w) {\n"
"  var t = g.querySelector('text'), n = fname(g), c = Math.floor(w / (" "12" " * 0.59));\n"
"  t.textContent = c < 3 ? '' : n.length <= c ? n : n.substring(0, c - 2) + '..';\n"
"}\n"
"function place(g, x, w) {\n"
"  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
"  r.setAttribute('x', x); r.setAttribute('width', w);\n"
"  t.setAttribute('x', x + 3); label(g, w);\n"
"}\n"
"function zoom(g) {\n"
"  var x0 = num(g, 'x'), w0 = num(g, 'w'), d0 = num(g, 'd'), s = (W - 2 * PAD) / w0;\n"
"  document.getElementById('unzoom').style.display = 'inline';\n"
"  frames.forEach(function (f) {\n"
"    var x = num(f, 'x'), w = num(f, 'w'), d = num(f, 'd');\n"
"    f.classList.remove('parent');\n"
"    if (d < d0 && x <= x0 && x + w >= x0 + w0) {\n"
"      f.style.display = ''; f.classList.add('parent'); place(f, PAD, W - 2 * PAD);\n"
"    } else if (d >= d0 && x >= x0 && x + w <= x0 + w0 && w * s >= 0.1) {\n"
"      f.style.display = ''; place(f, PAD + (x - x0) * s, w * s);\n"
"    } else {\n"
"      f.style.display = 'none';\n"
"    }\n"
"  });\n"
"}\n"
"function unzoom() {\n"
"  document.getElementById('unzoom').style.display = 'none';\n"
"  frames.forEach(function (f) {\n"
"    f.classList.remove('parent'); f.style.display = '';\n"
"    place(f, PAD + num(f, 'x') * (W - 2 * PAD) / total, num(f, 'w') * (W - 2 * PAD) / total);\n"
"  });\n"
"}\n"
"function search(term) {\n"
"  var re = new RegExp(term), spans = [], sum = 0, end = -1;\n"
"  frames.forEach(function (f) {\n"
"    var r = f.querySelector('rect');\n"
"    if (!f.hasAttribute('data-c')) f.setAttribute('data-c', r.getAttribute('fill'));\n"
"    if (re.test(fname(f))) { r.setAttribute('fill', 'rgb(230,0,230)'); spans.push([num(f, 'x'), num(f, 'w')]); }\n"
"    else r.setAttribute('fill', f.getAttribute('data-c'));\n"
"  });\n"
"  spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
"  spans.forEach(function (s) { if (s[0] >= end) { sum += s[1]; end = s[0] + s[1]; } });\n"
"  searching = term;\n"
"  matched.textContent = 'Matched: ' + (100 * sum / total).toFixed(1) + '%';\n"
"  document.getElementById('search').textContent = 'Reset Search';\n"
"  return 100 * sum / total;\n"
"}\n"
"function resetsearch() {\n"
"  frames.forEach(function (f) { if (f.hasAttribute('data-c')) f.querySelector('rect').setAttribute('fill', f.getAttribute('data-c')); });\n"
"  searching = null; matched.textContent = '';\n"
"  document.getElementById('search').textContent = 'Search';\n"
"}\n"
"function asksearch() {\n"
"  if (searching !== null) { resetsearch(); return; }\n"
"  var t = prompt('Search for a function (regular expression):', '');\n"
"  if (t) search(t);\n"
"}\n"
"function init() {\n"
"  var svg = document.documentElement;\n"
"  W = +svg.getAttribute('width'); total = +svg.getAttribute('data-total');\n"
"  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
"  details = document.getElementById('details'); matched = document.getElementById('matched');\n"
"  frames.forEach(function (f) {\n"
"    f.addEventListener('mouseover', function () { details.textContent = f.querySelector('title').textContent; });\n"
"    f.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
"    f.addEventListener('click', function () { zoom(f); });\n"
"  });\n"
"  document.getElementById('unzoom').addEventListener('click', unzoom);\n"
"  document.getElementById('search').addEventListener('click', asksearch);\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); asksearch(); }\n"
"    if (e.key === 'Escape') { unzoom(); resetsearch(); }\n"
"  });\n"
"}\n"
"init();\n";

static void text_label(FILE *out, const char *name, size_t len, double w)
{
	size_t chars = (size_t)(w / (FONT_SIZE * FONT_W));

	if (chars < 3)
		return;
	if (len <= chars) {
		lupe_xml_str(out, name, len);
	} else {
		lupe_xml_str(out, name, chars - 2);
		fputs("..", out);
	}
}

static int write_svg(const struct flow *fl, uint64_t total, int diff,
		     const struct lupe_flame_opts *o, FILE *out)
{
	int width = o->width > 0 ? o->width : 1200;
	int height = (int)(fl->max_depth + 1) * FRAME_H + YPAD1 + YPAD2;
	double wpt = total ? (width - 2.0 * XPAD) / total : 0;
	const char *unit = o->unit ? o->unit : "samples";
	const char *title = o->title ? o->title : diff ? "Differential Flame Graph" : "Flame Graph";

	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\" data-total=\"%llu\" onload=\"\">\n",
		width, height, width, height, (unsigned long long)total);
	fputs("<style type=\"text/css\">\n"
	      "text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
	      "#title { text-anchor: middle; font-size: 17px; }\n"
	      "#unzoom, #search { cursor: pointer; }\n"
	      "g.f:hover { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
	      "g.parent { opacity: 0.5; }\n"
	      "</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(245,245,240)\"/>\n", width, height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"24\">", width / 2);
	lupe_xml_str(out, title, strlen(title));
	fputs("</text>\n", out);
	if (o->subtitle) {
		fprintf(out, "<text id=\"subtitle\" x=\"%d\" y=\"%d\" style=\"text-anchor: middle\">", width / 2, YPAD1 - 8);
		lupe_xml_str(out, o->subtitle, strlen(o->subtitle));
		fputs("</text>\n", out);
	}
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", XPAD, height - YPAD2 / 2 + 4);
	fprintf(out, "<text id=\"unzoom\" x=\"%d\" y=\"24\" style=\"display: none\">Reset Zoom</text>\n", XPAD);
	fprintf(out, "<text id=\"search\" x=\"%d\" y=\"24\" style=\"text-anchor: end\">Search</text>\n", width - XPAD);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\" style=\"text-anchor: end\"></text>\n",
		width - XPAD, height - YPAD2 / 2 + 4);
	for (size_t i = fl->nr_nodes; i-- > 0;) {
		const struct fnode *n = &fl->nodes[i];
		double x1 = XPAD + n->start * wpt, w = (n->end - n->start) * wpt, y;
		uint64_t weight = n->end - n->start;
		const char *name = n->depth ? n->name : "all";
		size_t len = n->depth ? n->len : 3;
		char colour[64];

		if (w < MIN_W)
			continue;
		y = o->reverse ? YPAD1 + n->depth * FRAME_H
			       : height - YPAD2 - (n->depth + 1.0) * FRAME_H;
		frame_colour(n, fl->max_delta, diff, colour, sizeof(colour));
		fprintf(out, "<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-d=\"%u\" data-n=\"",
			(unsigned long long)n->start, (unsigned long long)weight, n->depth);
		lupe_xml_str(out, name, len);
		fputs("\"><title>", out);
		lupe_xml_str(out, name, len);
		fprintf(out, " (%llu %s, %.2f%%", (unsigned long long)weight, unit,
			total ? 100.0 * weight / total : 0.0);
		if (diff)
			fprintf(out, "; self %+.2f%%", total ? 100.0 * n->delta / total : 0.0);
		fprintf(out, ")</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\" ry=\"2\"/>"
			"<text x=\"%.1f\" y=\"%.1f\">", x1, y, w, FRAME_H - 1, colour, x1 + 3, y + 10.5);
		text_label(out, name, len, w);
		fputs("</text></g>\n", out);
	}
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n", script);
	return ferror(out) ? -EIO : 0;
}

int lupe_flame_write(const struct lupe_folded *f, size_t nr, const struct lupe_folded *before,
		     size_t nr_before, const struct lupe_flame_opts *opts, FILE *out)
{
	struct lupe_flame_opts o = { 0 };
	struct iline *lines = calloc(nr + nr_before + 1, sizeof(*lines));
	struct flow fl = { 0 };
	uint64_t total = 0, total_before = 0, x = 0;
	double scale;
	size_t n = 0, i = 0, j = 0;
	int err;

	err = lupe_opts_load(&o, opts);
	if (err || !lines) {
		free(lines);
		return err ? err : -ENOMEM;
	}
	for (size_t k = 0; k < nr; k++)
		total += f[k].weight;
	for (size_t k = 0; k < nr_before; k++)
		total_before += before[k].weight;
	/* before is scaled to f's total: a change of split shows, not a longer run */
	scale = total_before ? (double)total / total_before : 0;
	/* both are sorted: merge them, as difffolded.pl pairs the two counts */
	while (i < nr || (before && j < nr_before)) {
		int c = !before || j >= nr_before ? -1 : i >= nr ? 1 : strcmp(f[i].stack, before[j].stack);

		if (c <= 0) {
			lines[n] = (struct iline){ f[i].stack, f[i].kinds, f[i].weight, before ? (double)f[i].weight : 0 };
			if (c == 0) {
				lines[n].delta -= before[j].weight * scale;
				j++;
			}
			i++;
		} else {
			lines[n] = (struct iline){ before[j].stack, before[j].kinds, 0, -(double)before[j].weight * scale };
			j++;
		}
		n++;
	}
	if (lupe_grow(&fl.open, &fl.cap_open, 1, sizeof(*fl.open))) {
		free(lines);
		return -ENOMEM;
	}
	fl.open[0] = (struct open_frame){ "all", 3, 'a', 0, 0 };
	fl.nr_open = 1;
	for (size_t k = 0; k < n && !fl.err; k++) {
		flow_line(&fl, &lines[k], x);
		x += lines[k].weight;
	}
	if (!fl.err)
		close_frames(&fl, 0, x);
	err = fl.err ? fl.err : write_svg(&fl, total, before != NULL, &o, out);
	free(fl.open);
	free(fl.nodes);
	free(lines);
	return err;
}
