// SPDX-License-Identifier: GPL-2.0
/*
 * perf annotate --stdio's layout: a title with the samples and the percent
 * type, a dotted rule, then per instruction "PERCENT :   ADDR:   TEXT",
 * with "         : LINE TEXT" source lines where the line changes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/session.h>
#include "annotate.h"

#define RED    "\033[31m"
#define GREEN  "\033[32m"
#define RESET  "\033[m"

/* The lines of one source file, read once. */
struct source {
	const char *name;
	char *text;
	char **lines;
	int nr;
};

static void source_load(struct source *s, const char *name)
{
	FILE *f = fopen(name, "re");
	size_t len = 0;
	int alloc = 0;

	memset(s, 0, sizeof(*s));
	s->name = name;
	if (!f)
		return;
	if (getdelim(&s->text, &len, '\0', f) < 0) {
		fclose(f);
		return;
	}
	fclose(f);
	for (char *p = s->text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (s->nr == alloc) {
			char **n = realloc(s->lines, (alloc = alloc ? alloc * 2 : 256) * sizeof(*n));

			if (!n)
				break;
			s->lines = n;
		}
		s->lines[s->nr++] = p;
	}
}

static const char *source_line(struct source *srcs, size_t nr, const char *file, int line)
{
	for (size_t i = 0; i < nr; i++) {
		if (srcs[i].name != file)
			continue;
		if (line < 1 || line > srcs[i].nr)
			return NULL;
		/* perf shows the line without its indentation */
		return srcs[i].lines[line - 1] + strspn(srcs[i].lines[line - 1], " \t");
	}
	return NULL;
}

int ui_annotate_print(FILE *f, const struct annotate_view *v, const struct lupe_annotated_sym *as,
		      const struct lupe_listing *l)
{
	struct source *srcs = calloc(l->nr_files ? l->nr_files : 1, sizeof(*srcs));
	const char *last_file = NULL;
	int last_line = 0, title;

	if (!srcs)
		return -1;
	for (size_t i = 0; v->source && i < l->nr_files; i++)
		source_load(&srcs[i], l->files[i]);
	title = fprintf(f, " %-7s |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, percent: local period)\n",
			"Percent", v->dso, v->event, as->nr_samples);
	/* perf's rule: the title's length with its newline, and four more */
	for (int i = 0; i < title + 4; i++)
		fputc('-', f);
	fprintf(f, "\n         :\n         : %016" PRIx64 " <%s>:\n", as->sym->start, as->sym->name);
	for (size_t i = 0; i < l->nr; i++) {
		const struct lupe_insn *in = &l->insns[i];
		uint64_t period = 0;
		char addr[24];
		double pct;
		int len;

		if (v->source && in->file && (in->file != last_file || in->line != last_line)) {
			const char *text = source_line(srcs, l->nr_files, in->file, in->line);

			fprintf(f, "         : %-5d%s\n", in->line, text ? text : "");
			last_file = in->file;
			last_line = in->line;
		}
		for (uint64_t a = in->addr; a < in->addr + in->size; a++)
			if (a >= as->sym->start && a - as->sym->start < as->len)
				period += as->period[a - as->sym->start];
		pct = as->total_period ? 100.0 * period / as->total_period : 0;
		if (v->color && pct >= 0.5)
			fprintf(f, "%s%8.2f%s", pct >= 5 ? RED : GREEN, pct, RESET);
		else
			fprintf(f, "%8.2f", pct);
		/* objdump's "ADDR:<tab>" with the tab expanded, as perf prints it */
		len = snprintf(addr, sizeof(addr), "%" PRIx64 ":", in->addr);
		fprintf(f, " :   %s%*s%s\n", addr, 8 - len % 8, "", in->text);
	}
	for (size_t i = 0; i < l->nr_files; i++) {
		free(srcs[i].text);
		free(srcs[i].lines);
	}
	free(srcs);
	return ferror(f) ? -1 : 0;
}
