// SPDX-License-Identifier: GPL-2.0
/*
 * Hit DSOs. Maps live in one array per process, in a small open-addressing
 * table keyed by pid; a lookup walks a process's maps (a few dozen), which
 * costs less per sample than the kernel's own sample write.
 */
#include <stdlib.h>
#include <string.h>
#include "data/format.h"
#include "record/hitdsos.h"
#include "symbols/build-id.h"
#include "util/util.h"

struct map {
	uint64_t start, end;
	int dso;
};

struct proc {
	int64_t pid; /* -1: empty slot */
	struct map *maps;
	size_t nr, alloc;
	int last; /* the map the previous lookup found */
};

struct dso {
	char *name;
	int hit;
};

struct hitdsos {
	struct proc *procs;
	size_t nr_procs, cap; /* cap is a power of two */
	struct dso *dsos;
	size_t nr_dsos;
	int kernel_hit;
	struct proc *cache;
};

struct hitdsos *hitdsos_new(void)
{
	struct hitdsos *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->cap = 64;
	h->procs = malloc(h->cap * sizeof(*h->procs));
	if (!h->procs) {
		free(h);
		return NULL;
	}
	for (size_t i = 0; i < h->cap; i++)
		h->procs[i] = (struct proc){ .pid = -1 };
	return h;
}

void hitdsos_delete(struct hitdsos *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->cap; i++)
		free(h->procs[i].maps);
	for (size_t i = 0; i < h->nr_dsos; i++)
		free(h->dsos[i].name);
	free(h->procs);
	free(h->dsos);
	free(h);
}

static size_t slot_of(const struct hitdsos *h, uint32_t pid)
{
	return (pid * 2654435761u) & (h->cap - 1);
}

static struct proc *find(struct hitdsos *h, uint32_t pid)
{
	if (h->cache && h->cache->pid == pid)
		return h->cache;
	for (size_t i = slot_of(h, pid);; i = (i + 1) & (h->cap - 1)) {
		if (h->procs[i].pid == pid)
			return h->cache = &h->procs[i];
		if (h->procs[i].pid < 0)
			return NULL;
	}
}

static struct proc *get(struct hitdsos *h, uint32_t pid)
{
	struct proc *p = find(h, pid);

	if (p)
		return p;
	if (2 * (h->nr_procs + 1) > h->cap) {
		struct proc *old = h->procs;
		size_t ocap = h->cap;

		h->procs = malloc(2 * ocap * sizeof(*old));
		if (!h->procs) {
			h->procs = old;
			return NULL;
		}
		h->cap = 2 * ocap;
		for (size_t i = 0; i < h->cap; i++)
			h->procs[i] = (struct proc){ .pid = -1 };
		for (size_t i = 0; i < ocap; i++) {
			size_t j;

			if (old[i].pid < 0)
				continue;
			for (j = slot_of(h, (uint32_t)old[i].pid); h->procs[j].pid >= 0;)
				j = (j + 1) & (h->cap - 1);
			h->procs[j] = old[i];
		}
		free(old);
		h->cache = NULL;
	}
	for (size_t i = slot_of(h, pid);; i = (i + 1) & (h->cap - 1)) {
		if (h->procs[i].pid < 0) {
			h->procs[i] = (struct proc){ .pid = pid };
			h->nr_procs++;
			return h->cache = &h->procs[i];
		}
	}
}

static int dso_id(struct hitdsos *h, const char *name)
{
	struct dso *d;

	for (size_t i = h->nr_dsos; i-- > 0;)
		if (!strcmp(h->dsos[i].name, name))
			return (int)i;
	d = realloc(h->dsos, (h->nr_dsos + 1) * sizeof(*d));
	if (!d)
		return -1;
	h->dsos = d;
	d[h->nr_dsos].name = strdup(name);
	d[h->nr_dsos].hit = 0;
	if (!d[h->nr_dsos].name)
		return -1;
	return (int)h->nr_dsos++;
}

static void add_map(struct proc *p, uint64_t start, uint64_t end, int dso)
{
	size_t w = 0;

	/* A new map replaces what it overlaps, as mmap does. */
	for (size_t i = 0; i < p->nr; i++)
		if (p->maps[i].end <= start || p->maps[i].start >= end)
			p->maps[w++] = p->maps[i];
	p->nr = w;
	if (p->nr == p->alloc) {
		size_t n = p->alloc ? 2 * p->alloc : 16;
		struct map *m = realloc(p->maps, n * sizeof(*m));

		if (!m)
			return;
		p->maps = m;
		p->alloc = n;
	}
	p->maps[p->nr++] = (struct map){ start, end, dso };
	p->last = 0;
}

static void mmap_event(struct hitdsos *h, uint32_t pid, uint64_t start, uint64_t len,
		       const char *name)
{
	struct proc *p;
	int dso;

	/* Only files can have build-ids; [vdso], //anon and the kernel do not here. */
	if (name[0] != '/' || pid == (uint32_t)-1)
		return;
	p = get(h, pid);
	dso = dso_id(h, name);
	if (p && dso >= 0)
		add_map(p, start, start + len, dso);
}

void hitdsos_event(struct hitdsos *h, const struct perf_event_header *rec)
{
	switch (rec->type) {
	case PERF_RECORD_MMAP: {
		const struct perf_record_mmap *m = (const void *)rec;

		mmap_event(h, m->pid, m->start, m->len, m->filename);
		break;
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_record_mmap2 *m = (const void *)rec;

		mmap_event(h, m->pid, m->start, m->len, m->filename);
		break;
	}
	case PERF_RECORD_FORK: {
		const struct perf_record_fork *f = (const void *)rec;
		struct proc *parent, *child;

		if (f->pid == f->ppid)
			break; /* a new thread shares its process's maps */
		parent = find(h, f->ppid);
		if (!parent || !parent->nr)
			break;
		child = get(h, f->pid);
		parent = find(h, f->ppid); /* get may have moved the table */
		if (!child || !parent)
			break;
		child->nr = 0;
		for (size_t i = 0; i < parent->nr; i++)
			add_map(child, parent->maps[i].start, parent->maps[i].end,
				parent->maps[i].dso);
		break;
	}
	case PERF_RECORD_COMM:
		if (rec->misc & PERF_RECORD_MISC_COMM_EXEC) {
			struct proc *p = find(h, ((const struct perf_record_comm *)rec)->pid);

			if (p)
				p->nr = 0;
		}
		break;
	}
}

void hitdsos_hit(struct hitdsos *h, uint32_t pid, uint64_t ip, uint16_t cpumode)
{
	struct proc *p;

	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		h->kernel_hit = 1;
		return;
	}
	if (cpumode != PERF_RECORD_MISC_USER)
		return;
	p = find(h, pid);
	if (!p || !p->nr)
		return;
	if (p->last < (int)p->nr && ip >= p->maps[p->last].start && ip < p->maps[p->last].end) {
		h->dsos[p->maps[p->last].dso].hit = 1;
		return;
	}
	for (size_t i = 0; i < p->nr; i++) {
		if (ip >= p->maps[i].start && ip < p->maps[i].end) {
			h->dsos[p->maps[i].dso].hit = 1;
			p->last = (int)i;
			return;
		}
	}
}

static void put_entry(struct fbuf *b, uint16_t misc, const uint8_t *id, int len, const char *name)
{
	struct perf_record_header_build_id e;
	size_t n = strlen(name) + 1, padded = (n + 63) & ~(size_t)63;

	memset(&e, 0, sizeof(e));
	e.header.type = PERF_RECORD_HEADER_BUILD_ID;
	e.header.misc = misc | PERF_RECORD_MISC_BUILD_ID_SIZE;
	e.header.size = (uint16_t)(sizeof(e) + padded);
	e.pid = -1; /* the host machine */
	memcpy(e.data, id, len);
	e.size = (uint8_t)len;
	fbuf_add(b, &e, sizeof(e));
	fbuf_add(b, name, n);
	fbuf_zero(b, padded - n);
}

int hitdsos_build_ids(struct hitdsos *h, struct fbuf *b)
{
	uint8_t id[BUILD_ID_MAX];
	int nr = 0, len;

	if (h->kernel_hit && (len = build_id_kernel(id)) > 0) {
		put_entry(b, PERF_RECORD_MISC_KERNEL, id, len, "[kernel.kallsyms]");
		nr++;
	}
	for (size_t i = 0; i < h->nr_dsos; i++) {
		if (!h->dsos[i].hit || (len = build_id_read(h->dsos[i].name, id)) <= 0)
			continue;
		put_entry(b, PERF_RECORD_MISC_USER, id, len, h->dsos[i].name);
		nr++;
	}
	return nr;
}
