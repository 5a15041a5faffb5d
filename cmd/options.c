// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing for every subcommand: the command's argp table is wrapped
 * in one that adds perf's -h (summary from the same table) and --help (the
 * manual page), and that can stop at the workload's first word. As the
 * first argument, perf's --list-opts prints the table's long options, one a
 * line: the shell completion asks for them, so they are never hand-kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/types.h>
#include <lupe/number.h>
#include "builtin.h"

#define KEY_MANUAL 0x7001

struct wrap {
	void *input;
	int stop_at_arg;
	int *idx;
	const char *cmd;
};

static const struct argp_option wrap_options[] = {
	{ NULL, 'h', NULL, 0, "show this summary of options", -1 },
	{ "help", KEY_MANUAL, NULL, 0, "show the manual page", -1 },
	{ 0 }
};

static error_t wrap_parse(int key, char *arg, struct argp_state *state)
{
	struct wrap *w = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = w->input;
		return 0;
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_USAGE | ARGP_HELP_LONG | ARGP_HELP_DOC);
		fflush(stdout);
		exit(0);
	case KEY_MANUAL: {
		char *argv[] = { "help", (char *)w->cmd, NULL };

		exit(cmd_help(2, argv));
	}
	case ARGP_KEY_ARG:
		if (!w->stop_at_arg)
			return ARGP_ERR_UNKNOWN;
		*w->idx = state->next - 1;
		state->next = state->argc;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static int option_is_end(const struct argp_option *o)
{
	return !o->key && !o->name && !o->doc && !o->group;
}

static void list_opts(const struct argp *argp)
{
	for (const struct argp_option *o = argp->options; o && !option_is_end(o); o++)
		if (o->name && !(o->flags & (OPTION_HIDDEN | OPTION_DOC)))
			printf("--%s\n", o->name);
	for (const struct argp_child *c = argp->children; c && c->argp; c++)
		list_opts(c->argp);
}

int cmd_parse_options(const struct argp *argp, int argc, char **argv, int stop_at_arg,
		      int *idx, void *input)
{
	struct argp_child children[] = { { argp, 0, NULL, 0 }, { 0 } };
	struct argp wrapper = { wrap_options, wrap_parse, NULL, NULL, children,
				NULL, NULL };
	struct wrap w = { input, stop_at_arg, idx, argv[0] };
	/* argp names the program after argv[0]: make it "lupe CMD". Static,
	 * because argp's messages may refer to it until exit. */
	static char name[64];
	char **args;
	int err;

	if (argc > 1 && !strcmp(argv[1], "--list-opts")) {
		list_opts(&wrapper);
		fflush(stdout);
		exit(ferror(stdout) ? 1 : 0);
	}
	snprintf(name, sizeof(name), "lupe %s", argv[0]);
	args = calloc(argc + 1, sizeof(*args));
	if (!args)
		return -1;
	memcpy(args, argv, argc * sizeof(*args));
	args[0] = name;
	*idx = argc;
	err = argp_parse(&wrapper, argc, args, ARGP_IN_ORDER | ARGP_NO_HELP, NULL,
			 &w);
	free(args);
	return err ? -1 : 0;
}

long long opt_int(struct argp_state *state, const char *opt, const char *arg, long long min,
		  long long max)
{
	int64_t v = 0;

	if (lupe_parse_i64(arg, 10, min, max, &v))
		argp_error(state, "%s takes a number from %lld to %lld, not '%s'", opt, min, max, arg);
	return v;
}

unsigned long long opt_u64(struct argp_state *state, const char *opt, const char *arg,
			   unsigned long long min, unsigned long long max)
{
	uint64_t v = 0;

	if (lupe_parse_u64(arg, 0, min, max, &v))
		argp_error(state, "%s takes a number from %llu to %llu, not '%s'", opt, min, max, arg);
	return v;
}

const char *pid_list_error(int err)
{
	if (err == ESRCH)
		return "no such process";
	if (err == ERANGE)
		return "a process id is a number from 1 to " LUPE_STR(LUPE_PID_MAX);
	return "not a list of ids such as 1234,5678";
}

int cmd_for_each_pid(const char *list, int (*fn)(void *arg, pid_t pid), void *arg)
{
	char *copy = strdup(list), *save = NULL;
	int err = copy ? 0 : -ENOMEM;

	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; !err && t;
	     t = strtok_r(NULL, ",", &save)) {
		int64_t pid;

		/* whole and in range: 4294997141 is no pid, not pid 29845 */
		if (lupe_parse_i64(t, 10, 1, LUPE_PID_MAX, &pid) || kill((pid_t)pid, 0)) {
			error("no such process '%s'", t);
			err = -ESRCH;
			break;
		}
		err = fn(arg, (pid_t)pid);
	}
	free(copy);
	return err;
}
