// SPDX-License-Identifier: GPL-2.0
/*
 * The sched tracepoints of a perf.data, decoded in time order, with the
 * thread model perf 6.1's sched command keeps (internal.h). Field places
 * come from this machine's tracefs formats (sched_stat_runtime's changed
 * in 6.x: no vruntime, its comm a __data_loc), with perf 6.1's layout as
 * the default when tracefs is not there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/evsel.h>
#include <lupe/perfdata.h>
#include <lupe/session.h>
#include "data/format.h"
#include "ftrace/field.h"
#include "sched/internal.h"
#include "util/util.h"

#define NR_HASH 4096

struct sched_reader {
	struct lupe_tool tool;
	sched_event_fn fn;
	void *arg;
	int err;
	int nr_cpus_online;
	struct sthread *hash[NR_HASH]; /* current object per tid: chained through priv2 */
	struct sthread *all;
	struct {
		struct tp_field prev_comm, prev_pid, prev_state, next_comm, next_pid;
		struct tp_field rt_pid, rt_runtime, wk_pid, wk_target, mg_pid;
	} f;
};

/* the hash chains: a second link kept beside the object */
struct hnode {
	struct sthread t;
	struct hnode *hnext;
	int removed;
};

static unsigned int h(int tid)
{
	return (unsigned int)tid % NR_HASH;
}

static struct sthread *find(struct sched_reader *r, int tid)
{
	for (struct hnode *n = (struct hnode *)r->hash[h(tid)]; n; n = n->hnext)
		if (n->t.tid == tid)
			return &n->t;
	return NULL;
}

static struct sthread *make(struct sched_reader *r, int pid, int tid)
{
	struct hnode *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->t.tid = tid;
	n->t.pid = pid;
	snprintf(n->t.comm, sizeof(n->t.comm), ":%d", tid);
	n->t.next_all = r->all;
	r->all = &n->t;
	n->hnext = (struct hnode *)r->hash[h(tid)];
	r->hash[h(tid)] = &n->t;
	return &n->t;
}

static void unlink_thread(struct sched_reader *r, struct sthread *t)
{
	struct hnode **pp = (struct hnode **)&r->hash[h(t->tid)];

	for (; *pp; pp = &(*pp)->hnext)
		if (&(*pp)->t == t) {
			*pp = (*pp)->hnext;
			return;
		}
}

struct sthread *lupe_sched_thread_pid(struct sched_reader *r, int pid, int tid)
{
	struct sthread *t = find(r, tid);

	if (!t)
		return make(r, pid, tid);
	if (t->pid == -1 && pid != -1)
		t->pid = pid;
	return t;
}

int lupe_sched_nr_cpus_online(const struct sched_reader *r)
{
	return r->nr_cpus_online;
}

struct sthread *lupe_sched_thread(struct sched_reader *r, int tid)
{
	struct sthread *t = find(r, tid);

	return t ? t : make(r, -1, tid);
}

static uint64_t field_u(const unsigned char *raw, uint32_t size, const struct tp_field *f)
{
	uint64_t v = 0;

	if (f->offset < 0 || (uint32_t)(f->offset + f->size) > size)
		return 0;
	switch (f->size) {
	case 1: v = raw[f->offset]; break;
	case 2: { uint16_t x; memcpy(&x, raw + f->offset, 2); v = x; break; }
	case 4: { uint32_t x; memcpy(&x, raw + f->offset, 4); v = x; break; }
	case 8: memcpy(&v, raw + f->offset, 8); break;
	}
	return v;
}

static int sched_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
			const struct lupe_sample *sample, struct lupe_thread *thread,
			const struct perf_event_header *hdr)
{
	struct sched_reader *r = (struct sched_reader *)tool;
	const char *name = lupe_evsel_name(evsel);
	const unsigned char *raw = sample->raw;
	uint32_t n = sample->raw_size;
	char prev_comm[17] = "", next_comm[17] = "";
	struct sched_event ev = { .time = sample->time, .cpu = (int)sample->cpu,
				  .pid = (int)sample->pid, .tid = (int)sample->tid };

	(void)s, (void)thread, (void)hdr;
	if (!name || strncmp(name, "sched:", 6) || !raw)
		return 0;
	name += 6;
	if (!strcmp(name, "sched_switch")) {
		ev.kind = SEV_SWITCH;
		ev.prev_pid = (int)(int32_t)field_u(raw, n, &r->f.prev_pid);
		ev.next_pid = (int)(int32_t)field_u(raw, n, &r->f.next_pid);
		ev.prev_state = (int64_t)field_u(raw, n, &r->f.prev_state);
		if (r->f.prev_comm.offset + 16 <= (int)n)
			memcpy(prev_comm, raw + r->f.prev_comm.offset, 16);
		if (r->f.next_comm.offset + 16 <= (int)n)
			memcpy(next_comm, raw + r->f.next_comm.offset, 16);
		ev.prev_comm = prev_comm;
		ev.next_comm = next_comm;
	} else if (!strcmp(name, "sched_stat_runtime")) {
		ev.kind = SEV_RUNTIME;
		ev.wpid = (int)(int32_t)field_u(raw, n, &r->f.rt_pid);
		ev.runtime = field_u(raw, n, &r->f.rt_runtime);
	} else if (!strcmp(name, "sched_wakeup") || !strcmp(name, "sched_waking") ||
		   !strcmp(name, "sched_wakeup_new")) {
		ev.kind = !strcmp(name, "sched_wakeup") ? SEV_WAKEUP :
			  !strcmp(name, "sched_waking") ? SEV_WAKING : SEV_WAKEUP_NEW;
		ev.wpid = (int)(int32_t)field_u(raw, n, &r->f.wk_pid);
		ev.target_cpu = (int)(int32_t)field_u(raw, n, &r->f.wk_target);
	} else if (!strcmp(name, "sched_migrate_task")) {
		ev.kind = SEV_MIGRATE;
		ev.wpid = (int)(int32_t)field_u(raw, n, &r->f.mg_pid);
	} else {
		return 0;
	}
	r->err = r->fn(r, &ev, r->arg);
	return r->err;
}

static int sched_other(struct lupe_tool *tool, struct lupe_session *s,
		       const struct perf_event_header *ev)
{
	struct sched_reader *r = (struct sched_reader *)tool;

	(void)s;
	if (ev->type == PERF_RECORD_COMM && ev->size > sizeof(struct perf_record_comm)) {
		const struct perf_record_comm *c = (const void *)ev;
		struct sthread *t = lupe_sched_thread_pid(r, (int)c->pid, (int)c->tid);

		if (!t)
			return -ENOMEM;
		snprintf(t->comm, sizeof(t->comm), "%.*s",
			 (int)(ev->size - sizeof(*c)), c->comm);
		t->comm_set = 1;
		t->comm_changed = 1;
	} else if (ev->type == PERF_RECORD_FORK && ev->size >= sizeof(struct perf_record_fork)) {
		const struct perf_record_fork *f = (const void *)ev;
		struct sthread *parent = lupe_sched_thread(r, (int)f->ptid), *t = find(r, (int)f->tid);

		if (!parent)
			return -ENOMEM;
		/* a thread already there for the tid is replaced, as perf's machine does */
		if (t)
			unlink_thread(r, t);
		t = make(r, (int)f->pid, (int)f->tid);
		if (!t)
			return -ENOMEM;
		if (parent->comm_set) {
			memcpy(t->comm, parent->comm, sizeof(t->comm));
			t->comm_set = 1;
		}
	}
	return 0;
}

/* LOST records, in time order with their sample_id's time and CPU */
static int sched_record(struct lupe_tool *tool, struct lupe_session *s,
			const struct perf_event_header *ev, uint64_t offset,
			struct lupe_evsel *evsel, const struct lupe_sample *sample)
{
	struct sched_reader *r = (struct sched_reader *)tool;
	const struct perf_record_lost *l = (const void *)ev;
	struct sched_event e = { .kind = SEV_LOST };

	(void)s, (void)offset, (void)evsel;
	if (ev->type != PERF_RECORD_LOST || ev->size < sizeof(*l))
		return 0;
	if (sample) {
		e.time = sample->time;
		e.cpu = (int)sample->cpu;
	}
	e.runtime = l->lost;
	r->err = r->fn(r, &e, r->arg);
	return r->err;
}

static void field(const char *ev, const char *name, struct tp_field *f, int off, int size)
{
	f->offset = off;
	f->size = size;
	lupe_tp_field_find("sched", ev, name, f);
}

int lupe_sched_read(const char *path, int force, sched_event_fn fn, void *arg,
	       struct sched_read_stats *st, struct sched_reader **out)
{
	struct sched_reader *r = calloc(1, sizeof(*r));
	struct lupe_session *s;
	struct sthread *idle;
	int err;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	r->tool = (struct lupe_tool){ .sample = sched_sample, .other = sched_other,
				      .record = sched_record, .ordered = 1 };
	r->fn = fn;
	r->arg = arg;
	field("sched_switch", "prev_comm", &r->f.prev_comm, 8, 16);
	field("sched_switch", "prev_pid", &r->f.prev_pid, 24, 4);
	field("sched_switch", "prev_state", &r->f.prev_state, 32, 8);
	field("sched_switch", "next_comm", &r->f.next_comm, 40, 16);
	field("sched_switch", "next_pid", &r->f.next_pid, 56, 4);
	field("sched_stat_runtime", "pid", &r->f.rt_pid, 12, 4);
	field("sched_stat_runtime", "runtime", &r->f.rt_runtime, 16, 8);
	field("sched_waking", "pid", &r->f.wk_pid, 24, 4);
	field("sched_waking", "target_cpu", &r->f.wk_target, 32, 4);
	field("sched_migrate_task", "pid", &r->f.mg_pid, 24, 4);
	idle = make(r, 0, 0);
	if (!idle) {
		free(r);
		return -ENOMEM;
	}
	snprintf(idle->comm, sizeof(idle->comm), "swapper");
	idle->comm_set = 1;
	s = lupe_session_open(path, force);
	if (!s) {
		err = -errno;
		lupe_sched_reader_free(r);
		return err;
	}
	{
		struct lupe_perf_file *pf = lupe_session_file(s);
		const uint32_t *nr = NULL;
		size_t size = 0;

		if (pf)
			nr = lupe_perf_file_feature(pf, HEADER_NRCPUS, &size);
		if (nr && size >= 8)
			r->nr_cpus_online = (int)nr[1];
	}
	err = lupe_session_process(s, &r->tool);
	if (!err && r->err)
		err = r->err;
	if (st) {
		const struct lupe_session_stats *ss = lupe_session_stats(s);

		st->nr_events = (unsigned long)ss->nr_records;
		st->nr_lost_events = (unsigned long)ss->nr_lost;
		st->nr_lost_chunks = (unsigned long)ss->nr_lost_records;
	}
	lupe_session_delete(s);
	if (err) {
		lupe_sched_reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

void lupe_sched_reader_free(struct sched_reader *r)
{
	if (!r)
		return;
	for (struct sthread *t = r->all, *n; t; t = n) {
		n = t->next_all;
		free(t->priv);
		free(t);
	}
	free(r);
}
