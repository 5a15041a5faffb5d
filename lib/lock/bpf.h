/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lock contention -b's collector: its program (bpf/prog.h, loaded and read
 * by bpf/lockcon+BPF.c) and what naming its callers takes. Following,
 * attaching and detaching are the program's steps (lock/bpf.c).
 */
#ifndef LUPE_LOCK_BPF_H
#define LUPE_LOCK_BPF_H

#include <lupe/lock.h>
#include "bpf/prog.h"
#include "lock/text.h"
#include "symbols/symbols.h"

struct lupe_lock_bpf {
	struct lupe_bpf_prog *prog; /* lockcon.bpf.c */
	int stack_skip, max_stack;
	int aggr;
	struct symtab_build build; /* kallsyms' text symbols as they are read */
	struct lupe_dso kernel;    /* then sorted into a DSO's table, looked up as the session's */
	struct lock_text text;
};

#endif
