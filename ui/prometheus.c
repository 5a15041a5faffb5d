// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the Prometheus text exposition format. Small on purpose: the
 * exporter formats a few hundred samples per scrape, so stdio is fast
 * enough, and the escaping rules are the only part that needs care.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include "prometheus.h"

/* HELP escapes \ and newline; label values also escape the double quote. */
static void put_escaped(FILE *f, const char *s, int quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && quote)
			fputs("\\\"", f);
		else
			fputc(*s, f);
	}
}

void prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s ", name);
	put_escaped(f, help, 0);
	fprintf(f, "\n# TYPE %s %s\n", name, type);
}

static void put_labels(FILE *f, const char *name, const struct prom_label *labels, int nr)
{
	int first = 1;

	fputs(name, f);
	for (int i = 0; i < nr; i++) {
		if (!labels[i].value)
			continue;
		fprintf(f, "%s%s=\"", first ? "{" : ",", labels[i].name);
		put_escaped(f, labels[i].value, 1);
		fputc('"', f);
		first = 0;
	}
	if (!first)
		fputc('}', f);
}

void prom_sample_u64(FILE *f, const char *name, const struct prom_label *labels, int nr,
		     uint64_t value)
{
	put_labels(f, name, labels, nr);
	fprintf(f, " %" PRIu64 "\n", value);
}

void prom_sample_double(FILE *f, const char *name, const struct prom_label *labels, int nr,
			double value)
{
	put_labels(f, name, labels, nr);
	fprintf(f, " %.9g\n", value);
}

char *prom_metric_name(char *out, size_t size, const char *prefix, const char *part,
		       const char *suffix)
{
	size_t n = 0;
	int under = 0;

	if (!size)
		return out;
	for (const char *s = prefix; *s && n + 1 < size; s++)
		out[n++] = *s;
	under = n && out[n - 1] == '_';
	for (const char *s = part; *s && n + 1 < size; s++) {
		int ok = isalnum((unsigned char)*s) || *s == '_';

		if (!ok && under)
			continue;
		out[n++] = ok ? *s : '_';
		under = out[n - 1] == '_';
	}
	/* a name ends in the suffix, never in a squeezed separator before it */
	if (*suffix && n && out[n - 1] == '_' && suffix[0] == '_')
		n--;
	for (const char *s = suffix; *s && n + 1 < size; s++)
		out[n++] = *s;
	out[n] = 0;
	if (n && isdigit((unsigned char)out[0]))
		out[0] = '_';
	return out;
}
