/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace's half of bpf/stacks.bpf.h: a program's stacks read back by id. */
#ifndef LUPE_BPF_STACKS_H
#define LUPE_BPF_STACKS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The frames of stack id in the stack map fd (whose stacks hold depth
 * frames) into ips[depth], zeros after the last frame; all zeros when id
 * is negative (the program took no stack) or no longer in the map.
 */
void lupe_bpf_stack_read(int fd, int64_t id, uint64_t *ips, size_t depth);

#endif
