// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF program's skeleton through libbpf's *_skeleton functions
 * (bpf/prog.h). The generated NAME__open is calloc, NAME__create_skeleton
 * and bpf_object__open_skeleton, which points the struct's .rodata at the
 * map's initial value (checked against bpftool's gen/NAME.skel.h): the
 * same steps here, with the program's hook before the load.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "bpf/libbpf-log.h"
#include "bpf/prog.h"
#include "util/util.h"

/* The first field of every generated struct. */
static struct bpf_object_skeleton *skeleton(const struct lupe_bpf_prog *p)
{
	return *(struct bpf_object_skeleton **)p->skel;
}

struct lupe_bpf_prog *lupe_bpf_prog_load(const struct lupe_bpf_prog_ops *ops, const void *arg)
{
	struct lupe_bpf_prog *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return err_ptr(-ENOMEM);
	p->ops = ops;
	/* libbpf's own messages are lupe's debug messages, never plain stderr */
	libbpf_set_print(lupe_libbpf_log);
	p->skel = calloc(1, ops->size);
	err = p->skel ? ops->create(p->skel) : -ENOMEM;
	if (!err)
		err = bpf_object__open_skeleton(skeleton(p), NULL);
	if (err) {
		if (ops->what)
			pr_err("cannot open %s: %s", ops->what, strerror(-err));
		goto fail;
	}
	err = ops->setup(p->skel, arg);
	if (err)
		goto fail;
	err = bpf_object__load_skeleton(skeleton(p));
	if (err) {
		if (ops->what)
			pr_err("cannot load %s: %s (it needs root or CAP_BPF and CAP_PERFMON)", ops->what,
			       strerror(err < 0 ? -err : err));
		goto fail;
	}
	return p;
fail:
	lupe_bpf_prog_delete(p);
	return err_ptr(err < 0 ? err : -EINVAL);
}

int lupe_bpf_prog_add_pid(struct lupe_bpf_prog *p, pid_t pid)
{
	struct bpf_map *tgids = bpf_object__find_map_by_name(*skeleton(p)->obj, "tgids");
	__u32 key = (__u32)pid;
	__u8 one = 1;

	if (!tgids)
		return -ENOENT;
	return bpf_map__update_elem(tgids, &key, sizeof(key), &one, sizeof(one), BPF_ANY) ? -errno : 0;
}

int lupe_bpf_prog_start(struct lupe_bpf_prog *p)
{
	int err = bpf_object__attach_skeleton(skeleton(p));

	if (err && p->ops->what)
		pr_err("cannot attach %s: %s", p->ops->what, strerror(err < 0 ? -err : err));
	return err < 0 ? err : err ? -err : 0;
}

void lupe_bpf_prog_stop(struct lupe_bpf_prog *p)
{
	bpf_object__detach_skeleton(skeleton(p));
}

void lupe_bpf_prog_delete(struct lupe_bpf_prog *p)
{
	if (!p)
		return;
	if (p->skel && skeleton(p))
		bpf_object__destroy_skeleton(skeleton(p));
	free(p->skel);
	free(p);
}
