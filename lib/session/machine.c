// SPDX-License-Identifier: GPL-2.0
/*
 * Threads, maps and DSOs, updated from COMM/FORK/EXIT/MMAP/MMAP2 the way
 * perf's machine.c does it: threads of a process share its maps, a forked
 * process gets a copy of its parent's, a new map cuts the ones it overlaps.
 */
#include <elf.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include "data/format.h"
#include "session/machine.h"
#include "util/util.h"

static struct lupe_maps *maps_new(struct machine *mc)
{
	struct lupe_maps *m = calloc(1, sizeof(*m));

	if (m) {
		m->refcnt = 1;
		m->threads = 1;
		m->machine = mc;
	}
	return m;
}

static void dso_free(struct lupe_dso *d)
{
	lupe_dso_release(d);
	free(d->long_name);
	lupe_dso_free_syms(d);
	free(d->load_off);
	free(d);
}

static int dso_eq(const void *item, const void *key)
{
	return !strcmp(((const struct lupe_dso *)item)->long_name, key);
}

/*
 * A map is gone: its DSO goes too when no other map holds it and nothing
 * outside the machine ever saw it. A recording whose MMAP2 records name
 * 150,000 distinct files at one address (a JIT re-mapping its code, or a
 * hostile file: 1.9 MB of zstd inflates to 614 MB of them) kept every DSO
 * and its 4 KB name (630 MB); the maps in force are what the state needs.
 */
static void map_drop(struct machine *mc, struct lupe_map *map)
{
	struct lupe_dso *d = map->dso;
	void **slot;

	free(map);
	if (!d || --d->nr_maps || d->pinned || !mc)
		return;
	slot = lupe_phash_find(&mc->dsos, lupe_phash_str(d->long_name), dso_eq, d->long_name);
	if (!slot || *slot != d)
		return; /* (out of memory to look: kept) */
	lupe_phash_remove(&mc->dsos, slot);
	dso_free(d);
}

static void maps_put(struct lupe_maps *m)
{
	if (!m || --m->refcnt)
		return;
	for (size_t i = 0; i < m->nr; i++)
		map_drop(m->machine, m->v[i]);
	free(m->v);
	free(m);
}

/* Thread t lets go of its maps. */
static void thread_drop_maps(struct lupe_thread *t)
{
	if (t->maps) {
		t->maps->threads--;
		maps_put(t->maps);
		t->maps = NULL;
	}
}

/* Thread t shares maps (another thread's of its process). */
static void thread_share_maps(struct lupe_thread *t, struct lupe_maps *maps)
{
	maps->refcnt++;
	maps->threads++;
	t->maps = maps;
}

/*
 * How long after its EXIT record a process may still be sampled. Linux
 * writes EXIT before the task has let go of its memory: here (6.18) a
 * sample in exit_mm_release came 7 us after the EXIT, its user chain in
 * _exit, and perf, which keeps an exited process's maps, names it.
 */
#define EXIT_GRACE_NS 1000000000ULL

/* Empty maps, under a new generation: what is keyed by them (stacks, resolved frames) was made under the old one. */
static void maps_empty(struct machine *m, struct lupe_maps *maps)
{
	for (size_t i = 0; i < maps->nr; i++)
		map_drop(m, maps->v[i]);
	free(maps->v);
	maps->v = NULL;
	maps->nr = maps->cap = 0;
	maps->gen = ++m->next_gen;
}

/* The exited processes' maps whose EXIT is EXIT_GRACE_NS or more before now go. */
static void exits_expire(struct machine *m, uint64_t now)
{
	size_t i = 0;

	for (; i < m->nr_exits && now - m->exits[i].time >= EXIT_GRACE_NS; i++) {
		if (m->exits[i].maps->threads <= 1)
			maps_empty(m, m->exits[i].maps);
		maps_put(m->exits[i].maps);
	}
	if (!i)
		return;
	memmove(m->exits, m->exits + i, (m->nr_exits - i) * sizeof(*m->exits));
	m->nr_exits -= i;
}

/*
 * The process of maps has exited at time: with no thread of it left that
 * could still be sampled, and in time order (m->drop_exited), its maps go
 * EXIT_GRACE_NS later. A build's hundreds of processes each kept their
 * copy of the parent's maps and their own (8.6 MB of 57 at the peak of a
 * make -j2 report). The maps themselves stay, emptied (maps_empty).
 */
static void maps_exited(struct machine *m, struct lupe_maps *maps, uint64_t time)
{
	maps->exited = 1;
	if (!m->drop_exited || maps->threads != 1)
		return;
	exits_expire(m, time);
	if (lupe_grow(&m->exits, &m->cap_exits, m->nr_exits + 1, sizeof(*m->exits)))
		return; /* kept: memory, not an answer, is lost */
	lupe_maps_get(maps);
	m->exits[m->nr_exits++] = (struct exited_maps){ maps, time };
}

void lupe_maps_get(struct lupe_maps *maps)
{
	maps->refcnt++;
}

void lupe_maps_put(struct lupe_maps *maps)
{
	maps_put(maps);
}

/* The map at index at leaves m. */
static void maps_remove_at(struct machine *mc, struct lupe_maps *m, size_t at)
{
	map_drop(mc, m->v[at]);
	memmove(&m->v[at], &m->v[at + 1], (m->nr - at - 1) * sizeof(*m->v));
	m->nr--;
}

static int maps_insert_at(struct lupe_maps *m, size_t at, struct lupe_map *map)
{
	if (lupe_grow(&m->v, &m->cap, m->nr + 1, sizeof(*m->v)))
		return -ENOMEM;
	memmove(&m->v[at + 1], &m->v[at], (m->nr - at) * sizeof(*m->v));
	m->v[at] = map;
	m->nr++;
	return 0;
}

static size_t maps_lower_bound(const struct lupe_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->v[mid]->start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The kernel's map holds ip: within its MMAP record (_text to _etext), or
 * past it up to kallsyms' last symbol (.init text: start_kernel in an idle
 * stack), as perf's map ends once it has loaded kallsyms (map__fixup_end).
 * Past that (BPF JIT code at 0xffffffffc0000000, whose symbols kallsyms
 * lists as modules' do) is no map: perf's [unknown].
 */
static int kernel_map_covers(const struct lupe_map *map, uint64_t ip)
{
	struct lupe_dso *d = map->dso;

	if (!d->kernel_text_end || ip < d->kernel_text_end)
		return 1;
	if (lupe_dso_load(d) || !d->nr_syms)
		return 1; /* no kallsyms (kptr_restrict): the map as recorded and beyond */
	return ip >= lupe_dso_symbol_start(d, 0) && ip < lupe_dso_symbol_end(d, d->nr_syms - 1);
}

struct lupe_map *lupe_maps_find(const struct lupe_maps *m, uint64_t ip)
{
	size_t lo = 0, hi = m->nr;

	/* The last map starting at or below ip. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->v[mid]->start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ip >= m->v[lo - 1]->end || !kernel_map_covers(m->v[lo - 1], ip))
		return NULL;
	/* what a lookup hands out may be kept (hist entries, unwinder caches): the DSO stays */
	m->v[lo - 1]->dso->pinned = 1;
	return m->v[lo - 1];
}

/* Insert map, trimming or dropping what it overlaps (perf's fixup_overlappings). */
static int maps_add(struct machine *mc, struct lupe_maps *m, struct lupe_map *map)
{
	size_t i = maps_lower_bound(m, map->start);

	m->gen = ++mc->next_gen;
	if (i > 0) {
		struct lupe_map *prev = m->v[i - 1];

		if (prev->end > map->start) {
			if (prev->end > map->end) {
				/* map splits prev in two */
				struct lupe_map *tail = malloc(sizeof(*tail));

				if (!tail)
					return -ENOMEM;
				*tail = *prev;
				tail->dso->nr_maps++;
				tail->pgoff += map->end - prev->start;
				tail->start = map->end;
				if (maps_insert_at(m, i, tail)) {
					free(tail);
					return -ENOMEM;
				}
			}
			prev->end = map->start;
		}
	}
	while (i < m->nr && m->v[i]->start < map->end) {
		struct lupe_map *next = m->v[i];

		if (next->end <= map->end) {
			maps_remove_at(mc, m, i);
			continue;
		}
		next->pgoff += map->end - next->start;
		next->start = map->end;
		break;
	}
	return maps_insert_at(m, i, map);
}

static struct lupe_maps *maps_clone(struct lupe_maps *src)
{
	struct lupe_maps *m = maps_new(src->machine);

	if (!m)
		return NULL;
	m->v = malloc((src->nr ? src->nr : 1) * sizeof(*m->v));
	if (!m->v)
		goto fail;
	m->cap = src->nr ? src->nr : 1;
	for (size_t i = 0; i < src->nr; i++) {
		m->v[i] = malloc(sizeof(**m->v));
		if (!m->v[i])
			goto fail;
		*m->v[i] = *src->v[i];
		m->v[i]->dso->nr_maps++;
		m->nr++;
	}
	return m;
fail:
	maps_put(m);
	return NULL;
}

struct machine *lupe_machine_new(void)
{
	struct machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->kmaps = maps_new(m);
	if (!m->kmaps) {
		free(m);
		return NULL;
	}
	return m;
}

static void thread_free(struct lupe_thread *t)
{
	thread_drop_maps(t);
	free(t->comm);
	free(t->comm_renamed);
	free(t);
}

/* The thread's comm is now name (its to own): perf's thread__set_comm. */
static int thread_set_comm(struct lupe_thread *t, char *name)
{
	if (!t->comm_set) {
		/* the placeholder is renamed in place (comm__override) */
		free(t->comm_renamed);
		if (!(t->comm_renamed = strdup(name))) {
			free(name);
			return -ENOMEM;
		}
	}
	free(t->comm);
	t->comm = name;
	t->comm_set = 1;
	return 0;
}

void lupe_machine_delete(struct machine *m)
{
	if (!m)
		return;
	exits_expire(m, UINT64_MAX);
	free(m->exits);
	for (size_t i = 0; i < m->threads.cap; i++)
		if (m->threads.items[i])
			thread_free(m->threads.items[i]);
	lupe_phash_free(&m->threads);
	maps_put(m->kmaps);
	m->kmaps = NULL;
	for (size_t i = 0; i < m->dsos.cap; i++)
		if (m->dsos.items[i])
			dso_free(m->dsos.items[i]);
	lupe_phash_free(&m->dsos);
	for (size_t i = 0; i < m->nr_cgroups; i++)
		free(m->cgroups[i].name);
	free(m->cgroups);
	free(m);
}

/* A CGROUP record: id and path (a later one for the same id wins, as perf's does). */
static int add_cgroup(struct machine *m, const struct perf_event_header *ev)
{
	const char *p = (const char *)ev + sizeof(*ev) + 8, *end = (const char *)ev + ev->size;
	struct machine_cgroup *v;
	uint64_t id;
	char *name;

	if (ev->size < sizeof(*ev) + 9 || !memchr(p, 0, (size_t)(end - p)))
		return -LUPE_ERR_CORRUPT;
	memcpy(&id, (const char *)ev + sizeof(*ev), 8);
	if (!(name = strdup(p)))
		return -ENOMEM;
	for (size_t i = 0; i < m->nr_cgroups; i++)
		if (m->cgroups[i].id == id) {
			free(m->cgroups[i].name);
			m->cgroups[i].name = name;
			return 0;
		}
	v = realloc(m->cgroups, (m->nr_cgroups + 1) * sizeof(*v));
	if (!v) {
		free(name);
		return -ENOMEM;
	}
	m->cgroups = v;
	v[m->nr_cgroups++] = (struct machine_cgroup){ id, name };
	return 0;
}

const char *lupe_machine_cgroup(const struct machine *m, uint64_t id)
{
	if (!id)
		return "N/A";
	/* a few dozen: a scan per new stack of samples costs nothing next to resolving it */
	for (size_t i = m->nr_cgroups; i-- > 0;)
		if (m->cgroups[i].id == id)
			return m->cgroups[i].name;
	return "unknown";
}

static int thread_eq(const void *item, const void *key)
{
	return ((const struct lupe_thread *)item)->tid == *(const int *)key;
}

/* The table slot of tid: the thread, or NULL where it would go. */
static struct lupe_thread **thread_slot(struct machine *m, int tid)
{
	return (struct lupe_thread **)lupe_phash_find(&m->threads, lupe_phash_mix(0, (uint32_t)tid), thread_eq, &tid);
}

static struct lupe_thread *thread_new(struct machine *m, int pid, int tid)
{
	struct lupe_thread *t = calloc(1, sizeof(*t)), **slot;

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	if (pid == tid || pid == -1) {
		t->maps = maps_new(m);
	} else {
		struct lupe_thread *leader = lupe_machine_findnew_thread(m, pid, pid);

		if (leader)
			thread_share_maps(t, leader->maps);
	}
	if (!t->maps ||
	    (!tid ? asprintf(&t->comm, "swapper") : asprintf(&t->comm, ":%d", tid)) < 0) {
		t->comm = NULL;
		thread_free(t);
		return NULL;
	}
	/* perf's idle thread is given its comm: children of 0 inherit "swapper" */
	t->comm_set = !tid;
	slot = thread_slot(m, tid);
	if (!slot) {
		thread_free(t);
		return NULL;
	}
	lupe_phash_fill(&m->threads, (void **)slot, lupe_phash_mix(0, (uint32_t)tid), t);
	return t;
}

struct lupe_thread *lupe_machine_findnew_thread(struct machine *m, int pid, int tid)
{
	struct lupe_thread *t, **slot = thread_slot(m, tid);

	if (slot) {
		t = *slot;
		if (t) {
			if (t->pid == -1 && pid != -1 && pid != tid) {
				/* first seen without its pid: join the process now */
				struct lupe_thread *leader = lupe_machine_findnew_thread(m, pid, pid);

				if (leader && leader != t) {
					thread_drop_maps(t);
					thread_share_maps(t, leader->maps);
				}
			}
			if (t->pid == -1)
				t->pid = pid;
			return t;
		}
	}
	return thread_new(m, pid, tid);
}

/* The DSO of name, made on first sight; a map's until a lookup or a caller pins it. */
static struct lupe_dso *findnew_dso(struct machine *m, const char *name)
{
	uint64_t hash = lupe_phash_str(name);
	struct lupe_dso *d, **slot = (struct lupe_dso **)lupe_phash_find(&m->dsos, hash, dso_eq, name);
	const char *slash;
	int jit_pid;

	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	d = calloc(1, sizeof(*d));
	/*
	 * Room after the name for a short name that is not its tail: perf
	 * names the DSO of /tmp/perf-PID.map (JIT code) "[JIT] tid PID".
	 */
	if (!d || !(d->long_name = malloc(strlen(name) + 1 + 32))) {
		free(d);
		return NULL;
	}
	strcpy(d->long_name, name);
	slash = strrchr(d->long_name, '/');
	d->short_name = slash && d->long_name[0] == '/' ? slash + 1 : d->long_name;
	if (sscanf(name, "/tmp/perf-%d.map", &jit_pid) == 1) {
		char *jit = d->long_name + strlen(name) + 1;

		snprintf(jit, 32, "[JIT] tid %d", jit_pid);
		d->short_name = jit;
	}
	d->seq = m->next_dso_seq++;
	lupe_phash_fill(&m->dsos, (void **)slot, hash, d);
	return d;
}

struct lupe_dso *lupe_machine_findnew_dso(struct machine *m, const char *name)
{
	struct lupe_dso *d = findnew_dso(m, name);

	if (d)
		d->pinned = 1;
	return d;
}

static int is_anon(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

static int add_map(struct machine *m, int kernel, int pid, int tid, uint64_t start, uint64_t len,
		   uint64_t pgoff, const char *filename, const uint8_t *build_id, int bid_size, int exec)
{
	struct lupe_maps *maps;
	struct lupe_map *map;
	struct lupe_dso *dso;
	char name[64];
	int identity = 0;
	uint64_t text_end = 0;

	if (kernel) {
		maps = m->kmaps;
		if (!strncmp(filename, "[kernel.kallsyms]", 17)) {
			/*
			 * The map reaches past the record's end (_etext) as
			 * far as kallsyms' last symbol (kernel_map_covers):
			 * .init text (start_kernel in an idle stack) is in it.
			 */
			filename = "[kernel.kallsyms]";
			text_end = len && start + len > start ? start + len : 0;
			len = ~0ULL - start;
		}
		identity = 1;
	} else {
		struct lupe_thread *t = lupe_machine_findnew_thread(m, pid, tid);

		if (!t)
			return -ENOMEM;
		maps = t->maps;
		/* memory without a file (perf's anon and no_dso) maps addresses as they are */
		identity = is_anon(filename) || !strncmp(filename, "[stack", 6) ||
			   !strncmp(filename, "/SYSV", 5) || !strcmp(filename, "[heap]");
		if (identity && exec) {
			/* JIT code: perf looks for symbols in /tmp/perf-PID.map (data stays as named) */
			snprintf(name, sizeof(name), "/tmp/perf-%d.map", pid);
			filename = name;
		}
	}
	if (start + len < start)
		len = ~0ULL - start; /* a mutated length may not wrap the map around */
	dso = findnew_dso(m, filename);
	if (!dso)
		return -ENOMEM;
	dso->kernel = kernel;
	dso->identity |= identity;
	if (!kernel && !dso->pid && pid > 0)
		dso->pid = pid; /* where to look for the file: a container's mount namespace */
	if (kernel && filename[0] == '[' && !strcmp(filename, "[kernel.kallsyms]")) {
		if (m->kernel_id_size)
			lupe_dso_set_kernel_build_id(dso, m->kernel_id, m->kernel_id_size);
		dso->kernel_text_end = text_end;
	}
	if (build_id && bid_size && !dso->build_id_size && bid_size <= 20) {
		memcpy(dso->build_id, build_id, bid_size);
		dso->build_id_size = bid_size;
	}
	map = malloc(sizeof(*map));
	if (!map)
		return -ENOMEM;
	*map = (struct lupe_map){ start, start + len, pgoff, dso };
	dso->nr_maps++;
	if (identity)
		map->pgoff = start; /* addresses stay absolute */
	if (maps_add(m, maps, map)) {
		map_drop(m, map);
		return -ENOMEM;
	}
	return 0;
}

/*
 * A KSYMBOL record (JIT'd BPF program or trampoline, named
 * bpf_prog_TAG_NAME; perf synthesizes one per loaded program when it
 * starts): a kernel map of its own DSO, of that name, holding one symbol,
 * as perf's machine__process_ksymbol_register makes it. Without it such a
 * frame, in the kernel part of a chain that ran through a BPF program
 * attached to a syscall, was [unknown] where perf names it.
 * An unregister record removes the map that starts there, as perf's
 * machine__process_ksymbol_unregister does (the kernel's own map stays).
 */
static int add_ksymbol(struct machine *m, const struct perf_record_ksymbol *r, const char *name)
{
	struct symtab_build b = { 0 };
	struct lupe_map *map;
	struct lupe_dso *dso;
	int err;

	if (r->flags & 1 /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */) {
		size_t i = maps_lower_bound(m->kmaps, r->addr);

		if (i < m->kmaps->nr && m->kmaps->v[i]->start == r->addr &&
		    strcmp(m->kmaps->v[i]->dso->long_name, "[kernel.kallsyms]")) {
			maps_remove_at(m, m->kmaps, i);
			m->kmaps->gen = ++m->next_gen;
		}
		return 0;
	}
	if (!r->len || !*name)
		return 0;
	if ((err = add_map(m, 1, -1, 0, r->addr, r->len, 0, name, NULL, 0, 1)))
		return err;
	/*
	 * The DSO's addresses are offsets in the program, its one symbol at
	 * 0: a program loaded again (same tag and name, another address)
	 * shares the DSO of its name and is named too.
	 */
	map = lupe_maps_find(m->kmaps, r->addr);
	if (map)
		map->pgoff = 0;
	dso = findnew_dso(m, name);
	if (!dso)
		return -ENOMEM;
	dso->identity = 0;
	if (dso->loaded)
		return 0;
	dso->loaded = 1; /* no file, no kallsyms: the record is the symbol table */
	err = lupe_symtab_add(&b, 0, r->len, name, strlen(name), STB_GLOBAL);
	if (!err)
		err = lupe_symtab_finish(&b, dso);
	lupe_symtab_build_free(&b);
	return err;
}

/* The NUL-terminated string at p within a record of end. */
static const char *rec_str(const char *p, const char *end)
{
	return p < end && memchr(p, 0, end - p) ? p : NULL;
}

int lupe_machine_process(struct machine *m, const struct perf_event_header *ev)
{
	const char *end = (const char *)ev + ev->size;
	int kernel = (ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ||
		     (ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_GUEST_KERNEL;

	switch (ev->type) {
	case PERF_RECORD_CGROUP:
		return add_cgroup(m, ev);
	case PERF_RECORD_COMM: {
		const struct perf_record_comm *c = (const void *)ev;
		const char *comm = ev->size > sizeof(*c) ? rec_str(c->comm, end) : NULL;
		struct lupe_thread *t;
		char *dup;

		if (!comm)
			return -LUPE_ERR_CORRUPT;
		t = lupe_machine_findnew_thread(m, c->pid, c->tid);
		if (!t || !(dup = strdup(comm)))
			return -ENOMEM;
		/*
		 * exec: the maps of the old image stay, as perf keeps them (the
		 * new image's maps cut what they overlap, and symbols resolve as
		 * perf's do), but whoever keeps state per address space (the
		 * unwinder's modules, reported at the old image's bases) starts
		 * afresh.
		 */
		if ((ev->misc & PERF_RECORD_MISC_COMM_EXEC) && t->maps) {
			t->maps->execs++;
			t->maps->gen = ++m->next_gen;
		}
		return thread_set_comm(t, dup);
	}
	case PERF_RECORD_MMAP: {
		const struct perf_record_mmap *r = (const void *)ev;
		const char *fn = ev->size > sizeof(*r) ? rec_str(r->filename, end) : NULL;

		if (!fn)
			return -LUPE_ERR_CORRUPT;
		/* perf takes an MMAP record's map as executable unless it says data */
		return add_map(m, kernel, r->pid, r->tid, r->start, r->len, r->pgoff, fn, NULL, 0,
			       !(ev->misc & PERF_RECORD_MISC_MMAP_DATA));
	}
	case PERF_RECORD_MMAP2: {
		const struct perf_record_mmap2 *r = (const void *)ev;
		const char *fn = ev->size > sizeof(*r) ? rec_str(r->filename, end) : NULL;
		int has_bid = ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID;

		if (!fn)
			return -LUPE_ERR_CORRUPT;
		return add_map(m, kernel, r->pid, r->tid, r->start, r->len, r->pgoff, fn,
			       has_bid ? r->build_id : NULL, has_bid ? r->build_id_size : 0, !!(r->prot & PROT_EXEC));
	}
	case PERF_RECORD_EXIT: {
		const struct perf_record_fork *r = (const void *)ev;
		struct lupe_thread **slot;

		if (ev->size < sizeof(*r))
			return -LUPE_ERR_CORRUPT;
		/*
		 * The thread stays, as perf keeps an exited thread; its maps
		 * go when no sample can need them any more
		 */
		if (r->pid == r->tid && (slot = thread_slot(m, (int)r->tid)) && *slot &&
		    (*slot)->pid == (int)r->pid && (*slot)->maps)
			maps_exited(m, (*slot)->maps, r->time);
		return 0;
	}
	case PERF_RECORD_KSYMBOL: {
		const struct perf_record_ksymbol *r = (const void *)ev;
		const char *name = ev->size > sizeof(*r) ? rec_str(r->name, end) : NULL;

		if (!name)
			return -LUPE_ERR_CORRUPT;
		return add_ksymbol(m, r, name);
	}
	case PERF_RECORD_FORK: {
		const struct perf_record_fork *r = (const void *)ev;
		struct lupe_thread *parent, *t, **slot;

		if (ev->size < sizeof(*r))
			return -LUPE_ERR_CORRUPT;
		parent = lupe_machine_findnew_thread(m, r->ppid, r->ptid);
		if ((slot = thread_slot(m, (int)r->tid)) && *slot && r->tid != r->ptid) {
			/* a reused tid: the old thread is gone (keep the table dense) */
			t = *slot;
			free(t->comm);
			t->comm = NULL;
			t->comm_set = 0;
			free(t->comm_renamed);
			t->comm_renamed = NULL;
			t->comm_epoch++; /* a new thread: entries made with the old one's name keep it */
			thread_drop_maps(t);
			t->pid = r->pid;
			if (r->pid == r->tid || !(parent && parent->pid == (int)r->pid))
				t->maps = maps_new(m);
			else
				thread_share_maps(t, parent->maps);
			if (!t->maps)
				return -ENOMEM;
		} else {
			t = lupe_machine_findnew_thread(m, r->pid, r->tid);
		}
		if (!t || !parent)
			return -ENOMEM;
		/*
		 * A mutated file can name a thread its own parent (tid == ptid):
		 * it inherits nothing from itself, and freeing its comm before
		 * copying the parent's would copy freed memory.
		 */
		if (t == parent)
			return 0;
		/* perf's thread__fork: only a comm the parent was given is inherited */
		if (parent->comm && parent->comm_set && (!t->comm || !t->comm_set)) {
			char *dup = strdup(parent->comm);

			if (!dup || thread_set_comm(t, dup))
				return -ENOMEM;
		}
		if (!t->comm && asprintf(&t->comm, ":%d", t->tid) < 0)
			return -ENOMEM;
		if (t->pid != parent->pid && t->maps != parent->maps && !t->maps->nr) {
			struct lupe_maps *copy = maps_clone(parent->maps);

			if (!copy)
				return -ENOMEM;
			thread_drop_maps(t);
			t->maps = copy;
			copy->gen = ++m->next_gen;
		}
		return 0;
	}
	default:
		return 0;
	}
}

uint32_t lupe_thread_maps_gen(const struct lupe_thread *t)
{
	return t->maps ? t->maps->gen : 0;
}
