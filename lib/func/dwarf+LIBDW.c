// SPDX-License-Identifier: GPL-2.0
/*
 * Source ranges and inline-only functions from the DWARF in the file itself
 * (NEEDSWORK: separate debug files, as lib/symbols finds them for symbols).
 * A range file.c:A-B is entered at the lowest address of its lines and
 * left at the highest address just past them: right for straight code and
 * for loops laid out inside the range, not for lines scattered through a
 * function by the optimiser (the caller's documentation says so).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include "func/func.h"
#include "util/util.h"

static int file_matches(const char *src, const char *file)
{
	size_t ls, lf;

	if (!src)
		return 0;
	ls = strlen(src);
	lf = strlen(file);
	if (ls < lf || strcmp(src + ls - lf, file))
		return 0;
	return ls == lf || src[ls - lf - 1] == '/' || file[0] == '/';
}

static Dwarf *open_dwarf(const char *path, int *fd)
{
	Dwarf *dw;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	dw = dwarf_begin(*fd, DWARF_C_READ);
	if (!dw)
		close(*fd);
	return dw;
}

/* Call fn on each line row of every CU; fn returns non-zero to stop. */
typedef int (*row_fn)(Dwarf_Lines *lines, size_t i, size_t n, void *arg);

static int each_row(Dwarf *dw, row_fn fn, void *arg)
{
	Dwarf_Off off = 0, next;
	size_t hsz;

	while (dwarf_nextcu(dw, off, &next, &hsz, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t n;

		if (dwarf_offdie(dw, off + hsz, &cu) && dwarf_getsrclines(&cu, &lines, &n) == 0)
			for (size_t i = 0; i < n; i++)
				if (fn(lines, i, n, arg))
					return 1;
		off = next;
	}
	return 0;
}

struct range_arg {
	const char *file;
	int lo, hi;
	uint64_t entry, exit;
};

static int range_row(Dwarf_Lines *lines, size_t i, size_t n, void *arg)
{
	struct range_arg *r = arg;
	Dwarf_Line *l = dwarf_onesrcline(lines, i), *nl;
	Dwarf_Addr a, b;
	bool end = false;
	int ln;

	if (!l || dwarf_lineno(l, &ln) || ln < r->lo || ln > r->hi ||
	    dwarf_lineendsequence(l, &end) || end || dwarf_lineaddr(l, &a) ||
	    !file_matches(dwarf_linesrc(l, NULL, NULL), r->file))
		return 0;
	if (a < r->entry)
		r->entry = a;
	nl = i + 1 < n ? dwarf_onesrcline(lines, i + 1) : NULL;
	if (nl && !dwarf_lineaddr(nl, &b) && b > r->exit)
		r->exit = b;
	return 0;
}

int lupe_func_dwarf_range(const char *path, const char *file, int lo, int hi,
			  uint64_t *entry, uint64_t *exit)
{
	struct range_arg r = { .file = file, .lo = lo, .hi = hi, .entry = UINT64_MAX };
	Dwarf *dw;
	int fd;

	dw = open_dwarf(path, &fd);
	if (!dw)
		return -ENODATA;
	each_row(dw, range_row, &r);
	dwarf_end(dw);
	close(fd);
	if (r.entry == UINT64_MAX || r.exit <= r.entry)
		return -ENOENT;
	*entry = r.entry;
	*exit = r.exit;
	return 0;
}

/* An inline-only function: its abstract DIE, and what its instances cover. */
struct inl {
	const char *name;
	Dwarf_Off origin;   /* the abstract DIE, 0 until found */
	int has_code;       /* a concrete out-of-line copy exists */
	const char *file;   /* its decl file */
	int line, last;
	Dwarf_Addr lo[16], hi[16];
	int nr;
};

static void walk(Dwarf_Die *die, struct inl *f, int pass)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Attribute at;

		if (pass == 0 && tag == DW_TAG_subprogram) {
			const char *n = dwarf_diename(&child);

			if (n && !strcmp(n, f->name)) {
				if (dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges)) {
					f->has_code = 1;
				} else if (dwarf_hasattr(&child, DW_AT_inline) && !f->origin) {
					f->origin = dwarf_dieoffset(&child);
					f->file = dwarf_decl_file(&child);
					dwarf_decl_line(&child, &f->line);
				}
			}
		} else if (pass == 1 && tag == DW_TAG_inlined_subroutine &&
			   dwarf_attr(&child, DW_AT_abstract_origin, &at)) {
			Dwarf_Die o;

			if (dwarf_formref_die(&at, &o) && dwarf_dieoffset(&o) == f->origin) {
				Dwarf_Addr base, s, e;
				ptrdiff_t off = 0;

				while (f->nr < 16 && (off = dwarf_ranges(&child, off, &base, &s, &e)) > 0) {
					f->lo[f->nr] = s;
					f->hi[f->nr++] = e;
				}
			}
		}
		walk(&child, f, pass);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int inline_row(Dwarf_Lines *lines, size_t i, size_t n, void *arg)
{
	struct inl *f = arg;
	Dwarf_Line *l = dwarf_onesrcline(lines, i);
	Dwarf_Addr a;
	int ln;

	if (!l || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln) || ln <= f->last ||
	    !file_matches(dwarf_linesrc(l, NULL, NULL), f->file))
		return 0;
	for (int k = 0; k < f->nr; k++)
		if (a >= f->lo[k] && a < f->hi[k])
			f->last = ln;
	return 0;
}

int lupe_func_dwarf_inline_only(const char *path, const char *name, char *hint, size_t size)
{
	struct inl f = { .name = name };
	Dwarf_Off off = 0, next;
	size_t hsz;
	Dwarf *dw;
	int fd;

	dw = open_dwarf(path, &fd);
	if (!dw)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (off = 0; dwarf_nextcu(dw, off, &next, &hsz, NULL, NULL, NULL) == 0; off = next) {
			Dwarf_Die cu;

			if (dwarf_offdie(dw, off + hsz, &cu))
				walk(&cu, &f, pass);
		}
		if (!f.origin || f.has_code)
			break;
	}
	if (f.origin && !f.has_code && f.file) {
		const char *base = strrchr(f.file, '/');

		f.last = f.line;
		each_row(dw, inline_row, &f);
		snprintf(hint, size, "%s:%d-%d", base ? base + 1 : f.file, f.line, f.last);
	}
	dwarf_end(dw);
	close(fd);
	return f.origin && !f.has_code && f.file;
}
