// SPDX-License-Identifier: GPL-2.0
/* Built without libbpf: no BPF program writes a ring, so there is no ring to read. */
#include <errno.h>
#include "bpf/ring.h"
#include "util/util.h"

struct lupe_source *lupe_bpf_ring_source_new(int map_fd, lupe_bpf_ring_stamp_fn stamp,
					     lupe_bpf_ring_lost_fn lost, void *lost_arg)
{
	return err_ptr(-EOPNOTSUPP);
}

int lupe_bpf_ring_wait(struct lupe_source *src, int timeout_ms)
{
	return -EOPNOTSUPP;
}

int lupe_bpf_ring_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	return -EOPNOTSUPP;
}
