// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a file of counts (lupe/statfile.h), perf's or lupe's: the
 * file's events get the CPU and thread maps of its CPU_MAP and THREAD_MAP
 * records and the values of its STAT records, in the slots a counting
 * evlist keeps them, so that stat's display takes them as it takes a live
 * read. The record layouts are in stat-file.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/perfdata.h>
#include <lupe/statfile.h>
#include "counting/evsel.h"
#include "data/format.h"
#include "util/util.h"

struct lupe_stat_reader {
	struct lupe_perf_file *f;
	struct lupe_evlist *evlist;  /* the file's; NULL until both maps came */
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads;
	char (*comms)[17];           /* THREAD_MAP's, NUL-terminated */
	enum lupe_aggr aggr;
	uint64_t interval;
	char *cmdline;
};

struct lupe_stat_reader *lupe_stat_reader_open(const char *path)
{
	struct lupe_stat_reader *r = calloc(1, sizeof(*r));
	const unsigned char *p;
	size_t size;

	if (!r)
		return err_ptr(-ENOMEM);
	r->aggr = LUPE_AGGR_GLOBAL;
	r->f = lupe_perf_file_open(path, 0);
	if (!r->f) {
		int err = -errno;

		free(r);
		return err_ptr(err);
	}
	/* CMDLINE: u32 nr, then nr strings (u32 len, bytes padded) */
	p = lupe_perf_file_feature(r->f, HEADER_CMDLINE, &size);
	if (p && size >= 4) {
		uint32_t nr, len;
		size_t at = 4, out = 0;

		memcpy(&nr, p, 4);
		r->cmdline = calloc(size + 1, 1);
		for (uint32_t i = 0; r->cmdline && i < nr && at + 4 <= size; i++) {
			memcpy(&len, p + at, 4);
			at += 4;
			if (len > size - at)
				break;
			out += snprintf(r->cmdline + out, size + 1 - out, "%s%.*s", i ? " " : "",
					(int)len, (const char *)p + at);
			at += len;
		}
	}
	return r;
}

void lupe_stat_reader_delete(struct lupe_stat_reader *r)
{
	if (!r)
		return;
	lupe_perf_file_delete(r->f);
	lupe_cpu_map_put(r->cpus);
	lupe_thread_map_put(r->threads);
	free(r->comms);
	free(r->cmdline);
	free(r);
}

const char *lupe_stat_reader_comm(const struct lupe_stat_reader *r, int idx)
{
	return r->comms && idx >= 0 && idx < lupe_thread_map_nr(r->threads) ? r->comms[idx] : "";
}

struct lupe_evlist *lupe_stat_reader_evlist(struct lupe_stat_reader *r)
{
	return r->evlist;
}

enum lupe_aggr lupe_stat_reader_aggr(const struct lupe_stat_reader *r)
{
	return r->aggr;
}

uint64_t lupe_stat_reader_interval(const struct lupe_stat_reader *r)
{
	return r->interval;
}

const char *lupe_stat_reader_cmdline(const struct lupe_stat_reader *r)
{
	return lupe_perf_file_is_pipe(r->f) ? NULL : r->cmdline;
}

static int bad(const char *what)
{
	return lupe_set_error(-LUPE_ERR_CORRUPT, "the %s record of the counts is broken", what);
}

static int thread_map(struct lupe_stat_reader *r, const struct perf_event_header *ev)
{
	const char *p = (const char *)(ev + 1);
	size_t room = ev->size - sizeof(*ev);
	uint64_t nr;
	pid_t *pids;

	if (room < 8)
		return bad("THREAD_MAP");
	memcpy(&nr, p, 8);
	if (!nr || nr > (room - 8) / 24)
		return bad("THREAD_MAP");
	pids = calloc(nr, sizeof(*pids));
	free(r->comms);
	r->comms = calloc(nr, sizeof(*r->comms));
	if (!pids || !r->comms) {
		free(pids);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t pid;

		memcpy(&pid, p + 8 + i * 24, 8);
		pids[i] = (pid_t)(int64_t)pid;
		memcpy(r->comms[i], p + 16 + i * 24, 16);
	}
	lupe_thread_map_put(r->threads);
	r->threads = lupe_thread_map_new_list(pids, nr);
	free(pids);
	return r->threads ? 0 : -ENOMEM;
}

static int cpu_map(struct lupe_stat_reader *r, const struct perf_event_header *ev)
{
	const unsigned char *p = (const unsigned char *)(ev + 1);
	size_t room = ev->size - sizeof(*ev);
	uint16_t type, nr = 0, u16;
	int *cpus = NULL, n = 0;

	if (room < 4)
		return bad("CPU_MAP");
	memcpy(&type, p, 2);
	if (type == 0) { /* a list: u16 nr, u16 cpu[nr] */
		memcpy(&nr, p + 2, 2);
		if (!nr || 4 + 2 * (size_t)nr > room)
			return bad("CPU_MAP");
		cpus = calloc(nr, sizeof(*cpus));
		for (int i = 0; cpus && i < nr; i++) {
			memcpy(&u16, p + 4 + 2 * i, 2);
			cpus[n++] = u16 == 0xffff ? -1 : u16;
		}
	} else if (type == 1) { /* a mask: u16 nr (longs), u16 long_size, the bits */
		uint16_t long_size;

		if (room < 6)
			return bad("CPU_MAP");
		memcpy(&nr, p + 2, 2);
		memcpy(&long_size, p + 4, 2);
		if ((long_size != 4 && long_size != 8) || 8 + (size_t)nr * long_size > room)
			return bad("CPU_MAP");
		cpus = calloc((size_t)nr * long_size * 8 + 1, sizeof(*cpus));
		for (int bit = 0; cpus && bit < nr * long_size * 8; bit++)
			if (p[8 + bit / 8] & (1u << (bit % 8))) /* little-endian longs */
				cpus[n++] = bit;
	} else if (type == 2) { /* a range: u8 any_cpu, u8 pad, u16 start, u16 end */
		uint16_t start, end;

		if (room < 8)
			return bad("CPU_MAP");
		memcpy(&start, p + 4, 2);
		memcpy(&end, p + 6, 2);
		if (end < start)
			return bad("CPU_MAP");
		cpus = calloc(end - start + 2, sizeof(*cpus));
		if (cpus && p[2])
			cpus[n++] = -1;
		for (int c = start; cpus && c <= end; c++)
			cpus[n++] = c;
	} else {
		return bad("CPU_MAP");
	}
	if (!cpus)
		return -ENOMEM;
	lupe_cpu_map_put(r->cpus);
	r->cpus = n ? lupe_cpu_map_new_cpus(cpus, n) : NULL;
	free(cpus);
	return r->cpus ? 0 : bad("CPU_MAP");
}

static void stat_config(struct lupe_stat_reader *r, const struct perf_event_header *ev)
{
	const char *p = (const char *)(ev + 1);
	size_t room = ev->size - sizeof(*ev);
	uint64_t nr, tag, val;

	if (room < 8)
		return;
	memcpy(&nr, p, 8);
	for (uint64_t i = 0; i < nr && 8 + 16 * (i + 1) <= room; i++) {
		memcpy(&tag, p + 8 + 16 * i, 8);
		memcpy(&val, p + 16 + 16 * i, 8);
		if (tag == 0) {
			static const enum lupe_aggr modes[] = {
				LUPE_AGGR_CPU, LUPE_AGGR_GLOBAL, LUPE_AGGR_SOCKET, LUPE_AGGR_DIE,
				LUPE_AGGR_CORE, LUPE_AGGR_THREAD, LUPE_AGGR_GLOBAL, LUPE_AGGR_NODE,
			};
			r->aggr = val < sizeof(modes) / sizeof(*modes) ? modes[val] : LUPE_AGGR_GLOBAL;
		} else if (tag == 1) {
			r->interval = val;
		}
	}
}

/* Both maps known: the file's events get them and zeroed counts, as a counting open leaves them. */
static int set_maps(struct lupe_stat_reader *r)
{
	struct lupe_evlist *evlist = lupe_perf_file_evlist(r->f);
	int n;

	if (r->evlist || !r->cpus || !r->threads || !evlist)
		return 0;
	lupe_cpu_map_put(evlist->cpus);
	lupe_thread_map_put(evlist->threads);
	lupe_evlist_aggr_map_free(evlist);
	evlist->cpus = lupe_cpu_map_get(r->cpus);
	evlist->threads = lupe_thread_map_get(r->threads);
	evlist->ncpus = lupe_cpu_map_nr(r->cpus);
	evlist->nthreads = lupe_thread_map_nr(r->threads);
	n = evlist->ncpus * evlist->nthreads;
	for (int i = 0; i < evlist->nr; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];

		free(evsel->counts);
		evsel->counts = calloc(n + 1, sizeof(*evsel->counts));
		if (!evsel->counts)
			return -ENOMEM;
		/* perf records no count for an event the machine lacked */
		evsel->supported = evsel->nr_ids > 0;
	}
	r->evlist = evlist;
	return 0;
}

static int stat_value(struct lupe_stat_reader *r, const struct perf_event_header *ev)
{
	struct {
		uint64_t id;
		uint32_t cpu, thread;
		uint64_t val, ena, run;
	} s;
	struct lupe_evsel *evsel;
	int c;

	if (ev->size < sizeof(*ev) + sizeof(s))
		return bad("STAT");
	if (!r->evlist)
		return lupe_set_error(-LUPE_ERR_CORRUPT, "a STAT record comes before the CPU and thread maps");
	memcpy(&s, ev + 1, sizeof(s));
	evsel = lupe_perf_file_evsel_by_id(r->f, s.id);
	if (!evsel || s.thread >= (uint32_t)r->evlist->nthreads)
		return 0; /* an id the file does not name: perf skips it too */
	/* the CPU itself, or (older perf) its index */
	for (c = 0; c < r->evlist->ncpus; c++)
		if (lupe_cpu_map_cpu(r->evlist->cpus, c) == (int)s.cpu)
			break;
	if (c == r->evlist->ncpus) {
		if (s.cpu >= (uint32_t)r->evlist->ncpus)
			return 0;
		c = s.cpu;
	}
	evsel->counts[c * r->evlist->nthreads + s.thread] =
		(struct lupe_counts){ s.val, s.ena, s.run };
	return 0;
}

static int event_update(struct lupe_stat_reader *r, const struct perf_event_header *ev)
{
	const char *p = (const char *)(ev + 1);
	size_t room = ev->size - sizeof(*ev);
	uint64_t type, id;
	struct lupe_evsel *evsel;
	char *name;

	if (room < 16)
		return bad("EVENT_UPDATE");
	memcpy(&type, p, 8);
	memcpy(&id, p + 8, 8);
	if (type != PERF_EVENT_UPDATE__NAME) /* unit and scale: stat works them out from the attr, as for a live count */
		return 0;
	evsel = lupe_perf_file_evsel_by_id(r->f, id);
	if (!evsel)
		return 0;
	name = strndup(p + 16, room - 16);
	if (!name)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = name;
	return 0;
}

int lupe_stat_reader_read(struct lupe_stat_reader *r, lupe_stat_round_fn fn, void *arg)
{
	const struct perf_event_header *ev;
	uint64_t off;
	int stable, ret;

	while ((ret = lupe_perf_file_next(r->f, &ev, &off, &stable)) > 0) {
		switch (ev->type) {
		case PERF_RECORD_THREAD_MAP:
			ret = thread_map(r, ev);
			break;
		case PERF_RECORD_CPU_MAP:
			ret = cpu_map(r, ev);
			break;
		case PERF_RECORD_STAT_CONFIG:
			stat_config(r, ev);
			ret = 0;
			break;
		case PERF_RECORD_EVENT_UPDATE:
			ret = event_update(r, ev);
			break;
		case PERF_RECORD_STAT:
			ret = stat_value(r, ev);
			break;
		case PERF_RECORD_STAT_ROUND: {
			uint64_t v[2];

			if (ev->size < sizeof(*ev) + sizeof(v))
				return bad("STAT_ROUND");
			memcpy(v, ev + 1, sizeof(v));
			ret = r->evlist && fn ? fn(arg, v[0] == 1, v[1]) : 0;
			break;
		}
		default:
			ret = 0;
			break;
		}
		if (ret)
			return ret;
		if (!r->evlist && (ret = set_maps(r)))
			return ret;
	}
	if (ret < 0)
		return lupe_set_error(ret, "%s", lupe_perf_file_error(r->f));
	return 0;
}
