/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine model: threads by tid, the maps of each process (shared by
 * its threads, as perf shares them), the kernel's maps and the DSOs, each
 * created once by path.
 */
#ifndef LUPE_SESSION_MACHINE_H
#define LUPE_SESSION_MACHINE_H

#include <lupe/session.h>
#include "symbols/symbols.h"
#include "util/phash.h"

struct lupe_maps {
	int refcnt;
	int threads;          /* of the references, the threads' */
	uint32_t gen;         /* bumped on every change: keys the resolve cache */
	uint32_t execs;       /* execs seen in this process: its address space began anew each time */
	uint8_t exited;       /* its process's main thread exited (PERF_RECORD_EXIT): caches may let go */
	struct lupe_map **v;  /* sorted by start, not overlapping */
	size_t nr, cap;
	struct machine *machine; /* whose DSOs the maps hold */
};

struct machine {
	struct phash threads; /* by tid */
	struct lupe_maps *kmaps;
	struct phash dsos;    /* by long_name */
	uint32_t next_gen;
	int drop_exited;      /* records come in time order: an exited process's maps may go */
	struct exited_maps {  /* the maps of exited processes, in EXIT order, waiting to go */
		struct lupe_maps *maps; /* a reference */
		uint64_t time;          /* of the EXIT */
	} *exits;
	size_t nr_exits, cap_exits;
	unsigned next_dso_seq;
	uint8_t kernel_id[20]; /* the recorded kernel's build-id (the file's header), if known */
	int kernel_id_size;
	struct machine_cgroup { uint64_t id; char *name; } *cgroups; /* CGROUP records, in order */
	size_t nr_cgroups;
};

struct machine *lupe_machine_new(void);
void lupe_machine_delete(struct machine *m);
struct lupe_thread *lupe_machine_findnew_thread(struct machine *m, int pid, int tid);
struct lupe_dso *lupe_machine_findnew_dso(struct machine *m, const char *name);

/* Take COMM, MMAP, MMAP2, FORK and EXIT records into the model. */
int lupe_machine_process(struct machine *m, const struct perf_event_header *ev);

/* The path of cgroup id from the CGROUP records: "N/A" for 0, "unknown" for one not seen (perf's). */
const char *lupe_machine_cgroup(const struct machine *m, uint64_t id);

/*
 * A reference on maps, for a cache keyed by them that may outlive their
 * threads (the unwinder's address spaces): while held, the pointer names
 * these maps and no others. Put it before the machine is deleted.
 */
void lupe_maps_get(struct lupe_maps *maps);
void lupe_maps_put(struct lupe_maps *maps);

/* The map of maps that covers ip, or NULL. Its DSO is pinned: kept while the machine lives. */
struct lupe_map *lupe_maps_find(const struct lupe_maps *maps, uint64_t ip);

#endif
