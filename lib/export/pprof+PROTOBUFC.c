// SPDX-License-Identifier: GPL-2.0
/*
 * pprof's profile.proto from the model, packed by protobuf-c and gzipped
 * by zlib, as `go tool pprof`, Parca and Pyroscope read it. A location and
 * a function per model function (pprof then aggregates as report does), a
 * mapping per DSO with its build-id, and a sample per (stack, thread,
 * event) with [samples, period] values for each event.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "profile.pb-c.h"
#include "export/profile.h"
#include "util/phash.h"
#include "util/util.h"

struct strtab {
	char **v;
	size_t nr, cap;
	struct phash hash; /* of indexes into v */
	const char *key;
};

static int str_eq(const void *arg, uint32_t idx)
{
	const struct strtab *t = arg;

	return !strcmp(t->v[idx], t->key);
}

/* The string's index in the table; -1 when out of memory. */
static int64_t str_index(struct strtab *t, const char *s)
{
	uint64_t hash = lupe_phash_str(s);
	void **slot;

	t->key = s;
	if (!(slot = lupe_ihash_find(&t->hash, hash, str_eq, t)))
		return -1;
	if (*slot)
		return lupe_ihash_idx(slot);
	if (lupe_grow(&t->v, &t->cap, t->nr + 1, sizeof(*t->v)) || !(t->v[t->nr] = strdup(s)))
		return -1;
	lupe_ihash_fill(&t->hash, slot, hash, (uint32_t)t->nr++);
	return (int64_t)t->nr - 1;
}

/* gzip buf to out. */
static int gzip_write(const uint8_t *buf, size_t len, FILE *out)
{
	z_stream z = { 0 };
	uint8_t chunk[1 << 16];
	int ret;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		ret = deflate(&z, Z_FINISH);
		if (ret == Z_STREAM_ERROR)
			break;
		if (fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out) != sizeof(chunk) - z.avail_out) {
			ret = Z_ERRNO;
			break;
		}
	} while (ret != Z_STREAM_END);
	deflateEnd(&z);
	return ret == Z_STREAM_END ? 0 : -EIO;
}

struct pprof {
	struct strtab st;
	Lupe__Pprof__ValueType *types, period_type;
	Lupe__Pprof__ValueType **type_ptrs;
	Lupe__Pprof__Mapping *maps, **map_ptrs;
	Lupe__Pprof__Location *locs, **loc_ptrs;
	Lupe__Pprof__Line *lines, **line_ptrs;
	Lupe__Pprof__Function *funcs, **func_ptrs;
	Lupe__Pprof__Sample *samples, **sample_ptrs;
	Lupe__Pprof__Label *labels, **label_ptrs;
	uint64_t *loc_ids, *map_id;
	int64_t *values;
};

static void pprof_free(struct pprof *pp)
{
	for (size_t i = 0; i < pp->st.nr; i++)
		free(pp->st.v[i]);
	free(pp->st.v);
	lupe_phash_free(&pp->st.hash);
	free(pp->types);
	free(pp->type_ptrs);
	free(pp->maps);
	free(pp->map_ptrs);
	free(pp->locs);
	free(pp->loc_ptrs);
	free(pp->lines);
	free(pp->line_ptrs);
	free(pp->funcs);
	free(pp->func_ptrs);
	free(pp->samples);
	free(pp->sample_ptrs);
	free(pp->labels);
	free(pp->label_ptrs);
	free(pp->loc_ids);
	free(pp->map_id);
	free(pp->values);
}

#define ALLOC(x, n) ((x) = calloc((n) + 1, sizeof(*(x))))

static int fill(const struct lupe_profile *p, struct pprof *pp, Lupe__Pprof__Profile *prof)
{
	size_t nt = 2 * p->nr_events, nloc = 0;
	struct strtab *st = &pp->st;
	int64_t s_samples, s_count, s_ns, s_comm, s_pid, s_tid;

	if (str_index(st, "") < 0 || (s_samples = str_index(st, "samples")) < 0 ||
	    (s_count = str_index(st, "count")) < 0 || (s_ns = str_index(st, "nanoseconds")) < 0 ||
	    (s_comm = str_index(st, "comm")) < 0 || (s_pid = str_index(st, "pid")) < 0 ||
	    (s_tid = str_index(st, "tid")) < 0)
		return -ENOMEM;
	if (!ALLOC(pp->types, nt) || !ALLOC(pp->type_ptrs, nt))
		return -ENOMEM;
	for (size_t e = 0; e < p->nr_events; e++) {
		const struct lupe_prof_event *ev = &p->events[e];
		char *buf = NULL;
		int64_t name = str_index(st, ev->name), sname = s_samples;

		if (p->nr_events > 1) {
			if (asprintf(&buf, "%s_samples", ev->name) < 0)
				buf = NULL;
			sname = buf ? str_index(st, buf) : -1; /* (the table keeps a copy) */
			free(buf);
		}
		if (name < 0 || sname < 0)
			return -ENOMEM;
		for (int k = 0; k < 2; k++) {
			Lupe__Pprof__ValueType *t = &pp->types[2 * e + k];

			lupe__pprof__value_type__init(t);
			t->type = k ? name : sname;
			t->unit = k ? (ev->time_based ? s_ns : s_count) : s_count;
			pp->type_ptrs[2 * e + k] = t;
		}
	}
	prof->n_sample_type = nt;
	prof->sample_type = pp->type_ptrs;
	if (p->nr_events) {
		size_t e = p->first_event != LUPE_PROF_NONE ? p->first_event : 0;

		pp->period_type = pp->types[2 * e + 1];
		prof->period_type = &pp->period_type;
		prof->default_sample_type = pp->types[2 * e + 1].type;
	}
	if (p->last_time > p->first_time)
		prof->duration_nanos = (int64_t)(p->last_time - p->first_time);

	if (!ALLOC(pp->maps, p->nr_dsos) || !ALLOC(pp->map_ptrs, p->nr_dsos) ||
	    !ALLOC(pp->map_id, p->nr_dsos))
		return -ENOMEM;
	/*
	 * pprof takes the first mapping for the main binary: the DSO named
	 * like the first thread's comm, when there is one.
	 */
	for (size_t i = 0; i < p->nr_dsos; i++)
		pp->map_id[i] = i + 1;
	for (size_t i = 0; p->nr_threads && i < p->nr_dsos; i++) {
		const char *comm = p->threads[0].comm;

		if (!p->dsos[i].kernel && !strncmp(p->dsos[i].short_name, comm, strlen(comm))) {
			for (size_t k = 0; k < i; k++)
				pp->map_id[k]++;
			pp->map_id[i] = 1;
			break;
		}
	}
	for (size_t i = 0; i < p->nr_dsos; i++) {
		const struct lupe_prof_dso *d = &p->dsos[i];
		Lupe__Pprof__Mapping *m = &pp->maps[pp->map_id[i] - 1];
		char hex[41];

		lupe__pprof__mapping__init(m);
		m->id = pp->map_id[i];
		m->memory_start = d->start;
		m->memory_limit = d->limit;
		m->file_offset = d->pgoff;
		m->has_functions = 1;
		for (int b = 0; b < d->build_id_size; b++)
			snprintf(hex + 2 * b, 3, "%02x", d->build_id[b]);
		hex[2 * d->build_id_size] = 0;
		if ((m->filename = str_index(st, d->name)) < 0 || (m->build_id = str_index(st, hex)) < 0)
			return -ENOMEM;
		pp->map_ptrs[pp->map_id[i] - 1] = m;
	}
	prof->n_mapping = p->nr_dsos;
	prof->mapping = pp->map_ptrs;

	if (!ALLOC(pp->locs, p->nr_funcs) || !ALLOC(pp->loc_ptrs, p->nr_funcs) ||
	    !ALLOC(pp->lines, p->nr_funcs) || !ALLOC(pp->line_ptrs, p->nr_funcs) ||
	    !ALLOC(pp->funcs, p->nr_funcs) || !ALLOC(pp->func_ptrs, p->nr_funcs))
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_funcs; i++) {
		const struct lupe_prof_func *f = &p->funcs[i];
		Lupe__Pprof__Function *fn = &pp->funcs[i];
		Lupe__Pprof__Location *l = &pp->locs[i];
		Lupe__Pprof__Line *ln = &pp->lines[i];
		char buf[64];

		lupe__pprof__function__init(fn);
		fn->id = i + 1;
		if ((fn->name = str_index(st, lupe_prof_func_name(p, (uint32_t)i, buf, sizeof(buf)))) < 0 ||
		    (fn->filename = str_index(st, f->dso != LUPE_PROF_NONE ? p->dsos[f->dso].name : "")) < 0)
			return -ENOMEM;
		fn->system_name = fn->name;
		pp->func_ptrs[i] = fn;
		lupe__pprof__line__init(ln);
		ln->function_id = i + 1;
		pp->line_ptrs[i] = ln;
		lupe__pprof__location__init(l);
		l->id = i + 1;
		l->mapping_id = f->dso != LUPE_PROF_NONE ? pp->map_id[f->dso] : 0;
		l->address = f->ip;
		l->n_line = 1;
		l->line = &pp->line_ptrs[i];
		pp->loc_ptrs[i] = l;
	}
	prof->n_location = prof->n_function = p->nr_funcs;
	prof->location = pp->loc_ptrs;
	prof->function = pp->func_ptrs;

	for (size_t i = 0; i < p->nr_aggs; i++)
		for (uint32_t nd = p->aggs[i].node; nd != LUPE_PROF_NONE; nd = p->nodes[nd].parent)
			nloc++;
	if (!ALLOC(pp->samples, p->nr_aggs) || !ALLOC(pp->sample_ptrs, p->nr_aggs) ||
	    !ALLOC(pp->labels, 3 * p->nr_aggs) || !ALLOC(pp->label_ptrs, 3 * p->nr_aggs) ||
	    !ALLOC(pp->loc_ids, nloc) || !ALLOC(pp->values, nt * p->nr_aggs))
		return -ENOMEM;
	nloc = 0;
	for (size_t i = 0; i < p->nr_aggs; i++) {
		const struct lupe_prof_agg *a = &p->aggs[i];
		const struct lupe_prof_thread *t = &p->threads[a->thread];
		Lupe__Pprof__Sample *s = &pp->samples[i];
		Lupe__Pprof__Label *lb = &pp->labels[3 * i];

		lupe__pprof__sample__init(s);
		s->location_id = pp->loc_ids + nloc;
		for (uint32_t nd = a->node; nd != LUPE_PROF_NONE; nd = p->nodes[nd].parent)
			pp->loc_ids[nloc++] = p->nodes[nd].func + 1;
		s->n_location_id = (size_t)(pp->loc_ids + nloc - s->location_id);
		s->value = pp->values + nt * i;
		s->n_value = nt;
		s->value[2 * a->event] = (int64_t)a->count;
		s->value[2 * a->event + 1] = (int64_t)a->period;
		for (int k = 0; k < 3; k++) {
			lupe__pprof__label__init(&lb[k]);
			pp->label_ptrs[3 * i + k] = &lb[k];
		}
		lb[0].key = s_comm;
		if ((lb[0].str = str_index(st, t->comm)) < 0)
			return -ENOMEM;
		lb[1].key = s_pid;
		lb[1].num = t->pid;
		lb[2].key = s_tid;
		lb[2].num = t->tid;
		s->label = &pp->label_ptrs[3 * i];
		s->n_label = 3;
		pp->sample_ptrs[i] = s;
	}
	prof->n_sample = p->nr_aggs;
	prof->sample = pp->sample_ptrs;
	prof->n_string_table = st->nr;
	prof->string_table = st->v;
	return 0;
}

int lupe_profile_write_pprof(const struct lupe_profile *p, FILE *out)
{
	Lupe__Pprof__Profile prof;
	struct pprof pp;
	uint8_t *buf = NULL;
	size_t len;
	int err;

	memset(&pp, 0, sizeof(pp));
	lupe__pprof__profile__init(&prof);
	err = fill(p, &pp, &prof);
	if (!err) {
		len = lupe__pprof__profile__get_packed_size(&prof);
		buf = malloc(len + 1);
		if (!buf)
			err = -ENOMEM;
	}
	if (!err) {
		lupe__pprof__profile__pack(&prof, buf);
		err = gzip_write(buf, len, out);
	}
	free(buf);
	pprof_free(&pp);
	return err;
}
