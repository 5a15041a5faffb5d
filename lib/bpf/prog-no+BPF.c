// SPDX-License-Identifier: GPL-2.0
/* Built without libbpf, clang or bpftool: no program loads (bpf/prog.h). */
#include <errno.h>
#include "bpf/prog.h"
#include "util/util.h"

struct lupe_bpf_prog *lupe_bpf_prog_load(const struct lupe_bpf_prog_ops *ops, const void *arg)
{
	(void)ops, (void)arg;
	return err_ptr(-LUPE_ERR_NOT_SUPPORTED);
}

int lupe_bpf_prog_add_pid(struct lupe_bpf_prog *p, pid_t pid)
{
	(void)p, (void)pid;
	return -LUPE_ERR_NOT_SUPPORTED;
}

int lupe_bpf_prog_start(struct lupe_bpf_prog *p)
{
	(void)p;
	return -LUPE_ERR_NOT_SUPPORTED;
}

void lupe_bpf_prog_stop(struct lupe_bpf_prog *p)
{
	(void)p;
}

void lupe_bpf_prog_delete(struct lupe_bpf_prog *p)
{
	(void)p;
}
