// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of lock contention -b's program (lockcon.bpf.c, embedded through
 * its bpftool skeleton), and the reader of its sums into the lock model.
 * A caller entry is named the way the file reader names one (lock/file.c):
 * the first frame of its kernel stack past the program's own frames (the
 * BPF program and the tracepoint's trampoline), the stack_skip frames
 * after them and the lock and scheduler text, as "sym+0xoff" from
 * /proc/kallsyms. A futex entry is named "COMM[TGID] 0xADDR": the process
 * and the user address of its lock word.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <lupe/lock.h>
#include "bpf/lockcon-rec.h"
#include "bpf/stacks.h"
#include "lockcon.skel.h"
#include "lock/bpf.h"
#include "util/util.h"

/* Before the load: which tasks, what to sum by, the maps' size. */
static int lockcon_setup(void *skel, const void *arg)
{
	struct lupe_lockcon_bpf *s = skel;
	const struct lupe_lock_bpf_opts *o = arg;

	s->rodata->trace_all = o->system_wide;
	s->rodata->self_pid = (__u32)getpid();
	s->rodata->aggr = o->aggr_task ? LOCKCON_AGGR_TASK : LOCKCON_AGGR_CALLER;
	if (o->map_entries) {
		bpf_map__set_max_entries(s->maps.stats, o->map_entries);
		bpf_map__set_max_entries(s->maps.stacks, o->map_entries);
	}
	return 0;
}

LUPE_BPF_PROG(lockcon_prog, lupe_lockcon_bpf, "the lock contention BPF program", lockcon_setup);

struct lupe_lock_bpf *lupe_lock_bpf_new(const struct lupe_lock_bpf_opts *user_opts)
{
	struct lupe_lock_bpf_opts lo, *o = &lo;
	struct lupe_lock_bpf *b;
	int err;

	if (lupe_opts_load(&lo, user_opts))
		return err_ptr(-EINVAL);
	if (!(b = calloc(1, sizeof(*b))))
		return err_ptr(-ENOMEM);
	b->stack_skip = o->stack_skip >= 0 ? o->stack_skip : 3;
	b->max_stack = o->max_stack > 0 ? o->max_stack : 8;
	b->aggr = o->aggr_task ? LOCKCON_AGGR_TASK : LOCKCON_AGGR_CALLER;
	b->prog = lupe_bpf_prog_load(&lockcon_prog, o);
	if (!b->prog) {
		err = -errno;
		lupe_lock_bpf_delete(b);
		return err_ptr(err);
	}
	return b;
}

static int add_sym(uint64_t addr, char type, const char *name, size_t len, void *arg)
{
	struct lupe_lock_bpf *b = arg;

	lupe_lock_text_line(addr, type, name, len, &b->text);
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	/* the binding chooses among aliases, as for the session's kernel symbols */
	return lupe_symtab_add(&b->build, addr, 0, name, len,
			       type == 'T' ? STB_GLOBAL : type == 't' ? STB_LOCAL : STB_WEAK);
}

static int own_frame(const char *name)
{
	return !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6) ||
	       !strncmp(name, "__traceiter_", 12) || !strncmp(name, "trace_contention_", 17);
}

static void caller_name(struct lupe_lock_bpf *b, const uint64_t *ips, char *buf, size_t size)
{
	size_t i = 0;
	int skip = 0, n = 0;

	snprintf(buf, size, "Unknown");
	while (i < LOCKCON_MAX_STACK && ips[i]) {
		const struct lupe_symbol *s = lupe_dso_find_symbol(&b->kernel, ips[i]);

		if (!s || !own_frame(s->name))
			break;
		i++;
	}
	for (; i < LOCKCON_MAX_STACK && ips[i] && n < b->max_stack; i++, n++) {
		const struct lupe_symbol *s;

		if (++skip <= b->stack_skip || lupe_lock_text_has(&b->text, ips[i]))
			continue;
		s = lupe_dso_find_symbol(&b->kernel, ips[i]);
		if (!s)
			continue;
		if (ips[i] - s->start)
			snprintf(buf, size, "%s+%#llx", s->name, (unsigned long long)(ips[i] - s->start));
		else
			snprintf(buf, size, "%s", s->name);
		return;
	}
}

int lupe_lock_bpf_read(struct lupe_lock_bpf *b, struct lupe_lock *l)
{
	struct lupe_lockcon_bpf *skel = b->prog->skel;
	int fd_stats = bpf_map__fd(skel->maps.stats), fd_stacks = bpf_map__fd(skel->maps.stacks);
	struct lockcon_key key, next, *prev = NULL;
	int err = 0;

	if (!b->kernel.syms) {
		/* one read of /proc/kallsyms (~120k lines): the symbols and the lock text bounds */
		b->build.kallsyms = 1;
		err = lupe_kallsyms_foreach("/proc/kallsyms", add_sym, b);
		if (!err)
			err = lupe_symtab_finish(&b->build, &b->kernel);
		lupe_symtab_build_free(&b->build);
		if (err)
			return err;
		lupe_lock_text_done(&b->text);
	}
	while (!err && !bpf_map_get_next_key(fd_stats, prev, &next)) {
		struct lockcon_stat st;
		uint64_t ips[LOCKCON_MAX_STACK] = { 0 };
		char name[256], comm[17];
		uint64_t lkey = next.id;
		unsigned int flags;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd_stats, &key, &st))
			continue;
		snprintf(comm, sizeof(comm), "%.16s", st.comm);
		flags = st.flags;
		if (b->aggr == LOCKCON_AGGR_TASK) {
			snprintf(name, sizeof(name), "%s", comm);
		} else if (key.kind == LOCKCON_KIND_FUTEX) {
			snprintf(name, sizeof(name), "%s[%u] %#llx", comm, key.tgid,
				 (unsigned long long)key.id);
			flags = LUPE_LCB_F_FUTEX;
			/* a futex's key apart from any stack id */
			lkey = key.id ^ ((uint64_t)key.tgid << 32) ^ (1ULL << 63);
		} else {
			lupe_bpf_stack_read(fd_stacks, (int64_t)key.id, ips, LOCKCON_MAX_STACK);
			caller_name(b, ips, name, sizeof(name));
		}
		err = lupe_lock_add(l, lkey, name, flags, st.count, st.total, st.max, st.min);
	}
	return err;
}

void lupe_lock_bpf_delete(struct lupe_lock_bpf *b)
{
	if (!b)
		return;
	lupe_bpf_prog_delete(b->prog);
	lupe_dso_free_syms(&b->kernel);
	free(b);
}
