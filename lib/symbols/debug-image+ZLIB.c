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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "symbols/debug-image.h"
#include "symbols/inflate.h"

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

static void *inflate_jobs(void *arg)
{
	struct work *w = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) < w->nr)
		w->jobs[i].failed = inflate_one(&w->jobs[i], w->image + w->jobs[i].off);
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

static int image(const unsigned char *f, size_t size)
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

int lupe_debug_image(int fd)
{
	struct stat st;
	void *f;
	int mfd;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
	    (uint64_t)st.st_size > MAX_IMAGE)
		return fd;
	f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (f == MAP_FAILED)
		return fd;
	mfd = image(f, (size_t)st.st_size);
	munmap(f, (size_t)st.st_size);
	if (mfd < 0)
		return fd;
	close(fd);
	return mfd;
}
