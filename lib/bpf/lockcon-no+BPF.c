// SPDX-License-Identifier: GPL-2.0
/* lock contention -b without libbpf: the collector is not there (lock/bpf.c: the program's steps). */
#include <errno.h>
#include <lupe/lock.h>
#include "util/util.h"

struct lupe_lock_bpf *lupe_lock_bpf_new(const struct lupe_lock_bpf_opts *opts)
{
	(void)opts;
	pr_err("this lupe was built without BPF (libbpf, clang, bpftool): lock contention -b is not available");
	return err_ptr(-EOPNOTSUPP);
}

int lupe_lock_bpf_read(struct lupe_lock_bpf *b, struct lupe_lock *l)
{
	(void)b, (void)l;
	return -EOPNOTSUPP;
}

void lupe_lock_bpf_delete(struct lupe_lock_bpf *b)
{
	(void)b;
}
