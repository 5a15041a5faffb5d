/* SPDX-License-Identifier: GPL-2.0 */
/* Private to lib/func: what the ELF and DWARF readers tell the resolver. */
#ifndef LUPE_FUNC_PRIV_H
#define LUPE_FUNC_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <lupe/evlist.h>
#include <lupe/func.h>
#include <lupe/source.h>

/* Whether an ELF file can name its functions: .symtab or a debuglink. */
struct func_elf {
	int has_symtab;
	int has_debuglink;
	uint64_t xlo[8], xhi[8]; /* executable PT_LOAD vaddr ranges */
	int nr_x;
};

/* Fill *info for path. Returns 0 or a negative errno. */
int lupe_func_elf_info(const char *path, struct func_elf *info);

/*
 * The vaddrs where lines lo..hi of the source file whose name ends in file
 * begin (*entry) and are left (*exit), from path's DWARF line table.
 * Returns 0, -ENOENT (no such lines), -ENODATA (no DWARF) or another error.
 */
int lupe_func_dwarf_range(const char *path, const char *file, int lo, int hi,
			  uint64_t *entry, uint64_t *exit);

/*
 * Whether path's DWARF has function name only inlined (no code of its own):
 * returns 1 with a source range "file.c:12-20" covering its body in hint,
 * 0 if not, or a negative errno.
 */
int lupe_func_dwarf_inline_only(const char *path, const char *name, char *hint, size_t size);

/*
 * Counting in the kernel with BPF (bpf+BPF.c): what the session hands over.
 * The programs hang on uprobes of their own (the uprobe PMU), one per
 * process of pids and probe; the kernel's uprobe filter runs them for
 * every thread of those processes, present and future.
 */
struct lupe_func_bpf_setup {
	const struct perf_event_attr *const *attrs; /* the counters */
	int nc;
	int *supported;     /* in: 1 each; out: 0 for a counter the machine lacks */
	const struct lupe_func_target *t;
	int nt;
	const pid_t *pids;  /* processes */
	int nr_pids;
	int ret_slot;       /* bytes a call pushes: the outermost return's sp is the entry's plus this */
	int enabled;        /* count from the start; else from lupe_func_bpf_enable() */
};

struct lupe_func_bpf;

/*
 * Load and attach. Returns NULL with errno: EOPNOTSUPP built without BPF,
 * another when the kernel refuses (then *fail names a counter that failed,
 * fail->evsel >= 0, or not).
 */
struct lupe_func_bpf *lupe_func_bpf_open(const struct lupe_func_bpf_setup *su,
					 struct lupe_open_failure *fail);
void lupe_func_bpf_enable(struct lupe_func_bpf *b);
/*
 * Emit what the ring holds (bpf/ring.h): a sample of TID, TIME (the
 * call's return; 0 for an unfinished call) and RAW (a struct func_rec,
 * func-rec.h) per call, a LOST record for what the programs had no room
 * for. Returns 0, what emit returned when non-zero, or a negative errno.
 */
int lupe_func_bpf_read(struct lupe_func_bpf *b, lupe_emit_fn emit, void *arg);
/* Stop counting and detach, letting the calls in flight return (then read what is left). */
void lupe_func_bpf_stop(struct lupe_func_bpf *b);
/* Calls of target t the programs still hold open (after the stop): unfinished. */
uint64_t lupe_func_bpf_open_calls(const struct lupe_func_bpf *b, int t);
/* Stop if not yet, and free (NULL is ok). */
void lupe_func_bpf_close(struct lupe_func_bpf *b);

#endif
