/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Libraries loaded on first use. A dependency that only one command needs
 * and that is costly to load (capstone, the disassembler before Zydis,
 * relocated 1.3 MiB of tables at every start) is opened with dlopen by the code that uses it, so that
 * lupe stat, the exporter and programs linking liblupe do not pay for it.
 */
#ifndef LUPE_UTIL_DL_H
#define LUPE_UTIL_DL_H

#include <stddef.h>

/* One function of the library: its name and where its address goes. */
struct lupe_dl_sym {
	const char *name;
	void **slot;
};

/*
 * Open the library soname (once: later calls find it loaded) and fill
 * every slot. Returns 0, or -LUPE_ERR_NOT_SUPPORTED with the error
 * sentence set (lupe_last_error) when the library or a function is missing.
 */
int lupe_dl_bind(const char *soname, const struct lupe_dl_sym *syms, size_t n);

#endif
