// SPDX-License-Identifier: GPL-2.0
/* Built without libbpf: stat --func counts with sample records. */
#include <errno.h>
#include "func/func.h"
#include "util/util.h"

struct lupe_func_bpf *lupe_func_bpf_open(const struct lupe_func_bpf_setup *su,
					 struct lupe_open_failure *fail)
{
	return err_ptr(-EOPNOTSUPP);
}

void lupe_func_bpf_enable(struct lupe_func_bpf *b)
{
}

int lupe_func_bpf_read(struct lupe_func_bpf *b, lupe_emit_fn emit, void *arg)
{
	return 0;
}

void lupe_func_bpf_stop(struct lupe_func_bpf *b)
{
}

uint64_t lupe_func_bpf_open_calls(const struct lupe_func_bpf *b, int t)
{
	return 0;
}

void lupe_func_bpf_close(struct lupe_func_bpf *b)
{
}
