/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LUPE_UI_FILTER_ERROR_H
#define LUPE_UI_FILTER_ERROR_H

#include <lupe/events.h>

/*
 * --filter after -e spec: set filter on the events spec added to list (from
 * index from on). Says on stderr when none of them is a tracepoint; returns
 * 0 or -1 (the caller exits 129).
 */
int ui_events_set_filter(struct lupe_event_list *list, size_t from, const char *spec,
			 const char *filter);

/*
 * The kernel refused filter on tracepoint event: say so on stderr, naming
 * the word of the filter that is not a field of the event, and list the
 * event's fields.
 */
void ui_filter_error(const char *event, const char *filter);

#endif
