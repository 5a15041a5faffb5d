// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines of a listing from DWARF: each instruction gets the line-table
 * row that covers its address (dwarf_getsrc_die), its file name kept once
 * in the listing.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/annotate.h>

static const char *intern(struct lupe_listing *l, const char *name)
{
	char **files;

	for (size_t i = 0; i < l->nr_files; i++)
		if (!strcmp(l->files[i], name))
			return l->files[i];
	files = realloc(l->files, (l->nr_files + 1) * sizeof(*files));
	if (!files)
		return NULL;
	l->files = files;
	files[l->nr_files] = strdup(name);
	return files[l->nr_files] ? files[l->nr_files++] : NULL;
}

int lupe_listing_add_lines(struct lupe_listing *l, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Dwarf *dw;

	if (fd < 0)
		return -errno;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return -ENOENT;
	}
	for (size_t i = 0; i < l->nr; i++) {
		Dwarf_Die cu;
		Dwarf_Line *line;
		const char *src;
		int lineno;

		if (!dwarf_addrdie(dw, l->insns[i].addr, &cu))
			continue;
		line = dwarf_getsrc_die(&cu, l->insns[i].addr);
		if (!line || dwarf_lineno(line, &lineno) || !(src = dwarf_linesrc(line, NULL, NULL)))
			continue;
		if (src[0] != '/') { /* relative to the CU's compile directory (ccache's base_dir) */
			Dwarf_Attribute a;
			const char *dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
			char full[PATH_MAX];

			if (dir && snprintf(full, sizeof(full), "%s/%s", dir, src) < (int)sizeof(full)) {
				l->insns[i].file = intern(l, full);
				l->insns[i].line = l->insns[i].file ? lineno : 0;
				continue;
			}
		}
		l->insns[i].file = intern(l, src);
		l->insns[i].line = l->insns[i].file ? lineno : 0;
	}
	dwarf_end(dw);
	close(fd);
	return 0;
}
