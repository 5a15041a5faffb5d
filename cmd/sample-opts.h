/* SPDX-License-Identifier: GPL-2.0 */
/* What the sampling commands (record, top) parse and say alike. */
#ifndef LUPE_CMD_SAMPLE_OPTS_H
#define LUPE_CMD_SAMPLE_OPTS_H

#include <argp.h>
#include <sys/types.h>
#include <lupe/events.h>
#include <lupe/record.h>

/* --call-graph fp | dwarf[,SIZE] into o; a bad value is argp_error()'s usage error. */
void sample_parse_call_graph(struct argp_state *state, const char *arg, struct lupe_record_opts *o);

/*
 * The counting library's sentence for an event the kernel refused on task pid
 * (-1: a CPU), naming the real cause (paranoid, ptrace permission); returns -1.
 */
int sample_open_error(const struct lupe_event *ev, int err, pid_t pid);

#endif
