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

int lupe_func_bpf_poll(struct lupe_func_bpf *b, lupe_func_bpf_fn fn, void *arg)
{
	return 0;
}

uint64_t lupe_func_bpf_lost(const struct lupe_func_bpf *b)
{
	return 0;
}

void lupe_func_bpf_close(struct lupe_func_bpf *b, lupe_func_bpf_fn fn, void *arg)
{
}
