/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One typed record, what the sampler (lupe/sampler.h) and the perf.data
 * reader (lupe/reader.h) hand to their callback: a sample with its thread,
 * DSO and symbol resolved, or a side-band record (comm, mmap2, fork, exit,
 * lost) decoded. Everything it points to is valid only during the callback.
 */
#ifndef LUPE_REC_H
#define LUPE_REC_H

#include <stdint.h>
#include <linux/perf_event.h>
#include <lupe/core.h>
#include <lupe/sample.h>

struct lupe_evsel;

struct lupe_rec {
	uint32_t type;  /* PERF_RECORD_SAMPLE, _COMM, _MMAP, _MMAP2, _FORK, _EXIT, _LOST,
			 * _LOST_SAMPLES decode below; any other type comes with raw only */
	uint16_t misc;  /* the header's misc: cpumode, PERF_RECORD_MISC_COMM_EXEC... */
	const struct perf_event_header *raw; /* the record as the kernel wrote it */
	uint32_t pid, tid;
	uint64_t time;  /* ns (perf_clock); 0 when the event does not record it */
	uint32_t cpu;   /* when recorded; else 0 */

	/* PERF_RECORD_SAMPLE */
	struct lupe_evsel *evsel;         /* its event (lupe_evsel_name()) */
	const char *event;                /* the event's name */
	const struct lupe_sample *sample; /* every field the event recorded, callchain included */
	uint64_t ip, period;
	const char *comm;   /* the thread's command (also set for PERF_RECORD_COMM) */
	const char *dso;    /* the ip's DSO, as long name ("/usr/lib/libc.so.6"); NULL: no map */
	const char *sym;    /* the ip's symbol; NULL: unresolved */
	uint64_t sym_off;   /* ip's offset into sym */
	int kernel;         /* the ip is in the kernel */

	union {
		struct {
			uint64_t start, len, pgoff;
			uint32_t prot, flags;   /* MMAP2 only */
			const char *filename;
		} mmap;                         /* MMAP and MMAP2 */
		struct {
			uint32_t ppid, ptid;
		} fork;                         /* FORK and EXIT */
		struct {
			uint64_t id, lost;      /* LOST_SAMPLES: lost only */
		} lost;                         /* LOST and LOST_SAMPLES */
	};
};

/* The callback: return 0 to go on, non-zero to stop the read (it returns that value). */
typedef int (*lupe_rec_fn)(const struct lupe_rec *rec, void *arg);

/* One resolved frame of a sample's callchain. */
struct lupe_rec_frame {
	uint64_t ip;
	const char *dso;  /* NULL: no map */
	const char *sym;  /* NULL: unresolved */
	uint64_t sym_off;
	int kernel;
};

/*
 * A sample's callchain (its ip alone when it has none) resolved into up to
 * max frames, innermost first; only during the callback. Returns the number
 * of frames, or -EINVAL for a record that is not a sample.
 */
LUPE_API int lupe_rec_callchain(const struct lupe_rec *rec, struct lupe_rec_frame *frames,
				int max);

#endif
