// SPDX-License-Identifier: GPL-2.0
/*
 * PMU events: "pmu/term=val,term,alias/mod" and bare aliases ("tsc"). A term
 * is a format of the PMU (its bits come from sysfs format/), one of perf's
 * generic terms (config, config1, config2, name, period, freq, ...), or an
 * alias from the PMU's events/ directory, which expands to its own terms.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events/parse.h"
#include "util/util.h"

/*
 * perf's generic terms. The first ones set the attr or the event; the
 * "config terms" are kept as text in ev->config_terms for record to apply
 * (call-graph=dwarf,stack-size=8192...). Tracepoints take only those.
 */
enum term_kind { T_NUM, T_STR, T_FLAG, T_NUM_OR_FLAG };
static const struct generic_term {
	const char *name;
	enum term_kind kind;
	bool config_term;   /* kept in config_terms; also valid on tracepoints */
} generic_terms[] = {
	{ "config", T_NUM, false }, { "config1", T_NUM, false }, { "config2", T_NUM, false },
	{ "name", T_STR, false }, { "period", T_NUM, false }, { "freq", T_NUM, false },
	{ "percore", T_NUM, false }, { "metric-id", T_STR, false },
	{ "call-graph", T_STR, true }, { "stack-size", T_NUM, true }, { "max-stack", T_NUM, true },
	{ "nr", T_NUM, true }, { "inherit", T_FLAG, true }, { "no-inherit", T_FLAG, true },
	{ "overwrite", T_FLAG, true }, { "no-overwrite", T_FLAG, true }, { "time", T_NUM, true },
	{ "branch_type", T_STR, true }, { "driver-config", T_STR, true },
	{ "aux-output", T_NUM_OR_FLAG, true }, { "aux-sample-size", T_NUM, true },
};

static void valid_terms(const struct pmu *pmu, char *buf, size_t size)
{
	size_t n = snprintf(buf, size, "valid terms: ");

	for (size_t i = 0; pmu && i < pmu->nr_formats && n < size; i++)
		n += snprintf(buf + n, size - n, "%s,", pmu->formats[i].name);
	for (size_t i = 0; i < ARRAY_SIZE(generic_terms) && n < size; i++)
		if (pmu || generic_terms[i].config_term)
			n += snprintf(buf + n, size - n, "%s,", generic_terms[i].name);
	if (n < size && buf[n - 1] == ',')
		buf[n - 1] = '\0';
}

static int add_config_term(struct lupe_event *ev, const char *term, size_t len)
{
	size_t old = ev->config_terms ? strlen(ev->config_terms) : 0;
	char *s = realloc(ev->config_terms, old + len + 2);

	if (!s)
		return -ENOMEM;
	if (old)
		s[old++] = ',';
	memcpy(s + old, term, len);
	s[old + len] = '\0';
	ev->config_terms = s;
	return 0;
}

/* One term, spec text key[=value] at text[t..i): apply it to ev. */
struct term {
	char key[64];
	const char *text;
	size_t t, i, val_at, val_len;
	bool has_val;
	size_t err_at, val_err_at;
};

/* The term's value as a number (C notation); 1 when it has none. */
static int term_number(struct parser *p, const struct term *tm, __u64 *val)
{
	const char *v = tm->text + tm->val_at;
	char *end;

	*val = 1;
	if (!tm->has_val)
		return 0;
	errno = 0;
	*val = strtoull(v, &end, 0);
	if (!tm->val_len || end != v + tm->val_len || errno || !isdigit((unsigned char)*v))
		return lupe_parse_fail(p, tm->val_err_at, NULL, "bad value '%.*s' for term '%s'",
				  (int)tm->val_len, v, tm->key);
	return 0;
}

static int apply_generic(struct parser *p, struct lupe_event *ev, const struct generic_term *g,
			 const struct term *tm)
{
	__u64 val = 1;

	if (g->kind == T_FLAG && tm->has_val)
		return lupe_parse_fail(p, tm->val_err_at, NULL, "term '%s' takes no value", tm->key);
	if ((g->kind == T_NUM || g->kind == T_STR) && (!tm->has_val || !tm->val_len))
		return lupe_parse_fail(p, tm->err_at, NULL, "term '%s' needs a value", tm->key);
	if (g->kind != T_STR && term_number(p, tm, &val))
		return -LUPE_ERR_PARSE;
	if (g->config_term)
		return add_config_term(ev, tm->text + tm->t, tm->i - tm->t);
	if (!strcmp(g->name, "config"))
		ev->attr.config = val;
	else if (!strcmp(g->name, "config1"))
		ev->attr.config1 = val;
	else if (!strcmp(g->name, "config2"))
		ev->attr.config2 = val;
	else if (!strcmp(g->name, "period"))
		ev->sample_period = val;
	else if (!strcmp(g->name, "freq"))
		ev->sample_freq = val;
	else if (!strcmp(g->name, "name")) {
		free(ev->name);
		if (!(ev->name = strndup(tm->text + tm->val_at, tm->val_len)))
			return -ENOMEM;
	}
	/* percore sums SMT siblings in stat's output, metric-id names a metric input */
	return 0;
}

/*
 * Apply the terms text[0..len) to ev; pmu NULL for a tracepoint, which
 * takes config terms only. base is the offset of text in the spec for error
 * positions; an alias's own terms report at the alias (fixed). depth stops
 * aliases that name themselves.
 */
static int apply_terms(struct parser *p, const struct pmu *pmu, struct lupe_event *ev,
		       const char *text, size_t len, size_t base, bool fixed, int depth)
{
	size_t i = 0;

	while (i < len) {
		struct term tm = { .text = text };
		const struct generic_term *g = NULL;
		const struct pmu_format *f;
		const struct pmu_alias *a;
		size_t key_len, t = i;
		int ret = 0;

		while (i < len && text[i] != ',')
			i++;
		/* perf skips blanks around terms ("msr/ event=1/") */
		while (t < i && isspace((unsigned char)text[t]))
			t++;
		tm.t = t;
		tm.i = i;
		tm.err_at = fixed ? base : base + t;
		key_len = strcspn(text + t, "=,");
		if (t + key_len > i)
			key_len = i - t;
		tm.has_val = t + key_len < i && text[t + key_len] == '=';
		if (tm.has_val) {
			tm.val_at = t + key_len + 1;
			tm.val_len = i - tm.val_at;
		}
		tm.val_err_at = fixed ? base : base + tm.val_at;
		while (key_len && isspace((unsigned char)text[t + key_len - 1]))
			key_len--;
		if (!key_len)
			return lupe_parse_fail(p, tm.err_at, NULL, "empty term");
		if (key_len >= sizeof(tm.key))
			key_len = sizeof(tm.key) - 1;
		memcpy(tm.key, text + t, key_len);
		tm.key[key_len] = '\0';
		for (size_t k = 0; k < ARRAY_SIZE(generic_terms); k++)
			if (!strcmp(tm.key, generic_terms[k].name) && (pmu || generic_terms[k].config_term))
				g = &generic_terms[k];
		f = pmu ? lupe_pmu_format_find(pmu, tm.key) : NULL;
		a = pmu && !tm.has_val ? lupe_pmu_alias_find(pmu, tm.key) : NULL;
		if (f) {
			__u64 val;

			if (term_number(p, &tm, &val))
				return -LUPE_ERR_PARSE;
			if (lupe_pmu_format_apply(f, val, &ev->attr))
				return lupe_parse_fail(p, tm.val_err_at, NULL,
						  "value too big for format '%s', maximum is 0x%llx",
						  tm.key, f->nr_bits >= 64 ? ~0ULL : (1ULL << f->nr_bits) - 1);
		} else if (g) {
			ret = apply_generic(p, ev, g, &tm);
		} else if (a && depth < 4) {
			ret = apply_terms(p, pmu, ev, a->terms, strlen(a->terms), tm.err_at, true,
					  depth + 1);
		} else {
			char help[sizeof(p->err->help)];

			valid_terms(pmu, help, sizeof(help));
			if (pmu && pmu->name)
				return lupe_parse_fail(p, tm.err_at, help, "unknown term '%s' for pmu '%s'",
						  tm.key, pmu->name);
			if (pmu)
				return lupe_parse_fail(p, tm.err_at, help, "unknown term '%s'", tm.key);
			return lupe_parse_fail(p, tm.err_at, help, "unknown term '%s' for a tracepoint",
					  tm.key);
		}
		if (ret)
			return ret;
		if (i < len)
			i++;
	}
	return 0;
}

int lupe_parse_tracepoint_terms(struct parser *p, struct lupe_event *ev, size_t at, size_t len)
{
	return apply_terms(p, NULL, ev, p->spec + at, len, at, false, 0);
}

int lupe_parse_legacy_terms(struct parser *p, struct lupe_event *ev, size_t at, size_t len)
{
	/* a PMU without formats or aliases: every generic term and nothing else */
	static const struct pmu generic = { 0 };

	return apply_terms(p, &generic, ev, p->spec + at, len, at, false, 0);
}

/* Add one event of pmu with terms at spec[terms..terms_end) and the modifier after. */
static int add_pmu_event(struct parser *p, const struct pmu *pmu, size_t s, size_t terms,
			 size_t terms_end, size_t mod, size_t end, const char *alias_terms)
{
	struct lupe_event *ev = lupe_event_list_add(p->list);
	int ret;

	if (!ev)
		return -ENOMEM;
	ev->attr.type = pmu->type;
	if (!(ev->pmu_name = strdup(pmu->name)) ||
	    (pmu->cpus && !(ev->cpus = strdup(pmu->cpus))))
		return -ENOMEM;
	if (alias_terms)
		ret = apply_terms(p, pmu, ev, alias_terms, strlen(alias_terms), s, true, 0);
	else
		ret = apply_terms(p, pmu, ev, p->spec + terms, terms_end - terms, terms, false, 0);
	if (ret)
		return ret;
	/* perf names it by its text unless a name= term did */
	if (!ev->name && !(ev->name = strndup(p->spec + s, end - s)))
		return -ENOMEM;
	if (alias_terms && mod < end)
		return lupe_parse_modifier(p, ev, mod - 1, mod, end - mod, false, true);
	/* the closing '/' stands where the ':' would: perf's caret goes there */
	if (!alias_terms && mod < end)
		return lupe_parse_modifier(p, ev, mod - 1, mod, end - mod, false, true);
	return 0;
}

/*
 * PMUs a pmu/.../ spec names: the PMU of that name, or else every PMU that
 * is that name plus "_N" (or "uncore_" before it), as perf takes
 * "uncore_imc/.../" for uncore_imc_0, uncore_imc_1...
 */
static char **pmus_named(const char *name, size_t *nr)
{
	size_t all_nr, n = 0, len = strlen(name);
	char **all = lupe_pmu_names(&all_nr), **v;

	*nr = 0;
	if (!all)
		return NULL;
	v = calloc(all_nr ? all_nr : 1, sizeof(*v));
	if (!v) {
		lupe_strv_free(all, all_nr);
		return NULL;
	}
	for (size_t i = 0; i < all_nr; i++)
		if (!strcmp(all[i], name))
			v[n++] = strdup(all[i]);
	for (size_t i = 0, exact = n; i < all_nr && !exact; i++) {
		const char *rest = all[i];

		if (!strncmp(rest, "uncore_", 7) && strncmp(name, "uncore_", 7))
			rest += 7;
		if (strncmp(rest, name, len) || rest[len] != '_' || !rest[len + 1] ||
		    strspn(rest + len + 1, "0123456789") != strlen(rest + len + 1))
			continue;
		v[n++] = strdup(all[i]);
	}
	lupe_strv_free(all, all_nr);
	for (size_t i = 0; i < n; i++)
		if (!v[i]) {
			lupe_strv_free(v, n);
			errno = ENOMEM;
			return NULL;
		}
	*nr = n;
	return v;
}

int lupe_parse_pmu_event(struct parser *p, size_t s, size_t slash, size_t end)
{
	const char *spec = p->spec;
	const char *close = memchr(spec + slash + 1, '/', end - slash - 1);
	char *name = strndup(spec + s, slash - s);
	size_t nr = 0;
	char **names;
	int ret = 0;

	if (!name)
		return -ENOMEM;
	names = pmus_named(name, &nr);
	if (!nr) {
		ret = !names && errno == ENOMEM ? -ENOMEM :
		      lupe_parse_fail(p, s, "'lupe list pmu' shows the PMUs of this machine",
				 "cannot find PMU '%s': missing kernel support?", name);
	} else if (!close) {
		ret = lupe_parse_fail(p, slash, NULL, "this '/' is never closed: terms end with '/'");
	}
	for (size_t i = 0; i < nr && !ret; i++) {
		struct pmu *pmu = lupe_pmu_load(names[i]);

		if (!pmu) {
			ret = errno == ENOMEM ? -ENOMEM :
			      lupe_parse_fail(p, s, NULL, "cannot read PMU '%s': %s", names[i],
					 lupe_strerror(-errno));
			break;
		}
		ret = add_pmu_event(p, pmu, s, slash + 1, close - spec, close - spec + 1, end, NULL);
		lupe_pmu_free(pmu);
	}
	lupe_strv_free(names, nr);
	free(name);
	return ret;
}

/* Whether the PMU has an events/ file named alias (case ignored, as perf). */
static bool pmu_has_alias(const char *pmu, const char *alias)
{
	char dir[PATH_MAX];
	size_t nr;
	char **names;
	bool found = false;

	if (snprintf(dir, sizeof(dir), "%s/%s/events", lupe_pmu_devices_dir(), pmu) >= (int)sizeof(dir))
		return false;
	names = lupe_dir_names(dir, true, &nr);
	for (size_t i = 0; i < nr && !found; i++)
		found = !strcasecmp(names[i], alias);
	lupe_strv_free(names, nr);
	return found;
}

int lupe_parse_pmu_alias(struct parser *p, size_t s, size_t head_len, size_t end)
{
	char *name = strndup(p->spec + s, head_len);
	size_t nr = 0;
	char **names;
	int found = 0, ret = 0;

	if (!name)
		return -ENOMEM;
	for (size_t i = 0; i < head_len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_-.", name[i]))
			goto out;
	names = lupe_pmu_names(&nr);
	/* Every PMU with the alias counts it, as perf adds one event per PMU. */
	for (size_t i = 0; i < nr && !ret; i++) {
		struct pmu *pmu;
		const struct pmu_alias *a;

		/* a directory scan first: loading every PMU would read all its files */
		if (!pmu_has_alias(names[i], name))
			continue;
		pmu = lupe_pmu_load(names[i]);
		a = pmu ? lupe_pmu_alias_find(pmu, name) : NULL;
		if (a) {
			found = 1;
			ret = add_pmu_event(p, pmu, s, 0, 0, s + head_len + 1, end, a->terms);
		}
		lupe_pmu_free(pmu);
	}
	lupe_strv_free(names, nr);
out:
	free(name);
	return ret ? ret : found;
}
