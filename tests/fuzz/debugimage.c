// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a debug file whose compressed DWARF
 * lupe_debug_image() inflates (debug-image.h) before libdw sees it: the
 * ELF header, the section headers and their names, the compression
 * headers and the zlib streams all come from the file. When it gives an
 * image, every section it rewrote (inflated, or dropped to SHT_NOBITS)
 * must lie inside the image and say what it holds, and the section header
 * table too: each byte of them is read (past the image's end that is a
 * SIGBUS, which libFuzzer keeps as a crash) and the sizes checked against
 * the compression headers of the input.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/debug-image.h"
#include "membound.h"

#define CHECK(c)                                                                 \
	do {                                                                     \
		if (!(c)) {                                                      \
			fprintf(stderr, "fuzz-debugimage: %s (line %d)\n", #c, __LINE__); \
			abort();                                                 \
		}                                                                \
	} while (0)

/* Each section the image changed: inside it, and as the input's compression header said. */
static void check_image(const uint8_t *in, size_t in_size, const uint8_t *img, size_t size)
{
	const Elf64_Ehdr *ih = (const void *)in, *eh = (const void *)img;
	const Elf64_Shdr *ish = (const void *)(in + ih->e_shoff), *sh;
	volatile uint8_t sum = 0;

	CHECK(size >= sizeof(*eh) && !memcmp(eh->e_ident, ih->e_ident, EI_NIDENT));
	CHECK(eh->e_shnum == ih->e_shnum && eh->e_shoff % 8 == 0);
	CHECK(eh->e_shoff <= size && (size_t)eh->e_shnum * sizeof(*sh) <= size - eh->e_shoff);
	sh = (const void *)(img + eh->e_shoff);
	for (size_t i = 0; i < eh->e_shnum; i++) {
		if (!memcmp(&sh[i], &ish[i], sizeof(*sh)))
			continue;
		/* only compressed sections change, and lose the flag */
		CHECK(ish[i].sh_flags & SHF_COMPRESSED);
		CHECK(!(sh[i].sh_flags & SHF_COMPRESSED));
		CHECK(ish[i].sh_offset <= in_size && ish[i].sh_size >= sizeof(Elf64_Chdr) &&
		      ish[i].sh_size <= in_size - ish[i].sh_offset);
		if (sh[i].sh_type == SHT_NOBITS) {
			CHECK(sh[i].sh_size == 0);
			continue;
		}
		const Elf64_Chdr *ch = (const void *)(in + ish[i].sh_offset);

		CHECK(sh[i].sh_size == ch->ch_size);
		CHECK(sh[i].sh_offset <= size && sh[i].sh_size <= size - sh[i].sh_offset);
		for (size_t b = 0; b < sh[i].sh_size; b += 512)
			sum += img[sh[i].sh_offset + b];
		if (sh[i].sh_size)
			sum += img[sh[i].sh_offset + sh[i].sh_size - 1];
	}
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t base = fuzz_mem_begin();
	int fd = memfd_create("fuzz-debugimage", 0), out;
	struct stat st;
	void *img;

	/* no cache of images: inputs are not written to the build-id folder */
	setenv("LUPE_IMAGE_CACHE", "", 1);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	out = lupe_debug_image(fd);
	CHECK(out >= 0);
	if (out != fd) {
		/* fd was taken: closed */
		CHECK(fcntl(fd, F_GETFD) < 0);
		CHECK(!fstat(out, &st) && st.st_size > 0);
		img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, out, 0);
		CHECK(img != MAP_FAILED);
		check_image(data, size, img, (size_t)st.st_size);
		munmap(img, (size_t)st.st_size);
	}
	close(out);
	fuzz_mem_end(base, size);
	return 0;
}
