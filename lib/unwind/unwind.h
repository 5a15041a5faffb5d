/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF unwinding of sampled user stacks (PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER): the user registers and the copy of the stack at
 * the sample, unwound through the CFI (.eh_frame, .debug_frame) of the DSOs
 * mapped in the sample's process. One unwinder per session keeps one
 * address space per process (its modules and their CFI, loaded once) and
 * reuses it across samples until the process's maps change under it.
 *
 * The narrow interface: lupe_callchain_complete() turns a sample's recorded
 * callchain (the kernel part, with exclude_callchain_user) into the whole
 * chain perf builds: the kernel entries, LUPE_CONTEXT_USER_UNWOUND, then the
 * unwound user addresses, innermost first. The first user address is the sampled
 * ip; the others are return addresses minus one, as perf gives them (so
 * that they fall in the calling line and inline context).
 */
#ifndef LUPE_UNWIND_H
#define LUPE_UNWIND_H

#include <stdint.h>
#include <lupe/session.h>

struct lupe_unwinder;

/* A new unwinder, or NULL + errno. */
struct lupe_unwinder *lupe_unwinder_new(void);
/* Frees it and every address space it holds; NULL is fine. */
void lupe_unwinder_delete(struct lupe_unwinder *u);

/* Whether the sample carries a user register set and a user stack copy. */
int lupe_unwind_wanted(const struct lupe_sample *s);

/*
 * Unwind the user stack of sample s of thread t into ips (at most max),
 * innermost first. Returns the number of addresses (0: nothing could be
 * unwound), or -ENOTSUP when lupe was built without an unwinder. Corrupt
 * samples (no registers, a short or empty stack copy, a stack pointer that
 * does not point into the copy) unwind as far as the data allows.
 */
int lupe_unwind_user(struct lupe_unwinder *u, struct lupe_thread *t, const struct lupe_sample *s,
		     uint64_t *ips, int max);

/*
 * The complete callchain of s into out (at most max entries): its recorded
 * entries, then LUPE_CONTEXT_USER_UNWOUND and the unwound user addresses. Returns
 * the number of entries, or 0 when the sample has no user stack to unwind
 * (its own callchain is the whole answer).
 */
int lupe_callchain_complete(struct lupe_unwinder *u, struct lupe_thread *t,
			    const struct lupe_sample *s, uint64_t *out, int max);

/* The value of perf register idx (PERF_REG_X86_*) in s, 0 when there, -ENOENT when not. */
int lupe_unwind_reg(const struct lupe_sample *s, int idx, uint64_t *val);

/*
 * The completion of a session's samples: an unwinder, the source line and
 * inline cache, and the completed chain's buffer. One per session.
 */
struct lupe_completer;

struct lupe_completer *lupe_completer_new(void);
void lupe_completer_delete(struct lupe_completer *c);
/* Inlined functions as frames of their own (on by default). */
void lupe_completer_set_inline(struct lupe_completer *c, int on);
/*
 * *ips and *nr (the sample's own chain on entry) become the completed chain
 * when the sample has a user stack to unwind: returns 1 then, *ips in c
 * and valid until the next call; else 0.
 */
int lupe_completer_chain(struct lupe_completer *c, struct lupe_thread *t,
			 const struct lupe_sample *s, const uint64_t **ips, uint64_t *nr);
/*
 * frames[n] (a resolved user frame) becomes the inlined functions at its
 * address, innermost first, then its own function, within max. Returns
 * how many frames it now takes (1 when nothing was inlined there).
 */
int lupe_completer_inlines(struct lupe_completer *c, struct lupe_frame *frames, int n, int max);
/* The source file and line of a resolved frame: 0 or -ENOENT. */
int lupe_completer_srcline(struct lupe_completer *c, const struct lupe_frame *f,
			   const char **file, unsigned *line);
/* perf's srcline text of a frame, see lupe_session_srcline_text(). */
int lupe_completer_srcline_text(struct lupe_completer *c, const struct lupe_frame *f, char *buf,
				size_t size);

#endif
