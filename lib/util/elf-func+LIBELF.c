// SPDX-License-Identifier: GPL-2.0
/*
 * Function symbols of an open ELF, looked up by a scan of .symtab (then
 * .dynsym): probe and annotate ask a few times per command, so no table is
 * built (lib/symbols builds one for the many lookups of report).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "util/elf-func.h"
#include "util/util.h"

Elf *lupe_elf_open(const char *path, int *fd)
{
	Elf *elf;

	*fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return err_ptr(-LUPE_ERR_NOT_SUPPORTED);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(*fd);
		*fd = -1;
		return err_ptr(-LUPE_ERR_FORMAT);
	}
	return elf;
}

void lupe_elf_close(Elf *elf, int fd)
{
	if (!elf)
		return;
	elf_end(elf);
	close(fd);
}

/* The first function symbol that match() takes, .symtab first: 1 with *sym and *name set, else 0. */
static int scan(Elf *elf, int (*match)(const GElf_Sym *sym, const char *name, const void *key),
		const void *key, GElf_Sym *sym, const char **name)
{
	for (int pass = 0; pass < 2; pass++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr shdr;

		while ((scn = elf_nextscn(elf, scn))) {
			Elf_Data *data;

			if (!gelf_getshdr(scn, &shdr) ||
			    shdr.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			data = elf_getdata(scn, NULL);
			for (size_t i = 0; data && shdr.sh_entsize && i < shdr.sh_size / shdr.sh_entsize; i++) {
				if (!gelf_getsym(data, i, sym) || GELF_ST_TYPE(sym->st_info) != STT_FUNC ||
				    !sym->st_value)
					continue;
				*name = elf_strptr(elf, shdr.sh_link, sym->st_name);
				if (*name && match(sym, *name, key))
					return 1;
			}
		}
	}
	return 0;
}

static int by_name(const GElf_Sym *sym, const char *name, const void *key)
{
	return !strcmp(name, key);
}

static int by_addr(const GElf_Sym *sym, const char *name, const void *key)
{
	GElf_Addr addr = *(const GElf_Addr *)key;

	return addr >= sym->st_value && addr < sym->st_value + (sym->st_size ? sym->st_size : 1);
}

int lupe_elf_find_func(Elf *elf, const char *name, GElf_Addr *addr, GElf_Xword *size)
{
	GElf_Sym sym;
	const char *n;

	if (!scan(elf, by_name, name, &sym, &n))
		return -ENOENT;
	*addr = sym.st_value;
	*size = sym.st_size;
	return 0;
}

const char *lupe_elf_func_at(Elf *elf, GElf_Addr addr, GElf_Addr *start)
{
	GElf_Sym sym;
	const char *n;

	if (!scan(elf, by_addr, &addr, &sym, &n))
		return NULL;
	*start = sym.st_value;
	return n;
}
