// SPDX-License-Identifier: GPL-2.0
/*
 * perf probe --funcs: the names of a binary's symbols (the kernel's
 * functions in kallsyms without one) that a filter lets through, sorted. The filter is perf's strfilter: glob patterns joined by
 * '&' (binding tighter) and '|', negated by '!', grouped by parentheses;
 * "!_* & !*@plt" when none is given. It is parsed by recursive descent into
 * a small tree and matched with fnmatch(3), perf's glob (*, ?, [...], \).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/probe.h>
#include "probe/probe-internal.h"
#include "symbols/symbols.h"
#include "util/util.h"

struct fnode {
	char op;               /* '&', '|', '!', or 0 for a pattern */
	struct fnode *l, *r;   /* '!' uses l */
	char *pat;
};

struct fparse {
	const char *s, *start;
	int err;               /* -EINVAL (s is where) or -ENOMEM */
};

static void fnode_free(struct fnode *n)
{
	if (!n)
		return;
	fnode_free(n->l);
	fnode_free(n->r);
	free(n->pat);
	free(n);
}

static int is_sep(char c)
{
	return c == '(' || c == ')' || c == '|' || c == '&' || c == '!';
}

/* The next token's first character, after spaces (0 at the end). */
static char peek(struct fparse *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
	return *p->s;
}

static struct fnode *fnode_new(struct fparse *p, char op, struct fnode *l, struct fnode *r)
{
	struct fnode *n = calloc(1, sizeof(*n));

	if (!n) {
		p->err = -ENOMEM;
		fnode_free(l);
		fnode_free(r);
		return NULL;
	}
	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static struct fnode *parse_or(struct fparse *p);

static struct fnode *parse_unary(struct fparse *p)
{
	char c = peek(p);
	const char *e;
	struct fnode *n;

	if (c == '!') {
		p->s++;
		n = parse_unary(p);
		return n ? fnode_new(p, '!', n, NULL) : NULL;
	}
	if (c == '(') {
		p->s++;
		n = parse_or(p);
		if (n && peek(p) != ')') {
			p->err = -EINVAL;
			fnode_free(n);
			return NULL;
		}
		if (n)
			p->s++;
		return n;
	}
	if (!c || is_sep(c)) {
		p->err = -EINVAL;
		return NULL;
	}
	/* a pattern runs to a space or an operator; "\x" and "[!" stay in it, as perf's */
	for (e = p->s + 1;; e++) {
		if (!*e)
			break;
		if ((is_sep(*e) || isspace((unsigned char)*e)) && e[-1] != '\\' && !(*e == '!' && e[-1] == '['))
			break;
	}
	n = fnode_new(p, 0, NULL, NULL);
	if (n && !(n->pat = strndup(p->s, (size_t)(e - p->s)))) {
		p->err = -ENOMEM;
		fnode_free(n);
		return NULL;
	}
	p->s = e;
	return n;
}

/* operands joined by op, grouped from the left: a&b&c is (a&b)&c */
static struct fnode *parse_chain(struct fparse *p, char op,
				 struct fnode *(*operand)(struct fparse *p))
{
	struct fnode *n = operand(p);

	while (n && peek(p) == op) {
		struct fnode *r;

		p->s++;
		if (!(r = operand(p))) {
			fnode_free(n);
			return NULL;
		}
		n = fnode_new(p, op, n, r);
	}
	return n;
}

/* '&' binds tighter than '|' */
static struct fnode *parse_and(struct fparse *p)
{
	return parse_chain(p, '&', parse_unary);
}

static struct fnode *parse_or(struct fparse *p)
{
	return parse_chain(p, '|', parse_and);
}

static int fmatch(const struct fnode *n, const char *name)
{
	switch (n->op) {
	case '&': return fmatch(n->l, name) && fmatch(n->r, name);
	case '|': return fmatch(n->l, name) || fmatch(n->r, name);
	case '!': return !fmatch(n->l, name);
	default: return !fnmatch(n->pat, name, 0);
	}
}

int lupe_probe_names_add(struct lupe_probe_names *out, char *name)
{
	if (!name)
		return -ENOMEM;
	if (out->nr + 2 > out->cap) {
		char **nv = realloc(out->v, (out->cap = out->cap ? out->cap * 2 : 256) * sizeof(*nv));

		if (!nv) {
			free(name);
			return -ENOMEM;
		}
		out->v = nv;
	}
	out->v[out->nr++] = name;
	out->v[out->nr] = NULL;
	return 0;
}

/* perf's kernel functions: the text symbols of kallsyms, the modules' left out. */
static int add_kernel_name(uint64_t addr, char type, const char *name, size_t len, void *out)
{
	(void)addr;
	type = (char)toupper((unsigned char)type);
	if (type != 'T' && type != 'W')
		return 0;
	return lupe_probe_names_add(out, strndup(name, len));
}

static int kernel_names(char ***names, size_t *nr)
{
	struct lupe_probe_names out = { 0 };
	int err = lupe_kallsyms_foreach("/proc/kallsyms", add_kernel_name, &out);

	if (!err && !out.v && !(out.v = calloc(1, sizeof(*out.v))))
		err = -ENOMEM;
	if (err) {
		lupe_probe_names_delete(out.v);
		return err;
	}
	*names = out.v;
	*nr = out.nr;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The filter's tree, or NULL with the error and, for -EINVAL, where. */
static struct fnode *filter_parse(const char *filter, int *errpos, int *err)
{
	struct fparse p = { .s = filter ? filter : LUPE_PROBE_FUNC_FILTER };
	struct fnode *root;

	p.start = p.s;
	root = parse_or(&p);
	if (root && peek(&p)) {
		fnode_free(root);
		root = NULL;
		p.err = -EINVAL;
	}
	if (!root) {
		if (errpos)
			*errpos = (int)(p.s - p.start);
		*err = p.err ? p.err : -EINVAL;
	}
	return root;
}

int lupe_probe_filter_check(const char *filter, int *errpos)
{
	int err = 0;
	struct fnode *root = filter_parse(filter, errpos, &err);

	fnode_free(root);
	return root ? 0 : err;
}

int lupe_probe_funcs(const char *target, const char *filter, char ***out, int *errpos)
{
	struct fnode *root;
	char **names;
	size_t nr, kept = 0;
	int err = 0;

	*out = NULL;
	if (!(root = filter_parse(filter, errpos, &err)))
		return err;
	err = target ? lupe_probe_symbol_names(target, &names, &nr) : kernel_names(&names, &nr);
	if (err) {
		fnode_free(root);
		return err;
	}
	for (size_t i = 0; i < nr; i++) {
		if (fmatch(root, names[i]))
			names[kept++] = names[i];
		else
			free(names[i]);
	}
	names[kept] = NULL;
	fnode_free(root);
	qsort(names, kept, sizeof(*names), by_name);
	*out = names;
	return (int)kept;
}

void lupe_probe_names_delete(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}
