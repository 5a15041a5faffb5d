// SPDX-License-Identifier: GPL-2.0
/*
 * The symbol table of a DSO: building it the way perf does (so that the
 * same address gets the same name and offset), loading it lazily from the
 * right source, and the binary search.
 */
#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/build-id.h"
#include "symbols/kallsyms-index.h"
#include "symbols/nsinfo.h"
#include "symbols/symbols.h"
#include "util/util.h"

/*
 * The build's array (and the sort's buffer) are mapped, not malloc'ed:
 * they are the load's transients, 4 MB for kallsyms, 2 MB for libLLVM,
 * that glibc would take from the heap once its mmap threshold had risen
 * past them (it rises to each mapped block freed), leaving resident holes
 * the kept tables did not fill: 0.6 MB of a many-process report's peak.
 * Unmapped, their pages go back at once.
 */
static void *map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int grow_build(struct symtab_build *b)
{
	size_t cap = b->cap ? b->cap * 2 : 4096 / sizeof(*b->v);
	void *v = b->v ? mremap(b->v, b->cap * sizeof(*b->v), cap * sizeof(*b->v), MREMAP_MAYMOVE)
		       : map_anon(cap * sizeof(*b->v));

	if (!v || v == MAP_FAILED)
		return -ENOMEM;
	b->v = v;
	b->cap = cap;
	return 0;
}

int lupe_symtab_add(struct symtab_build *b, uint64_t start, uint64_t size, const char *name,
	       size_t name_len, int binding)
{
	return lupe_symtab_add_raw(b, start, size, name, name_len, NULL, binding);
}

int lupe_symtab_add_raw(struct symtab_build *b, uint64_t start, uint64_t size, const char *name,
			size_t name_len, const char *raw, int binding)
{
	if (b->nr == b->cap && grow_build(b))
		return -ENOMEM;
	if (raw) {
		/* its name is read from raw when needed */
		b->v[b->nr++] = (struct sym_in){ .start = start, .size = size, .raw = raw, .binding = (uint8_t)binding };
		return 0;
	}
	if (b->slen + name_len + 1 > UINT32_MAX)
		return -E2BIG;
	if (lupe_grow(&b->str, &b->scap, b->slen + name_len + 1, 1))
		return -ENOMEM;
	memcpy(b->str + b->slen, name, name_len);
	b->str[b->slen + name_len] = 0;
	b->v[b->nr++] = (struct sym_in){ .start = start, .size = size, .name = (uint32_t)b->slen, .binding = (uint8_t)binding };
	b->slen += name_len + 1;
	return 0;
}

void lupe_symtab_build_free(struct symtab_build *b)
{
	if (b->v)
		munmap(b->v, b->cap * sizeof(*b->v));
	free(b->str);
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof(*b));
}

/*
 * A symbol table kept compact. As an array of struct lupe_symbol, the
 * kernel's 122,000 kallsyms symbols were 2.9 MB (24 bytes each), resident
 * for the session and the largest item at a many-process dwarf report's
 * peak; the ELF tables of its big C++ programs (libLLVM 43,000 symbols,
 * libclang-cpp 29,000, cc1 28,000) 2.8 MB more. A report looks a few
 * hundred of each up. Here a symbol is its start as an offset from the
 * lowest one (this kernel's text and data span 44 MB, a library's its
 * size; a table whose span exceeds 32 bits stays an array), its name's
 * offset into the names (the mapped kallsyms copy or ELF string table,
 * or, KSYM_STR, the DSO's strtab), and an ELF symbol's size: 8 bytes a
 * kallsyms symbol, 12 an ELF one. A kallsyms symbol ends where the next
 * one starts (of aliases the one kept is the last read, the one
 * fixup_end() sized), but for the few that end elsewhere (the last one,
 * one before a '[' name): those have KSYM_EXC in name[] and their end in
 * exc[], by index.
 *
 * Callers keep the struct lupe_symbol pointers lookups give (hist
 * entries compare them): a symbol is made at its first lookup, with its
 * name copied out of the file (demangled) as named() does, into made[],
 * where a later lookup finds the same one; it lives as long as the table.
 * made[] is chunks of KSYM_CHUNK pointers, each allocated when one of its
 * symbols is first made. As for named(), a lookup changes the table: a
 * chunk or a symbol is put in place by compare-and-swap, the loser's copy
 * dropped.
 */
#define KSYM_CHUNK 32
#define KSYM_EXC (1u << 31)
#define KSYM_STR (1u << 30)
#define KSYM_OFF (KSYM_STR - 1)

struct ksym_exc {
	uint64_t end;
	uint32_t i;
};

struct ksymtab {
	uint64_t base;            /* the lowest start */
	const char *str;          /* the DSO's strtab: KSYM_STR names, NUL-terminated */
	struct ksym_exc *exc;     /* kallsyms: ends that are not the next start, by index */
	size_t nr_exc;
	uint32_t *start;          /* per symbol: its start - base, ascending */
	uint32_t *name;           /* per symbol: its name's offset, | KSYM_STR, | KSYM_EXC */
	uint32_t *size;           /* per symbol: its size; NULL for kallsyms */
	struct lupe_symbol **made[]; /* per KSYM_CHUNK symbols: those made so far, or NULL */
};

/* A symbol made from a name in the mapping, its name after it. */
struct ksym {
	struct lupe_symbol sym;
	char name[];
};

static void ktab_free(struct ksymtab *t, size_t n)
{
	if (!t)
		return;
	for (size_t c = 0; c < (n + KSYM_CHUNK - 1) / KSYM_CHUNK; c++) {
		for (size_t i = 0; t->made[c] && i < KSYM_CHUNK; i++)
			free(t->made[c][i]);
		free(t->made[c]);
	}
	free(t);
}

/* A name copied out of the mapped string table (demangled), kept until the DSO's symbols go. */
struct demangled_name {
	struct demangled_name *next;
	char name[];
};

void lupe_dso_free_syms(struct lupe_dso *dso)
{
	while (dso->demangled) {
		struct demangled_name *d = dso->demangled;

		dso->demangled = d->next;
		free(d);
	}
	if (dso->ktab)
		free(dso->outer); /* else it lies in syms' block */
	ktab_free(dso->ktab, dso->nr_syms);
	dso->ktab = NULL;
	dso->outer = NULL;
	if (dso->names_map)
		munmap((void *)dso->names_map, dso->names_map_len);
	free(dso->syms);
	free(dso->strtab);
	dso->names_map = NULL;
	dso->syms = NULL;
	dso->strtab = NULL;
	dso->nr_syms = 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct sym_in *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* keep the order they were read in: perf's rbtree does */
	return x < y ? -1 : x > y;
}

/*
 * Sort by start, stable (symbols at one address keep the order they were
 * read in: perf's rbtree does). A natural merge sort: kallsyms comes in a
 * few sorted runs (this kernel's: three of 122,000 lines), which it merges
 * in two passes where qsort took 15% of a dwarf report's instructions; an
 * ELF symtab in many runs costs what a merge sort costs. It sorts the
 * symbols' indexes (4 bytes, not the 32 of a symbol, and twice: the runs
 * and the merged ones), then moves the symbols once, along the cycles of
 * the order: a copy of the symbols to merge into was 3.9 MB beside the
 * kallsyms copy's 3.9, 1.4 MB beside libLLVM's (a many-process script's
 * peak, as it loaded).
 */
static void sort_syms(struct sym_in *v, size_t n)
{
	uint32_t *idx, *tmp;
	size_t runs = 0;

	for (size_t i = 1; i < n; i++)
		runs += v[i - 1].start > v[i].start;
	if (!runs)
		return;
	idx = n <= UINT32_MAX ? map_anon(2 * n * sizeof(*idx)) : NULL;
	if (!idx) {
		/* qsort is not stable; the tie-break on position in cmp_start makes it so. */
		qsort(v, n, sizeof(*v), cmp_start);
		return;
	}
	tmp = idx + n;
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	do {
		uint32_t *swap;

		runs = 0;
		for (size_t i = 0, k = 0; i < n; runs++) {
			size_t m = i + 1, e, a = i, c;

			while (m < n && v[idx[m - 1]].start <= v[idx[m]].start)
				m++;
			for (e = m + (m < n); e < n && v[idx[e - 1]].start <= v[idx[e]].start; e++)
				;
			for (c = m; a < m && c < e;)
				tmp[k++] = v[idx[c]].start < v[idx[a]].start ? idx[c++] : idx[a++];
			while (a < m)
				tmp[k++] = idx[a++];
			while (c < e)
				tmp[k++] = idx[c++];
			i = e;
		}
		swap = idx, idx = tmp, tmp = swap;
	} while (runs > 1);
	/* v[i] becomes the old v[idx[i]]: each cycle of the order once, idx[j] = j marks it done */
	for (size_t i = 0; i < n; i++) {
		struct sym_in first;
		size_t j = i;

		if (idx[i] == i)
			continue;
		first = v[i];
		for (;;) {
			size_t k = idx[j];

			idx[j] = (uint32_t)j;
			if (k == i) {
				v[j] = first;
				break;
			}
			v[j] = v[k];
			j = k;
		}
	}
	munmap(idx < tmp ? idx : tmp, 2 * n * sizeof(*idx));
}

static int underscores(const char *s)
{
	int n = 0;

	while (*s++ == '_')
		n++;
	return n;
}

static const char *kallsyms_name_end(const char *p, const char *end);

/*
 * v's name as the table shows it, of *len bytes (not NUL-terminated: a
 * kallsyms line's): copied at add, or read from the mapped table, an ELF
 * one's demangled (*tmp, for the caller to free) as named() does it.
 */
static const char *build_name(const struct symtab_build *b, const struct sym_in *v, char **tmp, size_t *len)
{
	const char *n;

	*tmp = NULL;
	if (!v->raw) {
		n = b->str + v->name;
	} else if (b->kallsyms) {
		const char *nl = memchr(v->raw, '\n', (size_t)((const char *)b->map + b->map_len - v->raw));

		*len = nl ? (size_t)(kallsyms_name_end(v->raw, nl) - v->raw) : 0;
		return v->raw;
	} else {
		*tmp = lupe_demangle(v->raw);
		n = *tmp ? *tmp : v->raw;
	}
	*len = strlen(n);
	return n;
}

/* perf's choose_best_symbol(): 1 when a wins over b. */
static int better(const struct symtab_build *bd, const struct sym_in *a, const struct sym_in *b)
{
	const char *na, *nb;
	char *ta, *tb;
	int ua, ub, r;
	size_t la, lb;

	if (!b->size && a->size)
		return 1;
	if (!a->size && b->size)
		return 0;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	na = build_name(bd, a, &ta, &la);
	nb = build_name(bd, b, &tb, &lb);
	/* names end in no '_' (a kallsyms one in a blank) */
	ua = underscores(na);
	ub = underscores(nb);
	r = ua != ub ? ub > ua : la != lb ? la > lb : 1;
	free(ta);
	free(tb);
	return r;
}

/* Whether v's name (a kallsyms one) holds a '['. */
static int has_bracket(const struct symtab_build *b, const struct sym_in *v)
{
	char *tmp;
	size_t len;
	const char *n = build_name(b, v, &tmp, &len);
	int r = memchr(n, '[', len) != NULL;

	free(tmp);
	return r;
}

/*
 * The names of a mapped table read again while the table is finished
 * (aliases' names compared, kallsyms' brackets) go back every GIVE_EVERY
 * symbols: the kallsyms copy's 5.3 MB were resident whole at the end of
 * its load, beside the build's arrays (a warm script's transient peak).
 */
#define GIVE_EVERY 8192

static void names_give_back(const struct symtab_build *b, size_t i)
{
	if (b->map && i % GIVE_EVERY == GIVE_EVERY - 1)
		lupe_pages_give_back(b->map, b->map_len);
}

/* Zero-sized symbols end where the next one starts (perf's symbols__fixup_end). */
static void fixup_end(struct symtab_build *b)
{
	struct sym_in *v = b->v;
	size_t n = b->nr;

	for (size_t i = 0; i + 1 < n; i++) {
		names_give_back(b, i);
		if (v[i].size)
			continue;
		if (b->kallsyms && has_bracket(b, &v[i]) != has_bracket(b, &v[i + 1]))
			v[i].size = (((v[i].start + 4096) + 4095) & ~4095ULL) - v[i].start;
		else
			v[i].size = v[i + 1].start - v[i].start;
	}
	if (n && !v[n - 1].size)
		v[n - 1].size = (((v[n - 1].start + 4095) & ~4095ULL) + 4096) - v[n - 1].start;
}

/*
 * The sized symbol each zero-sized one (a label: node's
 * construct_stub_create_deopt_addr inside Builtins_JSConstructStubGeneric)
 * lies in, as 1 + its index, into outer[]; 0 for none. Returns whether
 * there was any. perf gives both their ranges (the label's to the next
 * symbol) and its rbtree search returns whichever of the two overlapping
 * symbols sits higher in the tree: mostly the function, as its samples in
 * node showed (the label only past the function's end). lupe gives the
 * function its whole range, always.
 */
static int find_outer(const struct sym_in *v, size_t n, uint32_t *outer)
{
	size_t last = SIZE_MAX, wide = SIZE_MAX; /* the latest sized symbol, the one reaching furthest */
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		outer[i] = 0;
		if (v[i].size) {
			last = i;
			if (wide == SIZE_MAX || v[i].start + v[i].size > v[wide].start + v[wide].size)
				wide = i;
			continue;
		}
		for (size_t j = last; ; j = wide) {
			if (j != SIZE_MAX && v[j].start < v[i].start && v[i].start - v[j].start < v[j].size &&
			    j < UINT32_MAX - 1) {
				outer[i] = (uint32_t)(j + 1);
				any = 1;
				break;
			}
			if (j == wide)
				break;
		}
	}
	return any;
}

/*
 * A ktab's one block for n symbols, nr_exc of them with their end listed:
 * the header and made[], exc[], start[], name[], and size[] with sizes
 * (else NULL). Zeroed; NULL without memory.
 */
static struct ksymtab *ktab_alloc(size_t n, size_t nr_exc, int sizes)
{
	size_t chunks = (n + KSYM_CHUNK - 1) / KSYM_CHUNK;
	struct ksymtab *t = calloc(1, sizeof(*t) + chunks * sizeof(t->made[0]) + nr_exc * sizeof(*t->exc) +
					 (sizes ? 3 : 2) * n * sizeof(uint32_t));

	if (!t)
		return NULL;
	t->exc = (struct ksym_exc *)&t->made[chunks];
	t->nr_exc = nr_exc;
	t->start = (uint32_t *)&t->exc[nr_exc];
	t->name = t->start + n;
	t->size = sizes ? t->name + n : NULL;
	return t;
}

/*
 * b's sorted, fixed-up symbols (names in b->map or str) as dso's ktab.
 * Returns 0, or -E2BIG when they span more than 32 bits (or a size or
 * a name's offset does), -ENOMEM: the caller keeps them as an array then.
 */
static int ktab_make(const struct symtab_build *b, struct lupe_dso *dso, const char *str)
{
	const struct sym_in *v = b->v;
	size_t n = b->nr, nr_exc = 0, k = 0;
	struct ksymtab *t;

	if (v[n - 1].start - v[0].start > UINT32_MAX)
		return -E2BIG;
	for (size_t i = 0; i < n; i++) {
		if ((v[i].raw ? (size_t)(v[i].raw - (const char *)b->map) : v[i].name) > KSYM_OFF ||
		    (!b->kallsyms && v[i].size > UINT32_MAX))
			return -E2BIG;
		nr_exc += b->kallsyms && (i + 1 == n || v[i].start + v[i].size != v[i + 1].start);
	}
	t = ktab_alloc(n, nr_exc, !b->kallsyms);
	if (!t)
		return -ENOMEM;
	t->base = v[0].start;
	t->str = str;
	for (size_t i = 0; i < n; i++) {
		t->start[i] = (uint32_t)(v[i].start - t->base);
		t->name[i] = v[i].raw ? (uint32_t)(v[i].raw - (const char *)b->map) : v[i].name | KSYM_STR;
		if (t->size)
			t->size[i] = (uint32_t)v[i].size;
		else if (i + 1 == n || v[i].start + v[i].size != v[i + 1].start) {
			t->name[i] |= KSYM_EXC;
			t->exc[k++] = (struct ksym_exc){ .end = v[i].start + v[i].size, .i = (uint32_t)i };
		}
	}
	dso->ktab = t;
	return 0;
}

/*
 * b's symbols as dso's array (syms, and outer[] after it in its block
 * when there is one: ownership of outer passes). 0 or -ENOMEM.
 */
static int make_array(const struct symtab_build *b, const char *str, uint32_t *outer, struct lupe_dso *dso)
{
	size_t n = b->nr;
	struct lupe_symbol *out = malloc((n ? n : 1) * sizeof(*out) + (outer ? n * sizeof(*outer) : 0));

	if (!out) {
		free(outer);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct sym_in *in = &b->v[i];

		out[i].start = in->start;
		out[i].end = in->start + in->size;
		out[i].name = in->raw ? in->raw : str + in->name;
	}
	if (outer) {
		memcpy(out + n, outer, n * sizeof(*outer));
		free(outer);
		outer = (uint32_t *)(out + n);
	}
	dso->syms = out;
	dso->outer = outer;
	return 0;
}

/*
 * The table is kept for the session, with outer[] when some label needs
 * it. A name read from a mapped string
 * table (lupe_symtab_add_raw()) stays there, the pages read while
 * loading given back (the file's pages: a name is read again, and
 * copied, when it is first looked up: named()). Other names stay in the
 * build's string table cut to its length when the kept symbols' names
 * are most of it (kallsyms), else are copied, the kept symbols' only.
 * The symbols are kept compact (ktab_make(), when the build asks for
 * it and their span allows) or as an array, copied out of the build's
 * mapped array, which goes. (All names copied, with the aliases' and the
 * build's doubling, were 12 MB of a many-process report's 19 MB of
 * symbols.)
 */
int lupe_symtab_finish(struct symtab_build *b, struct lupe_dso *dso)
{
	uint32_t *outer = NULL;
	size_t n = 0, slen = 0, nr_raw = 0;
	char *str = NULL;

	sort_syms(b->v, b->nr);
	/* perf fixes kallsyms' ends before it drops aliases, ELF's after */
	if (b->kallsyms)
		fixup_end(b);
	for (size_t i = 0; i < b->nr; i++) {
		names_give_back(b, i);
		if (n && b->v[n - 1].start == b->v[i].start) {
			if (!better(b, &b->v[n - 1], &b->v[i]))
				b->v[n - 1] = b->v[i];
			continue;
		}
		b->v[n++] = b->v[i];
	}
	b->nr = n;
	/* kallsyms' symbols all have size 0: labels are an ELF matter */
	if (!b->kallsyms && n) {
		outer = malloc(n * sizeof(*outer));
		if (!outer)
			return -ENOMEM;
		if (!find_outer(b->v, n, outer)) {
			free(outer);
			outer = NULL;
		}
	}
	if (!b->kallsyms)
		fixup_end(b);
	for (size_t i = 0; i < n; i++) {
		if (b->v[i].raw)
			nr_raw++;
		else
			slen += strlen(b->str + b->v[i].name) + 1;
	}
	if (slen && slen * 4 >= b->slen * 3) {
		/* the names are in str already: cut it to its length */
		str = realloc(b->str, b->slen);
		str = str ? str : b->str;
		b->str = NULL;
	} else if (slen) {
		str = malloc(slen);
		if (!str) {
			free(outer);
			return -ENOMEM;
		}
		slen = 0;
		for (size_t i = 0; i < n; i++) {
			size_t len;

			if (b->v[i].raw)
				continue;
			len = strlen(b->str + b->v[i].name) + 1;
			memcpy(str + slen, b->str + b->v[i].name, len);
			b->v[i].name = (uint32_t)slen;
			slen += len;
		}
	}
	if (b->compact && n && !ktab_make(b, dso, str)) {
		dso->syms = NULL;
		dso->outer = outer;
	} else if (make_array(b, str, outer, dso)) {
		free(str);
		return -ENOMEM;
	}
	dso->nr_syms = n;
	dso->strtab = str;
	if (nr_raw) {
		/* the pages the load read: names are read again when they are shown */
		lupe_pages_give_back(b->map, b->map_len);
		dso->names_map = b->map;
		dso->names_map_len = b->map_len;
		dso->names_kallsyms = b->kallsyms;
		b->map = NULL;
	}
	lupe_symtab_build_free(b);
	return 0;
}

/* Where the name at p of a kallsyms line ending at end ends: names hold no blanks, a module's follows a tab. */
static const char *kallsyms_name_end(const char *p, const char *end)
{
	const char *q = memchr(p, '\t', (size_t)(end - p));

	if (!q)
		q = end;
	if (memchr(p, ' ', (size_t)(q - p)))
		q = memchr(p, ' ', (size_t)(q - p));
	return q;
}

/* One line of /proc/kallsyms: "ADDR TYPE NAME[\t[MODULE]]". Returns 0 when it is not one. */
static int kallsyms_line(const char *p, const char *end, unsigned long long *addr, char *type,
			 const char **name, size_t *len)
{
	unsigned long long a = 0;
	const char *q;

	/* by hand, not isxdigit(): 122,000 lines, a locale lookup per digit */
	for (; p < end; p++) {
		unsigned c = (unsigned char)*p, d = c - '0', x = (c | 0x20) - 'a';

		if (d < 10)
			a = a * 16 + d;
		else if (x < 6)
			a = a * 16 + x + 10;
		else
			break;
	}
	if (p + 3 > end || *p != ' ' || p[2] != ' ')
		return 0;
	*addr = a;
	*type = p[1];
	*name = p += 3;
	q = kallsyms_name_end(p, end);
	*len = (size_t)(q - p);
	/* module symbols: NEEDSWORK per-module maps */
	return *len && *len < 256 && !memchr(q, '[', (size_t)(end - q));
}

int lupe_kallsyms_foreach(const char *path,
			  int (*fn)(uint64_t addr, char type, const char *name, size_t len, void *arg), void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t size = 1 << 18, have = 0;
	char *buf = malloc(size);
	ssize_t n;
	int err = 0;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		if (fd >= 0)
			close(fd);
		free(buf);
		return err;
	}
	while (!err && (n = read(fd, buf + have, size - have)) > 0) {
		char *p = buf, *end = buf + have + n, *nl;

		while (!err && (nl = memchr(p, '\n', (size_t)(end - p)))) {
			unsigned long long addr;
			const char *name;
			size_t len;
			char type;

			if (kallsyms_line(p, nl, &addr, &type, &name, &len))
				err = fn(addr, type, name, len, arg);
			p = nl + 1;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
		if (have == size)
			have = 0; /* a line longer than the buffer: drop it */
	}
	close(fd);
	free(buf);
	return err;
}

/* The binding of a kallsyms symbol of type letter type, -1 for one not kept (perf's choice). */
static int kallsym_binding(char type)
{
	switch (toupper((unsigned char)type)) {
	case 'T': case 'W': case 'D': case 'B':
		return type == 'W' || type == 'w' ? STB_WEAK :
		       isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
	}
	return -1;
}

static int add_kallsym(uint64_t addr, char type, const char *name, size_t len, void *b)
{
	int binding = kallsym_binding(type);

	return binding < 0 ? 0 : lupe_symtab_add(b, addr, 0, name, len, binding);
}

struct kallsyms_load {
	struct symtab_build b;
	const int *stop; /* set by another thread: give up (-ECANCELED) */
};

static int add_kallsym_unless_stopped(uint64_t addr, char type, const char *name, size_t len, void *arg)
{
	struct kallsyms_load *k = arg;

	if (k->stop && __atomic_load_n(k->stop, __ATOMIC_RELAXED))
		return -ECANCELED;
	return add_kallsym(addr, type, name, len, &k->b);
}

/* A kallsyms file (/proc/kallsyms or a copy) into dso's symbols; *stop (if any) ends the read early. */
static int load_kallsyms_file(struct lupe_dso *dso, const char *path, const int *stop)
{
	struct kallsyms_load k = { .b = { .kallsyms = 1, .compact = 1 }, .stop = stop };
	int err = lupe_kallsyms_foreach(path, add_kallsym_unless_stopped, &k);

	if (!err && !k.b.nr)
		err = -EACCES; /* kptr_restrict hides the addresses */
	if (!err)
		err = lupe_symtab_finish(&k.b, dso);
	lupe_symtab_build_free(&k.b);
	return err;
}

/*
 * A regular kallsyms file (the copy perf's record keeps) into dso's
 * symbols, read through a mapping its names stay in (named() copies one
 * out when it is looked up): a report looks a few hundred of its 122,000
 * names up. *stop (if any) ends the read early. The pages read are given
 * back a MiB at a time, not only at the end: the 5.4 MB file was resident
 * whole while the build grew beside it, as a cold report inflated libc's
 * DWARF (its peak).
 */
#define GIVE_STEP (1u << 20)

/*
 * The kallsyms index (kallsyms-index.h) of a ktab made from a kallsyms
 * file of text_size bytes: this head, then exc[] as (end, i, 0), start[],
 * name[]. All names are in the text (KSYM_STR is never set).
 */
struct kindex_head {
	uint64_t base, nr, nr_exc, text_size;
};

static void kallsyms_index_store(const struct lupe_dso *dso, const char *path, const struct stat *st)
{
	const struct ksymtab *t = dso->ktab;
	struct kindex_head h;
	size_t len;
	unsigned char *p, *q;

	if (!t || t->str || t->size || !dso->names_kallsyms)
		return;
	h = (struct kindex_head){ t->base, dso->nr_syms, t->nr_exc, (uint64_t)st->st_size };
	len = sizeof(h) + h.nr_exc * 16 + h.nr * 2 * sizeof(uint32_t);
	if (!(p = q = malloc(len)))
		return;
	memcpy(q, &h, sizeof(h));
	q += sizeof(h);
	for (size_t k = 0; k < h.nr_exc; k++, q += 16) {
		uint32_t i[2] = { t->exc[k].i, 0 };

		memcpy(q, &t->exc[k].end, 8);
		memcpy(q + 8, i, 8);
	}
	memcpy(q, t->start, h.nr * sizeof(uint32_t));
	memcpy(q + h.nr * sizeof(uint32_t), t->name, h.nr * sizeof(uint32_t));
	lupe_kallsyms_index_write(path, st, p, len);
	free(p);
}

/*
 * dso's kallsyms table from the index of the file at path (mapped at m),
 * as lupe_symtab_finish() made it when the file was parsed: 0, or -1
 * when there is no index or it does not hold together (then the file is
 * parsed, and the index written anew).
 */
static int kallsyms_index_load(struct lupe_dso *dso, const char *path, const struct stat *st, const char *m)
{
	size_t len, nr, nr_exc, k = 0;
	unsigned char *p = lupe_kallsyms_index_read(path, st, &len);
	const unsigned char *q;
	struct kindex_head h;
	const uint32_t *start, *name;
	struct ksymtab *t;

	if (!p)
		return -1;
	if (len < sizeof(h))
		goto bad;
	memcpy(&h, p, sizeof(h));
	if (!h.nr || h.nr > KSYM_OFF || h.nr_exc > h.nr || h.text_size != (uint64_t)st->st_size ||
	    len != sizeof(h) + h.nr_exc * 16 + h.nr * 2 * sizeof(uint32_t))
		goto bad;
	nr = (size_t)h.nr;
	nr_exc = (size_t)h.nr_exc;
	q = p + sizeof(h);
	start = (const uint32_t *)(q + nr_exc * 16);
	name = start + nr;
	t = ktab_alloc(nr, nr_exc, 0);
	if (!t)
		goto bad;
	t->base = h.base;
	memcpy(t->start, start, nr * sizeof(uint32_t));
	memcpy(t->name, name, nr * sizeof(uint32_t));
	/* what a parse would have made: sorted starts, names inside the text, the ends listed where flagged */
	for (size_t i = 0; i < nr; i++) {
		uint32_t v[2];

		if ((i && t->start[i] < t->start[i - 1]) || (t->name[i] & KSYM_STR) ||
		    (t->name[i] & KSYM_OFF) >= h.text_size)
			goto bad_t;
		if (!(t->name[i] & KSYM_EXC))
			continue;
		if (k == nr_exc)
			goto bad_t;
		memcpy(&t->exc[k].end, q + k * 16, 8);
		memcpy(v, q + k * 16 + 8, 8);
		if (v[0] != i || v[1] || t->exc[k].end < t->base + t->start[i])
			goto bad_t;
		t->exc[k++].i = (uint32_t)i;
	}
	if (k != nr_exc)
		goto bad_t;
	free(p);
	dso->ktab = t;
	dso->syms = NULL;
	dso->outer = NULL;
	dso->strtab = NULL;
	dso->nr_syms = nr;
	dso->names_map = m;
	dso->names_map_len = (size_t)st->st_size;
	dso->names_kallsyms = 1;
	return 0;
bad_t:
	free(t);
bad:
	pr_debug("kallsyms index of '%s' does not hold together: parsing it again", path);
	free(p);
	return -1;
}

static int load_kallsyms_mapped(struct lupe_dso *dso, const char *path, const int *stop)
{
	struct symtab_build b = { .kallsyms = 1, .compact = 1 };
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	struct stat st;
	const char *p, *end, *nl;
	size_t given = 0; /* the map's pages below this are given back */
	void *m;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return load_kallsyms_file(dso, path, stop);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return load_kallsyms_file(dso, path, stop);
	if (!kallsyms_index_load(dso, path, &st, (const char *)m))
		return 0;
	b.map = m;
	b.map_len = (size_t)st.st_size;
	/* as lupe_kallsyms_foreach(): lines that end in a newline */
	for (p = m, end = p + st.st_size; !err && (nl = memchr(p, '\n', (size_t)(end - p))); p = nl + 1) {
		unsigned long long addr;
		const char *name;
		size_t len;
		char type;
		int binding;

		if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
			err = -ECANCELED;
		else if (kallsyms_line(p, nl, &addr, &type, &name, &len) && (binding = kallsym_binding(type)) >= 0)
			err = lupe_symtab_add_raw(&b, addr, 0, NULL, 0, name, binding);
		/* the lines read: their names fault in again when looked up */
		lupe_pages_give_back_behind(m, &given, (size_t)(nl + 1 - (const char *)m), GIVE_STEP);
	}
	if (!err && !b.nr)
		err = -EACCES; /* kptr_restrict hides the addresses */
	if (!err)
		err = lupe_symtab_finish(&b, dso);
	lupe_symtab_build_free(&b);
	if (!err)
		kallsyms_index_store(dso, path, &st);
	return err;
}

/* The copy of the recorded kernel's kallsyms that perf's record keeps, into path: 0, or -1 for none. */
static int kallsyms_copy(const struct lupe_dso *dso, char *path, size_t size)
{
	const char *home = getenv("HOME");
	char hex[41];

	if (!home || dso->kernel_id_size <= 0)
		return -1;
	lupe_build_id_hex(dso->kernel_id, dso->kernel_id_size, hex);
	return snprintf(path, size, "%s/.debug/[kernel.kallsyms]/%s/kallsyms", home, hex) < (int)size ? 0 : -1;
}

/*
 * The kallsyms copy read on a thread: 122,000 lines parsed and sorted,
 * 76 M instructions (a fifth of what a dwarf report of the demo spends on
 * symbols, on its one thread) that now overlap the inflating of libc's
 * debug file. The result waits in out (its syms or ktab, outer, nr_syms, strtab)
 * until lupe_dso_load() takes it; the answer is the one the main thread
 * would build. A file of user-space samples only pays it on the thread,
 * and a command that never looks a kernel address up stops it when the
 * DSO goes (lupe_dso_release), rather than waiting for it.
 */
struct kallsyms_job {
	pthread_t th;
	struct lupe_dso out;
	int err;
	int stop; /* the DSO goes unused: the thread stops at its next line */
	char path[4096];
};

static void *kallsyms_thread(void *arg)
{
	struct kallsyms_job *j = arg;

	j->err = load_kallsyms_mapped(&j->out, j->path, &j->stop);
	return NULL;
}

void lupe_dso_set_kernel_build_id(struct lupe_dso *dso, const uint8_t *id, int size)
{
	struct kallsyms_job *j;

	if (size < 0 || size > (int)sizeof(dso->kernel_id))
		return;
	memcpy(dso->kernel_id, id, (size_t)size);
	dso->kernel_id_size = size;
	if (!dso->kernel || dso->loaded || dso->kjob || !(j = calloc(1, sizeof(*j))))
		return;
	if (kallsyms_copy(dso, j->path, sizeof(j->path)) || access(j->path, R_OK) ||
	    pthread_create(&j->th, NULL, kallsyms_thread, j)) {
		free(j);
		return;
	}
	dso->kjob = j;
}

/* The thread's answer: 0, a negative errno, or 1 when there was no thread. */
static int kallsyms_join(struct lupe_dso *dso, int take)
{
	struct kallsyms_job *j = dso->kjob;
	int err;

	if (!j)
		return 1;
	if (!take)
		__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
	pthread_join(j->th, NULL);
	dso->kjob = NULL;
	err = j->err;
	if (!err && take) {
		dso->syms = j->out.syms;
		dso->ktab = j->out.ktab;
		dso->outer = j->out.outer;
		dso->nr_syms = j->out.nr_syms;
		dso->strtab = j->out.strtab;
		dso->names_map = j->out.names_map;
		dso->names_map_len = j->out.names_map_len;
		dso->names_kallsyms = j->out.names_kallsyms;
	} else if (!err) {
		lupe_dso_free_syms(&j->out);
	}
	free(j);
	return err;
}

void lupe_dso_release(struct lupe_dso *dso)
{
	if (dso)
		kallsyms_join(dso, 0);
}

/* The copy perf's record keeps of the recorded kernel's kallsyms, else this kernel's. */
static int load_kallsyms(struct lupe_dso *dso)
{
	char path[4096];
	int err = kallsyms_join(dso, 1);

	if (!err)
		return 0;
	/* the thread read the copy already when there was one */
	if (err > 0 && !kallsyms_copy(dso, path, sizeof(path)) && !load_kallsyms_mapped(dso, path, NULL))
		return 0;
	return load_kallsyms_file(dso, "/proc/kallsyms", NULL);
}

/*
 * /tmp/perf-PID.map: "START SIZE NAME" per line, in hex, as JITs write it.
 * /tmp is everyone's: read it only as perf does, a regular file owned by
 * us or root (another user's FIFO there hung report; lstat, so a link is
 * not followed), and at most PERF_MAP_MAX bytes of it (a 1 GB sparse file
 * cost 1 GB) in lines of at most PERF_MAP_LINE (longer ones are skipped).
 */
#define PERF_MAP_MAX (256ULL << 20)
#define PERF_MAP_LINE (64u << 10)

static int perf_map_usable(const char *path, int fd)
{
	struct stat l, st;

	if (lstat(path, &l) || fstat(fd, &st))
		return -errno;
	if (!S_ISREG(l.st_mode) || !S_ISREG(st.st_mode) || l.st_ino != st.st_ino ||
	    l.st_dev != st.st_dev) {
		pr_warn("'%s' is not a regular file: its JIT symbols are not read", path);
		return -EPERM;
	}
	if (st.st_uid && st.st_uid != geteuid()) {
		pr_warn("'%s' is not owned by the current user or root: its JIT symbols are not read", path);
		return -EPERM;
	}
	if ((unsigned long long)st.st_size > PERF_MAP_MAX) {
		pr_warn("'%s' is larger than %llu MiB: its JIT symbols are not read", path,
			PERF_MAP_MAX >> 20);
		return -EFBIG;
	}
	return 0;
}

static int load_perf_map(struct lupe_dso *dso)
{
	struct symtab_build b = { 0 };
	char buf[4096];
	const char *path = lupe_ns_perf_map(dso, buf, sizeof(buf));
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before the checks */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC), err;
	char *line = NULL;
	size_t total = 0;
	FILE *f;

	if (fd < 0)
		return -errno;
	if ((err = perf_map_usable(path, fd)) || !(f = fdopen(fd, "r"))) {
		err = err ? err : -errno;
		close(fd);
		return err;
	}
	if (!(line = malloc(PERF_MAP_LINE + 2))) {
		fclose(f);
		return -ENOMEM;
	}
	while (total < PERF_MAP_MAX && fgets(line, PERF_MAP_LINE + 2, f)) {
		unsigned long long start, size;
		size_t len = strlen(line);
		int pos = 0;

		total += len;
		if (len && line[len - 1] != '\n' && !feof(f)) {
			int c;

			/* a line longer than PERF_MAP_LINE: skipped to its end */
			while ((c = getc(f)) != EOF && c != '\n' && ++total < PERF_MAP_MAX)
				;
			continue;
		}
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
	char path[4096];
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
		err = lupe_elf_load_dso(dso, lupe_ns_dso_path(dso, path, sizeof(path)));
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
	/*
	 * a data address past a segment's file bytes, in the page the file maps
	 * (.bss's start, __TMC_END__): perf finds the segment's symbols there too
	 */
	for (int i = 0; dso->load_memsz && i < dso->nr_loads; i++)
		if (addr >= dso->load_off[i] && addr - dso->load_off[i] < dso->load_memsz[i])
			return addr - dso->load_off[i] + dso->load_vaddr[i];
	return addr;
}

/*
 * Symbol i under its name. A name still in the mapped string table is
 * copied out (demangled) at its first lookup, and the page it was read
 * from given back: the names a report shows are a few of a library's
 * (libLLVM's 43,000), and left in place each would hold its page of the
 * file. A lookup changes the table so (the DSO is const to its callers):
 * the copy is swapped in by an atomic exchange, so that two threads
 * looking the same symbol up get one name, and the loser's copy is dropped.
 */
#define FAULT_AROUND ((uintptr_t)64 << 10)

/* A name of len bytes at raw in dso's mapped names was copied out: the pages around it go back. */
static void give_back_around(const struct lupe_dso *d, const char *raw, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;

	/* the kernel maps the pages around a faulting one too (fault_around_bytes: 64 KiB) */
	lo = (uintptr_t)raw & ~(FAULT_AROUND - 1);
	hi = ((uintptr_t)raw + len + FAULT_AROUND) & ~(FAULT_AROUND - 1);
	if (lo < (uintptr_t)d->names_map)
		lo = (uintptr_t)d->names_map;
	if (hi > (uintptr_t)d->names_map + d->names_map_len)
		hi = ((uintptr_t)d->names_map + d->names_map_len + page - 1) & ~(page - 1);
	lupe_pages_give_back((void *)lo, hi - lo);
}

/*
 * The name at raw (in d's mapped names) as the table shows it, of *len
 * bytes, not NUL-terminated: a kallsyms line's ends as kallsyms_line()
 * ended it, an ELF one is demangled (into *dem, for the caller to free).
 * *raw_len: the bytes of the mapping it was read from.
 */
static const char *mapped_name(const struct lupe_dso *d, const char *raw, char **dem, size_t *len,
			       size_t *raw_len)
{
	*dem = NULL;
	if (d->names_kallsyms) {
		const char *nl = memchr(raw, '\n', (size_t)(d->names_map + d->names_map_len - raw));

		*raw_len = *len = nl ? (size_t)(kallsyms_name_end(raw, nl) - raw) : 0;
		return raw;
	}
	*raw_len = strlen(raw);
	*dem = lupe_demangle(raw);
	*len = *dem ? strlen(*dem) : *raw_len;
	return *dem ? *dem : raw;
}

static const struct lupe_symbol *named(const struct lupe_dso *dso, size_t i)
{
	struct lupe_dso *d = (struct lupe_dso *)dso;
	struct lupe_symbol *sym = &d->syms[i];
	const char *raw = __atomic_load_n(&sym->name, __ATOMIC_ACQUIRE), *from;
	struct demangled_name *dn, *head;
	size_t raw_len, len;
	char *dem;

	if (!d->names_map || raw < d->names_map || raw >= d->names_map + d->names_map_len)
		return sym;
	from = mapped_name(d, raw, &dem, &len, &raw_len);
	dn = malloc(sizeof(*dn) + len + 1);
	if (dn) {
		memcpy(dn->name, from, len);
		dn->name[len] = 0;
	}
	free(dem);
	if (!dn || !__atomic_compare_exchange_n(&sym->name, &raw, (const char *)dn->name, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
		free(dn);
		return sym;
	}
	head = __atomic_load_n(&d->demangled, __ATOMIC_RELAXED);
	do
		dn->next = head;
	while (!__atomic_compare_exchange_n(&d->demangled, &head, dn, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	give_back_around(d, raw, raw_len);
	return sym;
}

/* Where symbol i of t ends: its size, or the next one's start, or its entry in exc[]. */
static uint64_t ktab_end(const struct ksymtab *t, size_t i)
{
	size_t lo = 0, hi = t->nr_exc;

	if (t->size)
		return t->base + t->start[i] + t->size[i];
	if (!(t->name[i] & KSYM_EXC))
		return t->base + t->start[i + 1];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->exc[mid].i < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t->exc[lo].end;
}

/* Symbol i of dso's ktab, made at its first lookup (see struct ksymtab); NULL without memory. */
static const struct lupe_symbol *ktab_symbol(const struct lupe_dso *dso, size_t i)
{
	struct ksymtab *t = dso->ktab;
	struct lupe_symbol **chunk = __atomic_load_n(&t->made[i / KSYM_CHUNK], __ATOMIC_ACQUIRE), *sym, *none = NULL;
	uint32_t off = t->name[i] & KSYM_OFF;
	const char *raw = NULL;
	size_t len = 0;

	if (!chunk) {
		struct lupe_symbol **c = calloc(KSYM_CHUNK, sizeof(*c));

		if (!c)
			return NULL;
		if (__atomic_compare_exchange_n(&t->made[i / KSYM_CHUNK], &chunk, c, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			chunk = c;
		else
			free(c);
	}
	sym = __atomic_load_n(&chunk[i % KSYM_CHUNK], __ATOMIC_ACQUIRE);
	if (sym)
		return sym;
	if (t->name[i] & KSYM_STR) {
		sym = malloc(sizeof(*sym));
		if (!sym)
			return NULL;
		sym->name = t->str + off;
	} else {
		char *dem;
		size_t nlen;
		const char *from;
		struct ksym *k;

		raw = dso->names_map + off;
		from = mapped_name(dso, raw, &dem, &nlen, &len);
		k = malloc(sizeof(*k) + nlen + 1);
		if (k) {
			memcpy(k->name, from, nlen);
			k->name[nlen] = 0;
			k->sym.name = k->name;
		}
		free(dem);
		if (!k)
			return NULL;
		sym = &k->sym;
	}
	sym->start = t->base + t->start[i];
	sym->end = ktab_end(t, i);
	if (!__atomic_compare_exchange_n(&chunk[i % KSYM_CHUNK], &none, sym, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		free(sym);
		return none;
	}
	if (raw)
		give_back_around(dso, raw, len);
	return sym;
}

const struct lupe_symbol *lupe_dso_symbol(const struct lupe_dso *dso, size_t i)
{
	return dso->ktab ? ktab_symbol(dso, i) : named(dso, i);
}

uint64_t lupe_dso_symbol_start(const struct lupe_dso *dso, size_t i)
{
	return dso->ktab ? dso->ktab->base + dso->ktab->start[i] : dso->syms[i].start;
}

uint64_t lupe_dso_symbol_end(const struct lupe_dso *dso, size_t i)
{
	return dso->ktab ? ktab_end(dso->ktab, i) : dso->syms[i].end;
}

/* How many symbols start at or below vaddr. */
static size_t upper_bound(const struct lupe_dso *dso, uint64_t vaddr)
{
	const struct ksymtab *t = dso->ktab;
	size_t lo = 0, hi = dso->nr_syms;
	uint32_t off;

	if (!t) {
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (dso->syms[mid].start <= vaddr)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	if (vaddr < t->base)
		return 0;
	if (vaddr - t->base > UINT32_MAX)
		return hi;
	off = (uint32_t)(vaddr - t->base);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->start[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct lupe_symbol *lupe_dso_find_symbol(const struct lupe_dso *dso, uint64_t vaddr)
{
	size_t i = upper_bound(dso, vaddr);

	if (!i--)
		return NULL;
	/* a label inside a sized function: the function's (find_outer) */
	if (dso->outer && dso->outer[i] && vaddr < lupe_dso_symbol_end(dso, dso->outer[i] - 1))
		return lupe_dso_symbol(dso, dso->outer[i] - 1);
	if (vaddr >= lupe_dso_symbol_end(dso, i))
		return NULL;
	return lupe_dso_symbol(dso, i);
}

/*
 * perf's dso__load() order of symbol sources, each checked for a .symtab.
 * NEEDSWORK: perf tries the .gnu_debuglink name first ('l'); Debian's
 * debug links are build-id names that only the 'b' path finds.
 */
static char find_origin(const struct lupe_dso *dso)
{
	char hex[2 * LUPE_BUILD_ID_MAX + 1], path[6][4096], letter[6], first = '!';
	const char *bdir = lupe_buildid_dir();
	int bid = dso->build_id_size > 0, file = dso->long_name[0] == '/', n = 0;

	if (dso->kernel)
		return 'k';
	if (!strncmp(dso->long_name, "/tmp/perf-", 10))
		return 'j';
	if (bid)
		lupe_build_id_hex(dso->build_id, dso->build_id_size, hex);
#define CAND(ok, c, ...) \
	do { if (ok) { letter[n] = (c); snprintf(path[n++], sizeof(path[0]), __VA_ARGS__); } } while (0)
	CAND(bid, 'B', "%s/.build-id/%.2s/%s/%s", bdir, hex, hex + 2,
	     strcmp(dso->long_name, "[vdso]") ? "elf" : "vdso");
	CAND(bid, 'D', "%s/.build-id/%.2s/%s/debug", bdir, hex, hex + 2);
	CAND(file, 'f', "/usr/lib/debug%s.debug", dso->long_name);
	CAND(file, 'u', "/usr/lib/debug%s", dso->long_name);
	CAND(bid, 'b', "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	CAND(file, 'd', "%s", dso->long_name);
#undef CAND
	for (int i = 0; i < n; i++) {
		int has = lupe_elf_has_symtab(path[i]);

		if (has > 0)
			return letter[i];
		if (!has && first == '!')
			first = letter[i];
	}
	return first;
}

char lupe_dso_origin(const struct lupe_dso *dso)
{
	/* the letter is a cache of the file system's answer: worked out once */
	if (!dso->origin)
		((struct lupe_dso *)dso)->origin = find_origin(dso);
	return dso->origin;
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
