// SPDX-License-Identifier: GPL-2.0
/*
 * The symbol table of a DSO: building it the way perf does (so that the
 * same address gets the same name and offset), loading it lazily from the
 * right source, and the binary search.
 */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/symbols.h"
#include "util/util.h"

int lupe_symtab_add(struct symtab_build *b, uint64_t start, uint64_t size, const char *name,
	       size_t name_len, int binding)
{
	if (b->nr == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct sym_in *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	if (b->slen + name_len + 1 > b->scap) {
		size_t cap = b->scap ? b->scap * 2 : 16384;
		char *s;

		while (cap < b->slen + name_len + 1)
			cap *= 2;
		s = realloc(b->str, cap);
		if (!s)
			return -ENOMEM;
		b->str = s;
		b->scap = cap;
	}
	memcpy(b->str + b->slen, name, name_len);
	b->str[b->slen + name_len] = 0;
	b->v[b->nr++] = (struct sym_in){ start, size, b->slen, (uint8_t)binding };
	b->slen += name_len + 1;
	return 0;
}

void lupe_symtab_build_free(struct symtab_build *b)
{
	free(b->v);
	free(b->str);
	memset(b, 0, sizeof(*b));
}

static int cmp_start(const void *a, const void *b)
{
	const struct sym_in *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* keep the order they were read in: perf's rbtree does */
	return x < y ? -1 : x > y;
}

static int underscores(const char *s)
{
	int n = 0;

	while (*s++ == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): 1 when a wins over b. */
static int better(const struct symtab_build *bd, const struct sym_in *a, const struct sym_in *b)
{
	const char *na = bd->str + a->name, *nb = bd->str + b->name;
	int ua, ub;
	size_t la, lb;

	if (!b->size && a->size)
		return 1;
	if (!a->size && b->size)
		return 0;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	ua = underscores(na);
	ub = underscores(nb);
	if (ua != ub)
		return ub > ua;
	la = strlen(na);
	lb = strlen(nb);
	if (la != lb)
		return la > lb;
	return 1;
}

/* Zero-sized symbols end where the next one starts (perf's symbols__fixup_end). */
static void fixup_end(struct symtab_build *b)
{
	struct sym_in *v = b->v;
	size_t n = b->nr;

	for (size_t i = 0; i + 1 < n; i++) {
		if (v[i].size)
			continue;
		if (b->kallsyms && !strchr(b->str + v[i].name, '[') != !strchr(b->str + v[i + 1].name, '['))
			v[i].size = (((v[i].start + 4096) + 4095) & ~4095ULL) - v[i].start;
		else
			v[i].size = v[i + 1].start - v[i].start;
	}
	if (n && !v[n - 1].size)
		v[n - 1].size = (((v[n - 1].start + 4095) & ~4095ULL) + 4096) - v[n - 1].start;
}

int lupe_symtab_finish(struct symtab_build *b, struct lupe_dso *dso)
{
	struct lupe_symbol *out;
	size_t n = 0;

	/* qsort is not stable; the tie-break on position in cmp_start makes it so. */
	if (b->nr) /* a binary without symbols: v is NULL, which qsort may not take */
		qsort(b->v, b->nr, sizeof(*b->v), cmp_start);
	/* perf fixes kallsyms' ends before it drops aliases, ELF's after */
	if (b->kallsyms)
		fixup_end(b);
	for (size_t i = 0; i < b->nr; i++) {
		if (n && b->v[n - 1].start == b->v[i].start) {
			if (!better(b, &b->v[n - 1], &b->v[i]))
				b->v[n - 1] = b->v[i];
			continue;
		}
		b->v[n++] = b->v[i];
	}
	b->nr = n;
	if (!b->kallsyms)
		fixup_end(b);
	out = malloc((n ? n : 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		out[i].start = b->v[i].start;
		out[i].end = b->v[i].start + b->v[i].size;
		out[i].name = b->str + b->v[i].name;
	}
	dso->syms = out;
	dso->nr_syms = n;
	dso->strtab = b->str;
	free(b->v);
	memset(b, 0, sizeof(*b));
	return 0;
}

static int load_kallsyms(struct lupe_dso *dso)
{
	struct symtab_build b = { .kallsyms = 1 };
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	int err = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		int binding;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (strchr(line, '[')) /* module symbols: NEEDSWORK per-module maps */
			continue;
		switch (toupper((unsigned char)type)) {
		case 'T': case 'W': case 'D': case 'B':
			break;
		default:
			continue;
		}
		binding = type == 'W' || type == 'w' ? STB_WEAK : isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
		if ((err = lupe_symtab_add(&b, addr, 0, name, strlen(name), binding)))
			break;
	}
	fclose(f);
	if (!err && !b.nr)
		err = -EACCES; /* kptr_restrict hides the addresses */
	if (!err)
		err = lupe_symtab_finish(&b, dso);
	lupe_symtab_build_free(&b);
	return err;
}

/* /tmp/perf-PID.map: "START SIZE NAME" per line, in hex, as JITs write it. */
static int load_perf_map(struct lupe_dso *dso)
{
	struct symtab_build b = { 0 };
	FILE *f = fopen(dso->long_name, "r");
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long start, size;
		int pos = 0;
		size_t len;

		if (sscanf(line, "%llx %llx %n", &start, &size, &pos) < 2 || !pos)
			continue;
		len = strcspn(line + pos, "\n");
		if ((err = lupe_symtab_add(&b, start, size, line + pos, len, STB_GLOBAL)))
			break;
	}
	free(line);
	fclose(f);
	if (!err)
		err = lupe_symtab_finish(&b, dso);
	lupe_symtab_build_free(&b);
	return err;
}

int lupe_dso_load(struct lupe_dso *dso)
{
	int err;

	if (dso->loaded)
		return 0;
	dso->loaded = 1;
	if (dso->kernel)
		err = load_kallsyms(dso);
	else if (!strncmp(dso->long_name, "/tmp/perf-", 10))
		err = load_perf_map(dso);
	else if (!strcmp(dso->long_name, "[vdso]"))
		err = lupe_elf_load_vdso(dso);
	else if (dso->long_name[0] == '/')
		err = lupe_elf_load_dso(dso, dso->long_name);
	else
		err = -ENOENT;
	if (err)
		pr_debug("no symbols for '%s': %s", dso->long_name, lupe_strerror(err));
	return err;
}

uint64_t lupe_dso_addr_to_vaddr(const struct lupe_dso *dso, uint64_t addr)
{
	if (dso->identity)
		return addr;
	for (int i = 0; i < dso->nr_loads; i++)
		if (addr >= dso->load_off[i] && addr - dso->load_off[i] < dso->load_size[i])
			return addr - dso->load_off[i] + dso->load_vaddr[i];
	return addr;
}

const struct lupe_symbol *lupe_dso_find_symbol(const struct lupe_dso *dso, uint64_t vaddr)
{
	size_t lo = 0, hi = dso->nr_syms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (dso->syms[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || vaddr >= dso->syms[lo - 1].end)
		return NULL;
	return &dso->syms[lo - 1];
}

const char *lupe_dso_long_name(const struct lupe_dso *dso)
{
	return dso->long_name;
}

const char *lupe_dso_short_name(const struct lupe_dso *dso)
{
	return dso->short_name;
}

int lupe_dso_is_kernel(const struct lupe_dso *dso)
{
	return dso->kernel;
}

const uint8_t *lupe_dso_build_id(const struct lupe_dso *dso, int *size)
{
	*size = dso->build_id_size;
	return dso->build_id;
}
