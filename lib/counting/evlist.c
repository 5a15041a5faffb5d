// SPDX-License-Identifier: GPL-2.0
/*
 * Counting evlist: every event opened on every CPU x thread of the target,
 * groups through the leader's fd and read in one go (PERF_FORMAT_GROUP), so
 * that the members' values belong to the same moment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <lupe/evlist.h>
#include "counting/evsel.h"
#include "sampling/sample.h"
#include "counting/close.h"
#include "util/util.h"

/* Values of the group read format: nr, enabled, running, then {value, id} each. */
struct group_read {
	uint64_t nr, ena, run;
	struct {
		uint64_t value, id;
	} v[];
};

struct lupe_evlist *lupe_evlist_new_empty(void)
{
	struct lupe_evlist *evlist = calloc(1, sizeof(*evlist));

	return evlist ? evlist : err_ptr(-ENOMEM);
}

struct lupe_evsel *lupe_evlist_add(struct lupe_evlist *evlist, const struct perf_event_attr *attr,
				   const char *name)
{
	struct lupe_evsel **v = realloc(evlist->evsels, (evlist->nr + 1) * sizeof(*v));
	struct lupe_evsel *evsel;

	if (!v)
		return err_ptr(-ENOMEM);
	evlist->evsels = v;
	evsel = calloc(1, sizeof(*evsel));
	if (!evsel)
		return err_ptr(-ENOMEM);
	if (name && !(evsel->name = strdup(name))) {
		free(evsel);
		return err_ptr(-ENOMEM);
	}
	evsel->attr = *attr;
	evsel->idx = evlist->nr;
	evsel->leader = evsel->idx;
	evsel->group_size = 1;
	evsel->supported = 1;
	evsel->evlist = evlist;
	v[evlist->nr++] = evsel;
	evlist->ids_dirty = 1;
	return evsel;
}

struct lupe_evsel *lupe_evlist_add_event(struct lupe_evlist *evlist, const struct lupe_event *ev)
{
	struct lupe_evsel *evsel = lupe_evlist_add(evlist, &ev->attr, ev->name ? ev->name : "");

	if (!evsel)
		return NULL;
	evsel->tool = ev->tool;
	if ((ev->filter && !(evsel->filter = strdup(ev->filter))) ||
	    (ev->config_terms && !(evsel->config_terms = strdup(ev->config_terms))))
		return err_ptr(-ENOMEM); /* the list owns evsel and frees it */
	return evsel;
}

struct lupe_evlist *lupe_evlist_new(const struct lupe_event_list *events)
{
	struct lupe_evlist *evlist = lupe_evlist_new_empty();

	if (!evlist)
		return NULL;
	for (size_t i = 0; i < events->nr; i++) {
		const struct lupe_event *ev = &events->events[i];
		struct lupe_evsel *evsel = lupe_evlist_add_event(evlist, ev);

		if (!evsel) {
			lupe_evlist_delete(evlist);
			return err_ptr(-ENOMEM);
		}
		evsel->leader = ev->leader;
		evsel->group_size = ev->group_size > 0 ? ev->group_size : 1;
	}
	return evlist;
}

static void evsel_free_fds(struct lupe_evsel *evsel)
{
	free(evsel->fds);
	free(evsel->counts);
	evsel->fds = NULL;
	evsel->counts = NULL;
}

void lupe_evlist_delete(struct lupe_evlist *evlist)
{
	if (!evlist)
		return;
	lupe_evlist_close(evlist);
	for (int i = 0; i < evlist->nr; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];

		evsel_free_fds(evsel);
		free(evsel->name);
		free(evsel->filter);
		free(evsel->config_terms);
		if (evsel->cgroup)
			close(evsel->cgroup_fd);
		free(evsel->cgroup);
		free(evsel->ids);
		free(evsel);
	}
	free(evlist->evsels);
	free(evlist->id_table);
	lupe_evlist_aggr_map_free(evlist);
	lupe_cpu_map_put(evlist->cpus);
	lupe_thread_map_put(evlist->threads);
	free(evlist);
}

int lupe_evsel_add_id(struct lupe_evsel *evsel, uint64_t id)
{
	uint64_t *n = realloc(evsel->ids, (evsel->nr_ids + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	evsel->ids = n;
	n[evsel->nr_ids++] = id;
	if (evsel->evlist)
		evsel->evlist->ids_dirty = 1;
	return 0;
}

int lupe_evsel_set_ids(struct lupe_evsel *evsel, const uint64_t *ids, size_t nr)
{
	if (evsel->evlist)
		evsel->evlist->ids_dirty = 1;
	free(evsel->ids);
	evsel->ids = NULL;
	evsel->nr_ids = 0;
	if (!nr)
		return 0;
	evsel->ids = malloc(nr * sizeof(*ids));
	if (!evsel->ids)
		return -ENOMEM;
	memcpy(evsel->ids, ids, nr * sizeof(*ids));
	evsel->nr_ids = nr;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct lupe_id_entry *)a)->id, y = ((const struct lupe_id_entry *)b)->id;

	return x < y ? -1 : x > y;
}

/*
 * One sorted table of every event's ids, and where records carry the id:
 * perf needs every event to carry it at the same place (its evlist id_pos),
 * so the first event's sample_type says.
 */
static void index_ids(struct lupe_evlist *evlist)
{
	size_t n = 0;
	uint64_t t;

	evlist->ids_dirty = 0;
	evlist->nr_id_table = 0;
	for (int i = 0; i < evlist->nr; i++)
		n += evlist->evsels[i]->nr_ids;
	free(evlist->id_table);
	evlist->id_table = malloc((n ? n : 1) * sizeof(*evlist->id_table));
	if (!evlist->id_table) {
		evlist->ids_dirty = 1;
		return;
	}
	for (int i = 0; i < evlist->nr; i++)
		for (size_t j = 0; j < evlist->evsels[i]->nr_ids; j++)
			evlist->id_table[evlist->nr_id_table++] =
				(struct lupe_id_entry){ evlist->evsels[i]->ids[j], evlist->evsels[i] };
	qsort(evlist->id_table, evlist->nr_id_table, sizeof(*evlist->id_table), cmp_id);
	if (!evlist->nr)
		return;
	t = evlist->evsels[0]->attr.sample_type;
	evlist->id_pos_sample = lupe_sample_id_pos(t, 1);
	evlist->id_pos_other = evlist->evsels[0]->attr.sample_id_all ? lupe_sample_id_pos(t, 0) : 0;
}

struct lupe_evsel *lupe_evlist_evsel_by_id(struct lupe_evlist *evlist, uint64_t id)
{
	struct lupe_id_entry key = { id, NULL }, *found;

	if (evlist->nr <= 1)
		return evlist->nr ? evlist->evsels[0] : NULL;
	if (evlist->ids_dirty)
		index_ids(evlist);
	if (!evlist->id_table)
		return NULL;
	found = bsearch(&key, evlist->id_table, evlist->nr_id_table, sizeof(key), cmp_id);
	return found ? found->evsel : NULL;
}

struct lupe_evsel *lupe_evlist_record_evsel(struct lupe_evlist *evlist,
					    const struct perf_event_header *ev)
{
	int pos;
	uint64_t id;

	if (evlist->nr <= 1)
		return evlist->nr ? evlist->evsels[0] : NULL;
	if (evlist->ids_dirty)
		index_ids(evlist);
	pos = ev->type == PERF_RECORD_SAMPLE ? evlist->id_pos_sample : evlist->id_pos_other;
	if (!pos)
		return evlist->evsels[0];
	if (pos > 0 ? (size_t)pos + 8 > ev->size : (size_t)-pos + 8 > ev->size)
		return NULL;
	memcpy(&id, (const char *)ev + (pos > 0 ? pos : (int)(ev->size & ~7u) + pos), 8);
	return lupe_evlist_evsel_by_id(evlist, id);
}

int lupe_evlist_nr(const struct lupe_evlist *evlist)
{
	return evlist->nr;
}

struct lupe_evsel *lupe_evlist_evsel(struct lupe_evlist *evlist, int idx)
{
	return evlist->evsels[idx];
}

bool lupe_evlist_has_prefix(const struct lupe_evlist *evlist, const char *prefix)
{
	for (int i = 0; evlist && i < evlist->nr; i++)
		if (evlist->evsels[i]->name &&
		    !strncmp(evlist->evsels[i]->name, prefix, strlen(prefix)))
			return true;
	return false;
}

struct lupe_cpu_map *lupe_evlist_cpus(const struct lupe_evlist *evlist)
{
	return evlist->cpus;
}

struct lupe_thread_map *lupe_evlist_threads(const struct lupe_evlist *evlist)
{
	return evlist->threads;
}

static int is_leader(const struct lupe_evsel *evsel)
{
	return evsel->leader == evsel->idx;
}

static int in_group(const struct lupe_evsel *evsel)
{
	return evsel->evlist->evsels[evsel->leader]->group_size > 1;
}

static void evsel_close(struct lupe_evsel *evsel)
{
	int n = evsel->evlist->ncpus * evsel->evlist->nthreads;

	for (int i = 0; evsel->fds && i < n; i++) {
		if (evsel->fds[i] >= 0)
			close(evsel->fds[i]);
		evsel->fds[i] = -1;
	}
}

/* The attr as stat opens it: times for scaling, group reads on leaders. */
static void stat_attr(const struct lupe_evsel *evsel, const struct lupe_evlist_opts *opts,
		      struct perf_event_attr *attr)
{
	*attr = evsel->attr;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (in_group(evsel) && is_leader(evsel))
		attr->read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	attr->sample_period = 0;
	attr->sample_type = PERF_SAMPLE_IDENTIFIER;
	attr->inherit = opts->inherit;
	/* members follow their leader: only leaders start disabled */
	attr->disabled = is_leader(evsel);
	attr->enable_on_exec = is_leader(evsel) && opts->enable_on_exec;
}

/*
 * perf's fallbacks, in one place for every command: a kernel before 6.0
 * lacks PERF_FORMAT_LOST. lupe_perf_event_open() itself drops exclude_guest
 * for the PMUs that refuse it and, when perf_event_paranoid refuses kernel
 * counting to this user, retries for user space only. *attr keeps what
 * worked, so that later opens and the attrs written to perf.data agree.
 */
static int open_with_fallbacks(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags, int sampling)
{
	for (;;) {
		int fd = lupe_perf_event_open(attr, pid, cpu, group_fd, flags);

		if (fd >= 0 || !sampling)
			return fd;
		if (fd == -EINVAL && (attr->read_format & PERF_FORMAT_LOST)) {
			attr->read_format &= ~PERF_FORMAT_LOST;
			continue;
		}
		return fd;
	}
}

/*
 * The open helper fell back to user space (perf_event_paranoid): the event
 * is now name:u, as perf renames it, and its later opens ask for that.
 */
static void user_space_only(struct lupe_evsel *evsel)
{
	char *n = lupe_evsel_name_user_only(evsel->name);

	evsel->attr.exclude_kernel = evsel->attr.exclude_hv = 1;
	if (n) {
		free(evsel->name);
		evsel->name = n;
	}
}

static int evsel_open(struct lupe_evsel *evsel, const struct lupe_evlist_opts *opts,
		      struct lupe_open_failure *fail)
{
	struct lupe_evlist *evlist = evsel->evlist;
	struct lupe_evsel *leader = evlist->evsels[evsel->leader];
	struct perf_event_attr stat, *attr = &evsel->attr;
	/* opts: the zero-extended copy; an evsel's own cgroup (-G) stands for every thread */
	unsigned long flags = opts->cgroup || evsel->cgroup ? PERF_FLAG_PID_CGROUP : 0;

	if (!opts->sampling) {
		stat_attr(evsel, opts, &stat);
		attr = &stat;
	}
	for (int c = 0; c < evlist->ncpus; c++) {
		for (int t = 0; t < evlist->nthreads; t++) {
			int slot = c * evlist->nthreads + t;
			int cpu = lupe_cpu_map_cpu(evlist->cpus, c);
			pid_t pid = evsel->cgroup ? evsel->cgroup_fd : lupe_thread_map_pid(evlist->threads, t);
			int group_fd = -1, fd, kernel_asked;

			/* NEEDSWORK: sampled groups ({a,b}) open ungrouped, as record always did */
			if (!is_leader(evsel) && !opts->sampling) {
				group_fd = leader->fds[slot];
				if (group_fd < 0) /* the leader is not counted here */
					continue;
			}
			kernel_asked = !attr->exclude_kernel;
			fd = open_with_fallbacks(attr, pid, cpu, group_fd, flags, opts->sampling);
			if (fd >= 0 && evsel->filter) {
				int err = lupe_event_fd_set_filter(fd, evsel->filter);

				if (err) {
					close(fd);
					fd = err;
				}
			}
			if (fd >= 0) {
				evsel->fds[slot] = fd;
				if (kernel_asked && attr->exclude_kernel)
					user_space_only(evsel);
				continue;
			}
			pr_debug("perf_event_open '%s' cpu %d pid %d: %s", evsel->name, cpu,
				 (int)pid, strerror(-fd));
			/* a thread of several (-p, --per-thread -a) that exited meanwhile is not an error */
			if (fd == -ESRCH && evlist->nthreads > 1)
				continue;
			/* a leader that takes members with it cannot be skipped; nor can a sampled event */
			if (!opts->sampling && lupe_open_verdict(fd) == LUPE_OPEN_UNSUPPORTED &&
			    !(is_leader(evsel) && evsel->group_size > 1)) {
				evsel->supported = 0;
				evsel_close(evsel);
				return 0;
			}
			if (fail) {
				fail->err = fd;
				fail->evsel = evsel->idx;
				fail->cpu = cpu;
				fail->pid = pid;
			}
			return fd;
		}
	}
	return 0;
}

int lupe_evlist_open(struct lupe_evlist *evlist, struct lupe_cpu_map *cpus,
		     struct lupe_thread_map *threads, const struct lupe_evlist_opts *user_opts,
		     struct lupe_open_failure *fail)
{
	struct lupe_evlist_opts opts;
	int n;

	if (!user_opts || lupe_opts_load(&opts, user_opts))
		return -EINVAL;
	lupe_evlist_close(evlist);
	if (cpus != evlist->cpus) {
		lupe_evlist_aggr_map_free(evlist);
		lupe_cpu_map_put(evlist->cpus);
		evlist->cpus = lupe_cpu_map_get(cpus);
	}
	if (threads != evlist->threads) {
		lupe_thread_map_put(evlist->threads);
		evlist->threads = lupe_thread_map_get(threads);
	}
	evlist->ncpus = lupe_cpu_map_nr(cpus);
	evlist->nthreads = lupe_thread_map_nr(threads);
	n = evlist->ncpus * evlist->nthreads;
	for (int i = 0; i < evlist->nr; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];
		int err;

		evsel_free_fds(evsel);
		evsel->fds = malloc(n * sizeof(*evsel->fds));
		evsel->counts = calloc(n, sizeof(*evsel->counts));
		if (!evsel->fds || !evsel->counts) {
			lupe_evlist_close(evlist);
			return -ENOMEM;
		}
		memset(evsel->fds, -1, n * sizeof(*evsel->fds));
		if (evsel->tool || !evsel->supported)
			continue;
		err = evsel_open(evsel, &opts, fail);
		if (err) {
			lupe_evlist_close(evlist);
			return err;
		}
	}
	return 0;
}

static int evlist_ioctl(struct lupe_evlist *evlist, unsigned long req)
{
	int err = 0;

	for (int i = 0; i < evlist->nr; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];

		/* members follow their leader */
		if (!is_leader(evsel) || !evsel->fds)
			continue;
		/* PERF_IOC_FLAG_GROUP: the members too (a reset must clear them) */
		for (int s = 0; s < evlist->ncpus * evlist->nthreads; s++)
			if (evsel->fds[s] >= 0 &&
			    ioctl(evsel->fds[s], req, in_group(evsel) ? PERF_IOC_FLAG_GROUP : 0) < 0)
				err = -errno;
	}
	return err;
}

int lupe_evlist_enable(struct lupe_evlist *evlist)
{
	return evlist_ioctl(evlist, PERF_EVENT_IOC_ENABLE);
}

int lupe_evlist_disable(struct lupe_evlist *evlist)
{
	return evlist_ioctl(evlist, PERF_EVENT_IOC_DISABLE);
}

int lupe_evlist_reset(struct lupe_evlist *evlist)
{
	return evlist_ioctl(evlist, PERF_EVENT_IOC_RESET);
}

/* One leader's group read, handed out to itself and the members open with it. */
static int read_group(struct lupe_evsel *leader, int slot)
{
	struct lupe_evlist *evlist = leader->evlist;
	uint64_t buf[3 + 2 * 64];
	struct group_read *g = (struct group_read *)buf;
	size_t want = sizeof(uint64_t) * (3 + 2 * leader->group_size);
	ssize_t n;
	uint64_t k = 0;

	if (want > sizeof(buf))
		return -E2BIG;
	n = read(leader->fds[slot], buf, want);
	if (n < 0)
		return -errno;
	/*
	 * A member the machine lacks leaves the group short. perf then fails
	 * the whole group's read and prints <not counted> for the rest; do
	 * the same, so that the output means what perf's means.
	 */
	if (g->nr != (uint64_t)leader->group_size)
		return 0;
	for (int i = leader->idx; i < evlist->nr && k < g->nr; i++) {
		struct lupe_evsel *m = evlist->evsels[i];

		if (m->leader != leader->idx)
			continue;
		if (m->fds[slot] < 0)
			continue;
		m->counts[slot].val = g->v[k++].value;
		m->counts[slot].ena = g->ena;
		m->counts[slot].run = g->run;
	}
	return 0;
}

static int read_one(struct lupe_evsel *evsel, int slot)
{
	uint64_t v[3];

	ssize_t n = read(evsel->fds[slot], v, sizeof(v));

	if (n < 0)
		return -errno;
	if (n != sizeof(v))
		return -EIO;
	evsel->counts[slot].val = v[0];
	evsel->counts[slot].ena = v[1];
	evsel->counts[slot].run = v[2];
	return 0;
}

int lupe_evlist_read(struct lupe_evlist *evlist)
{
	int n = evlist->ncpus * evlist->nthreads;

	for (int i = 0; i < evlist->nr; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];

		if (!evsel->counts)
			continue;
		if (evsel->tool) {
			uint64_t v = evlist->tool_ns[evsel->tool];

			evsel->counts[0] = (struct lupe_counts){ v, v, v };
			continue;
		}
		if (in_group(evsel) && !is_leader(evsel))
			continue; /* read with its leader */
		for (int s = 0; s < n; s++) {
			int err;

			if (evsel->fds[s] < 0)
				continue;
			err = in_group(evsel) ? read_group(evsel, s) : read_one(evsel, s);
			if (err)
				return err;
		}
	}
	return 0;
}

void lupe_evlist_set_tool_times(struct lupe_evlist *evlist, uint64_t duration_ns,
				uint64_t user_ns, uint64_t system_ns)
{
	evlist->tool_ns[LUPE_TOOL_DURATION_TIME] = duration_ns;
	evlist->tool_ns[LUPE_TOOL_USER_TIME] = user_ns;
	evlist->tool_ns[LUPE_TOOL_SYSTEM_TIME] = system_ns;
}

/* The fds whose close waits in the kernel go to lupe_close_slow_fds() together. */
static void evlist_close_slow(struct lupe_evlist *evlist)
{
	int n = evlist->ncpus * evlist->nthreads, nr = 0, *slow;

	for (int i = 0; i < evlist->nr; i++)
		if (evlist->evsels[i]->fds && lupe_close_is_slow(&evlist->evsels[i]->attr))
			nr += n;
	if (!nr || !(slow = malloc(nr * sizeof(*slow))))
		return; /* out of memory: evsel_close() closes them one by one */
	nr = 0;
	for (int i = 0; i < evlist->nr; i++) {
		struct lupe_evsel *evsel = evlist->evsels[i];

		if (!evsel->fds || !lupe_close_is_slow(&evsel->attr))
			continue;
		for (int s = 0; s < n; s++) {
			if (evsel->fds[s] >= 0)
				slow[nr++] = evsel->fds[s];
			evsel->fds[s] = -1;
		}
	}
	lupe_close_slow_fds(slow, nr);
	free(slow);
}

void lupe_evlist_close(struct lupe_evlist *evlist)
{
	evlist_close_slow(evlist);
	for (int i = 0; i < evlist->nr; i++)
		evsel_close(evlist->evsels[i]);
}

const char *lupe_evsel_name(const struct lupe_evsel *evsel)
{
	return evsel->name;
}

const struct perf_event_attr *lupe_evsel_attr(const struct lupe_evsel *evsel)
{
	return &evsel->attr;
}

int lupe_evsel_idx(const struct lupe_evsel *evsel)
{
	return evsel->idx;
}

const uint64_t *lupe_evsel_ids(const struct lupe_evsel *evsel, size_t *nr)
{
	*nr = evsel->nr_ids;
	return evsel->ids;
}

const struct lupe_evsel_stats *lupe_evsel_stats(const struct lupe_evsel *evsel)
{
	return &evsel->stats;
}

int lupe_evsel_fd(const struct lupe_evsel *evsel, int cpu_idx, int thread_idx)
{
	const struct lupe_evlist *evlist = evsel->evlist;

	if (!evsel->fds || cpu_idx >= evlist->ncpus || thread_idx >= evlist->nthreads)
		return -1;
	return evsel->fds[cpu_idx * evlist->nthreads + thread_idx];
}

enum lupe_tool_event lupe_evsel_tool(const struct lupe_evsel *evsel)
{
	return evsel->tool;
}

int lupe_evsel_supported(const struct lupe_evsel *evsel)
{
	return evsel->supported;
}

struct lupe_counts lupe_evsel_counts(const struct lupe_evsel *evsel, int cpu_idx, int thread_idx)
{
	struct lupe_counts zero = { 0, 0, 0 };
	const struct lupe_evlist *evlist = evsel->evlist;

	if (!evsel->counts)
		return zero;
	if (evsel->tool)
		return cpu_idx == 0 && thread_idx == 0 ? evsel->counts[0] : zero;
	if (cpu_idx >= evlist->ncpus || thread_idx >= evlist->nthreads)
		return zero;
	return evsel->counts[cpu_idx * evlist->nthreads + thread_idx];
}

int lupe_evlist_aggr_nr(const struct lupe_evlist *evlist, enum lupe_aggr mode)
{
	switch (mode) {
	case LUPE_AGGR_CPU:
		return evlist->ncpus;
	case LUPE_AGGR_THREAD:
		return evlist->nthreads;
	case LUPE_AGGR_GLOBAL:
		break;
	default:
		return lupe_evlist_aggr_topo_nr(evlist, mode);
	}
	return 1;
}

struct lupe_counts lupe_evsel_aggr_counts(const struct lupe_evsel *evsel, enum lupe_aggr mode,
					  int idx)
{
	const struct lupe_evlist *evlist = evsel->evlist;
	struct lupe_counts sum = { 0, 0, 0 };

	if (!evsel->counts)
		return sum;
	if (evsel->tool)
		return idx == 0 ? evsel->counts[0] : sum;
	for (int c = 0; c < evlist->ncpus; c++) {
		if (mode == LUPE_AGGR_CPU && c != idx)
			continue;
		if (mode >= LUPE_AGGR_CORE && lupe_evlist_aggr_of_cpu(evlist, mode, c) != idx)
			continue;
		for (int t = 0; t < evlist->nthreads; t++) {
			if (mode == LUPE_AGGR_THREAD && t != idx)
				continue;
			lupe_counts_add(&sum, &evsel->counts[c * evlist->nthreads + t]);
		}
	}
	return sum;
}
