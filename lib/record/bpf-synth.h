/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF programs loaded before a recording began, as perf record and top
 * synthesize them: for each program, a KSYMBOL record per JITed function
 * (named bpf_prog_<tag>_<name>, perf's name) and one BPF_EVENT PROG_LOAD,
 * so that samples in them resolve. Programs loaded while recording come
 * from the kernel (attr.ksymbol, attr.bpf_event on the tracking event).
 */
#ifndef LUPE_RECORD_BPF_SYNTH_H
#define LUPE_RECORD_BPF_SYNTH_H

#include "session/synthesize.h"

/*
 * 0, also when nothing can be listed (no CAP_SYS_ADMIN, no libbpf in this
 * build: perf too writes nothing then); or the first non-zero return of
 * the receiver.
 */
int lupe_synth_bpf(const struct synth *s);

#endif
