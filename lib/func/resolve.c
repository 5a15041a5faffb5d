// SPDX-License-Identifier: GPL-2.0
/*
 * From a --func SPEC to places to probe: the ELF file and the file offset
 * of each function it names (what a uprobe wants, so that PIE executables
 * and shared objects need no load address), or the two ends of a source
 * range. Symbols come from lib/symbols (the names perf shows, C++
 * demangled); the ELF and DWARF facts it lacks from func/elf and func/dwarf.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/func.h>
#include <lupe/session.h>
#include "func/func.h"
#include "symbols/symbols.h"
#include "util/util.h"

void lupe_func_spec_clear(struct lupe_func_spec *spec)
{
	free(spec->dso);
	free(spec->name);
	free(spec->file);
	memset(spec, 0, sizeof(*spec));
}

/* "file.c:120-140" or "file.c:120": a range when the part after the last ':' is lines. */
static int parse_lines(const char *s, int *lo, int *hi)
{
	char *end;
	long a, b;

	if (!isdigit((unsigned char)*s))
		return 0;
	a = strtol(s, &end, 10);
	b = a;
	if (*end == '-')
		b = strtol(end + 1, &end, 10);
	if (*end || a <= 0 || b < a || b > INT_MAX)
		return -1;
	*lo = (int)a;
	*hi = (int)b;
	return 1;
}

int lupe_func_spec_parse(const char *spec, struct lupe_func_spec *out)
{
	const char *colon;
	int r;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec)
		return -LUPE_ERR_PARSE;
	/* C++ names hold "::": split on a single ':' only */
	colon = NULL;
	for (const char *p = spec; *p; p++) {
		if (p[0] == ':' && p[1] == ':') {
			p++;
			continue;
		}
		if (*p == ':')
			colon = p;
	}
	if (!colon) {
		out->name = strdup(spec);
		return out->name ? 0 : -ENOMEM;
	}
	if (colon == spec || !colon[1])
		return -LUPE_ERR_PARSE;
	r = parse_lines(colon + 1, &out->line_lo, &out->line_hi);
	if (r < 0)
		return -LUPE_ERR_PARSE;
	if (r) {
		out->file = strndup(spec, colon - spec);
		return out->file ? 0 : -ENOMEM;
	}
	out->dso = strndup(spec, colon - spec);
	out->name = strdup(colon + 1);
	if (!out->dso || !out->name) {
		lupe_func_spec_clear(out);
		return -ENOMEM;
	}
	return 0;
}

void lupe_func_targets_delete(struct lupe_func_target *targets, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(targets[i].name);
		free(targets[i].path);
	}
	free(targets);
}

static int add_target(struct lupe_func_target **v, int *nr, const char *name, const char *path,
		      uint64_t entry, uint64_t exit)
{
	struct lupe_func_target *n = realloc(*v, (*nr + 1) * sizeof(**v));

	if (!n)
		return -ENOMEM;
	*v = n;
	n[*nr] = (struct lupe_func_target){ strdup(name), strdup(path), entry, exit };
	if (!n[*nr].name || !n[*nr].path) {
		free(n[*nr].name);
		free(n[*nr].path);
		return -ENOMEM;
	}
	(*nr)++;
	return 0;
}

/* A shared object named dso as the process maps it: "libc.so.6" matches ".../libc.so.6". */
static int find_in_maps(pid_t pid, const char *dso, char *out, size_t size)
{
	char path[64], line[4096];
	size_t ld = strlen(dso);
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/'), *base;
		size_t lp;

		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		base = strrchr(p, '/') + 1;
		lp = strlen(base);
		if (!strcmp(base, dso) || (lp > ld && !strncmp(base, dso, ld) && base[ld] == '.') ||
		    !strcmp(p, dso)) {
			snprintf(out, size, "%s", p);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/*
 * The file of a shared object by name, where the dynamic loader looks for
 * it. NEEDSWORK: the program's RUNPATH and ld.so.cache entries beyond the
 * default directories.
 */
static int find_library(const char *dso, char *out, size_t size)
{
	static const char *const dirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
		"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
		"/usr/local/lib",
	};
	const char *env = getenv("LD_LIBRARY_PATH");

	if (env) {
		char *copy = strdup(env), *save = NULL;

		for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save)) {
			snprintf(out, size, "%s/%s", d, dso);
			if (!access(out, R_OK)) {
				free(copy);
				return 1;
			}
		}
		free(copy);
	}
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(out, size, "%s/%s", dirs[i], dso);
		if (!access(out, R_OK))
			return 1;
	}
	return 0;
}

/* A program named without a slash is looked up on PATH, as execvp does. */
static int find_program(const char *exe, char *out, size_t size)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;

	if (strchr(exe, '/')) {
		if (!realpath(exe, out))
			return 0;
		return 1;
	}
	copy = strdup(path ? path : "/usr/bin:/bin");
	for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save)) {
		char tmp[PATH_MAX];

		snprintf(tmp, sizeof(tmp), "%s/%s", d, exe);
		if (!access(tmp, X_OK) && realpath(tmp, out)) {
			free(copy);
			return 1;
		}
	}
	free(copy);
	(void)size;
	return 0;
}

static int find_file(const struct lupe_func_spec *spec, const char *exe, pid_t pid, char *out,
		     size_t size)
{
	char buf[64];

	if (!spec->dso) {
		if (pid > 0) {
			ssize_t n;

			snprintf(buf, sizeof(buf), "/proc/%d/exe", (int)pid);
			n = readlink(buf, out, size - 1);
			if (n <= 0)
				return 0;
			out[n] = 0;
			return 1;
		}
		return exe && find_program(exe, out, size);
	}
	if (pid > 0 && find_in_maps(pid, spec->dso, out, size))
		return 1;
	if (strchr(spec->dso, '/')) {
		snprintf(out, size, "%s", spec->dso);
		return !access(out, R_OK);
	}
	return find_library(spec->dso, out, size);
}

static int vaddr_to_offset(const struct lupe_dso *dso, uint64_t vaddr, uint64_t *off)
{
	for (int i = 0; i < dso->nr_loads; i++) {
		if (vaddr >= dso->load_vaddr[i] && vaddr - dso->load_vaddr[i] < dso->load_size[i]) {
			*off = vaddr - dso->load_vaddr[i] + dso->load_off[i];
			return 1;
		}
	}
	return 0;
}

static void dso_release(struct lupe_dso *dso)
{
	lupe_dso_free_syms(dso);
	free(dso->load_off); /* one block with load_vaddr and load_size */
}

static int in_code(const struct func_elf *info, uint64_t vaddr)
{
	for (int i = 0; i < info->nr_x; i++)
		if (vaddr >= info->xlo[i] && vaddr < info->xhi[i])
			return 1;
	return 0;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, best;

	if (la > 128 || lb > 128)
		return SIZE_MAX;
	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], v = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			diag = up;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* Up to three names of code symbols closest to name, as "a, b, c". */
static void suggest(const struct lupe_dso *dso, const struct func_elf *info, const char *name,
		    char *hint, size_t size)
{
	const char *best[3] = { 0 };
	size_t dist[3] = { SIZE_MAX, SIZE_MAX, SIZE_MAX }, limit = strlen(name) / 3 + 2, len = 0;

	for (size_t i = 0; i < dso->nr_syms; i++) {
		const struct lupe_symbol *s = lupe_dso_symbol(dso, i);
		const char *n = s ? s->name : NULL;
		size_t d;

		if (!n)
			break; /* no memory for a compact table's symbol: fewer hints */
		if (!in_code(info, s->start) || strchr(n, '@'))
			continue;
		d = strstr(n, name) ? 1 : edit_distance(name, n);
		if (d > limit)
			continue;
		for (int k = 0; k < 3; k++) {
			if (best[k] && !strcmp(best[k], n))
				break;
			if (d < dist[k]) {
				memmove(&best[k + 1], &best[k], (2 - k) * sizeof(*best));
				memmove(&dist[k + 1], &dist[k], (2 - k) * sizeof(*dist));
				best[k] = n;
				dist[k] = d;
				break;
			}
		}
	}
	hint[0] = 0;
	for (int k = 0; k < 3 && best[k]; k++)
		len += snprintf(hint + len, len < size ? size - len : 0, "%s%s", k ? ", " : "", best[k]);
}

static int resolve_range(const struct lupe_func_spec *spec, const char *path, const char *text,
			 struct lupe_func_target **targets, int *nr, struct lupe_func_error *err)
{
	struct lupe_dso dso = { .long_name = (char *)path };
	uint64_t entry, exit, eoff, xoff;
	int ret = lupe_func_dwarf_range(path, spec->file, spec->line_lo, spec->line_hi, &entry, &exit);

	if (ret) {
		err->why = ret == -ENODATA ? LUPE_FUNC_NO_DWARF : LUPE_FUNC_NO_LINES;
		snprintf(err->subject, sizeof(err->subject), "%s", path);
		return -ENOENT;
	}
	ret = lupe_elf_load_dso(&dso, path);
	if (!ret && (!vaddr_to_offset(&dso, entry, &eoff) || !vaddr_to_offset(&dso, exit, &xoff)))
		ret = -LUPE_ERR_CORRUPT;
	if (!ret)
		ret = add_target(targets, nr, text, path, eoff, xoff);
	dso_release(&dso);
	return ret;
}

int lupe_func_resolve(const char *text, const char *exe, pid_t pid,
		      struct lupe_func_target **targets, int *nr, struct lupe_func_error *err)
{
	struct lupe_func_spec spec;
	struct lupe_dso dso = { 0 };
	struct func_elf info;
	char path[PATH_MAX];
	int ret, glob, found = 0;

	memset(err, 0, sizeof(*err));
	ret = lupe_func_spec_parse(text, &spec);
	if (ret)
		return ret;
	if (!find_file(&spec, exe, pid, path, sizeof(path))) {
		err->why = LUPE_FUNC_NO_DSO;
		snprintf(err->subject, sizeof(err->subject), "%s",
			 spec.dso ? spec.dso : exe ? exe : "?");
		ret = -ENOENT;
		goto out;
	}
	if (spec.file) {
		ret = resolve_range(&spec, path, text, targets, nr, err);
		goto out;
	}
	dso.long_name = path;
	ret = lupe_func_elf_info(path, &info);
	if (!ret)
		ret = lupe_elf_load_dso(&dso, path);
	if (ret)
		goto out;
	glob = strpbrk(spec.name, "*?[") != NULL;
	for (size_t i = 0; i < dso.nr_syms; i++) {
		const struct lupe_symbol *s = lupe_dso_symbol(&dso, i);
		uint64_t off;

		if (!s) {
			ret = -ENOMEM;
			goto out;
		}
		if (!in_code(&info, s->start) || strchr(s->name, '@'))
			continue;
		if (glob ? fnmatch(spec.name, s->name, 0) : strcmp(spec.name, s->name))
			continue;
		if (!vaddr_to_offset(&dso, s->start, &off))
			continue;
		ret = add_target(targets, nr, s->name, path, off, 0);
		if (ret)
			goto out;
		found++;
	}
	if (found)
		goto out;
	ret = -ENOENT;
	snprintf(err->subject, sizeof(err->subject), "%s", path);
	if (!glob && lupe_func_dwarf_inline_only(path, spec.name, err->hint, sizeof(err->hint)) > 0) {
		err->why = LUPE_FUNC_INLINE_ONLY;
	} else if (!info.has_symtab && !info.has_debuglink && !spec.dso) {
		err->why = LUPE_FUNC_STRIPPED;
	} else {
		err->why = LUPE_FUNC_UNKNOWN;
		if (!glob)
			suggest(&dso, &info, spec.name, err->hint, sizeof(err->hint));
	}
out:
	dso_release(&dso);
	lupe_func_spec_clear(&spec);
	return ret;
}
