// SPDX-License-Identifier: GPL-2.0
/*
 * The session: reads records, puts them in time order the way perf's
 * ordered_events does (at each FINISHED_ROUND, deliver what is older than
 * the newest time seen at the previous round), keeps the machine model and
 * hands samples to the tool. File-mode records stay in the map; only
 * records from pipes or from COMPRESSED records are copied, into chunks
 * that are freed as soon as all their records were delivered.
 */
#include <stdlib.h>
#include <string.h>
#include <lupe/session.h>
#include "data/format.h"
#include "session/machine.h"
#include "session/sample.h"
#include "symbols/symbols.h"
#include "unwind/unwind.h"
#include "util/util.h"

struct chunk {
	struct chunk *next;
	size_t used, size, live;
	uint8_t data[];
};

struct qev {
	uint64_t time, seq;
	const struct perf_event_header *ev;
	struct chunk *chunk;
};

struct rcache_ent {
	const void *maps;
	uint64_t ip;
	uint32_t gen;
	struct lupe_frame f;
};

struct lupe_session {
	struct lupe_perf_file *file;
	struct machine *machine;
	struct lupe_session_stats stats;
	struct qev *q;
	size_t nq, capq;
	uint64_t seq, max_time, next_flush, last_flush;
	struct chunk *cur;
	struct rcache_ent *rc;
	size_t rc_cap, rc_nr;
	int stop;
	struct lupe_completer *completer; /* DWARF unwinding, inlined frames */
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
		if (memchr(name, 0, len) && name[0] == '/' && (dso = lupe_machine_findnew_dso(s->machine, name))) {
			memcpy(dso->build_id, r.data, bsz);
			dso->build_id_size = bsz;
		}
		p += r.header.size;
	}
}

struct lupe_session *lupe_session_new(const char *path, int force)
{
	struct lupe_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->file = lupe_perf_file_open(path, force);
	if (!s->file) {
		int err = errno;

		free(s);
		errno = err;
		return NULL;
	}
	s->machine = lupe_machine_new();
	if (!s->machine) {
		lupe_session_delete(s);
		return err_ptr(-ENOMEM);
	}
	read_build_ids(s);
	return s;
}

void lupe_session_delete(struct lupe_session *s)
{
	if (!s)
		return;
	while (s->cur) {
		struct chunk *c = s->cur;

		s->cur = c->next;
		free(c);
	}
	free(s->q);
	free(s->rc);
	lupe_completer_delete(s->completer);
	lupe_machine_delete(s->machine);
	lupe_perf_file_close(s->file);
	free(s);
}

struct lupe_perf_file *lupe_session_file(struct lupe_session *s)
{
	return s->file;
}

const struct lupe_session_stats *lupe_session_stats(const struct lupe_session *s)
{
	return &s->stats;
}

/* ---- the resolve cache: (address space, ip) -> frame ---- */

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
	if (map->dso->identity)
		f->addr = ip;
	lupe_dso_load(map->dso);
	f->vaddr = lupe_dso_addr_to_vaddr(map->dso, f->addr);
	f->sym = lupe_dso_find_symbol(map->dso, f->vaddr);
}

void lupe_session_resolve_ip(struct lupe_session *s, struct lupe_thread *t, uint64_t ip,
			     int kernel, struct lupe_frame *f)
{
	struct lupe_maps *maps = kernel ? s->machine->kmaps : t ? t->maps : NULL;
	struct rcache_ent *e;
	size_t h;

	if (!maps) {
		resolve_uncached(NULL, ip, kernel, f);
		return;
	}
	if ((s->rc_nr + 1) * 2 > s->rc_cap && rc_grow(s)) {
		resolve_uncached(lupe_maps_find(maps, ip), ip, kernel, f);
		return;
	}
	for (h = hash_key(maps, ip, maps->gen) & (s->rc_cap - 1); (e = &s->rc[h])->maps;
	     h = (h + 1) & (s->rc_cap - 1)) {
		if (e->maps == maps && e->ip == ip && e->gen == maps->gen) {
			*f = e->f;
			return;
		}
	}
	resolve_uncached(lupe_maps_find(maps, ip), ip, kernel, f);
	e->maps = maps;
	e->ip = ip;
	e->gen = maps->gen;
	e->f = *f;
	s->rc_nr++;
}

/* ---- callchain completion (lib/unwind/complete.c): unwound user part, inlined frames ---- */

static struct lupe_completer *completer(struct lupe_session *s)
{
	if (!s->completer)
		s->completer = lupe_completer_new();
	return s->completer;
}

void lupe_session_set_inline(struct lupe_session *s, int on)
{
	if (completer(s))
		lupe_completer_set_inline(s->completer, on);
}

int lupe_session_callchain(struct lupe_session *s, struct lupe_thread *t,
			   const struct lupe_sample *sample, const uint64_t **ips, uint64_t *nr)
{
	*ips = sample->callchain;
	*nr = sample->nr_callchain;
	return completer(s) ? lupe_completer_chain(s->completer, t, sample, ips, nr) : 0;
}

int lupe_session_srcline(struct lupe_session *s, const struct lupe_frame *f, const char **file,
			 unsigned *line)
{
	return completer(s) ? lupe_completer_srcline(s->completer, f, file, line) : -ENOMEM;
}

int lupe_session_srcline_text(struct lupe_session *s, const struct lupe_frame *f, char *buf,
			      size_t size)
{
	return completer(s) ? lupe_completer_srcline_text(s->completer, f, buf, size) : -ENOMEM;
}

int lupe_session_resolve(struct lupe_session *s, struct lupe_thread *t,
			 const struct lupe_sample *sample, uint8_t cpumode,
			 struct lupe_frame *frames, int max)
{
	int n = 0, kernel = 0, unwound = 0;
	const uint64_t *chain;
	uint64_t nr;

	lupe_session_callchain(s, t, sample, &chain, &nr);
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
		lupe_session_resolve_ip(s, t, ip, kernel, &frames[n]);
		n += unwound && s->completer ? lupe_completer_inlines(s->completer, frames, n, max) : 1;
	}
	return n;
}

/* ---- delivery ---- */

static int deliver(struct lupe_session *s, struct lupe_tool *tool,
		   const struct perf_event_header *ev)
{
	struct lupe_evsel *evsel;
	struct lupe_sample sample;
	int err;

	switch (ev->type) {
	case PERF_RECORD_SAMPLE: {
		struct lupe_thread *t;

		evsel = lupe_perf_file_record_evsel(s->file, ev);
		if (!evsel || lupe_sample_parse(&evsel->attr, ev, &sample)) {
			s->stats.nr_bad_samples++;
			return 0;
		}
		s->stats.nr_samples++;
		evsel->nr_samples++;
		evsel->total_period += sample.period;
		t = lupe_machine_findnew_thread(s->machine, (int)sample.pid, (int)sample.tid);
		if (!t)
			return -ENOMEM;
		return tool->sample ? tool->sample(tool, s, evsel, &sample, t, ev) : 0;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		err = lupe_machine_process(s->machine, ev);
		if (err == -LUPE_ERR_CORRUPT) {
			pr_debug("skipping a malformed record of type %u\n", ev->type);
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
			evsel = lupe_perf_file_record_evsel(s->file, ev);
			if (evsel)
				evsel->lost_samples += l->lost;
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
	evsel = lupe_perf_file_record_evsel(s->file, ev);
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

/* A chunk holds one reference per queued record, plus one while it is current. */
static void chunk_release(struct lupe_session *s, struct chunk *c)
{
	struct chunk **pp;

	if (!c || --c->live)
		return;
	for (pp = &s->cur; *pp && *pp != c; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = c->next;
	free(c);
}

static const struct perf_event_header *copy_record(struct lupe_session *s,
						   const struct perf_event_header *ev,
						   struct chunk **out)
{
	struct chunk *c = s->cur;
	size_t need = ((size_t)ev->size + 7) & ~(size_t)7;
	void *p;

	if (!c || c->size - c->used < need) {
		size_t size = 1u << 20; /* records are at most 64 KiB */

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->used = 0;
		c->size = size;
		c->live = 1;
		c->next = s->cur;
		s->cur = c;
		chunk_release(s, c->next);
	}
	p = c->data + c->used;
	memcpy(p, ev, ev->size);
	c->used += need;
	c->live++;
	*out = c;
	return p;
}

static int cmp_qev(const void *a, const void *b)
{
	const struct qev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Let the pages of records no longer queued leave memory. */
static void release_read(struct lupe_session *s)
{
	const void *low = NULL;

	for (size_t i = 0; i < s->nq; i++)
		if (!s->q[i].chunk && (!low || (const void *)s->q[i].ev < low))
			low = s->q[i].ev;
	lupe_perf_file_release(s->file, low);
}

static int flush_upto(struct lupe_session *s, struct lupe_tool *tool, uint64_t limit)
{
	size_t i, n = s->nq;
	int sorted = 1, err = 0;

	for (i = 1; i < n && sorted; i++)
		sorted = cmp_qev(&s->q[i - 1], &s->q[i]) <= 0;
	if (!sorted)
		qsort(s->q, n, sizeof(*s->q), cmp_qev);
	for (i = 0; i < n && s->q[i].time <= limit; i++) {
		if (!err && !s->stop) {
			err = deliver(s, tool, s->q[i].ev);
			if (err > 0) {
				s->stop = 1;
				err = 0;
			}
		}
		chunk_release(s, s->q[i].chunk);
	}
	if (i)
		s->last_flush = s->q[i - 1].time;
	if (n > i)
		memmove(s->q, s->q + i, (n - i) * sizeof(*s->q));
	s->nq = n - i;
	release_read(s);
	return err;
}

static int queue(struct lupe_session *s, const struct perf_event_header *ev, int stable,
		 uint64_t time)
{
	struct chunk *c = NULL;

	if (s->nq == s->capq) {
		size_t cap = s->capq ? s->capq * 2 : 65536;
		struct qev *q = realloc(s->q, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		s->q = q;
		s->capq = cap;
	}
	if (!stable && !(ev = copy_record(s, ev, &c)))
		return -ENOMEM;
	if (time < s->last_flush)
		s->stats.nr_unordered++;
	if (time > s->max_time)
		s->max_time = time;
	s->q[s->nq++] = (struct qev){ time, s->seq++, ev, c };
	return 0;
}

int lupe_session_process(struct lupe_session *s, struct lupe_tool *tool)
{
	const struct perf_event_header *ev;
	uint64_t off;
	int stable, ret, err = 0;

	while (!s->stop && (ret = lupe_perf_file_next(s->file, &ev, &off, &stable)) > 0) {
		uint64_t time;

		s->stats.nr_records++;
		if (tool->ordered && ev->type == PERF_RECORD_FINISHED_ROUND) {
			err = flush_upto(s, tool, s->next_flush);
			s->next_flush = s->max_time;
		} else if (tool->ordered && (time = record_time(s, ev)) != (uint64_t)-1) {
			err = queue(s, ev, stable, time);
		} else {
			err = deliver(s, tool, ev);
			if (err > 0) {
				s->stop = 1;
				err = 0;
			}
		}
		if (err)
			return err;
	}
	err = flush_upto(s, tool, (uint64_t)-1);
	if (ret < 0)
		return ret;
	return err;
}
