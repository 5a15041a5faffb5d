// SPDX-License-Identifier: GPL-2.0
/*
 * lupe_debug_image(): this test binary's own DWARF (built with -g),
 * compressed by objcopy, comes back inflated byte for byte, with no
 * compressed .debug_* section left and the location lists dropped; files
 * it cannot rewrite (not ELF, cut short, nothing compressed) come back as
 * the fd given, as every file does in a build without zlib. The second
 * image of a file comes from the cache (LUPE_IMAGE_CACHE, a folder of
 * this test), the same bytes; a damaged cache file is refused and made
 * anew.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <dirent.h>
#include "symbols/debug-image.h"

struct img {
	unsigned char *p;
	size_t size;
};

static struct img map_fd(int fd)
{
	struct stat st;
	struct img m = { NULL, 0 };

	if (fstat(fd, &st) || !st.st_size)
		return m;
	m.p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	m.size = m.p == MAP_FAILED ? 0 : (size_t)st.st_size;
	if (m.p == MAP_FAILED)
		m.p = NULL;
	return m;
}

/* Section name's header in m, else NULL. */
static const Elf64_Shdr *section(struct img m, const char *name)
{
	const Elf64_Ehdr *eh = (const void *)m.p;
	const Elf64_Shdr *sh = (const void *)(m.p + eh->e_shoff);
	const char *strs = (const char *)m.p + sh[eh->e_shstrndx].sh_offset;

	for (int i = 0; i < eh->e_shnum; i++) {
		if (!strcmp(strs + sh[i].sh_name, name))
			return &sh[i];
	}
	return NULL;
}

static char tmp[64], cache[64];
static int have_zlib;

static int setup(void **state)
{
	char cmd[512];
	int fd;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/lupe-debug-image.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "objcopy --compress-debug-sections=zlib /proc/%d/exe %s 2>/dev/null",
		 (int)getpid(), tmp);
	if (system(cmd))
		return -1;
	fd = open(tmp, O_RDONLY);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	unlink(tmp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", cache);
	if (system(cmd))
		return -1;
	return 0;
}

static void test_inflated(void **state)
{
	static const char *const names[] = { ".debug_info", ".debug_abbrev", ".debug_line", ".debug_str" };
	int fd = open(tmp, O_RDONLY | O_CLOEXEC), self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), ifd;
	struct img orig, z, im;
	const Elf64_Shdr *s;

	(void)state;
	assert_true(fd >= 0 && self >= 0);
	z = map_fd(fd);
	assert_non_null(z.p);
	s = section(z, ".debug_info");
	assert_non_null(s);
	assert_true(s->sh_flags & SHF_COMPRESSED); /* the fixture is what it should be */
	ifd = lupe_debug_image(fd);
	if (!have_zlib) {
		assert_int_equal(ifd, fd);
		munmap(z.p, z.size);
		close(fd);
		close(self);
		return;
	}
	assert_true(ifd >= 0);
	assert_int_not_equal(ifd, fd);
	im = map_fd(ifd);
	orig = map_fd(self);
	assert_non_null(im.p);
	assert_non_null(orig.p);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const Elf64_Shdr *a = section(orig, names[i]), *b = section(im, names[i]);

		assert_non_null(a);
		assert_non_null(b);
		assert_false(b->sh_flags & SHF_COMPRESSED);
		assert_int_equal(a->sh_size, b->sh_size);
		assert_true(b->sh_offset + b->sh_size <= im.size);
		assert_memory_equal(orig.p + a->sh_offset, im.p + b->sh_offset, a->sh_size);
	}
	s = section(im, ".debug_loclists");
	if (!s)
		s = section(im, ".debug_loc");
	if (s)
		assert_int_equal(s->sh_type, SHT_NOBITS);
	/* the rest of the file is the file's: its build-id note where it was */
	s = section(im, ".note.gnu.build-id");
	if (s)
		assert_memory_equal(z.p + section(z, ".note.gnu.build-id")->sh_offset, im.p + s->sh_offset, s->sh_size);
	munmap(z.p, z.size);
	munmap(im.p, im.size);
	munmap(orig.p, orig.size);
	close(ifd);
	close(self);
}

static void test_left_alone(void **state)
{
	char path[64];
	unsigned char head[4096];
	int fd, src;

	(void)state;
	assert_int_equal(lupe_debug_image(-1), -1);
	/* nothing compressed: this very binary */
	fd = open("/proc/self/exe", O_RDONLY);
	assert_int_equal(lupe_debug_image(fd), fd);
	close(fd);
	/* not ELF */
	snprintf(path, sizeof(path), "/tmp/lupe-debug-image-bad.%d", (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not an ELF file at all, not at all, no", 38), 38);
	assert_int_equal(lupe_debug_image(fd), fd);
	/* the compressed file cut after its first 4 KiB: headers out of the file */
	src = open(tmp, O_RDONLY);
	assert_true(src >= 0);
	assert_int_equal(read(src, head, sizeof(head)), (ssize_t)sizeof(head));
	close(src);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, head, sizeof(head), 0), (ssize_t)sizeof(head));
	assert_int_equal(lupe_debug_image(fd), fd);
	close(fd);
	unlink(path);
}

/* What fd is open on, into buf. */
static const char *fd_path(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

/* The one file in the cache folder into path; how many there are. */
static int cache_files(char *path, size_t size)
{
	DIR *d = opendir(cache);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, size, "%s/%s", cache, e->d_name);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

static void test_cached(void **state)
{
	char cmd[128], file[512], where[512];
	struct img a, b, c;
	int fd;

	(void)state;
	if (!have_zlib)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", cache);
	assert_int_equal(system(cmd), 0);
	/* the first image is inflated, and written to the cache */
	fd = lupe_debug_image(open(tmp, O_RDONLY | O_CLOEXEC));
	assert_true(fd >= 0);
	assert_non_null(strstr(fd_path(fd, where, sizeof(where)), "memfd:"));
	a = map_fd(fd);
	close(fd);
	assert_non_null(a.p);
	assert_int_equal(cache_files(file, sizeof(file)), 1);
	/* the second comes from it: the image, then its 32-byte trailer */
	fd = lupe_debug_image(open(tmp, O_RDONLY | O_CLOEXEC));
	assert_true(fd >= 0);
	assert_string_equal(fd_path(fd, where, sizeof(where)), file);
	b = map_fd(fd);
	close(fd);
	assert_int_equal(b.size, a.size + 32);
	assert_memory_equal(a.p, b.p, a.size);
	/* a byte flipped in the cache: refused, inflated again, and the cache made whole */
	fd = open(file, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "\xa5", 1, (off_t)a.size / 2), 1);
	close(fd);
	fd = lupe_debug_image(open(tmp, O_RDONLY | O_CLOEXEC));
	assert_true(fd >= 0);
	assert_non_null(strstr(fd_path(fd, where, sizeof(where)), "memfd:"));
	close(fd);
	fd = open(file, O_RDONLY);
	c = map_fd(fd);
	close(fd);
	assert_int_equal(c.size, b.size);
	assert_memory_equal(c.p, a.p, a.size);
	assert_memory_equal(c.p + a.size, b.p + a.size, 32);
	munmap(a.p, a.size);
	munmap(b.p, b.size);
	munmap(c.p, c.size);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inflated),
		cmocka_unit_test(test_left_alone),
		cmocka_unit_test(test_cached),
	};

	FILE *v = popen(LUPE_BIN " version --build-options", "r");
	char line[256];

	while (v && fgets(line, sizeof(line), v))
		have_zlib |= strstr(line, "zlib: [ on") != NULL;
	if (v)
		pclose(v);
	snprintf(cache, sizeof(cache), "/tmp/lupe-debug-image-cache.%d", (int)getpid());
	setenv("LUPE_IMAGE_CACHE", cache, 1);
	if (setup(NULL)) {
		printf("SKIP: objcopy --compress-debug-sections could not make the fixture\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, teardown);
}
