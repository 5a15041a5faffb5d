/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that names the machine lupe runs on. Everything else asks
 * these names, so a second architecture is one file, lib/arch/NAME.h,
 * chosen below, that defines:
 *
 *   LUPE_ARCH                  its name, as uname -m says it
 *   LUPE_ARCH_USER_REGS_MASK   sample_regs_user of --call-graph dwarf: the
 *                              registers perf asks for (0: no DWARF unwinding)
 *   LUPE_ARCH_PERF_REG_NAMES   perf's names of those registers, an array
 *                              initializer indexed by register bit (--user-regs)
 *   LUPE_ARCH_PERF_REG_SP      perf's number of the stack pointer, or -1
 *   LUPE_ARCH_RET_SLOT         bytes a call pushes under the callee's stack
 *                              pointer (0: the return address is in a register)
 *   LUPE_ARCH_DWARF_REG_NAMES  the tracer's names of the DWARF register numbers
 *                              (probe arguments), an array initializer
 *   LUPE_ARCH_HAVE_USER_PMC    1 when lupe_arch_read_pmc() and
 *                              lupe_arch_read_tsc() read the counters from user
 *                              space (perf_event_mmap_page's cap_user_rdpmc)
 *   lupe_arch_cycles_with_guest()  true where perf 6.1's default cycles event
 *                              leaves exclude_guest clear
 *                              (arch_evsel__fixup_new_cycles: AMD, whose IBS
 *                              behind precise cycles refuses it)
 *
 * What stays out: the machine of a file being read (a PLT's layout, the
 * disassembler) is the file's ELF e_machine, not ours, since a perf.data
 * recorded on x86-64 is annotated anywhere; those checks test EM_* there.
 */
#ifndef LUPE_ARCH_H
#define LUPE_ARCH_H

#include <stdint.h>

#if defined(__x86_64__)
#include "arch/x86_64.h"
#elif defined(__aarch64__)
#include "arch/arm64.h"
#else
#include "arch/other.h"
#endif

#endif
