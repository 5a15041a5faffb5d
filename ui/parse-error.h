/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LUPE_UI_PARSE_ERROR_H
#define LUPE_UI_PARSE_ERROR_H

#include <stdio.h>
#include <lupe/events.h>

/*
 * Print a failed event spec as perf does: "event syntax error: 'SPEC'", a
 * line with a caret under err->pos and the message, the hint if any, then
 * "Run 'lupe list' for a list of valid events". A spec too long for the
 * terminal is cut with ".." the way perf cuts it, keeping the caret at most
 * 13 characters into the quoted text. stat and record print this and exit
 * 129 (EXIT_USAGE).
 */
void ui_print_parse_error(FILE *f, const char *spec, const struct lupe_parse_error *err);

/*
 * Parse spec into list (lupe_events_parse) and say what went wrong on stderr:
 * the caret message for a bad spec, a sentence otherwise. Returns 0,
 * -LUPE_ERR_PARSE (the caller exits 129) or another negative errno.
 */
int ui_parse_events(struct lupe_event_list *list, const char *spec);

/* The same with an explicit terminal width (tests; perf's default is 80). */
void ui_print_parse_error_width(FILE *f, const char *spec, const struct lupe_parse_error *err,
				int width);

#endif
