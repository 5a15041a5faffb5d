// SPDX-License-Identifier: GPL-2.0
/*
 * The build-id cache, in perf's layout, so that perf and lupe share one:
 *
 *   DIR/<realpath of the file>/<build-id hex>/elf      a hard link or a copy
 *   DIR/[kernel.kallsyms]/<hex>/kallsyms               /proc/kallsyms then
 *   DIR/[vdso]/<hex>/vdso                              the vdso image of our memory
 *   DIR/.build-id/<2 hex>/<38 hex> -> ../../<realpath>/<hex>
 *
 * DIR is --buildid-dir, else perf's config key buildid.dir (in $PERF_CONFIG,
 * or ~/.perfconfig over /etc/perfconfig), else ~/.debug. A report that finds
 * a build-id in perf.data can open the very binary that was profiled, even
 * after the file on disk changed. Cost: one link (or copy) per new DSO.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lupe/config.h>
#include <lupe/output.h>
#include <lupe/symbols.h>
#include "symbols/build-id.h"
#include "util/util.h"

static char buildid_dir[PATH_MAX];

void lupe_buildid_dir_set(const char *dir)
{
	snprintf(buildid_dir, sizeof(buildid_dir), "%s", dir ? dir : "");
}

const char *lupe_buildid_dir(void)
{
	const char *home = getenv("HOME"), *files[2], *v;
	struct lupe_config *cfg;
	int n;

	if (buildid_dir[0])
		return buildid_dir;
	/* perf's config files, a later one over an earlier; a broken one counts to its bad line */
	if ((cfg = lupe_config_new())) {
		n = lupe_config_files(files, 2);
		for (int i = 0; i < n; i++)
			lupe_config_read(cfg, files[i], NULL);
		if ((v = lupe_config_get(cfg, "buildid.dir")))
			snprintf(buildid_dir, sizeof(buildid_dir), "%s", v);
		lupe_config_delete(cfg);
	}
	if (!buildid_dir[0])
		snprintf(buildid_dir, sizeof(buildid_dir), "%s/.debug", home ? home : "");
	return buildid_dir;
}

static int isxdigit_str(const char *s)
{
	return strspn(s, "0123456789abcdef") == strlen(s);
}

int lupe_mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int lupe_cache_path(char *out, const char *env, const char *sub, const char *name)
{
	const char *dir = getenv(env);
	int n;

	if (dir && !*dir)
		return -1;
	n = dir ? snprintf(out, PATH_MAX, "%s/%s", dir, name)
		: snprintf(out, PATH_MAX, "%s/%s/%s", lupe_buildid_dir(), sub, name);
	return n > 0 && n < PATH_MAX ? 0 : -1;
}

int lupe_cache_file_open(struct lupe_output *o, const char *path, int private)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		return -1;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (lupe_mkdir_p(dir))
			return -1;
	}
	if (lupe_output_open(o, path, LUPE_OUTPUT_REPLACE | (private ? LUPE_OUTPUT_PRIVATE : 0)))
		return -1;
	if (o->in_place) {
		close(o->fd);
		lupe_output_release(o);
		return -1;
	}
	return 0;
}

void lupe_cache_file_close(struct lupe_output *o, int err, const char *what)
{
	if (close(o->fd) && !err)
		err = -errno;
	if (err || lupe_output_commit(o))
		lupe_output_abort(o);
	else
		pr_debug("%s: %s written to the cache", what, o->path);
	lupe_output_release(o);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;
	struct stat st;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st))
		st.st_mode = 0644;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st.st_mode & 0777);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			err = errno ? -errno : -EIO;
			break;
		}
	if (n < 0)
		err = -errno;
	close(in);
	if (close(out) && !err)
		err = -errno;
	if (err)
		unlink(to);
	return err;
}

/* The vdso image we map (the one every 64-bit process maps) into the file to. */
static int write_vdso(const char *to)
{
	const void *image;
	size_t size;
	ssize_t n;
	int fd, err = lupe_vdso_image(&image, &size);

	if (err)
		return err;
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	n = write(fd, image, size);
	err = n == (ssize_t)size ? 0 : n < 0 ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (err)
		unlink(to);
	return err;
}

/*
 * The cache names of a DSO: its folder holds "elf" (or "kallsyms"). A file
 * read from elsewhere (another mount namespace's, through /proc/PID/root)
 * keeps the name its process gave it: the kernel's, already canonical.
 */
static int cache_names(const char *name, int as_is, const char *hex, char *dir, char *link)
{
	const char *base = lupe_buildid_dir();
	char real[PATH_MAX];

	if (name[0] == '[') {
		snprintf(real, sizeof(real), "/%s", name);
	} else if (as_is) {
		snprintf(real, sizeof(real), "%s", name);
	} else if (!realpath(name, real)) {
		return -errno;
	}
	if ((size_t)snprintf(dir, PATH_MAX, "%s%s/%s", base, real, hex) >= PATH_MAX ||
	    (size_t)snprintf(link, PATH_MAX, "%s/.build-id/%.2s/%s", base, hex, hex + 2) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int lupe_buildid_cache_add(const char *name, const uint8_t *id, int len)
{
	return lupe_buildid_cache_add_from(name, NULL, id, len);
}

int lupe_buildid_cache_add_from(const char *name, const char *from, const uint8_t *id, int len)
{
	char hex[2 * BUILD_ID_MAX + 1], dir[PATH_MAX], lnk[PATH_MAX], file[PATH_MAX + 16],
		target[PATH_MAX + 8], *slash;
	int kallsyms = !strcmp(name, "[kernel.kallsyms]"), vdso = !strcmp(name, "[vdso]"), err;
	const char *src = kallsyms ? "/proc/kallsyms" : from ? from : name;
	struct stat st;

	if (len <= 0 || len > BUILD_ID_MAX)
		return -EINVAL;
	lupe_build_id_hex(id, len, hex);
	err = cache_names(name, from && strcmp(from, name), hex, dir, lnk);
	if (err)
		return err;
	if ((err = lupe_mkdir_p(dir)))
		return err;
	snprintf(file, sizeof(file), "%s/%s", dir, kallsyms ? "kallsyms" : vdso ? "vdso" : "elf");
	if (stat(file, &st)) {
		/* a hard link costs nothing; across file systems (or for /proc) copy */
		if (vdso)
			err = write_vdso(file);
		else if (kallsyms || link(src, file))
			err = copy_file(src, file);
		if (err)
			return err;
	}
	slash = strrchr(lnk, '/');
	*slash = '\0';
	err = lupe_mkdir_p(lnk);
	*slash = '/';
	if (err)
		return err;
	/* relative, as perf makes it: the cache can move whole */
	snprintf(target, sizeof(target), "../..%s", dir + strlen(lupe_buildid_dir()));
	if (symlink(target, lnk) && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_rf(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char sub[PATH_MAX];

	if (!d)
		return unlink(path) ? -errno : 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			rm_rf(sub);
		else
			unlink(sub);
	}
	closedir(d);
	return rmdir(path) ? -errno : 0;
}

int lupe_buildid_cache_remove(const char *hex)
{
	char lnk[PATH_MAX], target[PATH_MAX], dir[2 * PATH_MAX];
	ssize_t n;

	if (strlen(hex) < 3 || !isxdigit_str(hex))
		return -EINVAL;
	snprintf(lnk, sizeof(lnk), "%s/.build-id/%.2s/%s", lupe_buildid_dir(), hex, hex + 2);
	n = readlink(lnk, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s/%s", lupe_buildid_dir(), hex, target);
	if (unlink(lnk))
		return -errno;
	return rm_rf(dir);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The name the cache entry of link stands for, into out; 0 if it is whole. */
static int entry_origin(const char *link, const char *hex, char *out, size_t size)
{
	char target[PATH_MAX], *dir, file[PATH_MAX + 16];
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	size_t hl = strlen(hex), tl;
	static const char *const kinds[] = { "elf", "kallsyms", "vdso" };

	if (n <= 0)
		return -ENOENT;
	target[n] = '\0';
	tl = (size_t)n;
	if (strncmp(target, "../..", 5) || tl < 5 + hl + 1 || strcmp(target + tl - hl, hex) ||
	    target[tl - hl - 1] != '/')
		return -ENOENT;
	dir = strdup(link);
	if (!dir)
		return -ENOMEM;
	*strrchr(dir, '/') = '\0';
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s/%s", dir, target, kinds[k]);
		if (!stat(file, &st)) {
			target[tl - hl - 1] = '\0';
			/* "/[kernel.kallsyms]" is the name "[kernel.kallsyms]" */
			snprintf(out, size, "%s", target + 5 + (target[6] == '['));
			free(dir);
			return 0;
		}
	}
	free(dir);
	return -ENOENT;
}

int lupe_buildid_cache_list(int (*fn)(void *arg, const char *hex, const char *name), void *arg)
{
	char path[PATH_MAX], link[PATH_MAX + 300], hex[2 * BUILD_ID_MAX + 1], name[PATH_MAX];
	char **ids = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *e, *f;
	DIR *top, *sub;
	int err = 0;

	snprintf(path, sizeof(path), "%s/.build-id", lupe_buildid_dir());
	top = opendir(path);
	if (!top)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (e = readdir(top))) {
		char subpath[PATH_MAX + 300];

		if (strlen(e->d_name) != 2 || !isxdigit_str(e->d_name))
			continue;
		snprintf(subpath, sizeof(subpath), "%s/%s", path, e->d_name);
		sub = opendir(subpath);
		if (!sub)
			continue;
		while ((f = readdir(sub))) {
			char *s;

			if (f->d_name[0] == '.' || strlen(f->d_name) > 2 * BUILD_ID_MAX - 2)
				continue;
			if (nr == alloc) {
				char **n = realloc(ids, (alloc = alloc ? 2 * alloc : 64) * sizeof(*n));

				if (!n) {
					err = -ENOMEM;
					break;
				}
				ids = n;
			}
			if (asprintf(&s, "%s%s", e->d_name, f->d_name) < 0) {
				err = -ENOMEM;
				break;
			}
			ids[nr++] = s;
		}
		closedir(sub);
	}
	closedir(top);
	if (nr)
		qsort(ids, nr, sizeof(*ids), cmp_str);
	for (size_t i = 0; i < nr; i++) {
		snprintf(hex, sizeof(hex), "%s", ids[i]);
		snprintf(link, sizeof(link), "%s/%.2s/%s", path, hex, hex + 2);
		if (!err && !entry_origin(link, hex, name, sizeof(name)))
			err = fn(arg, hex, name);
		free(ids[i]);
	}
	free(ids);
	return err;
}

int lupe_buildid_cache_has(const char *hex)
{
	char link[PATH_MAX + 64], name[PATH_MAX];

	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", lupe_buildid_dir(), hex, hex + 2);
	return !entry_origin(link, hex, name, sizeof(name));
}

int lupe_build_id_of(const char *path, uint8_t *id)
{
	if (!strcmp(path, "[kernel.kallsyms]"))
		return lupe_build_id_kernel(id);
	if (!strcmp(path, "[vdso]"))
		return lupe_build_id_vdso(id);
	return lupe_build_id_read(path, id);
}

void lupe_build_id_to_hex(const uint8_t *id, int len, char *out)
{
	lupe_build_id_hex(id, len, out);
}
