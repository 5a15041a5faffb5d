/* SPDX-License-Identifier: GPL-2.0 */
/* arm64, for lib/arch/arch.h (which says what each name means). Untested: no arm64 CI. */
#ifndef LUPE_ARCH_ARM64_H
#define LUPE_ARCH_ARM64_H

#include <asm/perf_regs.h>
#include <stdbool.h>

#define LUPE_ARCH "aarch64"
#define LUPE_ARCH_USER_REGS_MASK ((1ULL << PERF_REG_ARM64_MAX) - 1)
#define LUPE_ARCH_PERF_REG_NAMES \
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", \
	"x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", \
	"x25", "x26", "x27", "x28", "x29", "lr", "sp", "pc",
#define LUPE_ARCH_PERF_REG_SP PERF_REG_ARM64_SP
#define LUPE_ARCH_RET_SLOT 0 /* the return address is in a register */
/* NEEDSWORK: the tracer's names of arm64's DWARF registers (probe arguments) */
#define LUPE_ARCH_DWARF_REG_NAMES NULL,
/* NEEDSWORK: user-space counter reads (PMUSERENR, cntvct_el0) */
#define LUPE_ARCH_HAVE_USER_PMC 0

static inline bool lupe_arch_cycles_with_guest(void) { return false; }

#endif
