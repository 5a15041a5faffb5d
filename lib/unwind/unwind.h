/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF unwinding of sampled user stacks (PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER): the user registers and the copy of the stack at
 * the sample, unwound through the CFI (.eh_frame, .debug_frame) of the DSOs
 * mapped in the sample's process. One unwinder per session keeps one
 * address space per process (its modules and their CFI, loaded once) and
 * reuses it across samples until the process's maps change under it.
 *
 * The narrow interface: lupe_unwind_install() (lupe/unwind.h) plugs
 * lupe_unwind_user() into the session's callchain step
 * (lupe_session_complete_callchain()), which turns a sample's recorded
 * callchain (the kernel part, with exclude_callchain_user) into the whole
 * chain perf builds: the kernel entries, LUPE_CONTEXT_USER_UNWOUND, then
 * the unwound user addresses, innermost first. The first user address is
 * the sampled ip; the others are return addresses minus one, as perf gives
 * them (so that they fall in the calling line and inline context).
 */
#ifndef LUPE_UNWIND_H
#define LUPE_UNWIND_H

#include <stdint.h>
#include <lupe/session.h>
#include <lupe/unwind.h>

struct lupe_unwinder;

/* A new unwinder, or NULL + errno. */
struct lupe_unwinder *lupe_unwinder_new(void);
/* Frees it and every address space it holds; NULL is fine. */
void lupe_unwinder_delete(struct lupe_unwinder *u);

/* Whether lupe was built with an unwinder (libdw). */
int lupe_unwind_supported(void);

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

/* The value of perf register idx (PERF_REG_X86_*) in s, 0 when there, -ENOENT when not. */
int lupe_unwind_reg(const struct lupe_sample *s, int idx, uint64_t *val);

#endif
