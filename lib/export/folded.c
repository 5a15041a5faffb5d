// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks, the input of FlameGraph's flamegraph.pl: what
 * stackcollapse-perf.pl makes of perf script's text, made from the model
 * instead of from text. The rules are the script's (its defaults: comm
 * first, generic tidying, java tidying for java comms, no annotations).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/symbols.h>
#include "export/profile.h"
#include "util/util.h"

/* One "->"-free part of a symbol, tidied as stackcollapse-perf.pl does, written to out. */
static int tidy_part(FILE *out, const char *s, size_t len, const char *mod)
{
	const char *open = NULL;
	int go_method = 0;
	size_t n;
	char *tmp;

	if (len == 9 && !memcmp(s, "[unknown]", 9)) {
		const char *base = strrchr(mod, '/');

		base = base ? base + 1 : mod;
		if (asprintf(&tmp, "[%s]", strcmp(mod, "[unknown]") ? base : "unknown") < 0)
			return -ENOMEM;
	} else if (!(tmp = strndup(s, len))) {
		return -ENOMEM;
	}
	n = strlen(tmp);
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
	for (size_t i = 0; i < n; i++)
		if (tmp[i] != '"' && tmp[i] != '\'')
			fputc(tmp[i] == ';' ? ':' : tmp[i], out);
	free(tmp);
	return 0;
}

/* func's folded name, whole: malloc'd, NULL when out of memory. */
static char *folded_name(const struct lupe_profile *p, uint32_t func, size_t *lenp)
{
	const struct lupe_prof_func *f = &p->funcs[func];
	const char *sym = f->name ? f->name : "[unknown]";
	const char *dso = f->dso != LUPE_PROF_NONE ? p->dsos[f->dso].name : "[unknown]";
	char *line, *mod = NULL, *sep, *out = NULL;
	size_t len, size = 0;
	int parts = 0, err = 0;
	FILE *m;

	/*
	 * The script splits perf script's "sym (dso)" at the last " (" and the
	 * last ")": a DSO named "/x (deleted)" leaves "sym (/x" as the symbol
	 * and "deleted)" as the DSO. Do the same to the same text, whatever
	 * its length.
	 */
	/* an inlined function's frame reads "NAME (inlined)", in place of "sym (dso)" */
	if (lupe_symbol_inlined(&(struct lupe_symbol){ .name = sym }))
		line = strdup(sym);
	else if (asprintf(&line, "%s (%s)", sym, dso) < 0)
		line = NULL;
	if (!line)
		return NULL;
	for (sep = strstr(line, " ("); sep; sep = strstr(sep + 1, " ("))
		mod = sep;
	if (mod) {
		*mod = 0;
		mod += 2;
		if ((sep = strrchr(mod, ')')))
			*sep = 0;
	} else {
		mod = line + strlen(line); /* no " (": the whole text is the symbol */
	}
	len = strlen(line);
	if (!(m = open_memstream(&out, &size))) {
		free(line);
		return NULL;
	}
	/* (perf script's "+0x1f" after the symbol is what the script strips: not here) */
	for (const char *s = line, *end = line + len; (s < end || !parts) && !err; parts++) {
		const char *arrow = strstr(s, "->");
		size_t plen = arrow && arrow < end ? (size_t)(arrow - s) : (size_t)(end - s);
		long start;

		if (parts)
			fputc(';', m);
		start = ftell(m);
		err = tidy_part(m, s, plen, mod);
		/* a frame that stackcollapse-perf.pl splits is inlined after its first part */
		if (!err && parts && !fflush(m) && !memmem(out + start, size - (size_t)start, "_[i]", 4))
			fputs("_[i]", m);
		s += plen + 2;
	}
	free(line);
	if (fclose(m) || err) {
		free(out);
		return NULL;
	}
	*lenp = size;
	return out;
}

size_t lupe_profile_folded_name(const struct lupe_profile *p, uint32_t func, char *buf,
				size_t size)
{
	size_t len = 0;
	char *name = folded_name(p, func, &len);

	if (size)
		snprintf(buf, size, "%s", name ? name : "");
	free(name);
	return len;
}

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct lupe_folded *)a)->stack, ((const struct lupe_folded *)b)->stack);
}

void lupe_folded_delete(struct lupe_folded *f, size_t nr)
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
		const char *raw = p->funcs[i].name;
		size_t len;

		/* a symbol starting with '(' is taken for a process name and skipped */
		if (raw && raw[0] == '(')
			continue;
		if (!(names[i] = folded_name(p, (uint32_t)i, &len)))
			goto out;
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
	lupe_folded_delete(f, n);
	return err;
}

int lupe_folded_write(const struct lupe_folded *f, size_t nr, FILE *out)
{
	for (size_t i = 0; i < nr; i++)
		fprintf(out, "%s %llu\n", f[i].stack, (unsigned long long)f[i].weight);
	return ferror(out) ? -EIO : 0;
}
