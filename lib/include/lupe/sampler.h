/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling: events of a spec sampled into mmapped rings (one per CPU),
 * decoded and handed over one typed record at a time (lupe/rec.h), in time
 * order, with each sample's thread, DSO and symbol resolved. It is lupe
 * record's live source with a session behind it, without the file.
 *
 *   LUPE_OPTS(lupe_sampler_opts, o, .callchain = 1, .enable_on_exec = 1);
 *   s = lupe_sampler_new("task-clock", child_pid, -1, &o);
 *   (release the child)
 *   lupe_sampler_read(s, on_record, arg);    until the child exits
 *   lupe_sampler_delete(s);
 *
 * Thread-safety: a sampler is read by one thread; lupe_sampler_stop() may be
 * called from any thread or from the callback.
 */
#ifndef LUPE_SAMPLER_H
#define LUPE_SAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <lupe/core.h>
#include <lupe/rec.h>

struct lupe_sampler_opts {
	size_t sz;               /* sizeof(struct lupe_sampler_opts) */
	unsigned int freq;       /* samples per second; 0: 4000 (a tracepoint: every hit) */
	uint64_t period;         /* events per sample; wins over freq when set */
	int callchain;           /* record frame-pointer callchains */
	unsigned int mmap_pages; /* data pages per ring (a power of two); 0: 128 */
	int enable_on_exec;      /* pid is a child held before exec: start at its exec */
};

struct lupe_sampler;

/*
 * Open the events of spec sampling pid (0: the calling thread; -1: every
 * task, which needs perf_event_paranoid <= 0) on cpu (-1: every online CPU,
 * children of pid followed), map the rings and start unless
 * opts->enable_on_exec (opts may be NULL). Returns NULL with errno set and
 * lupe_last_error() saying what to do.
 */
LUPE_API struct lupe_sampler *lupe_sampler_new(const char *spec, pid_t pid, int cpu,
					       const struct lupe_sampler_opts *opts);

/*
 * Hand every record to fn until every sampled task has exited,
 * lupe_sampler_stop() was called, or fn returns non-zero (that value is
 * returned). Returns 0 at the end or a negative errno.
 */
LUPE_API int lupe_sampler_read(struct lupe_sampler *s, lupe_rec_fn fn, void *arg);

/* Stop sampling: a read in progress drains what the rings hold and returns. */
LUPE_API void lupe_sampler_stop(struct lupe_sampler *s);

/* Close it; NULL is ok. */
LUPE_API void lupe_sampler_delete(struct lupe_sampler *s);

#endif
