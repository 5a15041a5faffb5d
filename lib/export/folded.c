// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks, the input of FlameGraph's flamegraph.pl: what
 * stackcollapse-perf.pl makes of perf script's text, made from the model
 * instead of from text. The rules are the script's (its defaults: comm
 * first, generic tidying, java tidying for java comms, no annotations).
 */
#include <stdlib.h>
#include <string.h>
#include <lupe/symbols.h>
#include "export/profile.h"
#include "util/util.h"

/* One "->"-free part of a symbol, tidied as stackcollapse-perf.pl does. */
static size_t tidy_part(const char *s, size_t len, const char *mod, char *out, size_t size)
{
	char tmp[4096];
	size_t n = 0, o = 0;
	const char *open = NULL;
	int go_method = 0;

	if (len == 9 && !memcmp(s, "[unknown]", 9)) {
		const char *base = strrchr(mod, '/');

		base = base ? base + 1 : mod;
		n = (size_t)snprintf(tmp, sizeof(tmp), "[%s]", strcmp(mod, "[unknown]") ? base : "unknown");
		if (n >= sizeof(tmp))
			n = sizeof(tmp) - 1;
	} else {
		n = len < sizeof(tmp) - 1 ? len : sizeof(tmp) - 1;
		memcpy(tmp, s, n);
	}
	tmp[n] = 0;
	/* a Go method ("net/http.(*Client).Do") keeps its parentheses */
	for (char *d = strstr(tmp, ".("); d && !go_method; d = strstr(d + 1, ".("))
		go_method = strstr(d + 2, ").") != NULL;
	if (!go_method) {
		for (char *q = strchr(tmp, '('); q; q = strchr(q + 1, '('))
			if (strncmp(q + 1, "anonymous namespace)", 20)) {
				open = q;
				break;
			}
		if (open)
			n = (size_t)(open - tmp);
	}
	for (size_t i = 0; i < n; i++) {
		char ch = tmp[i] == ';' ? ':' : tmp[i];

		if (ch == '"' || ch == '\'')
			continue;
		if (o + 1 < size)
			out[o++] = ch;
	}
	if (size)
		out[o < size ? o : size - 1] = 0;
	return o;
}

size_t lupe_profile_folded_name(const struct lupe_profile *p, uint32_t func, char *buf,
				size_t size)
{
	const struct lupe_prof_func *f = &p->funcs[func];
	const char *sym = f->name ? f->name : "[unknown]";
	const char *dso = f->dso != LUPE_PROF_NONE ? p->dsos[f->dso].name : "[unknown]";
	char line[8192], *name = line, *mod, *sep;
	size_t o = 0, len;
	int parts = 0;

	/*
	 * The script splits perf script's "sym (dso)" at the last " (" and the
	 * last ")": a DSO named "/x (deleted)" leaves "sym (/x" as the symbol
	 * and "deleted)" as the DSO. Do the same to the same text.
	 */
	/* an inlined function's frame reads "NAME (inlined)", in place of "sym (dso)" */
	if (lupe_symbol_inlined(&(struct lupe_symbol){ .name = sym }))
		snprintf(line, sizeof(line), "%s", sym);
	else
		snprintf(line, sizeof(line), "%s (%s)", sym, dso);
	for (sep = strstr(line, " ("), mod = NULL; sep; sep = strstr(sep + 1, " ("))
		mod = sep;
	*mod = 0; /* there is one: the format put it there */
	mod += 2;
	if ((sep = strrchr(mod, ')')))
		*sep = 0;
	len = strlen(name);
	if (size)
		buf[0] = 0;
	/* (perf script's "+0x1f" after the symbol is what the script strips: not here) */
	for (const char *s = name, *end = name + len; s < end || !parts; parts++) {
		const char *arrow = strstr(s, "->");
		size_t plen = arrow && arrow < end ? (size_t)(arrow - s) : (size_t)(end - s);
		char part[4096];
		size_t pl = tidy_part(s, plen, mod, part, sizeof(part) - 5);

		/* a frame that stackcollapse-perf.pl splits is inlined after its first part */
		if (parts && !strstr(part, "_[i]")) {
			memcpy(part + pl, "_[i]", 5);
			pl += 4;
		}
		if (parts && o + 1 < size)
			buf[o++] = ';';
		for (size_t i = 0; i < pl && o + 1 < size; i++)
			buf[o++] = part[i];
		if (size)
			buf[o] = 0;
		s += plen + 2;
	}
	return o;
}

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct lupe_folded *)a)->stack, ((const struct lupe_folded *)b)->stack);
}

void lupe_folded_free(struct lupe_folded *f, size_t nr)
{
	if (!f)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(f[i].stack);
		free(f[i].kinds);
	}
	free(f);
}

int lupe_profile_folded(const struct lupe_profile *p, struct lupe_folded **out, size_t *nr)
{
	const char *primary = p->first_event != LUPE_PROF_NONE ? p->events[p->first_event].name : NULL;
	char **names = calloc(p->nr_funcs + 1, sizeof(*names));
	struct lupe_folded *f = calloc(p->nr_aggs + 1, sizeof(*f));
	uint32_t *path = malloc((p->nr_nodes + 1) * sizeof(*path));
	size_t n = 0, m = 0;
	int err = -ENOMEM;

	if (!names || !f || !path)
		goto out;
	for (size_t i = 0; i < p->nr_funcs; i++) {
		char buf[4096];
		size_t len = lupe_profile_folded_name(p, (uint32_t)i, buf, sizeof(buf));
		const char *raw = p->funcs[i].name;

		/* a symbol starting with '(' is taken for a process name and skipped */
		if (raw && raw[0] == '(')
			continue;
		if (!(names[i] = malloc(len + 1)))
			goto out;
		memcpy(names[i], buf, len + 1);
	}
	for (size_t i = 0; i < p->nr_aggs; i++) {
		const struct lupe_prof_agg *a = &p->aggs[i];
		const struct lupe_prof_event *e = &p->events[a->event];
		const char *comm = p->threads[a->thread].comm;
		int java = !strncmp(comm, "java", 4);
		size_t depth = 0, len, pos;
		char *s, *k;

		/* tracepoints' lines escape the event filter and weigh one */
		if (!e->tracepoint && e->name != primary)
			continue;
		if (!comm[0])
			continue;
		for (uint32_t nd = a->node; nd != LUPE_PROF_NONE; nd = p->nodes[nd].parent)
			path[depth++] = p->nodes[nd].func;
		len = strlen(comm);
		for (size_t d = 0; d < depth; d++)
			len += names[path[d]] ? strlen(names[path[d]]) + 1 : 0;
		if (!(s = malloc(len + 1)) || !(f[n].kinds = malloc(len + 2))) {
			free(s);
			goto out;
		}
		k = f[n].kinds;
		*k++ = 'c';
		memcpy(s, comm, strlen(comm));
		for (pos = 0; pos < strlen(comm); pos++)
			if (s[pos] == ' ')
				s[pos] = '_';
		for (size_t d = depth; d-- > 0;) {
			const char *nm = names[path[d]];
			size_t l;

			if (!nm)
				continue;
			if (java && nm[0] == 'L' && strchr(nm, '/'))
				nm++;
			l = strlen(nm);
			s[pos++] = ';';
			memcpy(s + pos, nm, l);
			pos += l;
			*k++ = "ukji"[p->funcs[path[d]].kind & 3];
			for (const char *q = strchr(nm, ';'); q; q = strchr(q + 1, ';'))
				*k++ = 'i'; /* the parts after a split */
		}
		s[pos] = 0;
		*k = 0;
		f[n].stack = s;
		f[n].weight = e->tracepoint ? a->count : e->has_period ? a->period : a->count;
		n++;
	}
	qsort(f, n, sizeof(*f), by_stack);
	for (size_t i = 0; i < n; i++) {
		if (m && !strcmp(f[m - 1].stack, f[i].stack)) {
			f[m - 1].weight += f[i].weight;
			free(f[i].stack);
			free(f[i].kinds);
			continue;
		}
		f[m++] = f[i];
	}
	*out = f;
	*nr = m;
	f = NULL;
	err = 0;
out:
	if (names)
		for (size_t i = 0; i < p->nr_funcs; i++)
			free(names[i]);
	free(names);
	free(path);
	lupe_folded_free(f, n);
	return err;
}

int lupe_folded_write(const struct lupe_folded *f, size_t nr, FILE *out)
{
	for (size_t i = 0; i < nr; i++)
		fprintf(out, "%s %llu\n", f[i].stack, (unsigned long long)f[i].weight);
	return ferror(out) ? -EIO : 0;
}
