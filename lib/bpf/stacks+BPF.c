// SPDX-License-Identifier: GPL-2.0
/* The stacks map of bpf/stacks.bpf.h, read from userspace. */
#include <string.h>
#include <bpf/bpf.h>
#include "bpf/stacks.h"

void lupe_bpf_stack_read(int fd, int64_t id, uint64_t *ips, size_t depth)
{
	__u32 key = (__u32)id;

	if (id < 0 || bpf_map_lookup_elem(fd, &key, ips))
		memset(ips, 0, depth * sizeof(*ips));
}
