// SPDX-License-Identifier: GPL-2.0
/*
 * Inflating a debug file's DWARF for libdw (see debug-image.h), in a
 * memfd: the file's bytes but the compressed sections' bodies, then each
 * inflated section, then a new section header table. The sections inflate
 * on the machine's CPUs (up to MAX_THREADS; .debug_info, the largest, on
 * one of them); the dropped location lists become SHT_NOBITS, which
 * libdw skips. libdeflate does the work when lupe is built with it
 * (inflate.h), else zlib's inflate, as in libelf: what is saved is the
 * location lists (a fifth of libc's), the Adler-32 sum (inflated as raw
 * deflate), with two CPUs the sections inflated beside .debug_info, and
 * with libdeflate about 40% of the rest: 232 M instructions on one CPU
 * with zlib before, 163 M on two (.debug_info's, the longest, about
 * 115 M of them) for libc's; 101 M with libdeflate (about 60 M for
 * .debug_info), still the longest step of a dwarf report's first lookups.
 *
 * Only 64-bit little-endian files with ELFCOMPRESS_ZLIB sections; anything
 * else (zstd sections, old .zdebug ones, a damaged header) is left to
 * libdw as it is.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <zlib.h>
#include <lupe/output.h>
#include <lupe/symbols.h>
#include "symbols/build-id.h"
#include "symbols/debug-image.h"
#include "symbols/inflate.h"
#include "util/phash.h"
#include "util/util.h"

#define MAX_THREADS 4
#define MAX_IMAGE (1ULL << 31) /* zlib counts in 32 bits */

struct job {
	const unsigned char *src;
	size_t src_len, dst_len;
	uint64_t off; /* in the image */
	size_t shndx;
	uint64_t align;
	int failed;
};

struct work {
	struct job *jobs;
	size_t nr, next;
	unsigned char *image;
};

/*
 * One section: its zlib stream inflated as raw deflate, past the 2-byte
 * header, so that zlib skips the Adler-32 sum of the output (uncompress()
 * spent a sixth of its time on it). 0 when it gave exactly dst_len bytes.
 */
static int inflate_one(const struct job *j, unsigned char *dst)
{
	z_stream zs = { 0 };
	int rc;

	if (j->src_len < 2 || (j->src[0] & 0x0f) != Z_DEFLATED || (j->src[1] & 0x20) ||
	    (j->src[0] * 256 + j->src[1]) % 31)
		return -1;
	rc = lupe_inflate_raw(j->src + 2, j->src_len - 2, dst, j->dst_len);
	if (rc != -ENOSYS)
		return rc;
	if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
		return -1;
	zs.next_in = (unsigned char *)j->src + 2;
	zs.avail_in = (uInt)(j->src_len - 2);
	zs.next_out = dst;
	zs.avail_out = (uInt)j->dst_len;
	rc = inflate(&zs, Z_FINISH);
	inflateEnd(&zs);
	return rc == Z_STREAM_END && zs.total_out == j->dst_len ? 0 : -1;
}

/*
 * Each section's pages, its compressed bytes' and its image's, are given
 * back once it is inflated: the image is a memfd's shared mapping, its
 * bytes stay in the memfd. libc's 12.6 MB image and 4 MB debug file were
 * resident whole at the end, the peak of a cold many-process `lupe
 * script`; now what the running inflates hold (.debug_info's 5.8 MB and
 * its 2.3 MB source, the largest).
 */
static void *inflate_jobs(void *arg)
{
	struct work *w = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) < w->nr) {
		struct job *j = &w->jobs[i];

		j->failed = inflate_one(j, w->image + j->off);
		lupe_pages_give_back((void *)j->src, j->src_len);
		lupe_pages_give_back(w->image + j->off, j->dst_len);
	}
	return NULL;
}

static int by_size_down(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	return x->dst_len < y->dst_len ? 1 : x->dst_len > y->dst_len ? -1 : 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	return x->src < y->src ? -1 : x->src > y->src;
}

/* Run the jobs on up to MAX_THREADS threads, this one included. 0 when all inflated. */
static int run(struct work *w)
{
	pthread_t th[MAX_THREADS - 1];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = 0, want = w->nr < MAX_THREADS ? w->nr : MAX_THREADS;

	if (cpus > 0 && (size_t)cpus < want)
		want = (size_t)cpus;
	qsort(w->jobs, w->nr, sizeof(*w->jobs), by_size_down);
	while (n + 1 < want && !pthread_create(&th[n], NULL, inflate_jobs, w))
		n++;
	inflate_jobs(w);
	while (n)
		pthread_join(th[--n], NULL);
	for (size_t i = 0; i < w->nr; i++) {
		if (w->jobs[i].failed)
			return -1;
	}
	return 0;
}

/*
 * The jobs of file f (size bytes), their image offsets from *end on, into
 * *jobs; which sections to drop into drop[]. The number of jobs, or -1:
 * leave the file to libdw.
 */
static long plan(const unsigned char *f, size_t size, struct job **jobs, unsigned char *drop, uint64_t *end)
{
	const Elf64_Ehdr *eh = (const void *)f;
	const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff), *strs = &sh[eh->e_shstrndx];
	struct job *v = calloc(eh->e_shnum, sizeof(*v));
	long nr = 0;

	if (!v || strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
		goto fail;
	for (size_t i = 0; i < eh->e_shnum; i++) {
		const char *name;
		const Elf64_Chdr *ch;

		/* no pointer past the file, even one not read (found by fuzz-debugimage) */
		if (sh[i].sh_name >= strs->sh_size)
			goto fail;
		name = (const char *)f + strs->sh_offset + sh[i].sh_name;
		if (!memchr(name, 0, strs->sh_size - sh[i].sh_name))
			goto fail;
		if (!strncmp(name, ".zdebug", 7))
			goto fail;
		if (!(sh[i].sh_flags & SHF_COMPRESSED) || sh[i].sh_type == SHT_NOBITS ||
		    strncmp(name, ".debug_", 7))
			continue;
		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset ||
		    sh[i].sh_size < sizeof(*ch) || sh[i].sh_offset % 8)
			goto fail;
		ch = (const void *)(f + sh[i].sh_offset);
		if (ch->ch_type != ELFCOMPRESS_ZLIB || ch->ch_size > MAX_IMAGE)
			goto fail;
		if (!strcmp(name, ".debug_loc") || !strcmp(name, ".debug_loclists")) {
			drop[i] = 1;
			continue;
		}
		*end = (*end + 7) & ~7ULL;
		v[nr++] = (struct job){ f + sh[i].sh_offset + sizeof(*ch), sh[i].sh_size - sizeof(*ch),
					ch->ch_size, *end, i, ch->ch_addralign ? ch->ch_addralign : 1, 0 };
		*end += ch->ch_size;
		if (*end > MAX_IMAGE)
			goto fail;
	}
	*jobs = v;
	return nr;
fail:
	free(v);
	return -1;
}

/* Copy f's bytes into img but the compressed bodies of the jobs' sections. */
static void copy_rest(unsigned char *img, const unsigned char *f, size_t size, struct job *jobs, size_t nr)
{
	size_t at = 0;

	qsort(jobs, nr, sizeof(*jobs), by_offset);
	for (size_t i = 0; i < nr; i++) {
		size_t from = (size_t)(jobs[i].src - f) - sizeof(Elf64_Chdr);

		if (from > at)
			memcpy(img + at, f + at, from - at);
		if (from + sizeof(Elf64_Chdr) + jobs[i].src_len > at)
			at = from + sizeof(Elf64_Chdr) + jobs[i].src_len;
	}
	if (size > at)
		memcpy(img + at, f + at, size - at);
}

static void cache_write(const char *path, const unsigned char *img, size_t size, uint64_t key, mode_t mode);

/* The image of f (size bytes) in a memfd, or -1; written to cache (a path, or NULL) too. */
static int image(const unsigned char *f, size_t size, const char *cache, uint64_t key, mode_t mode)
{
	const Elf64_Ehdr *eh = (const void *)f;
	unsigned char *drop = NULL, *img = MAP_FAILED;
	struct work w = { 0 };
	uint64_t end = size, shoff, total = 0;
	Elf64_Shdr *sh;
	long nr;
	int mfd = -1;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shnum ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff % 8 || eh->e_shoff > size ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size - eh->e_shoff)
		return -1;
	drop = calloc(eh->e_shnum, 1);
	if (!drop)
		return -1;
	nr = plan(f, size, &w.jobs, drop, &end);
	if (nr <= 0)
		goto out;
	w.nr = (size_t)nr;
	shoff = (end + 7) & ~7ULL;
	total = shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr);
	mfd = memfd_create("lupe-debug", MFD_CLOEXEC);
	if (mfd < 0 || ftruncate(mfd, (off_t)total) ||
	    (img = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0)) == MAP_FAILED)
		goto fail;
	copy_rest(img, f, size, w.jobs, w.nr);
	lupe_pages_give_back(img, size);
	lupe_pages_give_back((void *)f, size);
	w.image = img;
	if (run(&w))
		goto fail;
	sh = (Elf64_Shdr *)(img + shoff);
	memcpy(sh, f + eh->e_shoff, eh->e_shnum * sizeof(*sh));
	for (size_t i = 0; i < w.nr; i++) {
		Elf64_Shdr *s = &sh[w.jobs[i].shndx];

		s->sh_offset = w.jobs[i].off;
		s->sh_size = w.jobs[i].dst_len;
		s->sh_addralign = w.jobs[i].align;
		s->sh_flags &= ~(uint64_t)SHF_COMPRESSED;
	}
	for (size_t i = 0; i < eh->e_shnum; i++) {
		if (drop[i]) {
			sh[i].sh_type = SHT_NOBITS;
			sh[i].sh_flags &= ~(uint64_t)SHF_COMPRESSED;
			sh[i].sh_size = 0;
		}
	}
	((Elf64_Ehdr *)img)->e_shoff = shoff;
	if (cache)
		cache_write(cache, img, total, key, mode);
	goto out;
fail:
	if (mfd >= 0)
		close(mfd);
	mfd = -1;
out:
	if (img != MAP_FAILED)
		munmap(img, total);
	free(w.jobs);
	free(drop);
	return mfd;
}

/*
 * The cache of images (debug-image.h): DIR/<build-id>-<key>, the image
 * then this trailer. key is a hash of what the image is made from (the
 * source's size, ELF header and section headers) and of how (VERSION):
 * the same build-id in the binary and in its debug file, or the debug
 * file compressed another way, are other images.
 */
#define CACHE_MAGIC "LUPEIMG1"
#define CACHE_LAYOUT 1

struct trailer {
	char magic[8];
	uint64_t size; /* of the image before it */
	uint64_t key;
	uint32_t crc;  /* CRC-32 of the image */
	uint32_t zero;
};

#define CRC_STEP (1u << 20)

/*
 * The CRC-32 of p[0..len) (a mapping of a file or of the memfd), a MiB at
 * a time, each MiB's pages given back once summed: checking libc's 12 MB
 * cached image mapped it whole, the peak of a warm many-process `lupe
 * script` (22 MB, 12.4 MB of it the image, at its first libc lookup).
 */
static uint32_t crc_of(const unsigned char *p, size_t len)
{
	uint32_t crc = 0;

	lupe_pages_fine((void *)p, len);
	for (size_t o = 0; o < len; o += CRC_STEP) {
		size_t n = len - o < CRC_STEP ? len - o : CRC_STEP;

		if (lupe_crc32(p + o, n, &crc))
			crc = (uint32_t)crc32_z(crc, p + o, n);
		lupe_pages_give_back((void *)(p + o), n);
	}
	return crc;
}

/* The build-id of f (size bytes, its headers checked by image()'s caller) into id: its length or -1. */
static int build_id(const unsigned char *f, size_t size, uint8_t *id)
{
	const Elf64_Ehdr *eh = (const void *)f;
	const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);

	for (size_t i = 0; i < eh->e_shnum; i++) {
		int len;

		if (sh[i].sh_type != SHT_NOTE || sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			continue;
		len = lupe_build_id_from_notes(f + sh[i].sh_offset, sh[i].sh_size, id);
		if (len > 0)
			return len;
	}
	return -1;
}

/*
 * The cache file's name for f into path (PATH_MAX), and its key: 0, or
 * -1 when there is no cache (LUPE_IMAGE_CACHE set empty, no build-id).
 */
static int cache_name(const unsigned char *f, size_t size, char *path, uint64_t *key)
{
	const Elf64_Ehdr *eh = (const void *)f;
	char name[2 * BUILD_ID_MAX + 18];
	uint8_t id[BUILD_ID_MAX];
	uint64_t k = LUPE_PHASH_SEED, v = CACHE_LAYOUT;
	int len;

	len = build_id(f, size, id);
	if (len <= 0)
		return -1;
	lupe_build_id_hex(id, len, name);
	k = lupe_phash_bytes(k, &v, sizeof(v));
	v = size;
	k = lupe_phash_bytes(k, &v, sizeof(v));
	k = lupe_phash_bytes(k, eh, sizeof(*eh));
	k = lupe_phash_bytes(k, f + eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr));
	*key = k;
	snprintf(name + 2 * len, sizeof(name) - 2 * (size_t)len, "-%016llx", (unsigned long long)k);
	return lupe_cache_path(path, "LUPE_IMAGE_CACHE", ".lupe-image", name);
}

/*
 * A cache file whose CRC was found right carries this extended attribute:
 * its modification time, size and CRC then. The next read that finds them
 * the same does not sum the image again: summing libc's 12 MB image was
 * 4 ms of every warm one-process report's 34. A write to the file (a byte
 * flipped by dd, as the test does) changes its modification time, and the
 * file is summed again; a file changed behind a restored time is not
 * noticed. Without extended attributes (the file system says no) every
 * read sums.
 */
#define CHECKED_XATTR "user.lupe.checked"

struct checked {
	int64_t sec, nsec;
	uint64_t size;
	uint64_t crc;
};

static struct checked checked_of(const struct stat *st, uint32_t crc)
{
	return (struct checked){ st->st_mtim.tv_sec, st->st_mtim.tv_nsec, (uint64_t)st->st_size, crc };
}

/*
 * The cached image at path, checked whole (its trailer's size, key and
 * CRC, its section headers inside it; the CRC only when the file changed
 * since it was last found right, CHECKED_XATTR): an fd on it, or -1 when
 * there is none or it is damaged (the caller inflates, and the cache is
 * written anew). A file of another user (but root) is not read.
 */
static int cache_read(const char *path, uint64_t key)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	const unsigned char *m;
	const struct trailer *t;
	const Elf64_Ehdr *eh;
	struct checked was, now;
	size_t size;
	int ok, summed = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (st.st_uid && st.st_uid != geteuid()) ||
	    (uint64_t)st.st_size < sizeof(Elf64_Ehdr) + sizeof(*t) || (uint64_t)st.st_size > MAX_IMAGE)
		goto refuse;
	size = (size_t)st.st_size - sizeof(*t);
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		goto refuse;
	t = (const void *)(m + size);
	eh = (const void *)m;
	ok = !memcmp(t->magic, CACHE_MAGIC, 8) && t->size == size && t->key == key && !t->zero &&
	     !memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_shentsize == sizeof(Elf64_Shdr) &&
	     eh->e_shoff <= size && (size_t)eh->e_shnum * sizeof(Elf64_Shdr) == size - eh->e_shoff;
	now = checked_of(&st, ok ? t->crc : 0);
	if (ok && (fgetxattr(fd, CHECKED_XATTR, &was, sizeof(was)) != sizeof(was) || memcmp(&was, &now, sizeof(now)))) {
		ok = crc_of(m, size) == t->crc;
		summed = 1;
	}
	munmap((void *)m, (size_t)st.st_size);
	if (ok) {
		/* not marked (no extended attributes here, or not the owner): summed again next time */
		if (summed)
			fsetxattr(fd, CHECKED_XATTR, &now, sizeof(now), 0);
		pr_debug("debug image: %s from the cache%s", path, summed ? "" : " (checked before)");
		return fd;
	}
refuse:
	pr_debug("debug image: %s is damaged: inflating again", path);
	close(fd);
	return -1;
}

/*
 * img (size bytes) and its trailer into the cache at path, through
 * lupe_output_open(): written whole under a temporary name, then renamed;
 * never into what is not a regular file. Mode 0644 as perf's cache, 0600
 * when the source is not for everyone to read. Failing is not an error:
 * the next read inflates again.
 */
static void cache_write(const char *path, const unsigned char *img, size_t size, uint64_t key, mode_t mode)
{
	struct trailer t = { CACHE_MAGIC, size, key, crc_of(img, size), 0 };
	struct lupe_output o;
	const unsigned char *p[2] = { img, (const void *)&t };
	size_t len[2] = { size, sizeof(t) };
	int err = 0;

	if (lupe_cache_file_open(&o, path, (mode & 0044) != 0044))
		return;
	/* a MiB at a time, each given back once written (img is a mapping of the memfd) */
	for (int i = 0; i < 2 && !err; i++) {
		for (size_t at = 0; at < len[i] && !err;) {
			size_t want = len[i] - at < CRC_STEP ? len[i] - at : CRC_STEP;
			ssize_t n = write(o.fd, p[i] + at, want);

			if (n <= 0) {
				err = n < 0 ? -errno : -EIO;
				break;
			}
			if (i == 0)
				lupe_pages_give_back((void *)(p[i] + at), (size_t)n);
			at += (size_t)n;
		}
	}
	lupe_cache_file_close(&o, err, "debug image");
}

int lupe_debug_image(int fd)
{
	struct stat st;
	const Elf64_Ehdr *eh;
	char path[PATH_MAX];
	uint64_t key = 0;
	void *f;
	int mfd, named = 0, cached;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
	    (uint64_t)st.st_size > MAX_IMAGE)
		return fd;
	f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (f == MAP_FAILED)
		return fd;
	eh = f;
	/* the cache's name needs the section headers: only for a file image() would rewrite */
	if (!memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	    eh->e_ident[EI_DATA] == ELFDATA2LSB && eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shnum &&
	    eh->e_shoff % 8 == 0 && eh->e_shoff <= (uint64_t)st.st_size &&
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) <= (size_t)st.st_size - eh->e_shoff &&
	    (named = !cache_name(f, (size_t)st.st_size, path, &key)) && (cached = cache_read(path, key)) >= 0) {
		munmap(f, (size_t)st.st_size);
		close(fd);
		return cached;
	}
	mfd = image(f, (size_t)st.st_size, named ? path : NULL, key, st.st_mode);
	munmap(f, (size_t)st.st_size);
	if (mfd < 0)
		return fd;
	close(fd);
	return mfd;
}
