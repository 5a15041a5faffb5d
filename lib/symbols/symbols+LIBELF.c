// SPDX-License-Identifier: GPL-2.0
/*
 * ELF symbol tables with libelf. perf's choice of symbols is followed so
 * that names and offsets match: functions, ifuncs and objects, and labels
 * (NOTYPE) in text sections; .symtab from the separate debug file found by
 * build-id or .gnu_debuglink under /usr/lib/debug, else the file's own
 * .symtab, else its .dynsym. Addresses are translated from file offsets
 * (what a map gives) through the runtime file's PT_LOAD headers.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/build-id.h"
#include "symbols/nsinfo.h"
#include "symbols/symbols.h"
#include "util/elf-func.h"
#include "util/util.h"

static int elf_ready(void)
{
	static int ok = -1;

	if (ok < 0)
		ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok;
}

static Elf_Scn *find_section(Elf *elf, Elf64_Word type, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, shdr))
			continue;
		if (type && shdr->sh_type != type)
			continue;
		if (name) {
			const char *n = elf_strptr(elf, shstrndx, shdr->sh_name);

			if (!n || strcmp(n, name))
				continue;
		}
		return scn;
	}
	return NULL;
}

static int read_build_id(Elf *elf, uint8_t *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4) && nh.n_descsz <= 20) {
				memcpy(out, (char *)d->d_buf + doff, nh.n_descsz);
				return (int)nh.n_descsz;
			}
		}
	}
	return 0;
}

static int read_loads(Elf *elf, struct lupe_dso *dso)
{
	size_t n;
	int k = 0;

	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	free(dso->load_off);
	dso->load_off = calloc(4 * n, sizeof(uint64_t));
	if (!dso->load_off)
		return -ENOMEM;
	dso->load_vaddr = dso->load_off + n;
	dso->load_size = dso->load_off + 2 * n;
	dso->load_memsz = dso->load_off + 3 * n;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dso->load_off[k] = ph.p_offset;
		dso->load_vaddr[k] = ph.p_vaddr;
		dso->load_size[k] = ph.p_filesz;
		dso->load_memsz[k] = ph.p_memsz;
		k++;
	}
	dso->nr_loads = k;
	return 0;
}

static int is_text_section(Elf *elf, size_t shstrndx, size_t idx)
{
	Elf_Scn *scn = elf_getscn(elf, idx);
	GElf_Shdr sh;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && strstr(n, "text");
}

/*
 * Add a symbol under the name perf shows (demangled), with a suffix
 * ("@plt"); raw: the name in b's mapped string table, or NULL. A raw name
 * is demangled when it is needed (of 44,000 in libLLVM, an alias's
 * and each looked up), not here.
 */
static int add_sym(struct symtab_build *b, uint64_t start, uint64_t size, const char *name,
		   const char *raw, const char *suffix, int binding)
{
	char *d, *full = NULL;
	int err;

	if (raw && !*suffix)
		return lupe_symtab_add_raw(b, start, size, NULL, 0, raw, binding);
	d = lupe_demangle(name);
	if (*suffix && asprintf(&full, "%s%s", d ? d : name, suffix) < 0)
		full = NULL;
	name = full ? full : d ? d : name;
	err = lupe_symtab_add(b, start, size, name, strlen(name), binding);
	free(d);
	free(full);
	return err;
}

/*
 * PLT entries get "name@plt" symbols, one per .rela.plt relocation in
 * order after the 16-byte PLT header (x86-64), as perf synthesizes them.
 */
int lupe_elf_plt_foreach(Elf *elf, int (*fn)(uint64_t addr, const char *name, void *arg), void *arg)
{
	GElf_Shdr plt, rela, dynsym;
	Elf_Scn *srela, *sdyn;
	Elf_Data *rd, *dd;
	GElf_Ehdr eh;
	size_t n;
	uint64_t at;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return 0; /* NEEDSWORK: other architectures' PLT layouts */
	if (!find_section(elf, 0, ".plt", &plt) ||
	    !(srela = find_section(elf, SHT_RELA, ".rela.plt", &rela)) ||
	    !(sdyn = find_section(elf, SHT_DYNSYM, NULL, &dynsym)) ||
	    !(rd = elf_getdata(srela, NULL)) || !(dd = elf_getdata(sdyn, NULL)) || !rela.sh_entsize)
		return 0;
	n = rela.sh_size / rela.sh_entsize;
	at = plt.sh_addr + 16;
	for (size_t i = 0; i < n; i++, at += 16) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name = "";
		int err;

		if (!gelf_getrela(rd, (int)i, &r))
			continue;
		if (gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym) && sym.st_name)
			name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		if ((err = fn(at, name ? name : "", arg)))
			return err;
	}
	return 0;
}

static int add_plt_sym(uint64_t at, const char *name, void *b)
{
	return add_sym(b, at, 16, name, NULL, "@plt", STB_GLOBAL);
}

/*
 * The string table section strndx of the file on fd, mapped into b->map:
 * the symbols' names stay there rather than being copied (0), or -1 when
 * it cannot be (no file: the vdso; a compressed section).
 */
static int map_strtab(Elf *elf, int fd, size_t strndx, struct symtab_build *b, const char **start,
		      size_t *size)
{
	Elf_Scn *scn = elf_getscn(elf, strndx);
	long page = sysconf(_SC_PAGESIZE);
	GElf_Shdr sh;
	struct stat st;
	uint64_t off;
	void *m;

	/* past the file's end a mapping faults (SIGBUS): libelf refuses such a section */
	if (fd < 0 || !scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB ||
	    (sh.sh_flags & SHF_COMPRESSED) || !sh.sh_size || page <= 0 || fstat(fd, &st) ||
	    sh.sh_offset > (uint64_t)st.st_size || sh.sh_size > (uint64_t)st.st_size - sh.sh_offset)
		return -1;
	off = sh.sh_offset & ~(uint64_t)(page - 1);
	b->map_len = (size_t)(sh.sh_offset - off + sh.sh_size);
	m = mmap(NULL, b->map_len, PROT_READ, MAP_PRIVATE, fd, (off_t)off);
	if (m == MAP_FAILED)
		return -1;
	b->map = m;
	*start = (const char *)m + (sh.sh_offset - off);
	*size = (size_t)sh.sh_size;
	return 0;
}

#define GIVE_STEP (192u << 10) /* 8192 symbols */

static int load_symbols(Elf *elf, int fd, Elf64_Word type, struct lupe_dso *dso, Elf *plt_from)
{
	struct symtab_build b = { .compact = 1 };
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	Elf_Data *d;
	size_t shstrndx, n;
	const char *strs = NULL;
	size_t strs_size = 0, given = 0;
	int err = 0, strs_nul, give;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -LUPE_ERR_FORMAT;
	scn = find_section(elf, type, NULL, &shdr);
	if (!scn || !(d = elf_getdata(scn, NULL)) || !shdr.sh_entsize)
		return -ENOENT;
	if (map_strtab(elf, fd, shdr.sh_link, &b, &strs, &strs_size))
		strs = NULL;
	strs_nul = strs && !strs[strs_size - 1];
	n = shdr.sh_size / shdr.sh_entsize;
	/*
	 * The entries read go back every GIVE_STEP when libelf hands them out
	 * of its mapping of the file: libclang-cpp's .dynsym (2.4 MB) and
	 * libLLVM's were resident whole until elf_end(), at a many-process
	 * script's peak.
	 */
	give = d->d_buf && d->d_size >= n * shdr.sh_entsize && lupe_file_mapped(d->d_buf, d->d_size);
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name, *raw;
		int t, vis;

		if (give)
			lupe_pages_give_back_behind(d->d_buf, &given, i * shdr.sh_entsize, GIVE_STEP);
		if (!gelf_getsym(d, (int)i, &sym) || !sym.st_name)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS)
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		vis = GELF_ST_VISIBILITY(sym.st_other);
		if (t == STT_NOTYPE) {
			if (vis == STV_HIDDEN || vis == STV_INTERNAL ||
			    sym.st_shndx >= SHN_LORESERVE || !is_text_section(elf, shstrndx, sym.st_shndx))
				continue;
		} else if (t != STT_FUNC && t != STT_GNU_IFUNC && t != STT_OBJECT) {
			continue;
		}
		/*
		 * The name in the mapped table when there is one (libelf's
		 * would be read too), not read here: a table that ends in a
		 * NUL (as ELF's do) ends every name in it. Reading each name
		 * mapped libLLVM's whole .dynstr (3 MB) at once.
		 */
		if (strs)
			name = raw = sym.st_name >= strs_size ? NULL
				     : strs_nul || memchr(strs + sym.st_name, 0, strs_size - sym.st_name)
					     ? strs + sym.st_name : NULL;
		else
			name = elf_strptr(elf, shdr.sh_link, sym.st_name), raw = NULL;
		if (!name)
			continue;
		if ((err = add_sym(&b, sym.st_value, sym.st_size, name, raw, "", GELF_ST_BIND(sym.st_info))))
			break;
	}
	if (!err && plt_from)
		err = lupe_elf_plt_foreach(plt_from, add_plt_sym, &b);
	if (!err)
		err = lupe_symtab_finish(&b, dso);
	lupe_symtab_build_free(&b);
	return err;
}

int lupe_elf_has_symtab(const char *path)
{
	GElf_Shdr shdr;
	int fd, has;
	Elf *elf;

	if (!elf_ready())
		return -LUPE_ERR_NOT_SUPPORTED;
	elf = lupe_elf_open(path, &fd);
	if (!elf)
		return -ENOENT;
	has = !!find_section(elf, SHT_SYMTAB, NULL, &shdr);
	elf_end(elf);
	close(fd);
	return has;
}

/* A separate debug file with a .symtab, by build-id then by .gnu_debuglink. */
static Elf *open_debug(Elf *elf, const struct lupe_dso *dso, const char *path, int *fd)
{
	char buf[4096], dir[4096];
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf *dbg;
	int n;

	if (dso->build_id_size) {
		n = snprintf(buf, sizeof(buf), "/usr/lib/debug/.build-id/%02x/", dso->build_id[0]);
		for (int i = 1; i < dso->build_id_size; i++)
			n += snprintf(buf + n, sizeof(buf) - n, "%02x", dso->build_id[i]);
		snprintf(buf + n, sizeof(buf) - n, ".debug");
		if ((dbg = lupe_elf_open(buf, fd))) {
			if (find_section(dbg, SHT_SYMTAB, NULL, &shdr))
				return dbg;
			elf_end(dbg);
			close(*fd);
		}
	}
	scn = find_section(elf, 0, ".gnu_debuglink", &shdr);
	if (scn) {
		Elf_Data *d = elf_getdata(scn, NULL);
		const char *link = d ? d->d_buf : NULL;
		const char *slash = strrchr(path, '/');

		if (!link || !memchr(link, 0, d->d_size) || !slash)
			return NULL;
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		const char *fmts[] = { "/usr/lib/debug%s/%s", "%s/.debug/%s", "%s/%s" };
		for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
			snprintf(buf, sizeof(buf), fmts[i], dir, link);
			if (!strcmp(buf, path))
				continue;
			if ((dbg = lupe_elf_open(buf, fd))) {
				if (find_section(dbg, SHT_SYMTAB, NULL, &shdr))
					return dbg;
				elf_end(dbg);
				close(*fd);
			}
		}
	}
	return NULL;
}

int lupe_elf_load_dso(struct lupe_dso *dso, const char *path)
{
	int fd, dfd = -1, err;
	Elf *elf, *dbg;
	uint8_t bid[20];
	int bsz;

	if (!elf_ready())
		return -LUPE_ERR_NOT_SUPPORTED;
	elf = lupe_elf_open(path, &fd);
	if (!elf)
		return -ENOENT;
	bsz = read_build_id(elf, bid);
	if (bsz && dso->build_id_size && (bsz != dso->build_id_size || memcmp(bid, dso->build_id, bsz))) {
		/* The file changed since the recording: only perf's build-id cache has the right one. */
		char cache[4096];

		elf_end(elf);
		close(fd);
		if (lupe_ns_cached(dso->build_id, dso->build_id_size, cache, sizeof(cache)))
			return -ENOENT;
		pr_debug("'%s' changed since the recording (build-id differs): trying %s", path, cache);
		elf = lupe_elf_open(cache, &fd);
		if (!elf)
			return -ENOENT;
		if (read_build_id(elf, bid) != dso->build_id_size ||
		    memcmp(bid, dso->build_id, dso->build_id_size)) {
			elf_end(elf);
			close(fd);
			return -ENOENT;
		}
		bsz = dso->build_id_size;
	}
	if (bsz && !dso->build_id_size) {
		memcpy(dso->build_id, bid, bsz);
		dso->build_id_size = bsz;
	}
	err = read_loads(elf, dso);
	dbg = err ? NULL : open_debug(elf, dso, path, &dfd);
	if (!err) {
		if (dbg)
			err = load_symbols(dbg, dfd, SHT_SYMTAB, dso, elf);
		if (!dbg || err)
			err = load_symbols(elf, fd, SHT_SYMTAB, dso, elf);
		if (err)
			err = load_symbols(elf, fd, SHT_DYNSYM, dso, elf);
	}
	if (dbg) {
		elf_end(dbg);
		close(dfd);
	}
	elf_end(elf);
	close(fd);
	return err;
}

/* The kernel maps the same vdso into every process: read our own. */
int lupe_elf_load_vdso(struct lupe_dso *dso)
{
	const void *image;
	size_t size;
	Elf *elf;
	int err;

	if (lupe_vdso_image(&image, &size) || !elf_ready())
		return -ENOENT;
	elf = elf_memory((char *)image, size);
	if (!elf)
		return -LUPE_ERR_FORMAT;
	err = read_loads(elf, dso);
	if (!err && (err = load_symbols(elf, -1, SHT_SYMTAB, dso, elf)))
		err = load_symbols(elf, -1, SHT_DYNSYM, dso, elf);
	elf_end(elf);
	return err;
}
