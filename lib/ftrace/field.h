/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracepoint field's place in its raw record, from this machine's
 * tracefs format file: what the readers of recorded tracepoints
 * (lock/file.c, sched/) need to decode samples of the same kernel.
 */
#ifndef LUPE_FTRACE_FIELD_H
#define LUPE_FTRACE_FIELD_H

struct tp_field {
	int offset, size;
};

/*
 * The field named name of the tracepoint sys:event: 0 and *f set, or
 * -ENOENT (no tracefs, no such event or field; *f left alone, so a
 * caller can preset a default).
 */
int lupe_tp_field_find(const char *sys, const char *event, const char *name, struct tp_field *f);

#endif
