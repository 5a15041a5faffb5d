// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines and inlined frames with libdw. Each DSO gets an offline Dwfl
 * with the one module at bias 0, so that addresses are the DSO's own
 * vaddrs; its DWARF is looked for by libdwfl's standard search (the file,
 * .gnu_debuglink, /usr/lib/debug and its .build-id tree), then in the
 * ~/.debug build-id cache perf keeps. The inlined frames of an address come
 * from dwarf_getscopes(): each DW_TAG_inlined_subroutine that covers it,
 * then the enclosing DW_TAG_subprogram; an inlined frame's line is the call
 * site (DW_AT_call_file/DW_AT_call_line) of the frame inside it.
 *
 * Cost: a lookup is a CU search and a scope walk (microseconds once the CU
 * is parsed); answers are cached per (DSO, address) for the session, which
 * perf does too but after running addr2line(1) for each. The first lookup
 * in a DSO pays for opening its DWARF: a compressed debug file (libc's) is
 * inflated first by lupe_debug_image(), on two CPUs and without the
 * location lists, where libdw would inflate it all on one (about 40 ms).
 */
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <dwarf.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/debug-image.h"
#include "symbols/nsinfo.h"
#include "symbols/srcline.h"
#include "symbols/symbols.h"
#include "util/phash.h"
#include "util/util.h"

extern char **environ;

#define MAX_INLINE 32 /* nesting depth of inlined calls kept at one address */

struct dso_dw {
	const struct lupe_dso *dso;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int asked; /* find_debuginfo() calls for it */
	int opened; /* dwfl and mod are what there is (until lupe_srcline_release()) */
	unsigned lookups; /* made in mod since it was opened */
	/* the files mod maps (its ELF, its DWARF's), when they are file mappings: give_back() */
	struct { void *p; size_t len; } maps[2];
	int nr_maps; /* -1: not looked for yet */
};

struct addr_ent {
	const struct lupe_dso *dso;
	uint64_t vaddr;
	const struct lupe_symbol *sym;
	int nr;
	struct lupe_inline_frame *v; /* .sym set for e->sym */
	const char **names;          /* of each v[i], as DWARF gives it */
	const char *file; /* of the address itself */
	unsigned line;
	int lines;        /* file, line and v[].file, v[].line were looked up */
};

struct inl_sym {
	struct lupe_symbol sym;
	const struct lupe_symbol *base;
	char name[];
};

struct lupe_srcline {
	struct phash dsos;  /* struct dso_dw by dso */
	struct phash addrs; /* struct addr_ent by (dso, vaddr) */
	struct phash syms;  /* struct inl_sym by (base, name) */
	struct phash files; /* file names, one copy each */
};

struct lupe_srcline *lupe_srcline_new(void)
{
	return calloc(1, sizeof(struct lupe_srcline));
}

void lupe_srcline_delete(struct lupe_srcline *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->dsos.cap; i++) {
		struct dso_dw *d = c->dsos.items[i];

		if (d && d->dwfl)
			dwfl_end(d->dwfl);
		free(d);
	}
	for (size_t i = 0; i < c->addrs.cap; i++) {
		struct addr_ent *e = c->addrs.items[i];

		if (e) {
			free(e->v);
			free(e->names);
		}
		free(e);
	}
	for (size_t i = 0; i < c->syms.cap; i++)
		free(c->syms.items[i]);
	lupe_phash_free(&c->dsos);
	lupe_phash_free(&c->addrs);
	lupe_phash_free(&c->syms);
	lupe_phash_free_strings(&c->files);
	free(c);
}

/* Open DIR/xx/yyyy...SUFFIX for mod's build-id, naming it in *name: an fd or -1. */
static int open_by_build_id(Dwfl_Module *mod, const char *dir, const char *suffix, char **name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	char path[PATH_MAX];
	int len = dwfl_module_build_id(mod, &id, &vaddr), n, fd;

	if (len <= 1)
		return -1;
	n = snprintf(path, sizeof(path), "%s/.build-id/%02x/", dir, id[0]);
	for (int i = 1; i < len && n < (int)sizeof(path) - 3; i++)
		n += snprintf(path + n, sizeof(path) - n, "%02x", id[i]);
	if (n + strlen(suffix) >= sizeof(path))
		return -1;
	strcat(path, suffix);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		*name = strdup(path);
	return fd;
}

/*
 * Open a debug file candidate: dir/subdir/file (dir and subdir may be
 * NULL), unless it is the main file itself (st). An fd, or -1 with errno.
 */
static int try_open(const struct stat *st, const char *dir, const char *subdir, const char *file,
		    char **name)
{
	char path[PATH_MAX];
	struct stat s;
	int n, fd;

	n = snprintf(path, sizeof(path), "%s%s%s%s%s", dir ? dir : "", dir ? "/" : "", subdir ? subdir : "",
		     subdir ? "/" : "", file);
	if (n >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!fstat(fd, &s) && s.st_ino == st->st_ino && s.st_dev == st->st_dev) {
		close(fd);
		errno = ENOENT;
		return -1;
	}
	*name = strdup(path);
	return fd;
}

/* 1 when the ELF file on fd carries the build-id id[len]. */
static int same_build_id(int fd, const unsigned char *id, int len)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *got;
	int ok = 0;

	if (elf) {
		ok = dwelf_elf_gnu_build_id(elf, &got) == len && !memcmp(got, id, (size_t)len);
		elf_end(elf);
	}
	return ok;
}

/*
 * libdwfl's search of a module's debug file by name (find-debuginfo.c,
 * its default path ":.debug:/usr/lib/debug"), for a module with a
 * build-id, which the candidate must carry: LINK (the .gnu_debuglink
 * name, else BASENAME.debug) in the file's directory, its .debug
 * directory (BASENAME too when the name was made up), and /usr/lib/debug
 * followed by the directory's path, then by shorter and shorter tails of
 * it, then by nothing. An fd, or -1 (errno 0 when nothing was found).
 */
static int find_in_path(const char *file_name, const char *link, const unsigned char *id, int id_len,
			char **name)
{
	const char *base = strrchr(file_name, '/');
	char dirname[PATH_MAX], made[NAME_MAX + 8];
	const char *entries[] = { "", ".debug", "/usr/lib/debug" };
	int link_null = !link, have_dir = base != NULL;
	struct stat st;

	base = base ? base + 1 : file_name;
	if (!link) {
		if (snprintf(made, sizeof(made), "%s.debug", base) >= (int)sizeof(made)) {
			errno = 0;
			return -1;
		}
		link = made;
	}
	if (stat(file_name, &st))
		st.st_dev = st.st_ino = 0;
	if (have_dir)
		snprintf(dirname, sizeof(dirname), "%.*s", (int)(base - 1 - file_name), file_name);
	for (size_t i = 0; i < ARRAY_SIZE(entries); i++) {
		const char *e = entries[i], *dir = have_dir ? dirname : NULL, *subdir = NULL;
		int try_base = link_null && e[0], fd;

		if (e[0] == '/') {
			if (!have_dir || dirname[0] != '/')
				continue;
			dir = e;
			subdir = dirname;
		} else if (e[0]) {
			subdir = e;
		}
		for (;;) {
			if (e[0] == '/') {
				/* the next tail of the directory, then none */
				subdir = subdir ? strchr(subdir, '/') : NULL;
				if (subdir && !*++subdir)
					break;
			}
			fd = try_open(&st, dir, subdir, link, name);
			if (fd < 0 && try_base)
				fd = try_open(&st, dir, subdir, base, name);
			if (fd >= 0) {
				if (same_build_id(fd, id, id_len))
					return fd;
				close(fd);
				free(*name);
				*name = NULL;
				break;
			}
			if (errno != ENOENT && errno != ENOTDIR)
				return -1;
			if (e[0] != '/' || !subdir)
				break;
		}
	}
	errno = 0;
	return -1;
}

/*
 * libdwfl's standard search without its last step, the debuginfod client
 * (see find_debuginfo()): libdwfl's build-id search, then by name, for the
 * file and for the file its symlinks lead to. NEEDSWORK: the rest (a
 * module without a build-id, a dwz file's) is left to libdwfl whole.
 */
static int find_local(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr), fd;
	char *canon;

	if (len <= 0 || !file_name)
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
						    debuglink_crc, debuginfo_file_name);
	errno = 0;
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || errno)
		return fd;
	fd = find_in_path(file_name, debuglink_file, id, len, debuginfo_file_name);
	if (fd < 0 && !errno && (canon = realpath(file_name, NULL))) {
		if (strcmp(canon, file_name))
			fd = find_in_path(canon, debuglink_file, id, len, debuginfo_file_name);
		free(canon);
	}
	return fd;
}

/* Whether the main ELF file of mod holds DWARF itself: libdwfl then asks only for a dwz file. */
static int main_has_dwarf(Dwfl_Module *mod)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    (!strcmp(n, ".debug_info") || !strcmp(n, ".zdebug_info")))
			return 1;
	}
	return 0;
}

/*
 * /usr/lib/debug/.build-id/xx/yyyy.debug, then libdwfl's search, then
 * perf's ~/.debug/.build-id/xx/yyyy/debug. The first is libdwfl's first
 * step too, done here because libdwfl's keeps the libelf handle it opened
 * on the file and would ignore the inflated image this returns. libdwfl's
 * own last step, asking debuginfod servers, is taken only when
 * DEBUGINFOD_URLS names some: it loads libdebuginfod, libcurl and TLS
 * libraries, 7 MB of a report's memory, even when there is no server to
 * ask. The second call for a module (or the first for one whose file has
 * its DWARF) asks for the dwz file its .gnu_debugaltlink names: that is
 * libdwfl's alone.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *home = getenv("HOME"), *urls = getenv("DEBUGINFOD_URLS");
	struct dso_dw *d = *userdata;
	char dir[PATH_MAX];
	int fd = -1;

	if (d && (d->asked++ || main_has_dwarf(mod)))
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
						    debuglink_crc, debuginfo_file_name);
	fd = open_by_build_id(mod, "/usr/lib/debug", ".debug", debuginfo_file_name);
	if (fd < 0 && urls && *urls)
		fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
						  debuglink_crc, debuginfo_file_name);
	else if (fd < 0)
		fd = find_local(mod, userdata, modname, base, file_name, debuglink_file, debuglink_crc,
				debuginfo_file_name);
	if (fd < 0 && home && snprintf(dir, sizeof(dir), "%s/.debug", home) < (int)sizeof(dir))
		fd = open_by_build_id(mod, dir, "/debug", debuginfo_file_name);
	return lupe_debug_image(fd);
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
};

static int dso_eq(const void *item, const void *key)
{
	return ((const struct dso_dw *)item)->dso == key;
}

/* Open d's DWARF: its Dwfl and module (NULL when there is none to read). */
static Dwfl_Module *open_module(struct dso_dw *d)
{
	const struct lupe_dso *dso = d->dso;
	char path[4096];

	d->opened = 1;
	d->lookups = 0;
	d->nr_maps = -1;
	if (dso->kernel || dso->long_name[0] != '/')
		return NULL;
	d->dwfl = dwfl_begin(&callbacks);
	if (!d->dwfl)
		return NULL;
	dwfl_report_begin(d->dwfl);
	/* a container's file through /proc/PID/root, or the build-id cache's copy */
	d->mod = dwfl_report_elf(d->dwfl, dso->short_name, lupe_ns_dso_path(dso, path, sizeof(path)), -1, 0,
				 false);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (d->mod) {
		void **userdata;

		/* find_debuginfo() counts its calls in d */
		d->asked = 0;
		dwfl_module_info(d->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		*userdata = d;
	}
	if (!d->mod)
		pr_debug("srcline: cannot read '%s': %s", dso->long_name, dwfl_errmsg(-1));
	return d->mod;
}

static Dwfl_Module *dso_module(struct lupe_srcline *c, const struct lupe_dso *dso)
{
	uint64_t h = lupe_phash_mix(0, (uint64_t)(uintptr_t)dso);
	void **slot = lupe_phash_find(&c->dsos, h, dso_eq, dso);
	struct dso_dw *d;

	if (!slot)
		return NULL;
	if (*slot) {
		d = *slot;
		/* opened again after lupe_srcline_release() */
		return d->opened ? d->mod : open_module(d);
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->dso = dso;
	lupe_phash_fill(&c->dsos, slot, h, d);
	return open_module(d);
}

void lupe_srcline_release(struct lupe_srcline *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->dsos.cap; i++) {
		struct dso_dw *d = c->dsos.items[i];

		if (!d)
			continue;
		if (d->dwfl)
			dwfl_end(d->dwfl);
		d->dwfl = NULL;
		d->mod = NULL;
		d->opened = 0;
	}
}

static const char *intern_file(struct lupe_srcline *c, const char *f)
{
	return f ? lupe_phash_intern(&c->files, f) : NULL;
}

struct sym_key {
	const struct lupe_symbol *base;
	const char *name;
};

static int sym_eq(const void *item, const void *key)
{
	const struct inl_sym *s = item;
	const struct sym_key *k = key;
	size_t len = strlen(k->name);

	return s->base == k->base && !strncmp(s->name, k->name, len) &&
	       !strcmp(s->name + len, " (inlined)");
}

static const struct lupe_symbol *inline_sym(struct lupe_srcline *c, const struct lupe_symbol *base,
					    const char *name)
{
	struct sym_key k = { base, name };
	uint64_t h = lupe_phash_mix(lupe_phash_str(name), (uint64_t)(uintptr_t)base);
	void **slot = lupe_phash_find(&c->syms, h, sym_eq, &k);
	struct inl_sym *s;
	size_t len = strlen(name);

	if (!slot)
		return NULL;
	if (*slot)
		return &((struct inl_sym *)*slot)->sym;
	s = malloc(sizeof(*s) + len + sizeof(" (inlined)"));
	if (!s)
		return NULL;
	memcpy(s->name, name, len);
	memcpy(s->name + len, " (inlined)", sizeof(" (inlined)"));
	s->base = base;
	s->sym = (struct lupe_symbol){ base->start, base->end, s->name };
	lupe_phash_fill(&c->syms, slot, h, s);
	return &s->sym;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = NULL;

	/* addr2line names C++ functions by their linkage name */
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a))
		n = dwarf_formstring(&a);
	if (!n && dwarf_attr_integrate(die, DW_AT_name, &a))
		n = dwarf_formstring(&a);
	return n;
}

static void call_site(Dwarf_Die *cu, Dwarf_Die *inl, const char **file, unsigned *line)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_attr(inl, DW_AT_call_line, &a) && !dwarf_formudata(&a, &w))
		*line = (unsigned)w;
	if (dwarf_attr(inl, DW_AT_call_file, &a) && !dwarf_formudata(&a, &w) &&
	    !dwarf_getsrcfiles(cu, &files, &nfiles) && w < nfiles)
		*file = dwarf_filesrc(files, w, NULL, NULL);
}

/*
 * The function addr2line(1) names at addr of an assembler CU, as bfd's
 * DWARF reader chooses it: gas (2.40) writes one DW_TAG_subprogram per
 * symbol of the file, aliases included (__clone3, __GI___clone3, clone3),
 * and bfd takes the smallest that covers the address, the last one in the
 * CU among equals. NULL when none covers it. (Checked against addr2line
 * at three addresses of every assembler function of libc and ld.so.)
 */
static const char *asm_function(Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Die child;
	const char *best = NULL;
	Dwarf_Addr best_len = 0;

	if (dwarf_child(cu, &child))
		return NULL;
	do {
		Dwarf_Addr lo, hi;
		const char *name;

		if (dwarf_tag(&child) != DW_TAG_subprogram || dwarf_lowpc(&child, &lo) ||
		    dwarf_highpc(&child, &hi) || addr < lo || addr >= hi || !(name = die_name(&child)))
			continue;
		if (!best || hi - lo <= best_len) {
			best = name;
			best_len = hi - lo;
		}
	} while (!dwarf_siblingof(&child, &child));
	return best;
}

/*
 * The name addr2line(1) gives the function at vaddr of path, for an
 * assembler CU where asm_function() finds none: bfd then falls back to
 * ELF symbols by rules of its own. Rare (it was never needed on the files
 * tested). NULL when addr2line is missing or says "??".
 */
static char *addr2line_function(const char *path, uint64_t vaddr)
{
	char addr[32], buf[512];
	char *argv[] = { "addr2line", "-f", "-e", (char *)path, addr, NULL };
	posix_spawn_file_actions_t fa;
	int pipefd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	snprintf(addr, sizeof(addr), "%#llx", (unsigned long long)vaddr);
	if (pipe2(pipefd, O_CLOEXEC))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "addr2line", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(pipefd[0]);
		close(pipefd[1]);
		return NULL;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	while (len < sizeof(buf) - 1 && (n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	buf[len] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0] || !strcmp(buf, "??"))
		return NULL;
	return strdup(buf);
}

/*
 * The pages of d's files that the lookups read, given back to the kernel
 * (they stay in the page cache, or in the memfd of an inflated image):
 * libdwfl maps the files whole and private, and nothing writes them, so
 * a page read again comes back the same. The first lookup in libc's
 * DWARF reads a page or more of .debug_info for every one of its CUs
 * (the CU headers, for the address ranges): 7.6 MB of a many-process
 * report's 37 MB peak, which the later lookups (one CU each) never read
 * again (read_units() now reads them a few at a time). Given back after
 * the first lookup and every LOOKUPS_KEPT after, as a few lookups read a
 * few pages each; 8 lookups rather than 32 and 4 units a step rather than
 * 16 took a report's peak from 29.9 to 29.2 MB, at no CPU time measured.
 * The mappings are cut first (lupe_pages_fine()): a cached image sits in
 * the page cache in large folios, which the kernel mapped whole at a
 * fault, 6-8 MB of libc's image after a lookup (see lib/util/pages.c).
 */
#define LOOKUPS_KEPT 8
/*
 * The DWARF file's mapping is cut finer, in pieces of 128 KiB: in pieces
 * of 1 MiB each CU header the first libc lookup reads still mapped up to
 * a MiB of the cached image (7.3 MB of it at a many-process script's
 * peak). Finer for the other mappings too cost a tenth of a one-process
 * report's time and a third of a many-process script's.
 */
#define DWARF_PIECE (128u << 10)

/* d's file mappings (once), and their pages given back. */
static void drop_pages(struct dso_dw *d)
{
	if (d->nr_maps < 0) {
		Dwarf_Addr bias;
		Dwarf *dw = dwfl_module_getdwarf(d->mod, &bias);
		Elf *elfs[2] = { dwfl_module_getelf(d->mod, &bias), dw ? dwarf_getelf(dw) : NULL };
		long page = sysconf(_SC_PAGESIZE);

		d->nr_maps = 0;
		for (int i = 0; i < 2; i++) {
			size_t len;
			char *p = elfs[i] ? elf_rawfile(elfs[i], &len) : NULL;

			if (!p || !len || page <= 0 || (uintptr_t)p % (uintptr_t)page || (i && elfs[1] == elfs[0]) ||
			    !lupe_file_mapped(p, len))
				continue;
			if (i)
				lupe_pages_cut(p, len, DWARF_PIECE);
			else
				lupe_pages_fine(p, len);
			d->maps[d->nr_maps].p = p;
			d->maps[d->nr_maps++].len = len;
		}
	}
	for (int i = 0; i < d->nr_maps; i++)
		lupe_pages_give_back(d->maps[i].p, d->maps[i].len);
}

static void give_back(struct dso_dw *d)
{
	if (d->lookups++ % LOOKUPS_KEPT == 0)
		drop_pages(d);
}

/*
 * The first lookup in a DSO has libdw read the header of each CU (as
 * dwarf_getaranges() finds each range's CU, libdw reads all the units
 * before it): done here first, CU_STEP units at a time with the pages
 * given back after each step, so that they are not all mapped at once.
 * libdw ends up knowing the same units; the ranges then find them known.
 * 64 units a step, not 4: each give-back is a TLB shootdown, an IPI to
 * the other CPU where the reader's read-ahead thread runs, and libc's
 * 2,168 units made 1,084 of them, 8 ms of a one-process report's 42
 * (34 with 64; its peak 21.2 -> 21.9 MB, a many-process script's the
 * same 18.1 MB).
 */
#define CU_STEP 64

static void read_units(struct dso_dw *d)
{
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(d->mod, &bias);
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die die;
	unsigned n = 0;

	if (!dw)
		return;
	drop_pages(d);
	if (!d->nr_maps)
		return;
	while (!dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL)) {
		if (++n % CU_STEP == 0) {
			/* libdw reads the units up to this one */
			if (!dwarf_offdie(dw, off + hsize, &die))
				break;
			drop_pages(d);
		}
		off = next;
	}
	drop_pages(d);
}

static int addr_eq(const void *item, const void *key)
{
	const struct addr_ent *e = item, *k = key;

	return e->dso == k->dso && e->vaddr == k->vaddr;
}

/*
 * What DWARF says of e's address into e: the inlined functions' names,
 * and with lines their source lines. The lines are what costs: libdw
 * parses a CU's whole line table for them (and for the file of a call
 * site), 1.4 MB of libc's at a many-process script's peak, which prints
 * no line.
 */
static void fill(struct lupe_srcline *c, struct addr_ent *e, int lines)
{
	const struct lupe_dso *dso = e->dso;
	uint64_t vaddr = e->vaddr;
	Dwfl_Module *mod;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias;
	Dwfl_Line *l;
	const char *file = NULL;
	unsigned line = 0;
	int nscopes;
	void **userdata;

	e->lines = lines;
	mod = dso_module(c, dso);
	if (!mod)
		return;
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	if (*userdata && !((struct dso_dw *)*userdata)->lookups)
		read_units(*userdata);
	if (!(cu = dwfl_module_addrdie(mod, vaddr, &bias)))
		goto out;
	if (lines && (l = dwfl_module_getsrc(mod, vaddr))) {
		int ln = 0;

		file = dwfl_lineinfo(l, NULL, &ln, NULL, NULL, NULL);
		line = ln > 0 ? (unsigned)ln : 0;
		e->file = intern_file(c, file);
		e->line = line;
	}
	/*
	 * addr2line names a function of an assembler file by bfd's choice
	 * among the DW_TAG_subprograms gas made for its aliases (see
	 * asm_function()). NEEDSWORK: bfd may name a C function by an ELF
	 * symbol that starts where it does; we keep DWARF's name there, which
	 * agrees with perf on the files tested.
	 */
	if (dwarf_srclang(cu) == DW_LANG_Mips_Assembler) {
		const char *name = intern_file(c, asm_function(cu, vaddr - bias));

		if (!name) {
			char *a2l = addr2line_function(dso->long_name, vaddr);

			name = intern_file(c, a2l);
			free(a2l);
		}
		if (!name)
			goto out;

		e->v = calloc(1, sizeof(*e->v));
		e->names = calloc(1, sizeof(*e->names));
		if (name && e->v && e->names) {
			e->names[0] = name;
			e->v[0].file = e->file;
			e->v[0].line = e->line;
			e->nr = 1;
		}
		goto out;
	}
	nscopes = dwarf_getscopes(cu, vaddr - bias, &scopes);
	if (nscopes <= 0)
		goto out;
	e->v = calloc(MAX_INLINE, sizeof(*e->v));
	e->names = calloc(MAX_INLINE, sizeof(*e->names));
	if (!e->v || !e->names)
		goto out;
	/*
	 * dwarf_getscopes() goes from an inlined instance into its abstract
	 * definition: the instance's own callers come from
	 * dwarf_getscopes_die() on it, as eu-addr2line -i does.
	 */
	for (int i = 0, n = nscopes; i < n && e->nr < MAX_INLINE;) {
		Dwarf_Die *scope = &scopes[i];
		int tag = dwarf_tag(scope);
		const char *name;
		Dwarf_Die *up = NULL;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) {
			i++;
			continue;
		}
		name = intern_file(c, die_name(scope));
		e->names[e->nr] = name ? name : "??";
		e->v[e->nr].file = intern_file(c, file);
		e->v[e->nr].line = line;
		e->nr++;
		if (tag == DW_TAG_subprogram)
			break;
		if (lines)
			call_site(cu, scope, &file, &line);
		n = dwarf_getscopes_die(scope, &up);
		free(scopes);
		scopes = up;
		if (n <= 0) {
			scopes = NULL;
			break;
		}
		i = 1;
	}
out:
	free(scopes);
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	if (*userdata)
		give_back(*userdata);
	if (!e->v || !e->names || !e->nr) {
		free(e->v);
		free(e->names);
		e->v = NULL;
		e->names = NULL;
		e->nr = 0;
	} else {
		/* keep what was used: most addresses have one or two entries */
		void *v = realloc(e->v, e->nr * sizeof(*e->v)), *nm = realloc(e->names, e->nr * sizeof(*e->names));

		if (v)
			e->v = v;
		if (nm)
			e->names = nm;
	}
}

/* e, looked up without its lines, gets them: the same walk again, with the lines. */
static void add_lines(struct lupe_srcline *c, struct addr_ent *e)
{
	struct addr_ent t = { .dso = e->dso, .vaddr = e->vaddr };

	fill(c, &t, 1);
	e->file = t.file;
	e->line = t.line;
	for (int i = 0; i < e->nr && i < t.nr; i++) {
		e->v[i].file = t.v[i].file;
		e->v[i].line = t.v[i].line;
	}
	e->lines = 1;
	free(t.v);
	free(t.names);
}

/* What DWARF says of (dso, vaddr), computed once; the lines too when lines is set. */
static struct addr_ent *lookup(struct lupe_srcline *c, const struct lupe_dso *dso, uint64_t vaddr, int lines)
{
	struct addr_ent key = { .dso = dso, .vaddr = vaddr }, *e;
	uint64_t h = lupe_phash_mix((uint64_t)(uintptr_t)dso, vaddr);
	void **slot = lupe_phash_find(&c->addrs, h, addr_eq, &key);

	if (!slot)
		return NULL;
	if ((e = *slot)) {
		if (lines && !e->lines)
			add_lines(c, e);
		return e;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	*e = key;
	lupe_phash_fill(&c->addrs, slot, h, e);
	fill(c, e, lines);
	return e;
}

int lupe_srcline_inlines(struct lupe_srcline *c, const struct lupe_dso *dso, uint64_t vaddr,
			 const struct lupe_symbol *sym, const struct lupe_inline_frame **out)
{
	struct addr_ent *e;

	if (!dso || !sym)
		return 0;
	e = lookup(c, dso, vaddr, 0);
	if (!e || !e->nr)
		return 0;
	if (e->sym != sym) {
		/* perf's new_inline_sym(): the ELF symbol where the names agree */
		for (int i = 0; i < e->nr; i++) {
			struct lupe_inline_frame *f = &e->v[i];

			f->inlined = strcmp(e->names[i], sym->name) != 0;
			f->sym = f->inlined ? inline_sym(c, sym, e->names[i]) : sym;
			if (!f->sym)
				return 0;
		}
		e->sym = sym;
	}
	*out = e->v;
	return e->nr;
}

int lupe_srcline_find(struct lupe_srcline *c, const struct lupe_dso *dso, uint64_t vaddr, int depth,
		      const char **file, unsigned *line)
{
	struct addr_ent *e;

	if (!dso)
		return -ENOENT;
	e = lookup(c, dso, vaddr, 1);
	if (e && depth > 0 && depth < e->nr && e->v[depth].file) {
		*file = e->v[depth].file;
		*line = e->v[depth].line;
		return 0;
	}
	if (!e || !e->file)
		return -ENOENT;
	*file = e->file;
	*line = e->line;
	return 0;
}
