// SPDX-License-Identifier: GPL-2.0
/*
 * lupe mem: perf mem's front end, as far as lupe can honestly go. The
 * memory events are perf 6.1's (util/mem-events.c, arch/x86/util/
 * mem-events.c): ldlat-loads and ldlat-stores when /sys/devices/cpu/events/
 * has mem-loads and mem-stores (Intel), mem-ldst when /sys/devices/ibs_op
 * exists (AMD). "record -e list" lists them; with none, every subcommand
 * fails as perf's does ("failed: memory events not supported", exit 255).
 * record runs lupe record with the flags perf mem passes; a load event needs
 * -W (sample weight), which lupe record lacks, so it is refused. report is
 * refused: lupe report has neither --mem-mode nor the memory sort keys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin.h"
#include "options.h"

enum { MEM_LOAD, MEM_STORE, MEM_LDST, MEM_MAX };
#define OP_LOAD  0x1
#define OP_STORE 0x2

struct mem_event {
	const char *tag, *name, *sysfs; /* tag NULL: not on this machine's kind */
	int supported;
};

static struct mem_event intel_events[MEM_MAX] = {
	{ "ldlat-loads", "cpu/mem-loads,ldlat=%u/P", "cpu/events/mem-loads", 0 },
	{ "ldlat-stores", "cpu/mem-stores/P", "cpu/events/mem-stores", 0 },
	{ NULL, NULL, NULL, 0 },
};

static struct mem_event amd_events[MEM_MAX] = {
	{ NULL, NULL, NULL, 0 },
	{ NULL, NULL, NULL, 0 },
	{ "mem-ldst", "ibs_op//", "ibs_op", 0 },
};

/* perf's x86__is_amd_cpu(): the vendor in /proc/cpuinfo. */
static int is_amd(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	int amd = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "vendor_id", 9)) {
			amd = strstr(line, "AuthenticAMD") != NULL;
			break;
		}
	fclose(f);
	return amd;
}

/*
 * perf_mem_events__init(): the table, each event's sysfs entry probed.
 * LUPE_MEM_SYSFS (tests only) stands for /sys, so that a machine without
 * the events can check the list and what record runs.
 */
static struct mem_event *mem_events_init(int *found)
{
	struct mem_event *ev = is_amd() ? amd_events : intel_events;
	const char *sys = getenv("LUPE_MEM_SYSFS");
	char path[512];
	struct stat st;

	*found = 0;
	for (int i = 0; i < MEM_MAX; i++) {
		if (!ev[i].tag)
			continue;
		snprintf(path, sizeof(path), "%s/devices/%s", sys ? sys : "/sys", ev[i].sysfs);
		ev[i].supported = !stat(path, &st);
		*found |= ev[i].supported;
	}
	return ev;
}

struct mem_opts {
	int ops, list, all_user, all_kernel;
	unsigned ldlat;
	const char *cpus;
};

/* a word and the operations it means, for -e and -t */
struct mem_word {
	const char *name;
	int ops;
};

static error_t set_ops(struct argp_state *state, const struct mem_word *w, const char *arg)
{
	for (; w->name; w++)
		if (!strcmp(arg, w->name)) {
			((struct mem_opts *)state->input)->ops = w->ops;
			return 0;
		}
	return EINVAL;
}

static error_t set_event(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	static const struct mem_word events[] = {
		{ "ldlat-loads", OP_LOAD }, { "ldlat-stores", OP_STORE },
		{ "mem-ldst", OP_LOAD | OP_STORE }, { NULL, 0 },
	};

	(void)opt;
	if (!strcmp(arg, "list"))
		((struct mem_opts *)state->input)->list = 1;
	else if (set_ops(state, events, arg))
		argp_error(state, "unknown memory event '%s' (try -e list)", arg);
	return 0;
}

static error_t set_type(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	static const struct mem_word types[] = {
		{ "load", OP_LOAD }, { "store", OP_STORE }, { "all", OP_LOAD | OP_STORE },
		{ "load,store", OP_LOAD | OP_STORE }, { NULL, 0 },
	};

	(void)opt;
	if (set_ops(state, types, arg))
		argp_error(state, "-t takes load or store, not '%s'", arg);
	return 0;
}

#define CMD_OPTS struct mem_opts
static const struct cmd_option options[] = {
	OPT_EVENT_FIELD(ops, set_event, "the memory event: ldlat-loads, ldlat-stores, mem-ldst ('list' lists them)"),
	OPT_CALLBACK('t', "type", "TYPE", 0, set_type, "the memory operations: load, store (default: both)"),
	OPT_CPU("LIST", cpus, "only these CPUs"),
	OPT_BOOL(0, "all-user", all_user, "sample user space only"),
	OPT_BOOL(0, "all-kernel", all_kernel, "sample the kernel only"),
	OPT_UINT(0, "ldlat", "N", ldlat, 1, 65535, "the load latency threshold in cycles (default: 30)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, "record [CMD [ARGS]] | report",
	"Profile memory accesses: lupe mem record -e list lists the memory events." };

/* perf_mem_events__list(): "%-13s%s" tag and ": available", on stderr. */
static void mem_events_list(const struct mem_event *ev)
{
	for (int i = 0; i < MEM_MAX; i++)
		fprintf(stderr, "%-13s%s\n", ev[i].tag ? ev[i].tag : "",
			ev[i].supported ? ": available" : "");
}

static int mem_record(const struct mem_event *ev, const struct mem_opts *o, int argc,
		      char **argv)
{
	char **rec = calloc(argc + 16, sizeof(*rec));
	char name[64];
	int n = 0, sel[MEM_MAX] = { 0 }, ret;

	if (!rec)
		return error("out of memory"), 1;
	/* perf: load and store together is mem-ldst where the machine has it */
	if (ev[MEM_LDST].tag && (o->ops & OP_LOAD) && (o->ops & OP_STORE)) {
		sel[MEM_LDST] = 1;
	} else {
		sel[MEM_LOAD] = !!(o->ops & OP_LOAD);
		sel[MEM_STORE] = !!(o->ops & OP_STORE);
	}
	rec[n++] = "record";
	rec[n++] = "-d";
	for (int i = 0; i < MEM_MAX; i++) {
		if (!sel[i])
			continue;
		if (!ev[i].supported) {
			free(rec);
			fprintf(stderr, "failed: event '%s' not supported\n", ev[i].tag);
			return 255;
		}
		if (i == MEM_LOAD) {
			free(rec);
			return error("perf mem records loads with -W (the sample's weight, the load's latency), which lupe record does not have: try -t store"), 1;
		}
		snprintf(name, sizeof(name), ev[i].name, o->ldlat);
		rec[n++] = "-e";
		rec[n++] = name;
	}
	if (o->all_user)
		rec[n++] = "--all-user";
	if (o->all_kernel)
		rec[n++] = "--all-kernel";
	if (o->cpus) {
		rec[n++] = "-C";
		rec[n++] = (char *)o->cpus;
	}
	for (int i = 0; i < argc; i++)
		rec[n++] = argv[i];
	ret = cmd_record(n, rec);
	free(rec);
	return ret;
}

/*
 * Is a one of mine, by the table? 0: no; 1: yes, whole; 2: yes, and its
 * value is the next word (-e list, --ldlat 50). -h, --help and --list-opts
 * are every command's.
 */
static int my_option(const char *a)
{
	if (!strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "--list-opts"))
		return 1;
	for (const struct cmd_option *o = options; o->type != CMD_OPT_END; o++) {
		size_t n = o->row.name ? strlen(o->row.name) : 0;

		if (o->row.key > 0 && a[1] != '-' && a[1] == o->row.key) /* -e list, -elist */
			return o->row.arg && !a[2] ? 2 : 1;
		if (n && a[1] == '-' && !strncmp(a + 2, o->row.name, n) && (!a[n + 2] || a[n + 2] == '='))
			return o->row.arg && !a[n + 2] ? 2 : 1;
	}
	return 0;
}

/*
 * perf mem record keeps the options it does not know for perf record (-o
 * FILE): the words after the subcommand split into lupe mem's own options
 * (mine, for argp) and the rest, in order; from "--" or the first word that
 * is not an option (a value of record's, or the command) on, all are rest.
 */
static void split_sub_opts(int argc, char **argv, char **mine, int *nmine, char **rest,
			   int *nrest)
{
	int i = 0;

	for (; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		int m = my_option(argv[i]);

		if (!m)
			rest[(*nrest)++] = argv[i];
		else
			mine[(*nmine)++] = argv[i];
		if (m == 2 && i + 1 < argc)
			mine[(*nmine)++] = argv[++i];
	}
	for (; i < argc; i++)
		rest[(*nrest)++] = argv[i];
}

int cmd_mem(int argc, char **argv)
{
	struct mem_opts o = { .ops = OP_LOAD | OP_STORE, .ldlat = 30 };
	struct mem_event *ev;
	int idx, found, ret, nmine = 0, nrest = 0;
	char **mine, **rest;
	const char *sub;

	if (cmd_parse_options(&argp, argc, argv, 1, &idx, &o))
		return EXIT_USAGE;
	if (idx >= argc)
		return error("mem needs record or report (see lupe mem -h)"), EXIT_USAGE;
	sub = argv[idx];
	if (strcmp(sub, "record") && strcmp(sub, "report"))
		return error("'%s' is not a lupe mem command: record or report", sub), EXIT_USAGE;
	/* the subcommand's own options; the rest goes to lupe record */
	rest = calloc(argc + 1, sizeof(*rest));
	mine = calloc(argc + 1, sizeof(*mine));
	if (!rest || !mine) {
		free(rest);
		free(mine);
		return error("out of memory"), 1;
	}
	mine[nmine++] = !strcmp(sub, "record") ? "mem record" : "mem report";
	split_sub_opts(argc - idx - 1, argv + idx + 1, mine, &nmine, rest, &nrest);
	ret = cmd_parse_options(&argp, nmine, mine, 0, &idx, &o);
	free(mine);
	if (ret) {
		free(rest);
		return EXIT_USAGE;
	}
	ev = mem_events_init(&found);
	if (!found) {
		fprintf(stderr, "failed: memory events not supported\n");
		error("this machine has no memory sampling events (no /sys/devices/%s)",
		      ev == amd_events ? "ibs_op" : "cpu/events/mem-loads nor mem-stores");
		return 255;
	}
	if (o.list) {
		mem_events_list(ev);
		ret = 0;
	} else if (!strcmp(sub, "record")) {
		ret = mem_record(ev, &o, nrest, rest);
	} else {
		error("lupe report has no --mem-mode and none of perf mem report's sort keys (mem, symbol_daddr, dso_daddr, tlb, locked): lupe mem report is not there");
		ret = 1;
	}
	free(rest);
	return ret;
}
