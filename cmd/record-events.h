/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for lupe_events_parse() until the event-spec parser lands:
 * cycles, instructions, cpu-clock, task-clock, page-faults,
 * context-switches, and tracepoints "sys:name". NEEDSWORK: remove once
 * lib/events is on main (events.h declares the real one).
 */
#ifndef LUPE_CMD_RECORD_EVENTS_H
#define LUPE_CMD_RECORD_EVENTS_H

#include <lupe/events.h>

/* Append spec's events to list; prints the error and returns -1 on failure. */
int record_events_parse(struct lupe_event_list *list, const char *spec);
void record_events_clear(struct lupe_event_list *list);

/* Whether fd is a pipe (perf writes pipe mode to a piped stdout). */
int is_fifo(int fd);
/* The value of kernel.perf_event_paranoid, as text ("?" if unreadable). */
const char *paranoid_level(void);

#endif
