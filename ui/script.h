/* SPDX-License-Identifier: GPL-2.0 */
/* `lupe script` output: perf script's line shapes, field by field. */
#ifndef LUPE_UI_SCRIPT_H
#define LUPE_UI_SCRIPT_H

#include <lupe/session.h>
#include "obuf.h"

enum script_field {
	SF_COMM = 1 << 0,
	SF_TID = 1 << 1,
	SF_PID = 1 << 2,
	SF_TIME = 1 << 3,
	SF_CPU = 1 << 4,
	SF_EVENT = 1 << 5,
	SF_IP = 1 << 6,
	SF_SYM = 1 << 7,
	SF_SYMOFF = 1 << 8,
	SF_DSO = 1 << 9,
	SF_PERIOD = 1 << 10,
	SF_TRACE = 1 << 11,
	SF_SRCLINE = 1 << 12,
	SF_IREGS = 1 << 13,
	SF_UREGS = 1 << 14,
	SF_ADDR = 1 << 15,
	SF_CGROUP = 1 << 16,
};

/* perf's output types: hw, sw, trace, hw_cache, raw, break, other PMUs, synth */
#define SCRIPT_NR_TYPES 8

struct script_frame_text;

struct script_printer {
	struct obuf *out;
	unsigned fields[SCRIPT_NR_TYPES];          /* what -F and the defaults ask for, per type */
	unsigned user_set_fields[SCRIPT_NR_TYPES]; /* asked for by a -F for all types: must be there */
	unsigned char user_set[SCRIPT_NR_TYPES];   /* -F named this type */
	unsigned char emptied[SCRIPT_NR_TYPES];    /* "-F type:" with no field: that type hidden */
	int nanosecs;                              /* --ns */
	int name_width;
	int max_stack;                             /* --max-stack: 0 perf's default (the sysctl), below 0 none */
	struct lupe_frame frames[512];
	uint64_t cut[LUPE_SESSION_MAX_CHAIN];      /* a chain --max-stack cut */
	struct script_frame_text *texts;           /* chain lines as printed, made on first use */
};

/* perf's defaults, before the first -F. */
void script_fields_default(struct script_printer *p);

/*
 * Apply one -F (perf's syntax: "[type:]f1,f2", or "[type:]+f1,-f2" to add
 * to or take from the defaults). Returns 0, or -1 with the sentence why in
 * *why (a static string).
 */
int script_parse_fields(struct script_printer *p, const char *spec, const char **why);

/*
 * Fit the fields to the events of the session, as perf does: a default
 * field the samples do not carry is dropped, one asked for is refused.
 * NULL, or the sentence why not in buf.
 */
const char *script_check_fields(struct script_printer *p, struct lupe_session *s, char *buf,
				size_t size);

/* Set up for the file's events (the event name column width). */
void script_printer_init(struct script_printer *p, struct lupe_session *s, struct obuf *out);

/* Free what printing made (the printer itself is the caller's). */
void script_printer_release(struct script_printer *p);

/*
 * A side-band record (COMM, MMAP, SWITCH...) as --show-*-events prints
 * it: the sample's leading columns, then "PERF_RECORD_X" and its text.
 * evsel/sample: the record's event and sample_id fields (NULL without).
 */
void script_print_event(struct script_printer *p, struct lupe_session *s,
			const struct perf_event_header *ev, struct lupe_evsel *evsel,
			const struct lupe_sample *sample);

/* Print one sample. */
void script_print_sample(struct script_printer *p, struct lupe_session *s,
			 struct lupe_evsel *evsel, const struct lupe_sample *sample,
			 struct lupe_thread *thread, uint8_t cpumode);

#endif
