/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Annotation for the UIs: the samples of a perf.data per instruction
 * (ui_annotate_load), a symbol's listing (ui_annotate_disasm), its lines
 * with source interleaved (ui_annotate_lines), and `lupe annotate
 * --stdio`'s layout of them (ui_annotate_print). The TUI browser
 * (ui/tui) shows the same lines.
 */
#ifndef LUPE_UI_ANNOTATE_H
#define LUPE_UI_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>
#include <lupe/annotate.h>

struct lupe_session;
struct lupe_evsel;

struct annotate_view {
	const char *event;   /* "cpu-clock" */
	const char *dso;     /* the DSO's short name, as perf's title shows it */
	bool source;         /* interleave source lines (--no-source: false) */
	bool color;          /* hot percentages in red (>= 5%), warm in green (>= 0.5%) */
	bool nr_samples;     /* --show-nr-samples: a sample count instead of the percentage */
};

/* One line of an annotation: an instruction, or a source line before it. */
struct annotate_line {
	const struct lupe_insn *in; /* NULL: a source line */
	int line;                   /* the source line's number (in: the insn's) */
	const char *src;            /* its text without indentation, or NULL */
	uint64_t period, samples;   /* the instruction's */
	double pct;                 /* of the symbol's period */
};

struct annotate_lines {
	struct annotate_line *lines;
	size_t nr;
	/* the source files' text the lines point into */
	char **texts;
	size_t nr_texts;
};

/* The lines of one source file, read once (nothing when it cannot be read). */
struct annotate_source {
	const char *name;
	char *text;   /* the file, each newline made a NUL; free it */
	char **lines; /* into text; free it */
	int nr;
};
void ui_annotate_source(struct annotate_source *s, const char *name);

/*
 * sym's lines from listing l, source lines (when source) before the
 * instructions they became. Returns 0 or -ENOMEM.
 */
int ui_annotate_lines(const struct lupe_annotated_sym *as, const struct lupe_listing *l, bool source,
		      struct annotate_lines *out);
void ui_annotate_lines_clear(struct annotate_lines *al);

/*
 * Print sym's instructions from l, each with its share of the symbol's
 * period, source lines before the instructions they became, under perf's
 * title line. Returns 0 or -1 when the stream failed.
 */
int ui_annotate_print(FILE *f, const struct annotate_view *v, const struct lupe_annotated_sym *sym,
		      const struct lupe_listing *l);

/* The samples of one event of a perf.data per instruction of the symbols they hit. */
struct annotate_data {
	struct lupe_session *s;
	struct lupe_evsel *evsel;
	struct lupe_annotation ann;  /* hottest first */
	uint64_t total_period;       /* the event's, symbol or not (global percentages) */
};

/*
 * Read input's samples of its evidx-th event (of symbol only, when not
 * NULL) into d. Returns 0, or -1 with why in why (empty: the library said
 * why already).
 */
int ui_annotate_load(struct annotate_data *d, const char *input, int force, int evidx,
		     const char *symbol, char *why, size_t size);
void ui_annotate_unload(struct annotate_data *d);

/* The annotated symbol named name in the DSO named dso (NULL: any), or NULL. */
struct lupe_annotated_sym *ui_annotate_find(struct annotate_data *d, const char *name, const char *dso);

/*
 * as's listing into l (no source lines unless source). Returns 0, or -1
 * with why (a sentence) in why.
 */
int ui_annotate_disasm(const struct lupe_annotated_sym *as, bool source, struct lupe_listing *l,
		       char *why, size_t size);

#endif
