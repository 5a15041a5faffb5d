/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's lock and scheduler text (.lock.text, .sched.text): the
 * frames perf 6.1 passes over when it looks for a lock waiter's caller.
 * Shared by the file reader (lock/file.c) and the BPF loader.
 */
#ifndef LUPE_LOCK_TEXT_H
#define LUPE_LOCK_TEXT_H

#include <stdint.h>

struct lock_text {
	uint64_t sched_start, sched_end, lock_start, lock_end;
};

/* Their bounds from /proc/kallsyms; all 0 when it cannot be read. */
void lupe_lock_text_bounds(struct lock_text *t);
/*
 * The same for a caller that reads /proc/kallsyms anyway: each line to
 * lupe_lock_text_line() (a lupe_kallsyms_foreach() callback, arg the
 * zeroed lock_text), then lupe_lock_text_done().
 */
int lupe_lock_text_line(uint64_t addr, char type, const char *name, size_t len, void *arg);
void lupe_lock_text_done(struct lock_text *t);
/* Whether ip is in either (never without bounds, as perf). */
int lupe_lock_text_has(const struct lock_text *t, uint64_t ip);

#endif
