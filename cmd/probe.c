// SPDX-License-Identifier: GPL-2.0
/*
 * lupe probe: define, list and delete dynamic probe events, as perf probe:
 * uprobes in a binary (-x) placed by symbol, line and DWARF variables, and
 * kprobes where the kernel has them. The events are then tracepoints,
 * probe_BINARY:FUNC, for stat, record and script.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/events.h>
#include <lupe/probe.h>
#include "builtin.h"
#include "options.h"

struct probe_opts {
	const char *target;
	char **adds, **dels;
	int nr_adds, nr_dels;
	char **joined; /* definitions made of several words, owned */
	int nr_joined;
	const char *vars;
	int list, dry_run, quiet, force;
	int verbose;              /* accepted for perf's scripts, unused */
	int funcs;                /* --funcs given; its filter may be the next word */
	char **filters;           /* --funcs=F and --filter=F: perf ORs them */
	int nr_filters;
};

static int push(char ***v, int *n, char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return ENOMEM;
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

/* perf's --funcs without a filter or's in its default one */
static error_t add_funcs(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct probe_opts *o = state->input;

	(void)opt;
	o->funcs = 1;
	return push(&o->filters, &o->nr_filters, arg ? arg : (char *)LUPE_PROBE_FUNC_FILTER);
}

/* Was the word before the current one w (or its long name)? */
static int after(const struct argp_state *state, const char *w, const char *l)
{
	const char *prev = state->next > 1 ? state->argv[state->next - 2] : "";

	return !strcmp(prev, w) || !strcmp(prev, l);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct probe_opts *o = state->input;
	char *joined;

	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	/* perf takes "--funcs foo": the next word is its filter, in place of the default */
	if (o->funcs && after(state, "-F", "--funcs")) {
		o->filters[o->nr_filters - 1] = arg;
		return 0;
	}
	/* perf joins the words of one definition: probe -x W parse%return '+0($retval):string' */
	if (o->list || o->nr_dels)
		return push(o->list ? &o->adds : &o->dels, o->list ? &o->nr_adds : &o->nr_dels, arg);
	if (!o->nr_adds || after(state, "-a", "--add"))
		return push(&o->adds, &o->nr_adds, arg);
	if (asprintf(&joined, "%s %s", o->adds[o->nr_adds - 1], arg) < 0)
		return ENOMEM;
	if (push(&o->joined, &o->nr_joined, joined)) {
		free(joined);
		return ENOMEM;
	}
	o->adds[o->nr_adds - 1] = joined;
	return 0;
}

#define CMD_OPTS struct probe_opts
static const struct cmd_option options[] = {
	OPT_STRING('x', "exec", "BINARY", target, "target executable name or path (user space probes)"),
	OPT_LIST('a', "add", "PROBEDEF", adds, nr_adds, "probe point definition: [EVENT=]FUNC[+OFF|%return] or SRC:LINE, then [NAME=]ARG[:TYPE]..."),
	OPT_LIST('d', "del", "[GROUP:]EVENT", dels, nr_dels, "delete the probe events matching (a glob)"),
	OPT_BOOL('l', "list", list, "list the probe events (those matching the argument, if one is given)"),
	OPT_STRING('V', "vars", "PROBEDEF", vars, "show the variables reachable at the probe point"),
	OPT_CALLBACK('F', "funcs", "FILTER", OPTION_ARG_OPTIONAL, add_funcs,
		     "list the functions of the binary (-x; else the kernel's) that FILTER lets through (default: \"" LUPE_PROBE_FUNC_FILTER "\")"),
	OPT_LIST(0, "filter", "[!]FILTER", filters, nr_filters, "another filter of --funcs, or'ed with its own"),
	OPT_FORCE(force, "add an event whose name is taken under NAME_1, NAME_2..."),
	OPT_BOOL('n', "dry-run", dry_run, "show the definitions, add nothing"),
	OPT_QUIET(quiet, "print no messages but errors"),
	OPT_VERBOSE(verbose, "accepted for perf's scripts; lupe's errors say all they know"),
	OPT_END()
};

static const struct cmd_argp argp = { options, parse_opt, "PROBEDEF...",
	"Define, list and delete dynamic probe events (uprobes with -x, kprobes)." };

static void print_event(FILE *f, const char *group, const char *event, const char *place,
			const char *target, const char *args)
{
	char name[256];

	snprintf(name, sizeof(name), "%s:%s", group, event);
	fprintf(f, "  %-20s (on %s", name, place);
	if (target)
		fprintf(f, " in %s", target);
	if (args && *args)
		fprintf(f, " with %s", args);
	fprintf(f, ")\n");
}

/* The words perf shows after "with": the arguments as given. */
static void arg_words(const struct lupe_probe *p, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < p->nr_args && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? " " : "", p->args[i].text);
}

static int probe_failed(const char *def, const struct lupe_probe *p, int err)
{
	if (p->why[0])
		return error("cannot probe '%s': %s", def, p->why);
	return error("cannot probe '%s': %s", def, lupe_strerror(err));
}

/* perf probe -f: a taken name is tried again as NAME_1, NAME_2... */
static int add_forced(struct lupe_probe *p)
{
	char *base = strdup(p->event);
	int err = lupe_probe_add(p);

	if (!base)
		return -ENOMEM;
	for (int n = 1; err == -EEXIST && n < 1000; n++) {
		char *name;

		if (asprintf(&name, "%s_%d", base, n) < 0) {
			err = -ENOMEM;
			break;
		}
		free(p->event);
		p->event = name;
		p->why[0] = '\0';
		err = lupe_probe_add(p);
	}
	free(base);
	return err;
}

static int add(struct probe_opts *o)
{
	struct lupe_probe *probes = calloc(o->nr_adds, sizeof(*probes));
	int ret = 0, added = 0;

	if (!probes)
		return error("out of memory");
	for (int i = 0; i < o->nr_adds && !ret; i++) {
		struct lupe_probe *p = &probes[i];
		int err = lupe_probe_parse(p, o->adds[i], o->target);

		if (!err)
			err = lupe_probe_place(p);
		if (!err && o->dry_run) {
			char *def = lupe_probe_definition(p);

			printf("%s\n", def ? def : "");
			free(def);
			continue;
		}
		if (!err)
			err = o->force ? add_forced(p) : lupe_probe_add(p);
		if (err) {
			ret = probe_failed(o->adds[i], p, err) ? 1 : 1;
			break;
		}
		added++;
	}
	if (added && !o->quiet) {
		struct lupe_probe *last = &probes[added - 1];

		fprintf(stderr, "Added new event%s:\n", added > 1 ? "s" : "");
		for (int i = 0; i < added; i++) {
			char args[512];

			arg_words(&probes[i], args, sizeof(args));
			print_event(stderr, probes[i].group, probes[i].event, probes[i].where, probes[i].target, args);
		}
		/* the command as it was called: "perf record" through a perf -> lupe link */
		fprintf(stderr, "\nYou can now use it in all perf tools, such as:\n\n"
			"\t%s record -e %s:%s -aR sleep 1\n\n", program_invocation_short_name,
			last->group, last->event);
	}
	for (int i = 0; i < o->nr_adds; i++)
		lupe_probe_clear(&probes[i]);
	free(probes);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	const struct lupe_probe_event *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	return c ? c : strcmp(x->event, y->event);
}

static int list(struct probe_opts *o)
{
	int n = o->nr_adds ? o->nr_adds : 1;

	for (int g = 0; g < n; g++) {
		struct lupe_probe_event *evs;
		int nr = lupe_probe_events(&evs, o->nr_adds ? o->adds[g] : NULL);

		if (nr < 0)
			return error("cannot list the probe events: %s", lupe_strerror(nr)), 1;
		/* perf lists them sorted by name */
		qsort(evs, nr, sizeof(*evs), by_name);
		for (int i = 0; i < nr; i++) {
			char place[512];
			const char *base = evs[i].place;

			if (!base)
				snprintf(place, sizeof(place), "0x%llx", (unsigned long long)evs[i].off);
			else
				snprintf(place, sizeof(place), "%s%s", base, evs[i].retprobe ? "%return" : "");
			print_event(stdout, evs[i].group, evs[i].event, place, evs[i].target, evs[i].argnames);
		}
		lupe_probe_events_delete(evs, nr);
	}
	return 0;
}

static void removed(const char *name, void *arg)
{
	if (!*(int *)arg)
		fprintf(stderr, "Removed event: %s\n", name);
}

static int del(struct probe_opts *o)
{
	for (int i = 0; i < o->nr_dels; i++) {
		int n = lupe_probe_del(o->dels[i], removed, &o->quiet);

		if (n == 0)
			return error("no probe event matches '%s' (see them with lupe probe -l)", o->dels[i]), 1;
		if (n == -EBUSY)
			return error("cannot delete '%s': the event is in use (stop the lupe or perf "
				     "that counts it first)", o->dels[i]), 1;
		if (n < 0)
			return error("cannot delete '%s': %s", o->dels[i], lupe_strerror(n)), 1;
	}
	return 0;
}

/* --funcs: perf or's every filter given (its default for a --funcs without one). */
static int funcs(struct probe_opts *o)
{
	char *filter = NULL, **names;
	size_t len = 0;
	int n, pos = 0;

	for (int i = 0; i < o->nr_filters; i++) {
		n = lupe_probe_filter_check(o->filters[i], &pos);
		if (n == -EINVAL)
			return error("cannot parse the filter '%s' at character %d (patterns joined by & and |, "
				     "negated by !, grouped by parentheses)", o->filters[i], pos + 1), EXIT_USAGE;
		len += strlen(o->filters[i]) + 3;
	}
	if (o->nr_filters && !(filter = calloc(1, len + 1)))
		return error("out of memory"), 1;
	for (int i = 0; i < o->nr_filters; i++)
		sprintf(filter + strlen(filter), "%s(%s)", i ? "|" : "", o->filters[i]);
	n = lupe_probe_funcs(o->target, filter, &names, &pos);
	free(filter);
	/* perf refuses a missing binary as a usage error */
	if (n < 0)
		return error("cannot read the functions of '%s': %s", o->target ? o->target : "/proc/kallsyms",
			     lupe_strerror(n)),
		       n == -ENOENT ? EXIT_USAGE : 1;
	for (int i = 0; i < n; i++)
		printf("%s\n", names[i]);
	lupe_probe_names_delete(names);
	return 0;
}

static int vars(struct probe_opts *o)
{
	struct lupe_probe p;
	char **v;
	int err = lupe_probe_parse(&p, o->vars, o->target), n;

	if (!err)
		err = lupe_probe_place(&p);
	if (err) {
		probe_failed(o->vars, &p, err);
		lupe_probe_clear(&p);
		return 1;
	}
	n = lupe_probe_vars(&p, &v);
	if (n < 0) {
		probe_failed(o->vars, &p, n);
		lupe_probe_clear(&p);
		return 1;
	}
	printf("Available variables at %s\n", p.where);
	printf("\t@<%s>\n", p.at ? p.at : p.where);
	for (int i = 0; i < n; i++)
		printf("\t\t%s\n", v[i]);
	lupe_probe_vars_delete(v);
	lupe_probe_clear(&p);
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = { 0 };
	int idx, ret = EXIT_USAGE, actions;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		goto out;
	actions = (o.nr_adds && !o.list) + !!o.nr_dels + o.list + !!o.vars + o.funcs;
	if (!o.funcs && o.nr_filters) {
		error("--filter filters --funcs: give --funcs too");
		goto out;
	}
	if (actions != 1) {
		error(actions ? "give one of: a probe definition, -d, -l, -V or --funcs"
			      : "give a probe definition such as -x BINARY 'func%%return +0($retval):string', "
				"or -l, -d EVENT, -V FUNC");
		goto out;
	}
	if (o.funcs) {
		ret = funcs(&o);
		goto out;
	}
	if (!lupe_tracefs_dir()) {
		ret = error("cannot reach tracefs: %s", lupe_strerror(-errno)) ? 1 : 1;
		goto out;
	}
	if (o.list)
		ret = list(&o);
	else if (o.nr_dels)
		ret = del(&o);
	else if (o.vars)
		ret = vars(&o);
	else
		ret = add(&o);
out:
	for (int i = 0; i < o.nr_joined; i++)
		free(o.joined[i]);
	free(o.joined);
	free(o.adds);
	free(o.dels);
	free(o.filters);
	return ret;
}
