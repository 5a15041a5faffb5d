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
/* Its build-id (from the file or from perf.data); *size 0 when unknown. */
LUPE_API const uint8_t *lupe_dso_build_id(const struct lupe_dso *dso, int *size);

#endif
