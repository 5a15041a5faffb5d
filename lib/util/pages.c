// SPDX-License-Identifier: GPL-2.0
/*
 * Pages of the files lupe maps whole and reads here and there: libdwfl
 * maps each DSO's ELF file and its DWARF's (private, read-only in effect),
 * and the unwinder's CFI lookups and srcline's DWARF lookups each read a
 * few pages of them. Pages read count in lupe's resident memory until they
 * are unmapped; those helpers are the one rule both follow:
 *
 * - only a mapping of a file is touched (an inode in /proc/self/maps):
 *   libelf reads a file it cannot map into the heap, where giving back
 *   would lose data;
 * - its pages are given back (MADV_DONTNEED) now and then: nothing writes
 *   them, so a page read again comes back the same from the page cache;
 * - it is cut into VMAs of FINE bytes (lupe_pages_fine()), so that a fault
 *   maps at most the kernel's fault-around window: since 6.18 a fault in a
 *   file mapping maps the whole large folio of the page cache when the
 *   folio lies inside the VMA, and ext4 caches a file lupe wrote (the
 *   inflated debug images of LUPE_IMAGE_CACHE) or read ahead in folios up
 *   to 2 MiB. A lookup in libc's DWARF image, a few pages of .debug_info,
 *   .debug_line and .debug_abbrev, then mapped 6-8 MB, which stayed until
 *   the next give-back: on the bench's many-process file a warm `lupe
 *   script` peaked at 33-34 MB, 26 MB with the cut. srcline cuts a DWARF
 *   file finer (lupe_pages_cut(), 128 KiB: see DWARF_PIECE there). The
 *   VMAs differ only in VM_DONTDUMP (MADV_DONTDUMP on every other piece:
 *   it leaves those pages out of a core dump, nothing else); a folio
 *   crossing a VMA's end is mapped a window at a time. Cost: one madvise
 *   per two pieces, and a VMA per piece of the file for as long as it is
 *   mapped.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/util.h"

#define FINE (1u << 20)

int lupe_file_maps_each(int (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long lo, hi, ino;
	char line[512];
	int r = 0;

	if (!f)
		return -errno;
	while (!r && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %*s %*s %lu", &lo, &hi, &ino) == 3 && ino)
			r = fn(lo, hi, arg);
	fclose(f);
	return r;
}

struct range {
	uintptr_t p;
	size_t len;
};

static int holds(uintptr_t lo, uintptr_t hi, void *arg)
{
	const struct range *r = arg;

	return lo <= r->p && r->p < hi ? 1 + (r->p + r->len <= hi) : 0;
}

int lupe_file_mapped(const void *p, size_t len)
{
	struct range r = { (uintptr_t)p, len };

	/* mappings do not overlap: p's, if it is a file's, is the one that can hold the range */
	return lupe_file_maps_each(holds, &r) == 2;
}

void lupe_pages_fine(void *p, size_t len)
{
	lupe_pages_cut(p, len, FINE);
}

void lupe_pages_cut(void *p, size_t len, size_t piece)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p;

	if (!p || !len || !page || a % page || !piece || piece % page)
		return;
	for (size_t o = piece; o < len; o += 2 * piece)
		madvise((char *)p + o, piece < len - o ? piece : len - o, MADV_DONTDUMP);
}

void lupe_pages_give_back(void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p;

	if (!p || !len || !page)
		return;
	madvise((void *)(a - a % page), len + a % page, MADV_DONTNEED);
}

void lupe_pages_give_back_behind(const void *base, size_t *given, size_t upto, size_t step)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (!page || upto < *given + step)
		return;
	upto -= upto % page;
	lupe_pages_give_back((char *)base + *given, upto - *given);
	*given = upto;
}
