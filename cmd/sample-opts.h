/* SPDX-License-Identifier: GPL-2.0 */
/* What the sampling commands (record, top) parse and say alike. */
#ifndef LUPE_CMD_SAMPLE_OPTS_H
#define LUPE_CMD_SAMPLE_OPTS_H

#include <argp.h>
#include <sys/types.h>
#include <lupe/events.h>
#include <lupe/record.h>
#include "options.h"

/* --call-graph fp | dwarf[,SIZE] into o; a bad value is argp_error()'s usage error. */
void sample_parse_call_graph(struct argp_state *state, const char *arg, struct lupe_record_opts *o);

/*
 * The sampling rows record and top share, on a struct lupe_record_opts field:
 * -F HZ (or max: 20000) and -c N set freq and period, --call-graph as above.
 */
error_t sample_opt_freq(struct argp_state *state, const struct cmd_option *opt, char *arg);
error_t sample_opt_count(struct argp_state *state, const struct cmd_option *opt, char *arg);
error_t sample_opt_call_graph(struct argp_state *state, const struct cmd_option *opt, char *arg);
#define OPT_SAMPLE_FREQ(field, d) OPT_CALLBACK_FIELD('F', "freq", "HZ", 0, field, sample_opt_freq, d)
#define OPT_SAMPLE_COUNT(field, d) OPT_CALLBACK_FIELD('c', "count", "N", 0, field, sample_opt_count, d)
#define OPT_SAMPLE_CALL_GRAPH(field, d)                                                           \
	OPT_CALLBACK_FIELD(0, "call-graph", "MODE", 0, field, sample_opt_call_graph, d)

/*
 * The counting library's sentence for an event the kernel refused on task pid
 * (-1: a CPU), naming the real cause (paranoid, ptrace permission); returns -1.
 */
int sample_open_error(const struct lupe_event *ev, int err, pid_t pid);

#endif
