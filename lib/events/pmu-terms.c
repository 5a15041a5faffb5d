// SPDX-License-Identifier: GPL-2.0
/*
 * PMU events: "pmu/term=val,term,alias/mod" and bare aliases ("tsc"). A term
 * is a format of the PMU (its bits come from sysfs format/), one of perf's
 * generic terms (config, config1, config2, name, period, freq, ...), or an
 * alias from the PMU's events/ directory, which expands to its own terms.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events/parse.h"
#include "util/util.h"

/* perf's generic terms that make sense in pmu/.../ (others are refused). */
enum { T_CONFIG, T_CONFIG1, T_CONFIG2, T_NAME, T_PERIOD, T_FREQ, T_PERCORE, T_METRIC_ID };
static const char *const generic_terms[] = {
	"config", "config1", "config2", "name", "period", "freq", "percore", "metric-id",
};

static void valid_terms(const struct pmu *pmu, char *buf, size_t size)
{
	size_t n = snprintf(buf, size, "valid terms: ");

	for (size_t i = 0; i < pmu->nr_formats && n < size; i++)
		n += snprintf(buf + n, size - n, "%s,", pmu->formats[i].name);
	for (size_t i = 0; i < ARRAY_SIZE(generic_terms) && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", generic_terms[i],
			      i + 1 < ARRAY_SIZE(generic_terms) ? "," : "");
}

/*
 * Apply the terms text[0..len) to ev. base is the offset of text in the
 * spec for error positions; an alias's own terms report at the alias
 * (fixed_pos). depth stops aliases that name themselves.
 */
static int apply_terms(struct parser *p, const struct pmu *pmu, struct lupe_event *ev,
		       const char *text, size_t len, size_t base, bool fixed, int depth)
{
	size_t i = 0;

	while (i < len) {
		size_t t = i, key_len, val_at = 0, val_len = 0;
		size_t err_at = fixed ? base : base + t;
		const struct pmu_format *f;
		const struct pmu_alias *a;
		char key[64], *end;
		__u64 val = 1;
		bool has_val;
		int g = -1;

		while (i < len && text[i] != ',')
			i++;
		/* perf skips blanks around terms ("msr/ event=1/") */
		while (t < i && isspace((unsigned char)text[t]))
			t++;
		err_at = fixed ? base : base + t;
		key_len = strcspn(text + t, "=,");
		if (t + key_len > i)
			key_len = i - t;
		has_val = t + key_len < i && text[t + key_len] == '=';
		while (key_len && isspace((unsigned char)text[t + key_len - 1]))
			key_len--;
		if (!key_len)
			return parse_fail(p, err_at, NULL, "empty term");
		if (key_len >= sizeof(key))
			key_len = sizeof(key) - 1;
		memcpy(key, text + t, key_len);
		key[key_len] = '\0';
		if (has_val) {
			val_at = t + strcspn(text + t, "=") + 1;
			val_len = i - val_at;
		}
		for (size_t k = 0; k < ARRAY_SIZE(generic_terms); k++)
			if (!strcmp(key, generic_terms[k]))
				g = (int)k;
		if (g == T_NAME || g == T_METRIC_ID) {
			if (!has_val || !val_len)
				return parse_fail(p, err_at, NULL, "term '%s' needs a value", key);
			if (g == T_NAME) {
				free(ev->name);
				if (!(ev->name = strndup(text + val_at, val_len)))
					return -ENOMEM;
			}
			if (i < len)
				i++;
			continue;
		}
		if (has_val) {
			val = strtoull(text + val_at, &end, 0);
			if (!val_len || end != text + val_at + val_len || !isdigit((unsigned char)text[val_at]))
				return parse_fail(p, fixed ? base : base + val_at, NULL,
						  "bad value '%.*s' for term '%s'", (int)val_len,
						  text + val_at, key);
		}
		f = pmu_format_find(pmu, key);
		if (f) {
			if (pmu_format_apply(f, val, &ev->attr))
				return parse_fail(p, fixed ? base : base + val_at, NULL,
						  "value too big for format '%s', maximum is 0x%llx", key,
						  f->nr_bits >= 64 ? ~0ULL : (1ULL << f->nr_bits) - 1);
		} else if (g == T_CONFIG) {
			ev->attr.config = val;
		} else if (g == T_CONFIG1) {
			ev->attr.config1 = val;
		} else if (g == T_CONFIG2) {
			ev->attr.config2 = val;
		} else if (g == T_PERIOD) {
			ev->sample_period = val;
		} else if (g == T_FREQ) {
			ev->sample_freq = val;
		} else if (g == T_PERCORE) {
			/* sums SMT siblings in stat's output: nothing for the attr */
		} else if (!has_val && (a = pmu_alias_find(pmu, key)) && depth < 4) {
			int ret = apply_terms(p, pmu, ev, a->terms, strlen(a->terms), err_at, true,
					      depth + 1);

			if (ret)
				return ret;
		} else {
			char help[sizeof(p->err->help)];

			valid_terms(pmu, help, sizeof(help));
			return parse_fail(p, err_at, help, "unknown term '%s' for pmu '%s'", key,
					  pmu->name);
		}
		if (i < len)
			i++;
	}
	return 0;
}

/* Add one event of pmu with terms at spec[terms..terms_end) and the modifier after. */
static int add_pmu_event(struct parser *p, const struct pmu *pmu, size_t s, size_t terms,
			 size_t terms_end, size_t mod, size_t end, const char *alias_terms)
{
	struct lupe_event *ev = event_list_add(p->list);
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
		return parse_modifier(p, ev, mod - 1, mod, end - mod, false, true);
	/* the closing '/' stands where the ':' would: perf's caret goes there */
	if (!alias_terms && mod < end)
		return parse_modifier(p, ev, mod - 1, mod, end - mod, false, true);
	return 0;
}

int parse_pmu_event(struct parser *p, size_t s, size_t slash, size_t end)
{
	const char *spec = p->spec;
	const char *close = memchr(spec + slash + 1, '/', end - slash - 1);
	char *name = strndup(spec + s, slash - s);
	struct pmu *pmu;
	int ret;

	if (!name)
		return -ENOMEM;
	pmu = pmu_load(name);
	if (!pmu) {
		ret = errno == ENOMEM ? -ENOMEM :
		      parse_fail(p, s, "'lupe list pmu' shows the PMUs of this machine",
				 "cannot find PMU '%s': missing kernel support?", name);
		free(name);
		return ret;
	}
	free(name);
	if (!close)
		ret = parse_fail(p, end, NULL, "'/' expected to close the terms of PMU '%s'",
				 pmu->name);
	else
		ret = add_pmu_event(p, pmu, s, slash + 1, close - spec, close - spec + 1, end, NULL);
	pmu_free(pmu);
	return ret;
}

int parse_pmu_alias(struct parser *p, size_t s, size_t head_len, size_t end)
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
	names = pmu_names(&nr);
	/* Every PMU with the alias counts it, as perf adds one event per PMU. */
	for (size_t i = 0; i < nr && !ret; i++) {
		struct pmu *pmu = pmu_load(names[i]);
		const struct pmu_alias *a = pmu ? pmu_alias_find(pmu, name) : NULL;

		if (a) {
			found = 1;
			ret = add_pmu_event(p, pmu, s, 0, 0, s + head_len + 1, end, a->terms);
		}
		pmu_free(pmu);
	}
	strv_free(names, nr);
out:
	free(name);
	return ret ? ret : found;
}
