/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Annotation: the samples of one symbol spread over its instructions. The
 * instructions come from the DSO's bytes disassembled with Zydis (no
 * objdump process), in AT&T syntax as perf shows them, jump and call
 * targets named "11fe <spin+0x35>", each with its source file and line from
 * DWARF when the DSO has them. A byte that decodes to no instruction is one
 * "(bad)", as objdump shows it, and the listing goes on.
 *
 *   struct lupe_annotation a = { 0 };
 *   lupe_annotation_add(&a, dso, sym, vaddr, period);  per sample
 *   lupe_annotation_sort(&a);                          hottest symbol first
 *   lupe_disasm(path, name, start, end, 0, &listing);  per symbol shown
 */
#ifndef LUPE_ANNOTATE_H
#define LUPE_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>

struct lupe_dso;
struct lupe_symbol;

/* The samples that fell in one symbol: period and count per instruction offset. */
struct lupe_annotated_sym {
	const struct lupe_dso *dso;
	const struct lupe_symbol *sym;
	uint64_t nr_samples, total_period;
	uint64_t *period;    /* [vaddr - sym->start], sym->end - sym->start entries */
	uint64_t *samples;   /* the same, counted */
	size_t len;
};

struct lupe_annotation {
	struct lupe_annotated_sym *syms;
	size_t nr, alloc;
};

/*
 * Count a sample of period at vaddr (in the DSO's symbol space) of sym.
 * Returns 0 or -ENOMEM; an address outside the symbol is ignored.
 */
LUPE_API int lupe_annotation_add(struct lupe_annotation *a, const struct lupe_dso *dso,
				 const struct lupe_symbol *sym, uint64_t vaddr, uint64_t period);

/*
 * The annotated symbol of dso at vaddr (DSO symbol space), added without
 * samples when it had none (a callee to browse), or NULL when no symbol is
 * there or out of memory. Moves the others: pointers into a->syms go stale.
 */
LUPE_API struct lupe_annotated_sym *lupe_annotation_sym_at(struct lupe_annotation *a,
							   const struct lupe_dso *dso, uint64_t vaddr);

/* Order the symbols by samples, most first (perf's order), ties by name. */
LUPE_API void lupe_annotation_sort(struct lupe_annotation *a);

/* Free what a holds; a itself may be reused. */
LUPE_API void lupe_annotation_clear(struct lupe_annotation *a);

/* One disassembled instruction. */
struct lupe_insn {
	uint64_t addr;     /* in the DSO's symbol space */
	uint8_t size;
	char text[192];    /* "mov    %rsp,%rbp", "je     11fe <spin+0x35>" */
	uint64_t target;   /* a jump's or call's target, 0 if none */
	bool jump;         /* a jump (not a call) inside the symbol: perf draws it */
	const char *file;  /* source file, or NULL (points into the listing) */
	int line;          /* its line, 0 if unknown */
};

struct lupe_listing {
	struct lupe_insn *insns;
	size_t nr;
	char **files;      /* the source file names the insns point to */
	size_t nr_files;
};

enum {
	LUPE_DISASM_NO_SOURCE = 1 << 0, /* leave file and line unset */
};

/*
 * Disassemble symbol name, [start, end) of the ELF file at path (addresses
 * in its symbol space) into out, with source lines from its DWARF unless flags
 * say LUPE_DISASM_NO_SOURCE (no DWARF is not an error: lines stay 0).
 * Returns 0, -ENOENT (no file, or the range is in no section with bytes),
 * -LUPE_ERR_NOT_SUPPORTED (built without Zydis, or not x86-64). Every byte of
 * [start, end) is in the listing: one that decodes to no instruction is an
 * insn of size 1 whose text is "(bad)", as objdump writes it.
 */
LUPE_API int lupe_disasm(const char *path, const char *name, uint64_t start, uint64_t end,
			 unsigned int flags, struct lupe_listing *out);
/* Free the instructions and file names l holds and zero it; l may be reused. */
LUPE_API void lupe_listing_clear(struct lupe_listing *l);

/*
 * Source lines for the listing's instructions from the DWARF of the ELF
 * file at path (called by lupe_disasm). Returns 0, or a negative errno when
 * the file has no DWARF; -LUPE_ERR_NOT_SUPPORTED built without libdw.
 */
LUPE_API int lupe_listing_add_lines(struct lupe_listing *l, const char *path);

#endif
