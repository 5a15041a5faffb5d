/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol tables of DSOs, loaded once and lazily on the first lookup, kept
 * sorted per DSO for a binary search: compact (kallsyms' and ELF tables:
 * struct ksymtab, symbols.c) or as an array of struct lupe_symbol.
 * Sources: ELF .symtab (from separate debug info when there is some) then
 * .dynsym, the kernel's /proc/kallsyms, and /tmp/perf-PID.map for JIT code.
 */
#ifndef LUPE_SYMBOLS_H
#define LUPE_SYMBOLS_H

#include <stdint.h>
#include <stddef.h>
#include <lupe/symbols.h>

/* The full DSO; the public header keeps it opaque. */
struct lupe_dso {
	char *long_name;        /* path, "[kernel.kallsyms]", "[vdso]", "/tmp/perf-N.map" */
	const char *short_name; /* its last component, as the Shared Object column shows it */
	int kernel;
	uint8_t build_id[20];
	int build_id_size;
	int loaded;
	struct lupe_symbol *syms; /* NULL when ktab holds the table */
	size_t nr_syms;
	struct ksymtab *ktab;   /* the table kept compact (symbols.c), or NULL */
	uint32_t *outer;        /* per symbol (in syms' block, if any): 1 + the sized symbol a label lies in, or 0 */
	char *strtab;
	/*
	 * The ELF string table (mapped from the file, its pages given back
	 * after loading) that names not looked up yet point into, NULL for
	 * none; the names copied out of it so far (named(), symbols.c).
	 */
	const char *names_map;
	size_t names_map_len;
	int names_kallsyms; /* the table is a kallsyms file's: names end as its lines say */
	struct demangled_name *demangled;
	uint64_t *load_off, *load_vaddr, *load_size; /* PT_LOAD: file offset -> vaddr */
	uint64_t *load_memsz;                        /* and the size in memory (.bss after the file's bytes) */
	int nr_loads;
	int identity;           /* addresses are absolute (kernel, perf-PID.map) */
	unsigned seq;           /* order of creation: orders equal callchain branches as perf */
	uint8_t kernel_id[20];  /* the kernel: its build-id in the file (perf's kallsyms copy) */
	uint64_t kernel_text_end; /* the kernel: where its MMAP record ends (_etext), 0 for nowhere */
	int kernel_id_size;
	char origin;            /* lupe_dso_origin()'s letter once known, else 0 */
	unsigned nr_maps;       /* the machine's maps that hold it */
	int pinned;             /* handed out of the machine: kept until the machine goes */
	int pid;                /* a process that maps it (the first seen): its namespaces name the file */
	struct kallsyms_job *kjob; /* the kernel: its kallsyms copy being read on a thread, or NULL */
	struct lupe_dso *next;
};

/* A symbol table being built; lupe_symtab_finish() turns it into the DSO's. */
struct symtab_build {
	struct sym_in {
		uint64_t start, size;
		const char *raw; /* the name in map, NULL for none */
		uint32_t name; /* offset into str */
		uint8_t binding;
	} *v;
	size_t nr, cap;
	char *str;
	size_t slen, scap;
	int kallsyms;
	int compact; /* keep it as a ksymtab (8 or 12 bytes a symbol, not 24) where its span allows */
	/* a string table mapped from the file (lupe_symtab_map()): the DSO's names when finished */
	void *map;
	size_t map_len;
};

int lupe_symtab_add(struct symtab_build *b, uint64_t start, uint64_t size, const char *name,
	       size_t name_len, int binding);
/*
 * The same, for a symbol whose name is read from raw (a string in b->map:
 * an ELF string, demangled when read, or a kallsyms line's name), not
 * copied (name is then unused); raw NULL: lupe_symtab_add(). The table
 * keeps raw and copies the name out when the symbol is first looked up.
 */
int lupe_symtab_add_raw(struct symtab_build *b, uint64_t start, uint64_t size, const char *name,
			size_t name_len, const char *raw, int binding);
/* Frees dso's symbol table (and unmaps its names). */
void lupe_dso_free_syms(struct lupe_dso *dso);
/* Sort, drop aliases as perf does (choose_best_symbol), fix up ends. */
int lupe_symtab_finish(struct symtab_build *b, struct lupe_dso *dso);
void lupe_symtab_build_free(struct symtab_build *b);

/*
 * The kernel's build-id as the file recorded it: its symbols then come from
 * the copy of kallsyms perf keeps in its build-id cache
 * (~/.debug/[kernel.kallsyms]/BUILDID/kallsyms) when there is one, a
 * regular file read at disk speed where /proc/kallsyms makes the kernel
 * print 100,000 lines; else from /proc/kallsyms. When the copy is there,
 * it starts being read and sorted on a thread of its own at once (the
 * kernel's map is among a file's first records; its first symbol lookup
 * comes after the user frames' first lookups, which inflate debug files):
 * lupe_dso_load() takes the result, lupe_dso_release() the thread.
 */
void lupe_dso_set_kernel_build_id(struct lupe_dso *dso, const uint8_t *id, int size);

/* Before dso is freed: stops a kallsyms read still running, waits for it and drops its result. */
void lupe_dso_release(struct lupe_dso *dso);

/*
 * Each line of a kallsyms file (/proc/kallsyms or a copy) but the modules'
 * to fn: address, type letter, name (not NUL-terminated) and its length.
 * The file is read in large blocks and parsed by hand: its 200,000 lines
 * cost more in sscanf() than the kernel takes to print them. Stops at fn's
 * first non-zero return and returns it; 0, or a negative errno.
 */
int lupe_kallsyms_foreach(const char *path,
			  int (*fn)(uint64_t addr, char type, const char *name, size_t len, void *arg), void *arg);

/* Load dso's symbols if that was not tried yet. Returns 0 or an error (logged at debug). */
int lupe_dso_load(struct lupe_dso *dso);

/* The symbol at vaddr (DSO symbol space), or NULL. */
const struct lupe_symbol *lupe_dso_find_symbol(const struct lupe_dso *dso, uint64_t vaddr);
/*
 * Symbol i (< nr_syms) under its full name: what a walk of all of them
 * reads (not syms[i].name; syms is NULL for a compact table). The same
 * pointer as lupe_dso_find_symbol() gives for its addresses. NULL only
 * when a compact table's symbol cannot be made (no memory).
 */
const struct lupe_symbol *lupe_dso_symbol(const struct lupe_dso *dso, size_t i);
/* Where symbol i (< nr_syms) starts and ends, read without making it (any table). */
uint64_t lupe_dso_symbol_start(const struct lupe_dso *dso, size_t i);
uint64_t lupe_dso_symbol_end(const struct lupe_dso *dso, size_t i);

/* A map-relative address (file offset) to the DSO's symbol space. */
uint64_t lupe_dso_addr_to_vaddr(const struct lupe_dso *dso, uint64_t addr);

/* A C++ name demangled as perf shows it (malloc'ed), or NULL when it is not one. */
char *lupe_demangle(const char *name);

/* ELF loading (symbols+LIBELF.c): the file at path, or the vdso of this process. */
int lupe_elf_load_dso(struct lupe_dso *dso, const char *path);
int lupe_elf_load_vdso(struct lupe_dso *dso);
/* 1 when path is an ELF file with a .symtab, 0 without one, -errno when it is no ELF file. */
int lupe_elf_has_symtab(const char *path);

/*
 * The PLT entries of an x86-64 ELF (libelf's Elf) as perf names them
 * ("name@plt"): fn gets each one's address and its dynamic symbol's name
 * ("" for none, as an ifunc's), in .rela.plt order. Stops at fn's first
 * non-zero return and returns it; 0 when there is no PLT.
 */
struct Elf;
int lupe_elf_plt_foreach(struct Elf *elf, int (*fn)(uint64_t addr, const char *name, void *arg), void *arg);

#endif
