// SPDX-License-Identifier: GPL-2.0
/* Options and messages record and top share (see sample-opts.h). */
#include <stdlib.h>
#include <string.h>
#include <lupe/evsel.h>
#include "builtin.h"
#include "sample-opts.h"

void sample_parse_call_graph(struct argp_state *state, const char *arg, struct lupe_record_opts *o)
{
	if (!strcmp(arg, "fp")) {
		o->callgraph = LUPE_CALLGRAPH_FP;
	} else if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		o->callgraph = LUPE_CALLGRAPH_DWARF;
		o->stack_size = 8192;
		if (arg[5]) {
			char *end;
			unsigned long long v = strtoull(arg + 6, &end, 10);

			if (end == arg + 6 || *end || !v || v > 65528)
				argp_error(state,
					   "invalid dwarf stack size '%s': give bytes up to 65528",
					   arg + 6);
			o->stack_size = (uint32_t)((v + 7) & ~7ULL);
		}
	} else {
		argp_error(state, "unknown call graph mode '%s': use fp or dwarf[,SIZE]", arg);
	}
}

int sample_open_error(const struct lupe_event *ev, int err, pid_t pid)
{
	char buf[512];

	return error("%s", lupe_open_strerror(err, &ev->attr, ev->name, -1, pid, buf, sizeof(buf)));
}
