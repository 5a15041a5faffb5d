/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session takes the records of a source (lupe/source.h: a perf.data file
 * or pipe, live rings), keeps the machine model (threads, comms, maps,
 * DSOs) up to date in time order, completes each sample's callchain and
 * hands each sample to a tool with its thread; lupe_session_resolve()
 * turns a sample's ip or callchain into frames (map, DSO, symbol) with a
 * per-session cache.
 *
 *   s = lupe_session_new_empty();                  no source yet
 *   lupe_session_read(s, src, &tool);            any source, to its end
 * or, for a file in one call:
 *   s = lupe_session_open(path, force);
 *   lupe_session_process(s, &tool);
 *
 * Thread-safety: a session, its threads, maps, DSOs and resolve cache are
 * used by one thread at a time; distinct sessions are independent.
 */
#ifndef LUPE_SESSION_H
#define LUPE_SESSION_H

#include <stdint.h>
#include <lupe/core.h>
#include <lupe/perfdata.h>
#include <lupe/sample.h>
#include <lupe/symbols.h>

struct lupe_map {
	uint64_t start, end, pgoff;
	struct lupe_dso *dso;
};

struct lupe_thread {
	int pid, tid;
	char *comm;
	int comm_set;
	struct lupe_maps *maps;
	void *priv; /* for the tool */
	/*
	 * perf's comm__override: the first comm a thread is given (a COMM, or
	 * its parent's at FORK) renames its ":TID" placeholder in place, and
	 * report shows that name for the samples taken before. comm_epoch
	 * counts the thread's placeholders (a reused tid starts a new one);
	 * comm_renamed is what the current one became, or NULL.
	 */
	uint32_t comm_epoch;
	char *comm_renamed;
};

/* One resolved address of a sample or of its callchain. */
struct lupe_frame {
	uint64_t ip;                 /* as recorded */
	uint64_t addr;               /* in the map's DSO (file offset), what perf prints in chains */
	uint64_t vaddr;              /* in the DSO's symbol space: sym->start <= vaddr < sym->end */
	const struct lupe_map *map;  /* NULL: no map covers ip */
	const struct lupe_symbol *sym; /* NULL: unresolved */
	uint8_t kernel;              /* kernel (or hypervisor) address space */
	uint8_t inlined;             /* sym is an inlined function's ("NAME (inlined)") */
	uint8_t inline_depth;        /* of the frames made of one address, innermost 0 (lupe_session_srcline()) */
};

/*
 * In a completed callchain, the context marker before the unwound user
 * part (PERF_CONTEXT_USER's meaning, and: these frames came from DWARF
 * unwinding, so they get their inlined functions, as perf 6.1 gives them
 * only there). Not a value the kernel writes.
 */
#define LUPE_CONTEXT_USER_UNWOUND ((uint64_t)-1024)

/* Entries in a completed callchain at most: perf's 127 unwound frames and a kernel chain. */
#define LUPE_SESSION_MAX_CHAIN 512

struct lupe_session;

/*
 * The generation of the thread's address space: it changes whenever a map
 * is added or removed, so (maps, generation) names one layout.
 */
LUPE_API uint32_t lupe_thread_maps_gen(const struct lupe_thread *t);

struct lupe_tool {
	/* A sample, in time order. Return non-zero to stop reading. */
	int (*sample)(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		      const struct lupe_sample *sample, struct lupe_thread *thread,
		      const struct perf_event_header *ev);
	/* Any other record after the machine model took it (may be NULL). */
	int (*other)(struct lupe_tool *tool, struct lupe_session *s,
		     const struct perf_event_header *ev);
	/*
	 * Every record as it is delivered, before the machine model and the
	 * callbacks above see it (may be NULL; perf's -D dump): FINISHED_ROUND
	 * before its round is flushed, user records (>= 64) as they come.
	 * offset: where the record sits in the file (a record inflated from a
	 * COMPRESSED one: that record's offset; 0 for live sources). evsel and
	 * sample: a sample's event and fields as recorded (its callchain not
	 * completed yet), or another record's event and sample_id fields;
	 * NULL when the record has none.
	 */
	int (*record)(struct lupe_tool *tool, struct lupe_session *s,
		      const struct perf_event_header *ev, uint64_t offset,
		      struct lupe_evsel *evsel, const struct lupe_sample *sample);
	int ordered; /* deliver in time order between FINISHED_ROUNDs, as perf does */
};

/* A session with no source: feed it with lupe_session_read(). NULL + errno. */
LUPE_API struct lupe_session *lupe_session_new_empty(void);

/*
 * Convenience: a session that owns the file source of path ("-": stdin).
 * NULL + errno; the reason was logged.
 */
LUPE_API struct lupe_session *lupe_session_open(const char *path, int force);
LUPE_API void lupe_session_delete(struct lupe_session *s);

/* The perf.data behind the source being read, or NULL (a live source). */
LUPE_API struct lupe_perf_file *lupe_session_file(struct lupe_session *s);
/* The events of the source being read (NULL before the first read). */
struct lupe_evlist;
LUPE_API struct lupe_evlist *lupe_session_evlist(struct lupe_session *s);

/*
 * Read every record of src (the caller keeps it) and feed tool, in time
 * order if tool->ordered (by rounds; live sources also by a time window).
 * Returns 0, or a negative error after delivering what was valid before
 * it (for a file, lupe_perf_file_error() says where).
 */
struct lupe_source;
LUPE_API int lupe_session_read(struct lupe_session *s, struct lupe_source *src,
			       struct lupe_tool *tool);

/* lupe_session_read() of the file lupe_session_open() opened. */
LUPE_API int lupe_session_process(struct lupe_session *s, struct lupe_tool *tool);

/*
 * A user-stack unwinder (lib/unwind's lupe_unwind_install(), for
 * --call-graph dwarf): write up to max user-space ips of the sample's
 * stack, innermost first, into ips. Returns how many (0: nothing could be
 * unwound), or a negative error; either way the sample keeps its kernel
 * part. release(arg), when not NULL, runs when the unwinder is replaced or
 * the session is deleted.
 */
typedef int (*lupe_unwind_fn)(void *arg, struct lupe_session *s, struct lupe_thread *t,
			      const struct lupe_sample *sample, uint64_t *ips, int max);
LUPE_API void lupe_session_set_unwinder(struct lupe_session *s, lupe_unwind_fn fn, void *arg,
					void (*release)(void *arg));

/*
 * The callchain step, run on every sample before the tool sees it: the
 * kernel and user parts the kernel recorded stay; a sample with user
 * registers and stack gets, with an unwinder installed, its recorded
 * (kernel) entries, LUPE_CONTEXT_USER_UNWOUND and the unwound user
 * addresses (sample->callchain then points into a session buffer, valid
 * until the next sample). Consumers of raw chains read
 * LUPE_CONTEXT_USER_UNWOUND as PERF_CONTEXT_USER. Returns 0 or -ENOMEM.
 */
LUPE_API int lupe_session_complete_callchain(struct lupe_session *s, struct lupe_thread *t,
					     struct lupe_sample *sample);

/*
 * Resolve the sample's (completed) callchain, or its ip when it has none,
 * into up to max frames, innermost first; unwound user frames (after
 * LUPE_CONTEXT_USER_UNWOUND) become the functions inlined there (innermost
 * first, as perf shows them) unless lupe_session_set_inline(s, 0).
 * Returns the number of frames. The frames
 * point into the session and stay valid until it is deleted.
 */
LUPE_API int lupe_session_resolve(struct lupe_session *s, struct lupe_thread *t,
				  const struct lupe_sample *sample, uint8_t cpumode,
				  struct lupe_frame *frames, int max);

/* Show inlined functions as frames of their own in resolved chains (on by default; --no-inline). */
LUPE_API void lupe_session_set_inline(struct lupe_session *s, int on);

/*
 * The source file and line of a resolved user frame (of an inlined
 * frame's, inline_depth > 0: the call site in it, as perf shows it),
 * looked up at the first ask: 0, or -ENOENT. *file lives as long as s.
 */
LUPE_API int lupe_session_srcline(struct lupe_session *s, const struct lupe_frame *f,
				  const char **file, unsigned *line);

/*
 * A frame's source line as perf prints it (script -F srcline, --sort
 * srcline): "file.c:LINE" (the file's last component), "??:0" when the
 * DSO does not say, "sym+OFFSET" (decimal) for the kernel. Returns what
 * snprintf() returns.
 */
LUPE_API int lupe_session_srcline_text(struct lupe_session *s, const struct lupe_frame *f,
				       char *buf, size_t size);

/*
 * The path of cgroup id (a sample's PERF_SAMPLE_CGROUP) from the file's
 * CGROUP records so far, as perf names it: "N/A" for 0, "unknown" for an
 * id never seen. Valid while the session lives.
 */
LUPE_API const char *lupe_session_cgroup_name(const struct lupe_session *s, uint64_t id);

/* The thread tid of process pid, made (comm ":TID") if unknown; NULL + errno. */
LUPE_API struct lupe_thread *lupe_session_thread(struct lupe_session *s, int pid, int tid);

/* Resolve one address in the given cpumode (PERF_RECORD_MISC_*). */
LUPE_API void lupe_session_resolve_ip(struct lupe_session *s, struct lupe_thread *t,
				      uint64_t ip, int kernel, struct lupe_frame *f);

/* Totals the session counted: samples per event, lost. */
struct lupe_session_stats {
	uint64_t nr_records;
	uint64_t nr_samples;
	uint64_t nr_lost_records, nr_lost;       /* PERF_RECORD_LOST */
	uint64_t nr_lost_samples;                /* PERF_RECORD_LOST_SAMPLES */
	uint64_t nr_unknown;                     /* records skipped by size */
	uint64_t nr_bad_samples;
	uint64_t nr_unordered;
	uint64_t nr_unwind_errors;               /* samples the unwinder could not unwind */
};
LUPE_API const struct lupe_session_stats *lupe_session_stats(const struct lupe_session *s);

#endif
