// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing for every subcommand: the command's argp table is wrapped
 * in one that adds perf's -h (summary from the same table) and --help (the
 * manual page), and that can stop at the workload's first word. As the
 * first argument, perf's --list-opts prints the table's long options, one a
 * line: the shell completion asks for them, so they are never hand-kept.
 *
 * The declarative tables (options.h) are turned into an argp table here, at
 * each parse: a few dozen rows copied, nothing kept. Their setters run from
 * one argp parser, which finds its table back from the argp it was given.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/types.h>
#include <math.h>
#include <ctype.h>
#include <lupe/cpumap.h>
#include <lupe/number.h>
#include "builtin.h"
#include "options.h"

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

int cmd_parse_argp(const struct argp *argp, int argc, char **argv, int stop_at_arg, int *idx,
		   void *input)
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

/* ---- declarative tables (options.h) ---- */

/* Keys for rows without a short letter: above the letters and a command's own. */
#define KEY_AUTO 0x8000

struct table {
	struct argp argp; /* first: table_of() finds the table from it */
	const struct cmd_argp *c;
	struct argp_option *options;
	const struct cmd_option **rows; /* rows[i]: what options[i] came from */
	size_t n;
	const struct cmd_option *args; /* OPT_ARGS: where the words go, or NULL */
};

static const struct table *table_of(const struct argp_state *state)
{
	/* the root is wrap's: its only child is the table's argp */
	return (const struct table *)state->root_argp->children[0].argp;
}

void *cmd_opt_field(const struct argp_state *state, const struct cmd_option *opt)
{
	return (char *)state->input + opt->off;
}

const char *cmd_opt_name(const struct cmd_option *opt, char buf[64])
{
	int key = opt->row.key;

	if (key > 0 && key <= UCHAR_MAX && isprint(key))
		snprintf(buf, 64, "-%c", key);
	else
		snprintf(buf, 64, "--%s", opt->row.name ? opt->row.name : "?");
	return buf;
}

/* An integer field of any width (int, unsigned, bool, enum, uint64_t). */
static long long load_int(const void *p, size_t size)
{
	int8_t b;
	int16_t h;
	int32_t w;
	int64_t q = 0;

	switch (size) {
	case 1: memcpy(&b, p, 1); return b;
	case 2: memcpy(&h, p, 2); return h;
	case 4: memcpy(&w, p, 4); return w;
	default: memcpy(&q, p, sizeof(q)); return q;
	}
}

static void store_int(void *p, size_t size, long long v)
{
	int8_t b = (int8_t)v;
	int16_t h = (int16_t)v;
	int32_t w = (int32_t)v;
	int64_t q = v;

	switch (size) {
	case 1: memcpy(p, &b, 1); break;
	case 2: memcpy(p, &h, 2); break;
	case 4: memcpy(p, &w, 4); break;
	default: memcpy(p, &q, sizeof(q)); break;
	}
}

static double opt_double(struct argp_state *state, const char *opt, const char *arg, double min,
			 double max)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || isnan(v) || v < min || v > max) {
		if (max == HUGE_VAL)
			argp_error(state, "%s takes a number of at least %g, not '%s'", opt, min, arg);
		argp_error(state, "%s takes a number from %g to %g, not '%s'", opt, min, max, arg);
	}
	return v;
}

static error_t opt_set(struct argp_state *state, const struct cmd_option *o, char *arg)
{
	void *field = cmd_opt_field(state, o);
	char name[64];

	cmd_opt_name(o, name);
	switch (o->type) {
	case CMD_OPT_SET:
		store_int(field, o->size, o->value);
		return 0;
	case CMD_OPT_BIT:
		store_int(field, o->size, load_int(field, o->size) | o->value);
		return 0;
	case CMD_OPT_COUNTUP:
		store_int(field, o->size, load_int(field, o->size) + 1);
		return 0;
	case CMD_OPT_STRING:
		memcpy(field, &arg, sizeof(arg));
		return 0;
	case CMD_OPT_INT:
		store_int(field, o->size, opt_int(state, name, arg, o->imin, o->imax));
		return 0;
	case CMD_OPT_UINT:
		store_int(field, o->size, (long long)opt_u64(state, name, arg, o->umin, o->umax));
		return 0;
	case CMD_OPT_DOUBLE: {
		double v = opt_double(state, name, arg, o->min, o->max);

		memcpy(field, &v, sizeof(v));
		return 0;
	}
	case CMD_OPT_ARGS:
	case CMD_OPT_LIST: {
		char **list;
		int nr;

		memcpy(&list, field, sizeof(list));
		memcpy(&nr, (char *)state->input + o->nr_off, sizeof(nr));
		list = realloc(list, (nr + 1) * sizeof(*list));
		if (!list)
			argp_failure(state, EXIT_DIE, ENOMEM, "%s", name);
		list[nr++] = arg;
		memcpy(field, &list, sizeof(list));
		memcpy((char *)state->input + o->nr_off, &nr, sizeof(nr));
		return 0;
	}
	case CMD_OPT_CALLBACK:
		return o->fn(state, o, arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static error_t table_parse(int key, char *arg, struct argp_state *state)
{
	const struct table *t = table_of(state);
	error_t err;

	for (size_t i = 0; i < t->n; i++)
		if (t->options[i].key == key && !(t->options[i].flags & OPTION_ALIAS)) {
			if (t->rows[i]->type == CMD_OPT_ROW)
				break;
			return opt_set(state, t->rows[i], arg);
		}
	if (key == ARGP_KEY_ARG && t->args)
		return opt_set(state, t->args, arg);
	err = t->c->parser ? t->c->parser(key, arg, state) : ARGP_ERR_UNKNOWN;
	/* a word no parser takes is named (argp would say "Too many arguments") */
	if (err == ARGP_ERR_UNKNOWN && key == ARGP_KEY_ARG)
		argp_error(state, "unexpected argument '%s'", arg);
	return err;
}

int cmd_argp_parse(const struct cmd_argp *c, int argc, char **argv, int stop_at_arg, int *idx,
		   void *input)
{
	struct table t = { .c = c };
	size_t n = 0;
	int err = -1;

	while (c->options[n].type != CMD_OPT_END)
		n++;
	t.options = calloc(n + 1, sizeof(*t.options));
	t.rows = calloc(n + 1, sizeof(*t.rows));
	if (!t.options || !t.rows) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (c->options[i].type == CMD_OPT_ARGS) { /* no row of argp's */
			t.args = &c->options[i];
			continue;
		}
		t.rows[t.n] = &c->options[i];
		t.options[t.n] = c->options[i].row;
		if (!t.options[t.n].key && !(t.options[t.n].flags & (OPTION_ALIAS | OPTION_DOC)))
			t.options[t.n].key = KEY_AUTO + (int)i;
		t.n++;
	}
	t.argp = (struct argp){ .options = t.options, .parser = table_parse,
				.args_doc = c->args_doc, .doc = c->doc };
	err = cmd_parse_argp(&t.argp, argc, argv, stop_at_arg, idx, input);
out:
	free(t.options);
	free(t.rows);
	return err;
}

/* ---- the target group ---- */

/* Append arg to *list, *nr; argp's out-of-memory exit otherwise. */
static void append(struct argp_state *state, char ***list, int nr, char *arg)
{
	char **v = realloc(*list, (nr + 1) * sizeof(*v));

	if (!v)
		argp_failure(state, EXIT_DIE, ENOMEM, "%s", state->argv[state->next - 1]);
	v[nr] = arg;
	*list = v;
}

error_t cmd_target_event(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct cmd_target *t = cmd_opt_field(state, opt);

	append(state, &t->events, t->nr_events, arg);
	append(state, &t->filters, t->nr_events, NULL);
	t->nr_events++;
	return 0;
}

error_t cmd_target_filter(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct cmd_target *t = cmd_opt_field(state, opt);

	if (!t->nr_events)
		argp_error(state, "--filter applies to the -e before it: give -e TRACEPOINT first");
	t->filters[t->nr_events - 1] = arg;
	return 0;
}

error_t cmd_target_cgroup(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct cmd_target *t = cmd_opt_field(state, opt);

	if (!t->nr_events)
		argp_error(state, "-G applies to the events before it: give -e first");
	append(state, &t->cgroups, t->nr_cgroups++, arg);
	return 0;
}

struct lupe_cpu_map *cmd_target_cpus(const struct cmd_target *t, const char *verb)
{
	struct lupe_cpu_map *cpus = lupe_cpu_map_new(t->cpu_list);

	if (!cpus)
		error("cannot %s on CPUs '%s': %s", verb, t->cpu_list ? t->cpu_list : "online",
		      errno == ENODEV ? "not online (see /sys/devices/system/cpu/online)"
		      : errno == ENOMEM ? strerror(errno) : "not a CPU list such as 0-3,5");
	return cpus;
}

struct lupe_thread_map *cmd_target_threads(const struct cmd_target *t, const char *verb)
{
	struct lupe_thread_map *threads;

	if (!t->pids && !t->tids)
		return lupe_thread_map_new_one(-1);
	threads = t->pids ? lupe_thread_map_new_pids(t->pids) : lupe_thread_map_new_tids(t->tids);
	if (!threads)
		error("cannot %s %s '%s': %s", verb, t->pids ? "process" : "thread",
		      t->pids ? t->pids : t->tids, pid_list_error(errno));
	return threads;
}

void cmd_target_clear(struct cmd_target *t)
{
	free(t->events);
	free(t->filters);
	free(t->cgroups);
	t->events = t->filters = t->cgroups = NULL;
	t->nr_events = t->nr_cgroups = 0;
}
