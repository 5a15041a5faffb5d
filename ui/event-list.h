/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LUPE_UI_EVENT_LIST_H
#define LUPE_UI_EVENT_LIST_H

#include <stdbool.h>
#include <stdio.h>
#include <lupe/events.h>

/*
 * `perf list`'s layout: "  %-50s [Kind]" per entry, "name OR alias" where
 * there is an alias; under a pager a blank line closes each section, as
 * perf does. Returns what ferror() says of f afterwards (0 or -1).
 */
int ui_event_list_print(FILE *f, const struct lupe_event_desc_list *l, bool paged);

/* The same entries as a JSON array of {EventName, EventAlias, EventType, Unit, Encoding}. */
int ui_event_list_print_json(FILE *f, const struct lupe_event_desc_list *l);

/* One parsed event per line, with the attr fields perf stat -vv shows (debugging aid). */
int ui_event_print_attrs(FILE *f, const struct lupe_event_list *l);

#endif
