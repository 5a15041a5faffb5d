/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source lines and inlined frames of DSO addresses, from DWARF (libdw),
 * with the debug info found where users keep it: the file itself, its
 * .gnu_debuglink, /usr/lib/debug/.build-id/xx/yyyy.debug, the ~/.debug
 * build-id cache. Each DSO's DWARF is opened once and each (DSO, address)
 * answer is computed once per cache.
 *
 * Inlined frames follow perf 6.1 (its addr2line -i): the functions whose
 * code holds the address, innermost first, up to the function that was
 * not inlined. An entry whose name is not the ELF symbol's gets a symbol of
 * its own, named "NAME (inlined)", spanning the ELF symbol's range, one per
 * (ELF symbol, name), so that report groups it as perf does.
 */
#ifndef LUPE_SYMBOLS_SRCLINE_H
#define LUPE_SYMBOLS_SRCLINE_H

#include <stdint.h>
#include <lupe/symbols.h>

struct lupe_srcline;

struct lupe_inline_frame {
	const struct lupe_symbol *sym; /* the ELF symbol, or an "(inlined)" one */
	int inlined;
	const char *file;              /* lupe_srcline_find()'s: NULL when unknown, or not looked up yet */
	unsigned line;
};

/* A new cache, or NULL + errno. */
struct lupe_srcline *lupe_srcline_new(void);
/* Frees the cache and everything it handed out; NULL is fine. */
void lupe_srcline_delete(struct lupe_srcline *c);
/*
 * Lets go of the DWARF the cache opened (libdw's handles, the inflated
 * debug images: libc's is 8.6 MB, and what libdw parsed), keeping every
 * answer it gave: when a session has read its events, what report builds
 * next no longer shares the memory with them. A later lookup of an
 * address not asked before opens the DSO's DWARF again. NULL is fine.
 */
void lupe_srcline_release(struct lupe_srcline *c);

/*
 * The inlined frames at vaddr (the DSO's symbol space) whose ELF symbol is
 * sym: *out gets an array owned by the cache. Returns its length; 0 when
 * there is no DWARF for the address (the frame stays as it is). Their
 * source lines are not looked up here (lupe_srcline_find() does).
 */
int lupe_srcline_inlines(struct lupe_srcline *c, const struct lupe_dso *dso, uint64_t vaddr,
			 const struct lupe_symbol *sym, const struct lupe_inline_frame **out);

/*
 * The source file and line of vaddr in dso; of its inlined frame depth
 * (lupe_srcline_inlines()' index: 0 is the address's own line, a deeper
 * one the call site in it of the frame before), the address's own when
 * DWARF has no call site. 0, or -ENOENT (no line info).
 */
int lupe_srcline_find(struct lupe_srcline *c, const struct lupe_dso *dso, uint64_t vaddr, int depth,
		      const char **file, unsigned *line);

#endif
