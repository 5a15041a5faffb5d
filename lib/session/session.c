// SPDX-License-Identifier: GPL-2.0
/*
 * The session: takes records from any source (a perf.data file or pipe,
 * live rings), puts them in time order (session/ordered.c, perf's
 * ordered_events), keeps the machine model, completes each sample's
 * callchain (lupe_session_complete_callchain()) and hands samples to the
 * tool. File-mode records stay in the map; the others are copied into the
 * ordering queue's chunks only while they wait. Nothing is allocated per
 * record: the completed callchain lives in one session buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/session.h>
#include <lupe/source.h>
#include "counting/evsel.h"
#include "data/format.h"
#include "session/machine.h"
#include "session/ordered.h"
#include "sampling/sample.h"
#include "symbols/symbols.h"
#include "symbols/srcline.h"
#include "util/util.h"

/* live data: a record may come this late behind the newest one (perf top's idea) */
#define LIVE_WINDOW_NS 1000000000ULL

/*
 * what resolve_uncached() gives of ip: its frame is made of these (64
 * bytes, not 88); and, once an unwound frame at ip asked, the inlined
 * frames srcline found there (a lookup in its table per frame was a
 * tenth of a one-process script's CPU)
 */
struct rcache_ent {
	const void *maps;
	uint64_t ip, addr, vaddr;
	const struct lupe_map *map;
	const struct lupe_symbol *sym;
	uint32_t gen;
	uint8_t kernel;
	uint8_t inl_done;
	uint16_t nr_inl;
	const struct lupe_inline_frame *inl;
};

struct lupe_session {
	struct lupe_source *own;     /* the file lupe_session_open() opened, else NULL */
	struct lupe_source *src;     /* the source being read */
	struct lupe_perf_file *file; /* the perf.data behind it, or NULL */
	struct lupe_evlist *evlist;  /* the events its records belong to */
	struct lupe_tool *tool;      /* the tool being fed */
	struct machine *machine;
	struct lupe_session_stats stats;
	struct lupe_ordered *oe;
	struct rcache_ent *rc;
	size_t rc_cap, rc_nr;
	uint64_t chain[LUPE_SESSION_MAX_CHAIN]; /* the completed callchain of the current sample */
	lupe_unwind_fn unwind;
	void *unwind_arg;
	void (*unwind_release)(void *arg);
	struct lupe_srcline *srcline; /* source lines and inlined frames, made on first use */
	int no_inline;
	int stop;
};

/*
 * BUILD_ID: the build-ids of the DSOs the samples hit, so that a file that
 * changed since the recording is not trusted for symbols (as perf does).
 */
static void read_build_ids(struct lupe_session *s)
{
	size_t size;
	const uint8_t *p = lupe_perf_file_feature(s->file, HEADER_BUILD_ID, &size), *end;

	if (!p)
		return;
	for (end = p + size; (size_t)(end - p) >= sizeof(struct perf_record_header_build_id);) {
		struct perf_record_header_build_id r;
		const char *name = (const char *)p + sizeof(r);
		size_t len;
		int bsz;
		struct lupe_dso *dso;

		memcpy(&r, p, sizeof(r));
		if (r.header.size < sizeof(r) || r.header.size > (size_t)(end - p))
			break;
		len = r.header.size - sizeof(r);
		bsz = r.header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE ? r.size : 20;
		if (bsz > 20)
			bsz = 20;
		/* perf keeps the vdso's too: its copy in the build-id cache is found by it */
		if (memchr(name, 0, len) && (name[0] == '/' || !strcmp(name, "[vdso]")) &&
		    (dso = lupe_machine_findnew_dso(s->machine, name))) {
			memcpy(dso->build_id, r.data, bsz);
			dso->build_id_size = bsz;
		} else if (memchr(name, 0, len) && !strcmp(name, "[kernel.kallsyms]")) {
			/* for the kernel's DSO when its map comes: where its kallsyms copy is */
			memcpy(s->machine->kernel_id, r.data, bsz);
			s->machine->kernel_id_size = bsz;
		}
		p += r.header.size;
	}
}

static int deliver(void *arg, const struct perf_event_header *ev, uint64_t offset);

struct lupe_session *lupe_session_new_empty(void)
{
	struct lupe_session *s = calloc(1, sizeof(*s));

	if (!s)
		return err_ptr(-ENOMEM);
	s->machine = lupe_machine_new();
	s->oe = lupe_ordered_new(deliver, s);
	if (!s->machine || !s->oe) {
		lupe_session_delete(s);
		return err_ptr(-ENOMEM);
	}
	return s;
}

/* Read from src from now on: its events, its file's build-ids. */
static void attach(struct lupe_session *s, struct lupe_source *src)
{
	struct lupe_perf_file *f = lupe_source_perf_file(src);

	if (s->src == src)
		return;
	s->src = src;
	s->evlist = lupe_source_evlist(src);
	lupe_ordered_set_window(s->oe, src->ops->live ? LIVE_WINDOW_NS : 0);
	if (f && f != s->file) {
		s->file = f;
		read_build_ids(s);
	}
}

struct lupe_session *lupe_session_open(const char *path, int force)
{
	struct lupe_source *src = lupe_source_file(path, force);
	struct lupe_session *s;

	if (!src)
		return NULL;
	s = lupe_session_new_empty();
	if (!s) {
		lupe_source_delete(src);
		return err_ptr(-ENOMEM);
	}
	s->own = src;
	attach(s, src);
	return s;
}

void lupe_session_delete(struct lupe_session *s)
{
	if (!s)
		return;
	lupe_ordered_delete(s->oe);
	free(s->rc);
	if (s->unwind_release)
		s->unwind_release(s->unwind_arg);
	lupe_srcline_delete(s->srcline);
	lupe_machine_delete(s->machine);
	lupe_source_delete(s->own);
	free(s);
}

struct lupe_perf_file *lupe_session_file(struct lupe_session *s)
{
	return s->file;
}

struct lupe_evlist *lupe_session_evlist(struct lupe_session *s)
{
	return s->evlist;
}

const struct lupe_session_stats *lupe_session_stats(const struct lupe_session *s)
{
	return &s->stats;
}

void lupe_session_set_unwinder(struct lupe_session *s, lupe_unwind_fn fn, void *arg,
			       void (*release)(void *arg))
{
	if (s->unwind_release)
		s->unwind_release(s->unwind_arg);
	s->unwind = fn;
	s->unwind_arg = arg;
	s->unwind_release = release;
}

/*
 * ---- the resolve cache: (address space, ip) -> frame ----
 *
 * At most RC_MAX slots (56 bytes each), half of them used: past that it
 * starts empty again. A program's hot addresses are a few thousand; a
 * recording of hundreds of processes (make -j2: 30,000 distinct frames
 * in 1,400 samples, each process's addresses its own) grew it to 5.8 MB
 * of which most was never read again.
 */
#define RC_MAX 16384

static uint64_t hash_key(const void *maps, uint64_t ip, uint32_t gen)
{
	uint64_t x = ip ^ ((uint64_t)(uintptr_t)maps * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)gen << 40);

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 29;
	return x;
}

static int rc_grow(struct lupe_session *s)
{
	size_t cap = s->rc_cap ? s->rc_cap * 2 : 4096;
	struct rcache_ent *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < s->rc_cap; i++) {
		struct rcache_ent *e = &s->rc[i];
		size_t h;

		if (!e->maps)
			continue;
		for (h = hash_key(e->maps, e->ip, e->gen) & (cap - 1); v[h].maps; h = (h + 1) & (cap - 1))
			;
		v[h] = *e;
	}
	free(s->rc);
	s->rc = v;
	s->rc_cap = cap;
	return 0;
}

static void resolve_uncached(struct lupe_map *map, uint64_t ip, int kernel, struct lupe_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->ip = ip;
	f->addr = ip;
	f->kernel = kernel;
	if (!map)
		return;
	f->map = map;
	f->addr = ip - map->start + map->pgoff;
	lupe_dso_load(map->dso);
	f->vaddr = lupe_dso_addr_to_vaddr(map->dso, f->addr);
	/* kernel addresses are printed as they are (a BPF program's DSO counts from its start) */
	if (map->dso->identity || map->dso->kernel)
		f->addr = ip;
	f->sym = lupe_dso_find_symbol(map->dso, f->vaddr);
}

const char *lupe_session_cgroup_name(const struct lupe_session *s, uint64_t id)
{
	return lupe_machine_cgroup(s->machine, id);
}

struct lupe_thread *lupe_session_thread(struct lupe_session *s, int pid, int tid)
{
	return lupe_machine_findnew_thread(s->machine, pid, tid);
}

/* lupe_session_resolve_ip(), and the cache entry that answered (NULL when there is none) */
static struct rcache_ent *resolve_ip(struct lupe_session *s, struct lupe_thread *t, uint64_t ip, int kernel,
				     struct lupe_frame *f)
{
	struct lupe_maps *maps = kernel ? s->machine->kmaps : t ? t->maps : NULL;
	struct rcache_ent *e;
	size_t h;

	if (!maps) {
		resolve_uncached(NULL, ip, kernel, f);
		return NULL;
	}
	if ((s->rc_nr + 1) * 2 > s->rc_cap && s->rc_cap >= RC_MAX) {
		memset(s->rc, 0, s->rc_cap * sizeof(*s->rc));
		s->rc_nr = 0;
	} else if ((s->rc_nr + 1) * 2 > s->rc_cap && rc_grow(s)) {
		resolve_uncached(lupe_maps_find(maps, ip), ip, kernel, f);
		return NULL;
	}
	for (h = hash_key(maps, ip, maps->gen) & (s->rc_cap - 1); (e = &s->rc[h])->maps;
	     h = (h + 1) & (s->rc_cap - 1)) {
		if (e->maps == maps && e->ip == ip && e->gen == maps->gen) {
			*f = (struct lupe_frame){ .ip = ip, .addr = e->addr, .vaddr = e->vaddr, .map = e->map,
						  .sym = e->sym, .kernel = e->kernel };
			return e;
		}
	}
	resolve_uncached(lupe_maps_find(maps, ip), ip, kernel, f);
	*e = (struct rcache_ent){ .maps = maps, .ip = ip, .addr = f->addr, .vaddr = f->vaddr, .map = f->map,
				  .sym = f->sym, .gen = maps->gen, .kernel = f->kernel };
	s->rc_nr++;
	return e;
}

void lupe_session_resolve_ip(struct lupe_session *s, struct lupe_thread *t, uint64_t ip,
			     int kernel, struct lupe_frame *f)
{
	resolve_ip(s, t, ip, kernel, f);
}

/* ---- source lines and inlined frames (symbols/srcline.h) ---- */

static struct lupe_srcline *srcline(struct lupe_session *s)
{
	if (!s->srcline)
		s->srcline = lupe_srcline_new();
	return s->srcline;
}

void lupe_session_set_inline(struct lupe_session *s, int on)
{
	s->no_inline = !on;
}

/*
 * frames[n] (a resolved unwound user frame) becomes the inlined functions
 * at its address, innermost first, then its own function, within max.
 * Returns how many frames it now takes (1 when nothing was inlined there).
 */
static int expand_inlines(struct lupe_session *s, struct lupe_frame *frames, int n, int max,
			  struct rcache_ent *e)
{
	struct lupe_frame base = frames[n];
	const struct lupe_inline_frame *v;
	int k, i;

	if (s->no_inline || base.kernel || !base.sym || !base.map || !srcline(s))
		return 1;
	if (e && e->inl_done) {
		v = e->inl;
		k = e->nr_inl;
	} else {
		k = lupe_srcline_inlines(s->srcline, base.map->dso, base.vaddr, base.sym, &v);
		if (e) {
			e->inl = v;
			e->nr_inl = (uint16_t)k;
			e->inl_done = 1;
		}
	}
	for (i = 0; i < k && n + i < max; i++) {
		frames[n + i] = base;
		frames[n + i].sym = v[i].sym;
		frames[n + i].inlined = (uint8_t)v[i].inlined;
		frames[n + i].inline_depth = (uint8_t)i;
	}
	return i ? i : 1;
}

int lupe_session_srcline(struct lupe_session *s, const struct lupe_frame *f, const char **file,
			 unsigned *line)
{
	if (!f->map || f->kernel)
		return -ENOENT;
	if (!srcline(s))
		return -ENOMEM;
	return lupe_srcline_find(s->srcline, f->map->dso, f->vaddr, f->inline_depth, file, line);
}

int lupe_session_srcline_text(struct lupe_session *s, const struct lupe_frame *f, char *buf,
			      size_t size)
{
	const char *file, *slash;
	unsigned line;

	if (f->kernel || !f->map)
		return f->sym ? snprintf(buf, size, "%s+%llu", f->sym->name,
					 (unsigned long long)(f->vaddr - f->sym->start))
			      : snprintf(buf, size, "??:0");
	if (lupe_session_srcline(s, f, &file, &line))
		file = NULL;
	if (!file || !line)
		return snprintf(buf, size, "??:0");
	if ((slash = strrchr(file, '/')))
		file = slash + 1;
	return snprintf(buf, size, "%s:%u", file, line);
}

int lupe_session_resolve(struct lupe_session *s, struct lupe_thread *t,
			 const struct lupe_sample *sample, uint8_t cpumode,
			 struct lupe_frame *frames, int max)
{
	int n = 0, kernel = 0, unwound = 0;
	const uint64_t *chain = sample->callchain;
	uint64_t nr = sample->nr_callchain;
	struct rcache_ent *e;

	if (!chain || !nr) {
		if (max < 1)
			return 0;
		lupe_session_resolve_ip(s, t, sample->ip,
					cpumode == PERF_RECORD_MISC_KERNEL ||
					cpumode == PERF_RECORD_MISC_GUEST_KERNEL, &frames[0]);
		return 1;
	}
	for (uint64_t i = 0; i < nr && n < max; i++) {
		uint64_t ip = chain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_KERNEL:
			case PERF_CONTEXT_GUEST_KERNEL:
				kernel = 1;
				break;
			case PERF_CONTEXT_HV:
				kernel = 2;
				break;
			case PERF_CONTEXT_USER:
			case PERF_CONTEXT_GUEST:
			case PERF_CONTEXT_GUEST_USER:
			case LUPE_CONTEXT_USER_UNWOUND:
				kernel = 0;
				unwound = ip == LUPE_CONTEXT_USER_UNWOUND;
				break;
			default:
				/* perf drops a chain with a context it does not know */
				return 0;
			}
			continue;
		}
		if (kernel == 2) {
			resolve_uncached(NULL, ip, 1, &frames[n++]);
			continue;
		}
		e = resolve_ip(s, t, ip, kernel, &frames[n]);
		n += unwound ? expand_inlines(s, frames, n, max, e) : 1;
	}
	return n;
}

/* ---- the callchain step ---- */

/*
 * Complete a sample's callchain before any consumer sees it: the kernel
 * part and the user part the kernel recorded stay as they are (no copy);
 * a sample that carries user registers and stack (--call-graph dwarf, where
 * the kernel recorded no user part) gets the user frames of the installed
 * unwinder appended after LUPE_CONTEXT_USER_UNWOUND, in the session's
 * buffer. This is the one place where chains are completed; resolving
 * adds the inlined functions of the unwound part.
 */
int lupe_session_complete_callchain(struct lupe_session *s, struct lupe_thread *t,
				    struct lupe_sample *sample)
{
	size_t nr = sample->callchain ? sample->nr_callchain : 0;
	int n;

	if (!s->unwind || !sample->user_regs || !sample->user_stack_size ||
	    nr + 2 > LUPE_SESSION_MAX_CHAIN)
		return 0;
	if (nr)
		memcpy(s->chain, sample->callchain, nr * sizeof(*s->chain));
	s->chain[nr] = LUPE_CONTEXT_USER_UNWOUND;
	n = s->unwind(s->unwind_arg, s, t, sample, s->chain + nr + 1,
		      (int)(LUPE_SESSION_MAX_CHAIN - nr - 1));
	if (n <= 0) {
		if (n < 0)
			s->stats.nr_unwind_errors++;
		return 0;
	}
	sample->callchain = s->chain;
	sample->nr_callchain = nr + 1 + (uint64_t)n;
	return 0;
}

/* ---- delivery ---- */

/* tool->record: the record, its event and sample (id) fields, for a dump. */
static int show_record(struct lupe_session *s, const struct perf_event_header *ev, uint64_t offset)
{
	struct lupe_evsel *evsel = NULL;
	struct lupe_sample smp;
	int ok = 0;

	/* synthesized records have id 0: perf takes them for the first event's */
	if (ev->type < PERF_RECORD_USER_TYPE_START && ev->type != PERF_RECORD_SAMPLE &&
	    ((evsel = lupe_evlist_record_evsel(s->evlist, ev)) ||
	     (evsel = lupe_evlist_nr(s->evlist) ? lupe_evlist_evsel(s->evlist, 0) : NULL)) &&
	    evsel->attr.sample_id_all)
		ok = !lupe_sample_id_parse(&evsel->attr, ev, &smp);
	return s->tool->record(s->tool, s, ev, offset, ok ? evsel : NULL, ok ? &smp : NULL);
}

static int deliver(void *arg, const struct perf_event_header *ev, uint64_t offset)
{
	struct lupe_session *s = arg;
	struct lupe_tool *tool = s->tool;
	struct lupe_evsel *evsel;
	struct lupe_sample sample;
	int err;

	if (tool->record && ev->type != PERF_RECORD_SAMPLE && (err = show_record(s, ev, offset)))
		return err;
	switch (ev->type) {
	case PERF_RECORD_SAMPLE: {
		struct lupe_thread *t;

		evsel = lupe_evlist_record_evsel(s->evlist, ev);
		if (!evsel || lupe_sample_parse(&evsel->attr, ev, &sample)) {
			s->stats.nr_bad_samples++;
			if (tool->record)
				return tool->record(tool, s, ev, offset, NULL, NULL);
			return 0;
		}
		if (tool->record && (err = tool->record(tool, s, ev, offset, evsel, &sample)))
			return err;
		s->stats.nr_samples++;
		evsel->stats.nr_samples++;
		evsel->stats.total_period += sample.period;
		t = lupe_machine_findnew_thread(s->machine, (int)sample.pid, (int)sample.tid);
		if (!t)
			return -ENOMEM;
		err = lupe_session_complete_callchain(s, t, &sample);
		if (err)
			return err;
		return tool->sample ? tool->sample(tool, s, evsel, &sample, t, ev) : 0;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_KSYMBOL:
		err = lupe_machine_process(s->machine, ev);
		if (err == -LUPE_ERR_CORRUPT) {
			pr_debug("skipping a malformed record of type %u", ev->type);
			err = 0;
		}
		if (err)
			return err;
		break;
	case PERF_RECORD_LOST: {
		const struct perf_record_lost *l = (const void *)ev;

		if (ev->size >= sizeof(*l)) {
			s->stats.nr_lost_records++;
			s->stats.nr_lost += l->lost;
		}
		break;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		const struct perf_record_lost_samples *l = (const void *)ev;

		if (ev->size >= sizeof(*l)) {
			s->stats.nr_lost_samples += l->lost;
			evsel = lupe_evlist_record_evsel(s->evlist, ev);
			if (evsel)
				evsel->stats.lost_samples += l->lost;
		}
		break;
	}
	default:
		if (ev->type >= PERF_RECORD_HEADER_MAX)
			s->stats.nr_unknown++;
		break;
	}
	return tool->other ? tool->other(tool, s, ev) : 0;
}

static uint64_t record_time(struct lupe_session *s, const struct perf_event_header *ev)
{
	struct lupe_evsel *evsel;
	struct lupe_sample smp;

	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		return (uint64_t)-1;
	evsel = lupe_evlist_record_evsel(s->evlist, ev);
	if (!evsel || !(evsel->attr.sample_type & PERF_SAMPLE_TIME))
		return (uint64_t)-1;
	if (ev->type == PERF_RECORD_SAMPLE) {
		/* time sits after identifier, ip and tid */
		uint64_t t = evsel->attr.sample_type;
		size_t pos = 8 * (1 + !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
				  !!(t & PERF_SAMPLE_TID));
		uint64_t v;

		if (pos + 8 > ev->size)
			return (uint64_t)-1;
		memcpy(&v, (const char *)ev + pos, 8);
		return v;
	}
	if (lupe_sample_id_parse(&evsel->attr, ev, &smp))
		return (uint64_t)-1;
	return smp.time;
}

/* Let the pages of records no longer queued leave memory. */
static void release_read(struct lupe_session *s)
{
	if (s->src->ops->release)
		s->src->ops->release(s->src, lupe_ordered_lowest_stable(s->oe));
}

/* One record from the source: in time order through the queue, or at once. */
static int on_record(void *arg, const struct perf_event_header *ev, int stable)
{
	struct lupe_session *s = arg;
	uint64_t time, offset = s->file ? lupe_perf_file_last_offset(s->file) : 0;
	int err;

	s->stats.nr_records++;
	if (s->tool->ordered && ev->type == PERF_RECORD_FINISHED_ROUND) {
		if (s->tool->record && (err = show_record(s, ev, offset)))
			return err;
		err = lupe_ordered_round(s->oe);
		release_read(s);
	} else if (s->tool->ordered && (time = record_time(s, ev)) != (uint64_t)-1 && time) {
		/* as perf's ordered events: no time (synthesized, time 0) goes out at once */
		err = lupe_ordered_queue(s->oe, ev, stable, time, offset);
	} else {
		err = deliver(s, ev, offset);
	}
	return err;
}

int lupe_session_read(struct lupe_session *s, struct lupe_source *src, struct lupe_tool *tool)
{
	int ret, err;

	if (s->stop)
		return 0;
	attach(s, src);
	s->tool = tool;
	/* out of time order, a sample may come after its process's exit */
	s->machine->drop_exited = tool->ordered;
	ret = lupe_source_read(src, on_record, s);
	err = s->stop || ret > 0 ? 0 : lupe_ordered_flush_all(s->oe);
	if (ret > 0) { /* the tool asked to stop: what is queued is dropped */
		s->stop = 1;
		ret = 0;
	}
	if (err > 0) {
		s->stop = 1;
		err = 0;
	}
	release_read(s);
	s->stats.nr_unordered = lupe_ordered_nr_unordered(s->oe);
	/*
	 * The events are read: the DWARF the inlined frames came from goes
	 * (the answers stay), before report builds its entries and chains.
	 */
	lupe_srcline_release(s->srcline);
	return ret < 0 ? ret : err;
}

int lupe_session_process(struct lupe_session *s, struct lupe_tool *tool)
{
	if (!s->own)
		return -EINVAL;
	return lupe_session_read(s, s->own, tool);
}
