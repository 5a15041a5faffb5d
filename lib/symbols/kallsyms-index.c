// SPDX-License-Identifier: GPL-2.0
/*
 * The kallsyms index cache (kallsyms-index.h): DIR/<path hash>-<key>, a
 * header then the caller's bytes. DIR is LUPE_KALLSYMS_CACHE, else
 * .lupe-kallsyms in the build-id cache directory (~/.debug). key hashes
 * the kallsyms file's size, modification time, device and inode and the
 * layout (VERSION): a file written again is another index. The bytes are
 * summed (a 64-bit multiply-xor over 8-byte words: a MiB in about 0.2 ms)
 * so that a damaged index is parsed anew rather than trusted; the caller
 * checks what it reads too, as it would a file it parsed. Mode 0600: the
 * addresses are what kptr_restrict hides from other users.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lupe/output.h>
#include <lupe/symbols.h>
#include "symbols/build-id.h"
#include "symbols/kallsyms-index.h"
#include "util/phash.h"
#include "util/util.h"

#define INDEX_MAGIC "LUPEKSY1"
#define VERSION 1
#define INDEX_MAX (256u << 20)

struct header {
	char magic[8];
	uint64_t key;
	uint64_t len; /* of the bytes after the header */
	uint64_t sum;
};

static uint64_t sum64(const unsigned char *p, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return lupe_phash_bytes(h, p + i, len - i);
}

/* The index's file name for the kallsyms file at path into out (PATH_MAX), and its key: 0, or -1 (no cache). */
static int index_name(const char *path, const struct stat *st, char *out, uint64_t *key)
{
	uint64_t v[7] = { VERSION, (uint64_t)st->st_size, (uint64_t)st->st_mtim.tv_sec,
			  (uint64_t)st->st_mtim.tv_nsec, (uint64_t)st->st_dev, (uint64_t)st->st_ino, 0 };
	char name[40];

	*key = lupe_phash_bytes(LUPE_PHASH_SEED, v, sizeof(v));
	snprintf(name, sizeof(name), "%016llx-%016llx",
		 (unsigned long long)lupe_phash_bytes(LUPE_PHASH_SEED, path, strlen(path)),
		 (unsigned long long)*key);
	return lupe_cache_path(out, "LUPE_KALLSYMS_CACHE", ".lupe-kallsyms", name);
}

void *lupe_kallsyms_index_read(const char *path, const struct stat *st, size_t *len)
{
	char name[PATH_MAX];
	struct header h;
	struct stat is;
	uint64_t key;
	unsigned char *p = NULL;
	int fd;

	if (index_name(path, st, name, &key))
		return NULL;
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	/* a file of another user (but root) is not read */
	if (fstat(fd, &is) || !S_ISREG(is.st_mode) || (is.st_uid && is.st_uid != geteuid()) ||
	    (uint64_t)is.st_size < sizeof(h) || (uint64_t)is.st_size > INDEX_MAX ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || memcmp(h.magic, INDEX_MAGIC, 8) ||
	    h.key != key || h.len != (uint64_t)is.st_size - sizeof(h) || !(p = malloc(h.len ? h.len : 1)) ||
	    pread(fd, p, h.len, sizeof(h)) != (ssize_t)h.len || sum64(p, h.len) != h.sum) {
		pr_debug("kallsyms index: %s is damaged: parsing '%s' again", name, path);
		free(p);
		close(fd);
		return NULL;
	}
	close(fd);
	pr_debug("kallsyms index: %s from the cache", name);
	*len = h.len;
	return p;
}

void lupe_kallsyms_index_write(const char *path, const struct stat *st, const void *p, size_t len)
{
	char name[PATH_MAX];
	struct lupe_output o;
	struct header h = { INDEX_MAGIC, 0, len, sum64(p, len) };
	int err = 0;

	if (index_name(path, st, name, &h.key) || lupe_cache_file_open(&o, name, 1))
		return;
	if (write(o.fd, &h, sizeof(h)) != (ssize_t)sizeof(h) || write(o.fd, p, len) != (ssize_t)len)
		err = -EIO;
	lupe_cache_file_close(&o, err, "kallsyms index");
}
