/* SPDX-License-Identifier: GPL-2.0 */
/* x86-64, for lib/arch/arch.h (which says what each name means). */
#ifndef LUPE_ARCH_X86_64_H
#define LUPE_ARCH_X86_64_H

#include <asm/perf_regs.h>
#include <cpuid.h>
#include <stdbool.h>
#include <string.h>

#define LUPE_ARCH "x86_64"

/* Every general register but the segment ones, as perf asks on x86_64. */
#define LUPE_ARCH_USER_REGS_MASK (((1ULL << PERF_REG_X86_64_MAX) - 1) & \
				  ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) | \
				    (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS)))

#define LUPE_ARCH_PERF_REG_NAMES \
	[PERF_REG_X86_AX] = "AX", [PERF_REG_X86_BX] = "BX", [PERF_REG_X86_CX] = "CX", \
	[PERF_REG_X86_DX] = "DX", [PERF_REG_X86_SI] = "SI", [PERF_REG_X86_DI] = "DI", \
	[PERF_REG_X86_BP] = "BP", [PERF_REG_X86_SP] = "SP", [PERF_REG_X86_IP] = "IP", \
	[PERF_REG_X86_FLAGS] = "FLAGS", [PERF_REG_X86_CS] = "CS", [PERF_REG_X86_SS] = "SS", \
	[PERF_REG_X86_R8] = "R8", [PERF_REG_X86_R9] = "R9", [PERF_REG_X86_R10] = "R10", \
	[PERF_REG_X86_R11] = "R11", [PERF_REG_X86_R12] = "R12", [PERF_REG_X86_R13] = "R13", \
	[PERF_REG_X86_R14] = "R14", [PERF_REG_X86_R15] = "R15",

#define LUPE_ARCH_PERF_REG_SP PERF_REG_X86_SP
#define LUPE_ARCH_RET_SLOT 8 /* call pushes the return address */

/* DWARF register numbers 0..16 (the psABI's order), as the tracer spells them */
#define LUPE_ARCH_DWARF_REG_NAMES \
	"%ax", "%dx", "%cx", "%bx", "%si", "%di", "%bp", "%sp", \
	"%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%ip",

#define LUPE_ARCH_HAVE_USER_PMC 1

static inline uint64_t lupe_arch_read_pmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t lupe_arch_read_tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}

/* AuthenticAMD in CPUID's vendor string, as perf's get_cpuid() reads it */
static inline bool lupe_arch_cycles_with_guest(void)
{
	unsigned int a, b, c, d;
	char vendor[12];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return false;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	return !memcmp(vendor, "AuthenticAMD", 12);
}

#endif
