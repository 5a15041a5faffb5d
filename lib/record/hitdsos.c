// SPDX-License-Identifier: GPL-2.0
/*
 * Hit DSOs. Maps live in one array per process; processes and DSOs sit in
 * phash tables (by pid, by name). A lookup tries the map the last one found,
 * then walks the process's maps (a few dozen), which costs less per sample
 * than the kernel's own sample write.
 */
#include <stdlib.h>
#include <lupe/symbols.h>
#include <string.h>
#include "data/format.h"
#include "record/hitdsos.h"
#include "symbols/build-id.h"
#include "symbols/nsinfo.h"
#include "util/phash.h"
#include "util/util.h"

struct map {
	uint64_t start, end;
	struct dso *dso;
};

/* Items of phash tables: their addresses stay put as the tables grow. */
struct proc {
	uint32_t pid;
	struct map *maps;
	size_t nr, alloc;
	int last; /* the map the previous lookup found */
};

struct dso {
	int hit;
	uint32_t pid; /* the first process that mapped it: its mount namespace has the file */
	char name[]; /* the key */
};

struct hitdsos {
	struct phash procs; /* by pid */
	struct phash dsos;  /* by name */
	struct dso **order; /* the DSOs in the order they were first mapped */
	size_t nr_order, alloc_order;
	int kernel_hit;
	struct dso *vdso; /* once a process mapped it */
	int list_vdso;
	struct proc *cache;
};

struct hitdsos *lupe_hitdsos_new(int list_vdso)
{
	struct hitdsos *h = calloc(1, sizeof(struct hitdsos));

	if (h)
		h->list_vdso = list_vdso;
	return h;
}

void lupe_hitdsos_delete(struct hitdsos *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->procs.cap; i++) {
		struct proc *p = h->procs.items[i];

		if (p)
			free(p->maps);
		free(p);
	}
	for (size_t i = 0; i < h->nr_order; i++)
		free(h->order[i]);
	lupe_phash_free(&h->procs);
	lupe_phash_free(&h->dsos);
	free(h->order);
	free(h);
}

static int proc_eq(const void *item, const void *key)
{
	return ((const struct proc *)item)->pid == *(const uint32_t *)key;
}

/* The process pid; with add, created when missing. NULL if absent or out of memory. */
static struct proc *proc_of(struct hitdsos *h, uint32_t pid, int add)
{
	uint64_t hash = lupe_phash_mix(0, pid);
	struct proc *p;
	void **slot;

	if (h->cache && h->cache->pid == pid)
		return h->cache;
	if (!add && !h->procs.nr)
		return NULL;
	slot = lupe_phash_find(&h->procs, hash, proc_eq, &pid);
	if (!slot)
		return NULL;
	if (!*slot) {
		if (!add || !(p = calloc(1, sizeof(*p))))
			return NULL;
		p->pid = pid;
		lupe_phash_fill(&h->procs, slot, hash, p);
	}
	return h->cache = *slot;
}

static int dso_eq(const void *item, const void *key)
{
	return !strcmp(((const struct dso *)item)->name, key);
}

static struct dso *dso_of(struct hitdsos *h, const char *name)
{
	uint64_t hash = lupe_phash_str(name);
	void **slot = lupe_phash_find(&h->dsos, hash, dso_eq, name);
	struct dso *d;

	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	if (lupe_grow(&h->order, &h->alloc_order, h->nr_order + 1, sizeof(*h->order)))
		return NULL;
	d = calloc(1, sizeof(*d) + strlen(name) + 1);
	if (!d)
		return NULL;
	strcpy(d->name, name);
	lupe_phash_fill(&h->dsos, slot, hash, d);
	h->order[h->nr_order++] = d;
	return d;
}

static void add_map(struct proc *p, uint64_t start, uint64_t end, struct dso *dso)
{
	size_t w = 0;

	/* A new map replaces what it overlaps, as mmap does. */
	for (size_t i = 0; i < p->nr; i++)
		if (p->maps[i].end <= start || p->maps[i].start >= end)
			p->maps[w++] = p->maps[i];
	p->nr = w;
	if (lupe_grow(&p->maps, &p->alloc, p->nr + 1, sizeof(*p->maps)))
		return;
	p->maps[p->nr++] = (struct map){ start, end, dso };
	p->last = 0;
}

static void mmap_event(struct hitdsos *h, uint32_t pid, uint64_t start, uint64_t len,
		       const char *name)
{
	struct proc *p;
	struct dso *dso;

	/*
	 * perf lists the vdso whenever a process maps it, hit or not (its
	 * build-id table takes every vdso); //anon and the like have no build-id.
	 */
	if (h->list_vdso && !strcmp(name, "[vdso]") && pid != (uint32_t)-1) {
		if (!h->vdso && (h->vdso = dso_of(h, name)))
			h->vdso->hit = 1;
		return;
	}
	if (name[0] != '/' || pid == (uint32_t)-1)
		return;
	p = proc_of(h, pid, 1);
	dso = dso_of(h, name);
	if (p && dso) {
		if (!dso->pid)
			dso->pid = pid;
		add_map(p, start, start + len, dso);
	}
}

void lupe_hitdsos_event(struct hitdsos *h, const struct perf_event_header *rec)
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
		parent = proc_of(h, f->ppid, 0);
		if (!parent || !parent->nr)
			break;
		child = proc_of(h, f->pid, 1);
		if (!child)
			break;
		child->nr = 0;
		for (size_t i = 0; i < parent->nr; i++)
			add_map(child, parent->maps[i].start, parent->maps[i].end,
				parent->maps[i].dso);
		break;
	}
	case PERF_RECORD_COMM:
		if (rec->misc & PERF_RECORD_MISC_COMM_EXEC) {
			struct proc *p = proc_of(h, ((const struct perf_record_comm *)rec)->pid, 0);

			if (p)
				p->nr = 0;
		}
		break;
	}
}

/* Mark d hit; its name when this is its first hit. */
static const char *mark(struct dso *d)
{
	if (d->hit)
		return NULL;
	d->hit = 1;
	return d->name;
}

const char *lupe_hitdsos_hit(struct hitdsos *h, uint32_t pid, uint64_t ip, uint16_t cpumode)
{
	struct proc *p;

	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		if (h->kernel_hit)
			return NULL;
		h->kernel_hit = 1;
		return "[kernel.kallsyms]";
	}
	if (cpumode != PERF_RECORD_MISC_USER)
		return NULL;
	p = proc_of(h, pid, 0);
	if (!p || !p->nr)
		return NULL;
	if (p->last < (int)p->nr && ip >= p->maps[p->last].start && ip < p->maps[p->last].end)
		return mark(p->maps[p->last].dso);
	for (size_t i = 0; i < p->nr; i++) {
		if (ip >= p->maps[i].start && ip < p->maps[i].end) {
			p->last = (int)i;
			return mark(p->maps[i].dso);
		}
	}
	return NULL;
}

void lupe_hitdsos_mark_all(struct hitdsos *h)
{
	for (size_t i = 0; i < h->nr_order; i++)
		h->order[i]->hit = 1;
}

/*
 * A containerized process's file is read through /proc/PID/root while it
 * lives: the path read is left in *from (buf, or the DSO's name).
 */
static int dso_build_id(const struct hitdsos *h, const struct dso *d, uint8_t *id, char *buf, size_t size,
			const char **from)
{
	*from = d->name;
	if (d == h->vdso)
		return lupe_build_id_vdso(id);
	*from = lupe_ns_path((int)d->pid, d->name, buf, size);
	return lupe_build_id_read(*from, id);
}

typedef void (*hit_fn)(void *arg, uint16_t misc, const char *name, const char *from,
		       const uint8_t *id, int len);

/*
 * fn for each object hit that has a build-id, the kernel first (misc
 * PERF_RECORD_MISC_KERNEL, from NULL), then the DSOs in the order they
 * were seen (from: the path the id was read at).
 */
static void foreach_hit(const struct hitdsos *h, hit_fn fn, void *arg)
{
	uint8_t id[BUILD_ID_MAX];
	int len;

	if (h->kernel_hit && (len = lupe_build_id_kernel(id)) > 0)
		fn(arg, PERF_RECORD_MISC_KERNEL, "[kernel.kallsyms]", NULL, id, len);
	for (size_t i = 0; i < h->nr_order; i++) {
		const struct dso *d = h->order[i];
		const char *from;
		char buf[4096];

		if (d->hit && (len = dso_build_id(h, d, id, buf, sizeof(buf), &from)) > 0)
			fn(arg, PERF_RECORD_MISC_USER, d->name, from, id, len);
	}
}

/* arg: the first error */
static void cache_one(void *arg, uint16_t misc, const char *name, const char *from,
		      const uint8_t *id, int len)
{
	int *err = arg, e;

	/* the file as read above, named as its process names it */
	if ((e = lupe_buildid_cache_add_from(name, from, id, len)) && !*err)
		*err = e;
}

int lupe_hitdsos_cache(struct hitdsos *h)
{
	int err = 0;

	foreach_hit(h, cache_one, &err);
	return err;
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
	lupe_fbuf_add(b, &e, sizeof(e));
	lupe_fbuf_add(b, name, n);
	lupe_fbuf_zero(b, padded - n);
}

struct put_arg {
	struct fbuf *b;
	int nr;
};

static void put_one(void *arg, uint16_t misc, const char *name, const char *from,
		    const uint8_t *id, int len)
{
	struct put_arg *p = arg;

	put_entry(p->b, misc, id, len, name);
	p->nr++;
}

int lupe_hitdsos_build_ids(struct hitdsos *h, struct fbuf *b)
{
	struct put_arg p = { b, 0 };

	foreach_hit(h, put_one, &p);
	return p.nr;
}
