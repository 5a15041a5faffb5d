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
};

struct script_printer {
	struct obuf *out;
	unsigned user_fields; /* from -F; 0: perf's defaults per event type */
	int name_width;
	struct lupe_frame frames[512];
};

/* Parse -F's list ("comm,tid,ip,sym" with an optional "type:" prefix). Returns 0 or -1. */
int script_parse_fields(const char *spec, unsigned *fields, const char **bad);

/*
 * Whether the -F fields can be printed for every event of the session:
 * NULL, or the sentence why not (a field the samples do not carry).
 */
const char *script_check_fields(struct script_printer *p, struct lupe_session *s, char *buf,
				size_t size);

/* Set up for the file's events (the event name column width). */
void script_printer_init(struct script_printer *p, struct lupe_session *s, struct obuf *out);

/* Print one sample. */
void script_print_sample(struct script_printer *p, struct lupe_session *s,
			 struct lupe_evsel *evsel, const struct lupe_sample *sample,
			 struct lupe_thread *thread, uint8_t cpumode);

#endif
