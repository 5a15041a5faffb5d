/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a resolved address points at: a DSO (an ELF file, the kernel, the
 * vdso, a perf-PID.map) and one of its symbols. DSOs belong to the session
 * that found them; their symbol tables load lazily on the first lookup.
 * Thread-safety: DSOs belong to their session: the session's thread only.
 */
#ifndef LUPE_SYMBOLS_PUBLIC_H
#define LUPE_SYMBOLS_PUBLIC_H

#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>

struct lupe_symbol {
	uint64_t start, end; /* in the DSO's address space (its ELF vaddrs) */
	const char *name;
};

/*
 * An inlined function shown as a frame of its own: its name ends in
 * " (inlined)" and it spans the ELF symbol it was inlined into. perf
 * matches such symbols by name (callchains) or by name and overlap
 * (report entries), not by address.
 */
static inline int lupe_symbol_inlined(const struct lupe_symbol *sym)
{
	static const char sfx[] = " (inlined)";
	size_t len = sym && sym->name ? __builtin_strlen(sym->name) : 0;

	return len >= sizeof(sfx) - 1 &&
	       !__builtin_memcmp(sym->name + len - (sizeof(sfx) - 1), sfx, sizeof(sfx) - 1);
}

struct lupe_dso;

/* Its path, "[kernel.kallsyms]", "[vdso]", "/tmp/perf-N.map". */
LUPE_API const char *lupe_dso_long_name(const struct lupe_dso *dso);
/* The last component of the path, as the Shared Object column shows it. */
LUPE_API const char *lupe_dso_short_name(const struct lupe_dso *dso);
/* Non-zero for the kernel and its modules. */
LUPE_API int lupe_dso_is_kernel(const struct lupe_dso *dso);
/*
 * Where perf takes its symbols from, as the letter perf report -v shows:
 * 'k' the kernel's kallsyms, 'j' a perf-PID.map, 'B' the build-id cache's
 * copy, 'D' the cache's debug file, 'f'/'u' /usr/lib/debug by path,
 * 'b' /usr/lib/debug by build-id, 'd' the file itself, '!' none. perf
 * takes the first of these that has a .symtab (else the first there);
 * lupe's own symbols may come from another of them, with the same names.
 */
LUPE_API char lupe_dso_origin(const struct lupe_dso *dso);
/* Its build-id (from the file or from perf.data); *size 0 when unknown. */
LUPE_API const uint8_t *lupe_dso_build_id(const struct lupe_dso *dso, int *size);

/*
 * Build-ids and the build-id cache, in perf's layout (shared with perf):
 * DIR/<realpath>/<hex>/elf (or kallsyms for "[kernel.kallsyms]") and the
 * link DIR/.build-id/<hex[0:2]>/<hex[2:]> -> ../../<realpath>/<hex>.
 */
#define LUPE_BUILD_ID_MAX 20

/*
 * The build-id of the ELF file at path ("[kernel.kallsyms]": the running
 * kernel's; "[vdso]": the vdso's) into id (20 bytes); its length, or -errno (-ENOENT: none).
 */
LUPE_API int lupe_build_id_of(const char *path, uint8_t *id);
/* id as lowercase hex into out (2 * len + 1 bytes). */
LUPE_API void lupe_build_id_to_hex(const uint8_t *id, int len, char *out);

/* Use dir as the cache (perf's --buildid-dir); NULL goes back to the default. */
LUPE_API void lupe_buildid_dir_set(const char *dir);
/*
 * The cache folder: the one set, else perf's config key buildid.dir (the file
 * $PERF_CONFIG, or /etc/perfconfig then ~/.perfconfig), else $HOME/.debug.
 */
LUPE_API const char *lupe_buildid_dir(void);
/*
 * Put the file name (or "[kernel.kallsyms]": /proc/kallsyms; "[vdso]": the
 * vdso image, as the file "vdso") in the cache under id: a hard link, or a
 * copy across file systems. An entry already
 * there is kept. Returns 0 or -errno.
 */
LUPE_API int lupe_buildid_cache_add(const char *name, const uint8_t *id, int len);
/* Remove the entry of the build-id hex (its link and folder). 0 or -errno (-ENOENT: none). */
LUPE_API int lupe_buildid_cache_remove(const char *hex);
/* Non-zero when the cache holds a whole entry for the build-id hex. */
LUPE_API int lupe_buildid_cache_has(const char *hex);
/*
 * Call fn for each whole entry, in build-id order, with its hex and the name
 * it was added as; a non-zero return stops the walk and is returned. A
 * missing cache has no entries. Returns 0, fn's value or -errno.
 */
LUPE_API int lupe_buildid_cache_list(int (*fn)(void *arg, const char *hex, const char *name),
				     void *arg);

#endif
