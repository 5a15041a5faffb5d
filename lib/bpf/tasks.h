/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace's half of bpf/tasks.bpf.h: the processes a program follows. */
#ifndef LUPE_BPF_TASKS_H
#define LUPE_BPF_TASKS_H

#include <sys/types.h>

struct bpf_map;

/* Follow process pid (its tgid) in a program's tgids map. 0 or -errno. */
int lupe_bpf_tgid_add(struct bpf_map *tgids, pid_t pid);

#endif
