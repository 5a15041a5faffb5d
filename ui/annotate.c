// SPDX-License-Identifier: GPL-2.0
/*
 * Annotation for the UIs. perf annotate --stdio's layout: a title with the
 * samples and the percent type, a dotted rule, then per instruction
 * "PERCENT :   ADDR:   TEXT", with "         : LINE TEXT" source lines
 * where the line changes. The lines themselves (ui_annotate_lines) are
 * what the TUI browser shows too, so both agree on every share.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/evlist.h>
#include <lupe/perfdata.h>
#include <lupe/session.h>
#include <lupe/symbols.h>
#include "annotate.h"

#define RED    "\033[31m"
#define GREEN  "\033[32m"
#define RESET  "\033[m"

void ui_annotate_source(struct annotate_source *s, const char *name)
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

static const char *source_line(struct annotate_source *srcs, size_t nr, const char *file, int line)
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

static struct annotate_line *add_line(struct annotate_lines *al, size_t *alloc)
{
	if (al->nr == *alloc) {
		size_t n = *alloc ? 2 * *alloc : 256;
		struct annotate_line *l = realloc(al->lines, n * sizeof(*l));

		if (!l)
			return NULL;
		al->lines = l;
		*alloc = n;
	}
	memset(&al->lines[al->nr], 0, sizeof(al->lines[0]));
	return &al->lines[al->nr++];
}

int ui_annotate_lines(const struct lupe_annotated_sym *as, const struct lupe_listing *l, bool source,
		      struct annotate_lines *out)
{
	struct annotate_source *srcs = calloc(l->nr_files ? l->nr_files : 1, sizeof(*srcs));
	const char *last_file = NULL;
	int last_line = 0, err = 0;
	size_t alloc = 0;

	memset(out, 0, sizeof(*out));
	if (!srcs)
		return -ENOMEM;
	for (size_t i = 0; source && i < l->nr_files; i++)
		ui_annotate_source(&srcs[i], l->files[i]);
	for (size_t i = 0; i < l->nr && !err; i++) {
		const struct lupe_insn *in = &l->insns[i];
		struct annotate_line *al;

		if (source && in->file && (in->file != last_file || in->line != last_line)) {
			if (!(al = add_line(out, &alloc))) {
				err = -ENOMEM;
				break;
			}
			al->line = in->line;
			al->src = source_line(srcs, l->nr_files, in->file, in->line);
			last_file = in->file;
			last_line = in->line;
		}
		if (!(al = add_line(out, &alloc))) {
			err = -ENOMEM;
			break;
		}
		al->in = in;
		al->line = in->line;
		for (uint64_t a = in->addr; a < in->addr + in->size; a++)
			if (a >= as->sym->start && a - as->sym->start < as->len) {
				al->period += as->period[a - as->sym->start];
				al->samples += as->samples[a - as->sym->start];
			}
		al->pct = as->total_period ? 100.0 * al->period / as->total_period : 0;
	}
	/* the texts stay: the lines point into them */
	out->texts = calloc(l->nr_files ? l->nr_files : 1, sizeof(*out->texts));
	for (size_t i = 0; i < l->nr_files; i++) {
		if (out->texts)
			out->texts[out->nr_texts++] = srcs[i].text;
		else
			free(srcs[i].text);
		free(srcs[i].lines);
	}
	free(srcs);
	if (!out->texts)
		err = -ENOMEM;
	if (err)
		ui_annotate_lines_clear(out);
	return err;
}

void ui_annotate_lines_clear(struct annotate_lines *al)
{
	for (size_t i = 0; i < al->nr_texts; i++)
		free(al->texts[i]);
	free(al->texts);
	free(al->lines);
	memset(al, 0, sizeof(*al));
}

int ui_annotate_print(FILE *f, const struct annotate_view *v, const struct lupe_annotated_sym *as,
		      const struct lupe_listing *l)
{
	struct annotate_lines al;
	int title;

	if (ui_annotate_lines(as, l, v->source, &al))
		return -1;
	title = fprintf(f, " %-7s |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, percent: local period)\n",
			v->nr_samples ? "Samples" : "Percent", v->dso, v->event, as->nr_samples);
	/* perf's rule: the title's length with its newline, and four more */
	for (int i = 0; i < title + 4; i++)
		fputc('-', f);
	fprintf(f, "\n         :\n         : %016" PRIx64 " <%s>:\n", as->sym->start, as->sym->name);
	for (size_t i = 0; i < al.nr; i++) {
		const struct annotate_line *a = &al.lines[i];
		char addr[24];
		int len;

		if (!a->in) {
			fprintf(f, "         : %-5d%s\n", a->line, a->src ? a->src : "");
			continue;
		}
		if (v->color && a->pct >= 0.5)
			fputs(a->pct >= 5 ? RED : GREEN, f);
		if (v->nr_samples)
			fprintf(f, "%8" PRIu64, a->samples);
		else
			fprintf(f, "%8.2f", a->pct);
		if (v->color && a->pct >= 0.5)
			fputs(RESET, f);
		/* objdump's "ADDR:<tab>" with the tab expanded, as perf prints it */
		len = snprintf(addr, sizeof(addr), "%" PRIx64 ":", a->in->addr);
		fprintf(f, " :   %s%*s%s\n", addr, 8 - len % 8, "", a->in->text);
	}
	ui_annotate_lines_clear(&al);
	return ferror(f) ? -1 : 0;
}

struct load_tool {
	struct lupe_tool tool;
	struct annotate_data *d;
	const char *symbol;
	int err;
};

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct load_tool *lt = (struct load_tool *)tool;
	uint8_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t period = sample->period ? sample->period : 1;
	struct lupe_frame fr;

	if (evsel != lt->d->evsel)
		return 0;
	lt->d->total_period += period;
	lupe_session_resolve_ip(s, thread, sample->ip,
				mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL, &fr);
	if (!fr.sym || !fr.map || (lt->symbol && strcmp(fr.sym->name, lt->symbol)))
		return 0;
	lt->err = lupe_annotation_add(&lt->d->ann, fr.map->dso, fr.sym, fr.vaddr, period);
	return lt->err;
}

int ui_annotate_load(struct annotate_data *d, const char *input, int force, int evidx,
		     const char *symbol, char *why, size_t size)
{
	struct load_tool lt = { .tool = { .sample = on_sample, .ordered = 1 }, .d = d, .symbol = symbol };
	struct lupe_perf_file *f;
	int err;

	memset(d, 0, sizeof(*d));
	d->s = lupe_session_open(input, force);
	why[0] = 0;
	if (!d->s)
		return -1; /* the library said why */
	f = lupe_session_file(d->s);
	if ((size_t)evidx < lupe_perf_file_nr_evsels(f))
		d->evsel = lupe_perf_file_evsel(f, (size_t)evidx);
	err = lupe_session_process(d->s, &lt.tool);
	if (err || lt.err) {
		snprintf(why, size, "cannot read '%s': %s", input, lt.err ? lupe_strerror(lt.err) :
		      lupe_perf_file_error(f)[0] ? lupe_perf_file_error(f) : lupe_strerror(err));
		ui_annotate_unload(d);
		return -1;
	}
	lupe_annotation_sort(&d->ann);
	return 0;
}

void ui_annotate_unload(struct annotate_data *d)
{
	lupe_annotation_clear(&d->ann);
	if (d->s)
		lupe_session_delete(d->s);
	memset(d, 0, sizeof(*d));
}

struct lupe_annotated_sym *ui_annotate_find(struct annotate_data *d, const char *name, const char *dso)
{
	for (size_t i = 0; i < d->ann.nr; i++) {
		struct lupe_annotated_sym *as = &d->ann.syms[i];

		if (!strcmp(as->sym->name, name) && (!dso || !strcmp(lupe_dso_long_name(as->dso), dso)))
			return as;
	}
	return NULL;
}

int ui_annotate_disasm(const struct lupe_annotated_sym *as, bool source, struct lupe_listing *l,
		       char *why, size_t size)
{
	const char *dso = lupe_dso_long_name(as->dso);
	int err;

	if (lupe_dso_is_kernel(as->dso) || dso[0] == '[') {
		snprintf(why, size, "cannot annotate '%s': its code is in '%s', which lupe cannot read yet "
			 "(annotate user space symbols)", as->sym->name, dso);
		return -1;
	}
	err = lupe_disasm(dso, as->sym->name, as->sym->start, as->sym->end,
			  source ? 0 : LUPE_DISASM_NO_SOURCE, l);
	if (err == -LUPE_ERR_NOT_SUPPORTED)
		snprintf(why, size, "cannot annotate '%s': lupe was built without Zydis, or '%s' is not "
			 "x86-64 code (install libzydis-dev and rebuild)", as->sym->name, dso);
	else if (err)
		snprintf(why, size, "cannot annotate '%s': cannot read its code in '%s': %s",
			 as->sym->name, dso, lupe_strerror(err));
	return err ? -1 : 0;
}
