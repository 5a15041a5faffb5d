/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands and what the dispatcher gives them. */
#ifndef LUPE_BUILTIN_H
#define LUPE_BUILTIN_H

#include <argp.h>
#include <sys/types.h>

/* Each subcommand: argv[0] is its name; returns the process exit status. */
int cmd_annotate(int argc, char **argv);
/* tools16: build-id and file tools */
int cmd_archive(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_buildid_cache(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_evlist(int argc, char **argv);
/*
 * The build-ids of input's DSOs (buildid-list.c): its BUILD_ID table, only
 * the DSOs hit with with_hits (a stream: always), fn(arg, hex, name) each.
 * Returns 0, or -1 when the file could not be read (said).
 */
typedef int (*buildid_fn)(void *arg, const char *hex, const char *name);
int buildid_list(const char *input, int force, int with_hits, buildid_fn fn, void *arg);
int cmd_config(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_daemon(int argc, char **argv);
int cmd_data(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_exporter(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_lock(int argc, char **argv);
int cmd_ftrace(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sched(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_version(int argc, char **argv);

/*
 * perf's config files (config.c): the value of var ("report.children"),
 * NULL when unset; a bad file is said once. _bool: var as a boolean, def
 * when unset or not a boolean (said).
 */
const char *cmd_config_get(const char *var);
int cmd_config_bool(const char *var, int def);

/* Exit statuses, as git and perf use them. */
#define EXIT_DIE   128 /* die(): a fatal error */
#define EXIT_USAGE 129 /* a usage error: bad option, bad event spec */

/* Report through error()/warning() and exit 129 on usage errors (msg.c). */
void cmd_setup(void);

/* Print "lupe: " and the message to stderr; error() returns -1, die() exits 128. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

struct lupe_session_stats;
/*
 * perf's warnings after a file was read, worded lupe's way: the LOST records
 * (chunks the kernel dropped from a full ring), unless chunks is 0 (script
 * --show-lost-events prints them instead, and perf then says nothing), and
 * the samples PERF_RECORD_LOST_SAMPLES counts. perf warns of the latter
 * above a 5% loss only; lupe at any loss (msg.c).
 */
void warn_lost(const struct lupe_session_stats *st, int chunks);

/*
 * Parse argv with a command's argp table, perf style: -h prints the option
 * summary from the same table and exits 0, --help shows the manual page
 * (lupe help CMD), a bad option exits 129. With stop_at_arg, parsing stops at
 * the first non-option (the workload) and *idx gets its index (argc if none);
 * without it, non-options reach the command's parser as ARGP_KEY_ARG. input
 * is handed to the command's parser as state->input. The table must not use
 * the key 'h'. Returns 0, or -1 when argp refused the arguments.
 */
/*
 * Numeric options through the one range-checked parser (lupe/number.h):
 * arg whole, in [min, max], or argp_error() naming opt and the range.
 */
long long opt_int(struct argp_state *state, const char *opt, const char *arg, long long min,
		  long long max);
unsigned long long opt_u64(struct argp_state *state, const char *opt, const char *arg,
			   unsigned long long min, unsigned long long max);

/* Why a -p/-t list was refused, from the errno lupe_thread_map_new_pids() set. */
const char *pid_list_error(int err);

int cmd_parse_argp(const struct argp *argp, int argc, char **argv, int stop_at_arg, int *idx,
		   void *input);
/*
 * The same for a command's declarative table (options.h): argp's table
 * made from the rows. One name for both while commands move to tables.
 */
struct cmd_argp;
int cmd_argp_parse(const struct cmd_argp *c, int argc, char **argv, int stop_at_arg, int *idx,
		   void *input);
#define cmd_parse_options(p, argc, argv, stop_at_arg, idx, input)                                 \
	_Generic((p), const struct cmd_argp *: cmd_argp_parse, struct cmd_argp *: cmd_argp_parse,  \
		 default: cmd_parse_argp)(p, argc, argv, stop_at_arg, idx, input)

/*
 * Call fn for each pid of a comma-separated -p list: 0, fn's error, or
 * -ESRCH after saying "no such process 'X'" for a word that is no live pid.
 */
int cmd_for_each_pid(const char *list, int (*fn)(void *arg, pid_t pid), void *arg);

/*
 * The workload (workload.c): fork PROG held before its exec, then let it
 * run. 0, or the command's exit code after saying why: 1 when the fork
 * failed; 127 (no such program) or 126 when the exec did.
 */
struct lupe_workload;
int cmd_workload_prepare(struct lupe_workload *w, char **argv);
int cmd_workload_start(struct lupe_workload *w, const char *name);


#endif
