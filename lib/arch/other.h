/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A machine lupe has no file for (lib/arch/arch.h says what each name
 * means): counting and frame-pointer callchains work, and DWARF unwinding,
 * --user-regs, probe arguments, per-function recursion by stack pointer
 * and user-space counter reads are off. NEEDSWORK: a file per architecture.
 */
#ifndef LUPE_ARCH_OTHER_H
#define LUPE_ARCH_OTHER_H

#include <stdbool.h>

#define LUPE_ARCH "unknown"
#define LUPE_ARCH_USER_REGS_MASK 0
#define LUPE_ARCH_PERF_REG_NAMES NULL,
#define LUPE_ARCH_PERF_REG_SP -1 /* recursion by depth only */
#define LUPE_ARCH_RET_SLOT 0
#define LUPE_ARCH_DWARF_REG_NAMES NULL,
#define LUPE_ARCH_HAVE_USER_PMC 0

static inline bool lupe_arch_cycles_with_guest(void) { return false; }

#endif
