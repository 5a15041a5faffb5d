/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's raw dump (`perf report -D`, `perf script -D`): each record's file
 * offset, size and type, its bytes, its decoded fields; then, for report,
 * the tables of record counts. One printer for both commands; the text of
 * a side-band record after "PERF_RECORD_X" is also what `script
 * --show-*-events` prints.
 */
#ifndef LUPE_UI_DUMP_H
#define LUPE_UI_DUMP_H

#include <lupe/perf-format.h>
#include <lupe/session.h>
#include "obuf.h"

/* Record types perf knows (83 in perf 6.1). */
#define DUMP_NR_TYPES PERF_RECORD_HEADER_MAX

struct dump {
	struct obuf *out;
	const char *path;  /* as perf names the input: the -i path, "pipe" for a stream */
	int pipe;
	int script;        /* script's handlers (THREAD_MAP, CPU_MAP taken), else report's */
	uint64_t nr_events[DUMP_NR_TYPES]; /* [0]: all */
};

void dump_init(struct dump *d, struct lupe_session *s, const char *path, struct obuf *out,
	       int script);

/* A lupe_tool's record callback's work: the record's header, bytes and fields. */
int dump_record(struct dump *d, struct lupe_session *s, const struct perf_event_header *ev,
		uint64_t offset, struct lupe_evsel *evsel, const struct lupe_sample *sample);

/* A sample's thread and the DSO of its ip (perf prints them as it resolves the sample). */
void dump_sample_thread(struct dump *d, struct lupe_session *s, const struct lupe_sample *sample,
			struct lupe_thread *t, uint8_t cpumode);

/* report -D's end: the counts of each record type, then of each event's samples. */
void dump_stats(struct dump *d, struct lupe_session *s);

/*
 * The text perf prints after "PERF_RECORD_NAME" for a side-band record
 * (COMM, FORK, EXIT, MMAP, MMAP2, SWITCH, NAMESPACES, LOST...), with its
 * newline; returns 0, or -1 for a type it has no text for.
 */
int dump_event_text(struct obuf *o, const struct perf_event_header *ev);

/* perf's name of an x86-64 sample register (perf_reg_name()). */
const char *dump_reg_name(unsigned id);

/* perf's name of a record type ("MMAP", "SAMPLE"; "UNKNOWN"). */
const char *dump_event_name(unsigned type);

/*
 * report -D: the whole dump of the session's input to out; with stats_only
 * (report --stats) only the tables of record counts. 0 or a negative error.
 */
int dump_session(struct lupe_session *s, const char *path, FILE *out, int stats_only);

#endif
