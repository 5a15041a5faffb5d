/* SPDX-License-Identifier: GPL-2.0 */
/* The parser's state, shared by parse.c and the PMU term parser. */
#ifndef LUPE_EVENTS_PARSE_H
#define LUPE_EVENTS_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "events/internal.h"

struct parser {
	const char *spec;
	struct lupe_event_list *list;
	struct lupe_parse_error *err;
	bool failed;
};

/* Fill the error (the first one only) and return -LUPE_ERR_PARSE. */
int lupe_parse_fail(struct parser *p, size_t pos, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Apply the modifier spec[at..at+len) to ev; colon is where its ':' is, or SIZE_MAX. */
int lupe_parse_modifier(struct parser *p, struct lupe_event *ev, size_t colon, size_t at,
		   size_t len, bool add, bool leader);

/* "pmu/terms/mod" at spec[s..end): the pmu name ends at slash. */
int lupe_parse_pmu_event(struct parser *p, size_t s, size_t slash, size_t end);

/* A bare PMU event alias ("tsc", "tsc:u"): 1 if one was added, 0 if none is known. */
int lupe_parse_pmu_alias(struct parser *p, size_t s, size_t head_len, size_t end);

/* The terms of a symbolic, cache or raw event ("cs/period=10/"). */
int lupe_parse_legacy_terms(struct parser *p, struct lupe_event *ev, size_t at, size_t len);

/* The terms of a tracepoint, spec[at..at+len) between its slashes. */
int lupe_parse_tracepoint_terms(struct parser *p, struct lupe_event *ev, size_t at, size_t len);

#endif
