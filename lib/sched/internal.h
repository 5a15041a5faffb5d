/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/sched's reader: a perf.data's sched tracepoint samples decoded, and
 * perf's thread model of the sched command (a thread per tid, replaced by
 * a FORK, named by COMM records, its name inherited at fork only from a
 * named parent, tid 0 "swapper").
 */
#ifndef LUPE_SCHED_INTERNAL_H
#define LUPE_SCHED_INTERNAL_H

#include <stdint.h>

enum sched_ev { SEV_SWITCH, SEV_RUNTIME, SEV_WAKEUP, SEV_WAKING, SEV_WAKEUP_NEW, SEV_MIGRATE,
		SEV_LOST /* a LOST record: lost events, at time on cpu */ };

struct sthread {
	int tid, pid;
	int comm_set;
	int comm_changed;           /* a COMM record since the consumer last looked */
	char comm[32];
	struct sthread *next_all;   /* every object, for freeing */
	void *priv;                 /* the consumer's */
};

struct sched_event {
	enum sched_ev kind;
	uint64_t time;
	int cpu;
	int pid, tid;               /* the sample's */
	int prev_pid, next_pid;     /* switch */
	int64_t prev_state;
	const char *prev_comm, *next_comm;
	int wpid;                   /* wakeup, runtime, migrate: the task */
	uint64_t runtime;           /* SEV_LOST: the events lost */
	int target_cpu;
};

struct sched_reader;

/* The consumer: called for each event in time order. */
typedef int (*sched_event_fn)(struct sched_reader *r, const struct sched_event *ev, void *arg);

struct sched_read_stats {
	unsigned long nr_events, nr_lost_events, nr_lost_chunks;
};

int lupe_sched_read(const char *path, int force, sched_event_fn fn, void *arg,
	       struct sched_read_stats *st, struct sched_reader **out);
/* The current thread object of tid (made, ":TID", if new). NULL on ENOMEM. */
struct sthread *lupe_sched_thread(struct sched_reader *r, int tid);
/*
 * perf's machine__findnew_thread(pid, tid): tid's object, its pid set
 * when it was unknown (-1) and pid is not; made with pid if new.
 */
struct sthread *lupe_sched_thread_pid(struct sched_reader *r, int pid, int tid);
/* The file's HEADER_NRCPUS online count (0 if absent), once read. */
int lupe_sched_nr_cpus_online(const struct sched_reader *r);
void lupe_sched_reader_free(struct sched_reader *r);

#endif
