// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs PMUs: /sys/bus/event_source/devices/<pmu>/ holds type, cpumask,
 * format/<term> and events/<alias>. A format file says where a term's bits go ("config:0-7,32-35"),
 * an events file names a set of terms ("event=0x3c,umask=0x00").
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events/internal.h"
#include "util/util.h"

static char *sysfs_root;

int lupe_set_dir_override(char **slot, const char *dir)
{
	char *copy = NULL;

	if (dir && !(copy = strdup(dir)))
		return -ENOMEM;
	free(*slot);
	*slot = copy;
	return 0;
}

int lupe_events_set_sysfs(const char *dir)
{
	return lupe_set_dir_override(&sysfs_root, dir);
}

const char *lupe_pmu_devices_dir(void)
{
	static char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s/bus/event_source/devices", sysfs_root ? sysfs_root : "/sys");
	return buf;
}

void lupe_strv_free(char **v, size_t nr)
{
	if (!v)
		return;
	for (size_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

int lupe_strv_push(char ***v, size_t *n, size_t *cap, const char *str)
{
	if (lupe_grow(v, cap, *n + 1, sizeof(**v)))
		return -ENOMEM;
	if (!((*v)[*n] = strdup(str)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **lupe_dir_collect(DIR *d, bool (*keep)(const struct dirent *de, void *arg), void *arg,
			size_t *nr)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;

	*nr = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !keep(de, arg))
			continue;
		if (lupe_strv_push(&v, &n, &cap, de->d_name)) {
			closedir(d);
			lupe_strv_free(v, n);
			errno = ENOMEM;
			return NULL;
		}
	}
	closedir(d);
	*nr = n;
	errno = 0;
	return v;
}

static bool keep_name(const struct dirent *de, void *events_only)
{
	/* events/foo.scale, .unit, .per-pkg, .snapshot describe foo */
	return !*(bool *)events_only || !strchr(de->d_name, '.');
}

char **lupe_dir_names(const char *dir, bool events_only, size_t *nr)
{
	DIR *d = opendir(dir);
	char **v;

	*nr = 0;
	if (!d)
		return NULL;
	v = lupe_dir_collect(d, keep_name, &events_only, nr);
	if (v)
		qsort(v, *nr, sizeof(*v), cmp_str);
	return v;
}

char **lupe_pmu_names(size_t *nr)
{
	return lupe_dir_names(lupe_pmu_devices_dir(), false, nr);
}

/* "config1:0-7,32-35" -> field 1, bits 0..7 then 32..35. */
static int format_parse(struct pmu_format *f, const char *text)
{
	const char *p;
	char *end;

	if (!strncmp(text, "config2:", 8))
		f->field = 2, p = text + 8;
	else if (!strncmp(text, "config1:", 8))
		f->field = 1, p = text + 8;
	else if (!strncmp(text, "config:", 7))
		f->field = 0, p = text + 7;
	else
		return -LUPE_ERR_FORMAT;
	f->nr_bits = 0;
	while (*p) {
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -LUPE_ERR_FORMAT;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return -LUPE_ERR_FORMAT;
			p = end;
		}
		if (hi < lo || hi > 63 || f->nr_bits + (hi - lo + 1) > 64)
			return -LUPE_ERR_FORMAT;
		for (unsigned long b = lo; b <= hi; b++)
			f->bits[f->nr_bits++] = b;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -LUPE_ERR_FORMAT;
		else
			break;
	}
	return f->nr_bits ? 0 : -LUPE_ERR_FORMAT;
}

int lupe_pmu_format_apply(const struct pmu_format *f, __u64 value, struct perf_event_attr *attr)
{
	__u64 *word = f->field == 0 ? &attr->config : f->field == 1 ? &attr->config1 :
		      &attr->config2;

	if (f->nr_bits < 64 && value >> f->nr_bits)
		return -ERANGE;
	for (int i = 0; i < f->nr_bits; i++) {
		__u64 bit = 1ULL << f->bits[i];

		if (value >> i & 1)
			*word |= bit;
		else
			*word &= ~bit;
	}
	return 0;
}

void lupe_pmu_free(struct pmu *pmu)
{
	if (!pmu)
		return;
	for (size_t i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	for (size_t i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
	}
	free(pmu->formats);
	free(pmu->aliases);
	free(pmu->cpus);
	free(pmu->name);
	free(pmu);
}

/* format/NAME: where the term's bits go. 0 (name taken), or -1 to skip the file. */
static int load_format(void *item, char *name, const char *path)
{
	struct pmu_format *f = item;
	char buf[256];

	if (lupe_read_small_file(path, buf, sizeof(buf)) < 0 || format_parse(f, buf))
		return -1;
	f->name = name;
	return 0;
}

/* events/NAME: the terms the alias stands for. 0 (name taken), or -1 to skip the file. */
static int load_alias(void *item, char *name, const char *path)
{
	struct pmu_alias *a = item;
	size_t len;

	a->terms = lupe_read_whole_file(path, &len);
	if (!a->terms)
		return -1;
	while (len && (a->terms[len - 1] == '\n' || a->terms[len - 1] == ' '))
		a->terms[--len] = '\0';
	a->name = name;
	return 0;
}

/*
 * One item of size sz per file of dir, in name order, into *items (*nr
 * kept): load() fills an item from its file and takes the name, or
 * refuses it and the file is skipped. 0 or -ENOMEM.
 */
static int load_dir(const struct pmu *pmu, const char *dir, bool events_only, void **items,
		    size_t *nr_items, size_t sz,
		    int (*load)(void *item, char *name, const char *path))
{
	char path[2 * PATH_MAX];
	size_t nr;
	char **names = lupe_dir_names(dir, events_only, &nr);
	char *v;

	*items = NULL;
	if (!names)
		return errno == ENOMEM ? -ENOMEM : 0;
	*items = v = calloc(nr, sz);
	if (!v) {
		lupe_strv_free(names, nr);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		char *item = v + *nr_items * sz;

		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= (int)sizeof(path) ||
		    load(item, names[i], path)) {
			pr_debug("pmu %s: skipping '%s'", pmu->name, path);
			continue;
		}
		names[i] = NULL;
		(*nr_items)++;
	}
	lupe_strv_free(names, nr);
	return 0;
}

struct pmu *lupe_pmu_load(const char *name)
{
	char dir[PATH_MAX], path[2 * PATH_MAX], buf[256];
	struct pmu *pmu;
	void *items;
	char *end;
	int err;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return err_ptr(-ENOENT);
	if (snprintf(dir, sizeof(dir), "%s/%s", lupe_pmu_devices_dir(), name) >= (int)sizeof(dir))
		return err_ptr(-ENAMETOOLONG);
	snprintf(path, sizeof(path), "%s/type", dir);
	err = lupe_read_small_file(path, buf, sizeof(buf));
	if (err < 0)
		return err_ptr(err);
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu || !(pmu->name = strdup(name)))
		goto nomem;
	pmu->type = strtoul(buf, &end, 0);
	if (end == buf) {
		lupe_pmu_free(pmu);
		return err_ptr(-LUPE_ERR_FORMAT);
	}
	/* uncore PMUs name one CPU per package in cpumask, hybrid core PMUs theirs in cpus */
	snprintf(path, sizeof(path), "%s/cpumask", dir);
	if (lupe_read_small_file(path, buf, sizeof(buf)) <= 0) {
		snprintf(path, sizeof(path), "%s/cpus", dir);
		if (lupe_read_small_file(path, buf, sizeof(buf)) <= 0)
			buf[0] = '\0';
	}
	if (buf[0] && !(pmu->cpus = strdup(buf)))
		goto nomem;
	snprintf(path, sizeof(path), "%s/format", dir);
	err = load_dir(pmu, path, false, &items, &pmu->nr_formats, sizeof(*pmu->formats), load_format);
	pmu->formats = items;
	if (err)
		goto nomem;
	snprintf(path, sizeof(path), "%s/events", dir);
	err = load_dir(pmu, path, true, &items, &pmu->nr_aliases, sizeof(*pmu->aliases), load_alias);
	pmu->aliases = items;
	if (err)
		goto nomem;
	return pmu;
nomem:
	lupe_pmu_free(pmu);
	return err_ptr(-ENOMEM);
}

const struct pmu_format *lupe_pmu_format_find(const struct pmu *pmu, const char *name)
{
	for (size_t i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

const struct pmu_alias *lupe_pmu_alias_find(const struct pmu *pmu, const char *name)
{
	for (size_t i = 0; i < pmu->nr_aliases; i++)
		if (!strcasecmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}
