// SPDX-License-Identifier: GPL-2.0
/*
 * The symbol names perf probe --funcs chooses from, read with libelf: the
 * .symtab of the separate debug file found by build-id under
 * /usr/lib/debug/.build-id, else the binary's own, then the .dynsym of
 * the same file (perf 6.1 loads both: a name in both shows twice). As perf
 * keeps them: functions, ifuncs and objects with a name and a loaded
 * section (not absolute: no GLIBC_2.10; not .gnu.warning), and labels
 * (NOTYPE, visible) in a text or data section; aliases at one address all
 * stay, as perf lets them be probed; C++ names demangled.
 * Then perf's "NAME@plt" symbol of each PLT entry of the binary itself.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/probe.h>
#include "probe/probe-internal.h"
#include "symbols/build-id.h"
#include "symbols/symbols.h"
#include "util/elf-func.h"
#include "util/util.h"

static Elf_Scn *section_of_type(Elf *elf, Elf64_Word type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

/*
 * Where a symbol lives: 0 when perf skips it (a section not loaded, as
 * .gnu.warning.*), 1 in a loaded section, 2 in one named like text or
 * data (perf's elf_sec__filter, which labels must pass).
 */
static int section_kind(Elf *elf, size_t shstrndx, size_t idx)
{
	Elf_Scn *scn = elf_getscn(elf, idx);
	GElf_Shdr sh;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return 0;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && (strstr(n, "text") || strstr(n, "data")) ? 2 : 1;
}

static int collect(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr, struct lupe_probe_names *out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n, shstrndx;

	if (shdr->sh_type == SHT_NOBITS || !d || !d->d_buf || !shdr->sh_entsize)
		return 0; /* a debug file's .dynsym: the section is not in it */
	if (elf_getshdrstrndx(elf, &shstrndx))
		return -LUPE_ERR_FORMAT;
	n = d->d_size / shdr->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int t, vis, kind, err;
		char *demangled;

		if (!gelf_getsym(d, (int)i, &sym) || !sym.st_name || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx == SHN_ABS)
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		vis = GELF_ST_VISIBILITY(sym.st_other);
		if (sym.st_shndx >= SHN_LORESERVE)
			continue;
		kind = section_kind(elf, shstrndx, sym.st_shndx);
		if (t == STT_NOTYPE) {
			if (vis == STV_HIDDEN || vis == STV_INTERNAL || kind != 2)
				continue;
		} else if ((t != STT_FUNC && t != STT_GNU_IFUNC && t != STT_OBJECT) || !kind) {
			continue;
		}
		if (!(name = elf_strptr(elf, shdr->sh_link, sym.st_name)))
			continue;
		/* C++ names as perf shows them */
		if ((demangled = lupe_demangle(name)))
			err = lupe_probe_names_add(out, demangled);
		else
			err = lupe_probe_names_add(out, strdup(name));
		if (err)
			return err;
	}
	return 0;
}

static int add_plt_name(uint64_t addr, const char *name, void *out)
{
	char *s, *demangled = lupe_demangle(name);
	int n = asprintf(&s, "%s@plt", demangled ? demangled : name);

	(void)addr;
	free(demangled);
	return lupe_probe_names_add(out, n < 0 ? NULL : s);
}

int lupe_probe_symbol_names(const char *path, char ***names, size_t *nr)
{
	uint8_t id[BUILD_ID_MAX];
	char dbg[128], hex[2 * BUILD_ID_MAX + 1];
	int fd, dfd = -1, len, err;
	Elf *elf, *d = NULL, *src;
	Elf_Scn *scn;
	GElf_Shdr shdr;
	struct lupe_probe_names out = { 0 };

	*names = NULL;
	*nr = 0;
	if (!(elf = lupe_elf_open(path, &fd)))
		return errno == ENOENT || errno == EACCES ? -errno : -LUPE_ERR_FORMAT;
	src = elf;
	err = 0;
	len = lupe_build_id_read(path, id);
	if (len > 1) {
		lupe_build_id_hex(id, len, hex);
		snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		d = lupe_elf_open(dbg, &dfd);
	}
	if (d && section_of_type(d, SHT_SYMTAB, &shdr))
		src = d;
	/* perf 6.1 loads the .symtab and then the .dynsym of the same file: names may repeat */
	if ((scn = section_of_type(src, SHT_SYMTAB, &shdr)))
		err = collect(src, scn, &shdr, &out);
	if (!err && (scn = section_of_type(src, SHT_DYNSYM, &shdr)))
		err = collect(src, scn, &shdr, &out);
	/* perf synthesizes them from the runtime binary, not the debug file */
	if (!err)
		err = lupe_elf_plt_foreach(elf, add_plt_name, &out);
	if (!err && !out.v && !(out.v = calloc(1, sizeof(*out.v))))
		err = -ENOMEM;
	if (err) {
		for (size_t i = 0; i < out.nr; i++)
			free(out.v[i]);
		free(out.v);
	} else {
		*names = out.v;
		*nr = out.nr;
	}
	lupe_elf_close(d, dfd);
	lupe_elf_close(elf, fd);
	return err;
}
