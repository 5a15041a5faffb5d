// SPDX-License-Identifier: GPL-2.0
/*
 * Samples per instruction of each symbol, for annotate. One array of
 * periods per symbol hit, as long as the symbol: a symbol's size is bytes,
 * so the cost is 16 bytes per byte of each symbol that got a sample.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/annotate.h>
#include <lupe/session.h>
#include "symbols/symbols.h"
#include "util/util.h"

static struct lupe_annotated_sym *find(struct lupe_annotation *a, const struct lupe_symbol *sym)
{
	/* NEEDSWORK: a linear scan; a hash by symbol when many symbols are annotated at once */
	for (size_t i = 0; i < a->nr; i++)
		if (a->syms[i].sym == sym)
			return &a->syms[i];
	return NULL;
}

static struct lupe_annotated_sym *get(struct lupe_annotation *a, const struct lupe_dso *dso,
				      const struct lupe_symbol *sym)
{
	struct lupe_annotated_sym *s = find(a, sym);

	if (!s) {
		if (lupe_grow(&a->syms, &a->alloc, a->nr + 1, sizeof(*a->syms)))
			return NULL;
		s = &a->syms[a->nr];
		memset(s, 0, sizeof(*s));
		s->len = sym->end - sym->start;
		s->period = calloc(s->len, sizeof(*s->period));
		s->samples = calloc(s->len, sizeof(*s->samples));
		if (!s->period || !s->samples) {
			free(s->period);
			free(s->samples);
			return NULL;
		}
		s->dso = dso;
		s->sym = sym;
		a->nr++;
	}
	return s;
}

int lupe_annotation_add(struct lupe_annotation *a, const struct lupe_dso *dso,
			const struct lupe_symbol *sym, uint64_t vaddr, uint64_t period)
{
	struct lupe_annotated_sym *s;

	if (vaddr < sym->start || vaddr >= sym->end)
		return 0;
	if (!(s = get(a, dso, sym)))
		return -ENOMEM;
	s->period[vaddr - sym->start] += period;
	s->samples[vaddr - sym->start]++;
	s->total_period += period;
	s->nr_samples++;
	return 0;
}

struct lupe_annotated_sym *lupe_annotation_sym_at(struct lupe_annotation *a, const struct lupe_dso *dso,
						  uint64_t vaddr)
{
	const struct lupe_symbol *sym = lupe_dso_find_symbol(dso, vaddr);

	return sym && sym->end > sym->start ? get(a, dso, sym) : NULL;
}

static int by_samples(const void *x, const void *y)
{
	const struct lupe_annotated_sym *a = x, *b = y;

	if (a->nr_samples != b->nr_samples)
		return a->nr_samples < b->nr_samples ? 1 : -1;
	return strcmp(a->sym->name, b->sym->name);
}

void lupe_annotation_sort(struct lupe_annotation *a)
{
	if (a->nr)
		qsort(a->syms, a->nr, sizeof(*a->syms), by_samples);
}

void lupe_annotation_clear(struct lupe_annotation *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		free(a->syms[i].period);
		free(a->syms[i].samples);
	}
	free(a->syms);
	memset(a, 0, sizeof(*a));
}

void lupe_listing_clear(struct lupe_listing *l)
{
	for (size_t i = 0; i < l->nr_files; i++)
		free(l->files[i]);
	free(l->files);
	free(l->insns);
	memset(l, 0, sizeof(*l));
}
