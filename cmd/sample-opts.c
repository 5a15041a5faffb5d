// SPDX-License-Identifier: GPL-2.0
/* Options and messages record and top share (see sample-opts.h). */
#include <stdlib.h>
#include <string.h>
#include <lupe/evsel.h>
#include <lupe/number.h>
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

error_t sample_opt_freq(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct lupe_record_opts *o = cmd_opt_field(state, opt);
	uint64_t v;

	if (!strcmp(arg, "max"))
		arg = "20000";
	if (lupe_parse_u64(arg, 0, 1, 1000000, &v))
		argp_error(state, "invalid frequency '%s': give samples per second", arg);
	o->freq = (unsigned int)v;
	return 0;
}

error_t sample_opt_count(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct lupe_record_opts *o = cmd_opt_field(state, opt);

	if (lupe_parse_u64(arg, 0, 1, UINT64_MAX, &o->period))
		argp_error(state, "invalid count '%s': give events per sample", arg);
	return 0;
}

error_t sample_opt_call_graph(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	sample_parse_call_graph(state, arg, cmd_opt_field(state, opt));
	return 0;
}

int sample_open_error(const struct lupe_event *ev, int err, pid_t pid)
{
	char buf[512];

	return error("%s", lupe_open_strerror(err, &ev->attr, ev->name, -1, pid, buf, sizeof(buf)));
}
