// SPDX-License-Identifier: GPL-2.0
/* The tgids map of bpf/tasks.bpf.h, filled from userspace. */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpf/tasks.h"

int lupe_bpf_tgid_add(struct bpf_map *tgids, pid_t pid)
{
	__u32 key = (__u32)pid;
	__u8 one = 1;

	return bpf_map__update_elem(tgids, &key, sizeof(key), &one, sizeof(one), BPF_ANY) ? -errno : 0;
}
