// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of lock contention -b that are its program's (bpf/prog.h):
 * following processes, attaching, detaching; built with or without BPF.
 * Making, reading and deleting the collector live with its BPF reader
 * (bpf/lockcon+BPF.c), whose fallback fails lupe_lock_bpf_new and says so.
 */
#include "lock/bpf.h"

int lupe_lock_bpf_add_pid(struct lupe_lock_bpf *b, pid_t pid)
{
	return lupe_bpf_prog_add_pid(b->prog, pid);
}

int lupe_lock_bpf_start(struct lupe_lock_bpf *b)
{
	return lupe_bpf_prog_start(b->prog);
}

void lupe_lock_bpf_stop(struct lupe_lock_bpf *b)
{
	lupe_bpf_prog_stop(b->prog);
}
