/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session reads a perf.data, keeps the machine model (threads, comms,
 * maps, DSOs) up to date in time order, and hands each sample to a tool
 * with its thread; lupe_session_resolve() turns a sample's ip or callchain
 * into frames (map, DSO, symbol) with a per-session cache.
 */
#ifndef LUPE_SESSION_H
#define LUPE_SESSION_H

#include <stdint.h>
#include <lupe/core.h>
#include <lupe/perfdata.h>
#include <lupe/sample.h>

struct lupe_symbol {
	uint64_t start, end; /* in the DSO's address space (its ELF vaddrs) */
	const char *name;
};

/*
 * An inlined function shown as a frame of its own: its name ends in
 * " (inlined)" and it spans the ELF symbol it was inlined into. perf
 * matches such symbols by name (callchains) or by name and overlap
 * (report entries), not by address.
 */
static inline int lupe_symbol_inlined(const struct lupe_symbol *sym)
{
	static const char sfx[] = " (inlined)";
	size_t len = sym && sym->name ? __builtin_strlen(sym->name) : 0;

	return len >= sizeof(sfx) - 1 && !__builtin_memcmp(sym->name + len - (sizeof(sfx) - 1), sfx, sizeof(sfx) - 1);
}

struct lupe_dso {
	char *long_name;        /* path, "[kernel.kallsyms]", "[vdso]", "/tmp/perf-N.map" */
	const char *short_name; /* its last component, as the Shared Object column shows it */
	int kernel;
	uint8_t build_id[20];
	int build_id_size;
	/* private below */
	int loaded;
	struct lupe_symbol *syms;
	size_t nr_syms;
	char *strtab;
	uint64_t *load_off, *load_vaddr, *load_size; /* PT_LOAD: file offset -> vaddr */
	int nr_loads;
	int identity;           /* addresses are absolute (kernel, perf-PID.map) */
	unsigned seq;           /* order of creation: orders equal callchain branches as perf */
	struct lupe_dso *next;
};

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
	const char *src_file;        /* with inlined frames: the frame's source line, */
	unsigned src_line;           /* else NULL (lupe_session_srcline() finds it) */
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

struct lupe_tool {
	/* A sample, in time order. Return non-zero to stop reading. */
	int (*sample)(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		      const struct lupe_sample *sample, struct lupe_thread *thread,
		      const struct perf_event_header *ev);
	/* Any other record after the machine model took it (may be NULL). */
	int (*other)(struct lupe_tool *tool, struct lupe_session *s,
		     const struct perf_event_header *ev);
	int ordered; /* deliver in time order between FINISHED_ROUNDs, as perf does */
};

/* Open path ("-": stdin) into a session. NULL + errno; the reason was logged. */
LUPE_API struct lupe_session *lupe_session_new(const char *path, int force);
LUPE_API void lupe_session_delete(struct lupe_session *s);
LUPE_API struct lupe_perf_file *lupe_session_file(struct lupe_session *s);

/*
 * Read every record and feed tool. Returns 0, or a negative error for a
 * broken file after delivering what was valid before it
 * (lupe_perf_file_error() says where).
 */
LUPE_API int lupe_session_process(struct lupe_session *s, struct lupe_tool *tool);

/*
 * Resolve the sample's callchain (completed as lupe_session_callchain()
 * does; or its ip when it has none) into up to max frames, innermost
 * first; unwound user frames become the functions inlined there
 * (innermost first, as perf shows them) unless lupe_session_set_inline(s, 0). Returns the number of frames. The frames
 * point into the session and stay valid until it is deleted.
 */
LUPE_API int lupe_session_resolve(struct lupe_session *s, struct lupe_thread *t,
				  const struct lupe_sample *sample, uint8_t cpumode,
				  struct lupe_frame *frames, int max);

/*
 * The sample's whole callchain: with a user register set and stack copy
 * (--call-graph dwarf), its recorded (kernel) entries,
 * LUPE_CONTEXT_USER_UNWOUND and the unwound user addresses; else its own. *ips points into the
 * session (valid until the next call) or into the sample. Returns 1 when
 * the chain was completed by unwinding, else 0.
 */
LUPE_API int lupe_session_callchain(struct lupe_session *s, struct lupe_thread *t,
				    const struct lupe_sample *sample, const uint64_t **ips,
				    uint64_t *nr);

/* Show inlined functions as frames of their own in resolved chains (on by default; --no-inline). */
LUPE_API void lupe_session_set_inline(struct lupe_session *s, int on);

/* The source file and line of a resolved user frame: 0, or -ENOENT. *file lives as long as s. */
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
};
LUPE_API const struct lupe_session_stats *lupe_session_stats(const struct lupe_session *s);

#endif
