// SPDX-License-Identifier: GPL-2.0
/*
 * lock:contention_begin/end samples of a perf.data fed to the lock model,
 * with perf 6.1's keys: the caller key is a hash of the callchain (its
 * first max_stack entries, the first stack_skip and the kernel's lock and
 * scheduler functions left out), and the caller's name is the first frame
 * past those with a symbol, "sym+0xoff". The lock and scheduler functions
 * are the kernel's .lock.text and .sched.text, found by their bounds in
 * /proc/kallsyms (a recording of another machine gets them wrong: perf
 * reads the same file).
 *
 * A task's name is the comm a COMM record gave its thread, ":TID" for a
 * thread only forked: perf's lock command does not follow forks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/evsel.h>
#include <lupe/lock.h>
#include <lupe/session.h>
#include "counting/evsel.h"
#include "ftrace/field.h"
#include "lock/text.h"
#include "util/util.h"

struct comm_ent {
	uint32_t tid;
	char comm[16];
};

struct lock_reader {
	struct lupe_tool tool;
	struct lupe_lock *lock;
	int stack_skip, max_stack;
	struct lock_text text;
	int off_addr, off_flags;
	struct comm_ent *comms;
	size_t nr_comms;
	int err;
};

/*
 * Walk the first max_stack frames past the skipped ones: the caller key
 * (perf's callchain_id, an XOR of hash_long of each ip) and the caller's
 * name.
 */
static uint64_t caller(struct lock_reader *r, struct lupe_session *s, struct lupe_thread *t,
		       const struct lupe_sample *sample, char *name, size_t size)
{
	uint64_t hash = 0;
	int kernel = 1, n = 0, skip = 0;

	if (name)
		name[0] = 0;
	for (uint64_t i = 0; i < sample->nr_callchain && n < r->max_stack; i++) {
		uint64_t ip = sample->callchain[i];
		struct lupe_frame f;
		int lock_text, want_name;

		if (ip >= PERF_CONTEXT_MAX) {
			kernel = ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_HV;
			continue;
		}
		n++;
		if (++skip <= r->stack_skip)
			continue;
		/* the symbol only where it decides: a lock text frame, or the name still wanted */
		lock_text = kernel && lupe_lock_text_has(&r->text, ip);
		want_name = name && !name[0];
		if (!lock_text && !want_name) {
			hash ^= ip * 0x61C8864680B583EBULL;
			continue;
		}
		lupe_session_resolve_ip(s, t, ip, kernel, &f);
		if (f.sym && lock_text)
			continue;
		hash ^= ip * 0x61C8864680B583EBULL;
		if (want_name && f.sym) {
			uint64_t off = f.vaddr - f.sym->start;

			if (off)
				snprintf(name, size, "%s+%#llx", f.sym->name, (unsigned long long)off);
			else
				snprintf(name, size, "%s", f.sym->name);
		}
	}
	return hash;
}

static uint64_t key_of(struct lock_reader *r, struct lupe_session *s, struct lupe_thread *t,
		       const struct lupe_sample *sample, uint64_t addr, char *name, size_t size)
{
	switch (lupe_lock_aggr(r->lock)) {
	case LUPE_LOCK_AGGR_CALLER:
		return caller(r, s, t, sample, name, size);
	case LUPE_LOCK_AGGR_TASK:
		return sample->tid;
	default:
		/* perf 6.1 names an address's entry by its first waiter's caller */
		if (name)
			caller(r, s, t, sample, name, size);
		return addr;
	}
}

static int lock_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		       const struct lupe_sample *sample, struct lupe_thread *thread,
		       const struct perf_event_header *ev)
{
	struct lock_reader *r = (struct lock_reader *)tool;
	const char *ename = lupe_evsel_name(evsel);
	const unsigned char *raw = sample->raw;
	uint64_t addr, key;
	unsigned int flags = 0;
	char name[256];
	int begin;

	(void)ev;
	if (!ename)
		return 0;
	if (!strcmp(ename, "lock:contention_begin"))
		begin = 1;
	else if (!strcmp(ename, "lock:contention_end"))
		begin = 0;
	else
		return 0;
	if (!raw || sample->raw_size < (unsigned)r->off_flags + 4)
		return 0;
	memcpy(&addr, raw + r->off_addr, sizeof(addr));
	if (begin) {
		memcpy(&flags, raw + r->off_flags, sizeof(flags));
		key = key_of(r, s, thread, sample, addr, name, sizeof(name));
		if (lupe_lock_aggr(r->lock) == LUPE_LOCK_AGGR_CALLER && !name[0])
			snprintf(name, sizeof(name), "Unknown");
		r->err = lupe_lock_begin(r->lock, sample->tid, sample->time, addr, flags, key, name);
	} else {
		key = key_of(r, s, thread, sample, addr, NULL, 0);
		r->err = lupe_lock_end(r->lock, sample->tid, sample->time, addr, key);
	}
	return r->err;
}

static int lock_other(struct lupe_tool *tool, struct lupe_session *s,
		      const struct perf_event_header *ev)
{
	struct lock_reader *r = (struct lock_reader *)tool;
	const struct { struct perf_event_header h; uint32_t pid, tid; char comm[]; } *c = (void *)ev;
	struct comm_ent *n;
	size_t i;

	(void)s;
	if (ev->type != PERF_RECORD_COMM || ev->size < sizeof(*c) + 1)
		return 0;
	for (i = 0; i < r->nr_comms && r->comms[i].tid != c->tid; i++)
		;
	if (i == r->nr_comms) {
		n = realloc(r->comms, (r->nr_comms + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		r->comms = n;
		r->nr_comms++;
		r->comms[i].tid = c->tid;
	}
	snprintf(r->comms[i].comm, sizeof(r->comms[i].comm), "%.*s",
		 (int)(ev->size - sizeof(*c)), c->comm);
	return 0;
}

int lupe_lock_read_file(struct lupe_lock *l, const char *path,
			const struct lupe_lock_file_opts *user_opts)
{
	struct lock_reader r = {
		.tool = { .sample = lock_sample, .other = lock_other, .ordered = 1 },
		.lock = l,
	};
	struct lupe_lock_file_opts o;
	struct lupe_session *s;
	int err;

	if (lupe_opts_load(&o, user_opts))
		return -EINVAL;
	r.stack_skip = o.stack_skip >= 0 ? o.stack_skip : 3;
	r.max_stack = o.max_stack > 0 ? o.max_stack : 8;
	if (!(s = lupe_session_open(path, o.force)))
		return -errno;
	lupe_lock_text_bounds(&r.text);
	{
		/* this kernel's layout; lock.h's fields have not moved since they came */
		struct tp_field addr = { 8, 8 }, flags = { 16, 4 };

		lupe_tp_field_find("lock", "contention_begin", "lock_addr", &addr);
		lupe_tp_field_find("lock", "contention_begin", "flags", &flags);
		r.off_addr = addr.offset;
		r.off_flags = flags.offset;
	}
	err = lupe_session_process(s, &r.tool);
	if (!err && r.err)
		err = r.err;
	if (!err && lupe_lock_aggr(l) == LUPE_LOCK_AGGR_TASK) {
		struct lupe_lock_stat **v;
		size_t nr;

		err = lupe_lock_sorted(l, "acquired", &v, &nr);
		for (size_t i = 0; !err && i < nr; i++) {
			char buf[32];
			const char *comm = NULL;

			for (size_t j = 0; j < r.nr_comms; j++)
				if (r.comms[j].tid == v[i]->key)
					comm = r.comms[j].comm;
			if (!comm) {
				snprintf(buf, sizeof(buf), ":%llu", (unsigned long long)v[i]->key);
				comm = buf;
			}
			err = lupe_lock_set_name(v[i], comm);
		}
		if (!err)
			free(v);
	}
	/* recorded with no lock contended: perf's empty table, not an error */
	if (!err && !lupe_evlist_has_prefix(lupe_session_evlist(s), "lock:contention_")) {
		pr_err("'%s' holds no lock:contention_begin/end events (record them with lupe lock record)",
		       path);
		err = -ENOENT;
	}
	free(r.comms);
	lupe_session_delete(s);
	return err;
}
