/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The life cycle of a lupe BPF program through its bpftool skeleton
 * (gen/NAME.skel.h), written once for trace's syscall capture, stat
 * --func's counters, lock contention -b and record --off-cpu: open, set
 * up, load, follow processes, attach, detach, destroy (stat --func attaches
 * its programs itself, one uprobe link per probe and process). A generated NAME__open, __load, __attach,
 * __detach and __destroy is each one call of libbpf's *_skeleton function
 * on the struct bpf_object_skeleton that NAME__create_skeleton fills, the
 * first field of every generated struct, so one loader serves every
 * program; what differs, the program's .rodata and map sizes (set between
 * open and load, so the verifier prunes on them), is its setup hook.
 * Built without BPF (prog-no+BPF.c), no program loads and the rest are
 * stubs: the one fallback of every program's life cycle.
 */
#ifndef LUPE_BPF_PROG_H
#define LUPE_BPF_PROG_H

#include <stddef.h>
#include <sys/types.h>

struct lupe_bpf_prog_ops {
	const char *what;                /* in the errors logged ("the lock contention BPF
					  * program"); NULL: the caller says them */
	size_t size;                     /* of the generated struct */
	int (*create)(void *skel);       /* its NAME__create_skeleton */
	int (*setup)(void *skel, const void *arg); /* after open, before load: 0 or -errno */
};

/*
 * The ops NAME of the program whose skeleton bpf.cmake named SKEL:
 * LUPE_BPF_PROG(lockcon_prog, lupe_lockcon_bpf, "the lock contention BPF
 * program", lockcon_setup);
 */
#define LUPE_BPF_PROG(name, skel, what, setup)                          \
	static int name##_create(void *s)                               \
	{                                                               \
		return skel##__create_skeleton(s);                      \
	}                                                               \
	static const struct lupe_bpf_prog_ops name = { what, sizeof(struct skel), name##_create, setup }

struct lupe_bpf_prog {
	void *skel; /* the generated struct: its maps, .rodata, programs */
	const struct lupe_bpf_prog_ops *ops;
};

/*
 * Open the program, run ops->setup(skel, arg), load it. NULL and errno:
 * libbpf's error (EPERM without root or CAP_BPF and CAP_PERFMON), setup's,
 * -LUPE_ERR_NOT_SUPPORTED built without BPF; with ops->what an open or a
 * load failure is logged, as "cannot load WHAT: ERROR (it needs root ...)".
 */
struct lupe_bpf_prog *lupe_bpf_prog_load(const struct lupe_bpf_prog_ops *ops, const void *arg);

/* Follow process pid: put it in the tgids map of bpf/tasks.bpf.h. 0 or -errno. */
int lupe_bpf_prog_add_pid(struct lupe_bpf_prog *p, pid_t pid);

/* Attach every program that has an attach point: 0 or -errno (logged with ops->what). */
int lupe_bpf_prog_start(struct lupe_bpf_prog *p);
void lupe_bpf_prog_stop(struct lupe_bpf_prog *p);

/* Detach, unload and free; NULL is accepted. */
void lupe_bpf_prog_delete(struct lupe_bpf_prog *p);

#endif
