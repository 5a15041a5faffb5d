/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarative options, git's parse-options on argp: one table per command
 * is the parser and the -h text. Each row is an argp_option together with
 * what the option does to a field of the command's options struct (the
 * `input` handed to cmd_argp_parse, seen as state->input), so no switch
 * repeats the table. argp stays the engine: cmd_argp_parse() turns the rows
 * into an argp table (the -h order and text are argp's, from the rows) and
 * one dispatcher runs each row's setter.
 *
 * How to declare:
 *
 *   struct grep_opts { const char *input; int force, count; unsigned max;
 *                      double ratio; char **words; int nr_words; };
 *
 *   #define CMD_OPTS struct grep_opts      (the struct the rows' fields are in)
 *   static const struct cmd_option options[] = {
 *       OPT_INPUT(input, "input file name (default: perf.data)"),
 *       OPT_FORCE(force, "read a file not owned by you"),
 *       OPT_BOOL('c', "count", count, "print only a count"),
 *       OPT_UINT('m', "max-count", "N", max, 1, 1000, "stop after N matches"),
 *       OPT_DOUBLE(0, "ratio", "R", ratio, 0, 1, "..."),
 *       OPT_LIST('w', "word", "WORD", words, nr_words, "match WORD (repeatable)"),
 *       OPT_CALLBACK('x', "expr", "EXPR", 0, parse_expr, "..."),
 *       OPT_END()
 *   };
 *   #undef CMD_OPTS                        (needed only before another struct's table)
 *   static const struct cmd_argp argp = { options, parse_opt, "[FILE]", "Search a perf.data." };
 *   ...
 *   if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o)) return EXIT_USAGE;
 *
 * The kinds (s: the short letter or 0; l: the long name or NULL; a field is
 * a member of CMD_OPTS, nested ones too: o.freq):
 *   OPT_BOOL(s, l, field, doc)              field = 1 (int, bool, any integer)
 *   OPT_SET_INT(s, l, field, value, doc)    field = value (--per-core: aggr = CORE)
 *   OPT_BIT(s, l, field, mask, doc)         field |= mask
 *   OPT_COUNTUP(s, l, field, doc)           field++ (-d, -dd, -ddd; -v)
 *   OPT_STRING(s, l, arg, field, doc)       field = the argument (char * or const char *)
 *   OPT_INT(s, l, arg, field, min, max, doc)   whole, in [min, max], or a usage error
 *   OPT_UINT(s, l, arg, field, min, max, doc)  same, unsigned (hex with 0x too)
 *   OPT_DOUBLE(s, l, arg, field, min, max, doc) a number in [min, max]
 *   OPT_LIST(s, l, arg, list, nr, doc)      appends to char **list, int nr counts; the
 *                                           command frees list (not the words: argv's)
 *   OPT_CALLBACK(s, l, arg, flags, fn, doc) fn(state, opt, arg): for code; it reaches
 *                                           the struct as state->input, or its field
 *                                           as cmd_opt_field(state, opt) with
 *                                           OPT_CALLBACK_FIELD(s, l, arg, flags, field, fn, doc)
 *   OPT_ROW(key, l, arg, flags, doc)        a row the command's own parser handles
 *                                           (key: the letter, or an enum from 0x100)
 *   OPT_ALIAS(l, arg)                       another long name for the row above
 *   OPT_ARGS(list, nr)                      the words that are no option, appended as
 *                                           OPT_LIST does (args_doc names them in -h)
 *   OPT_BOOL_F(s, l, flags, field, doc), OPT_SET_INT_F(s, l, flags, field, v, doc),
 *   OPT_STRING_F(s, l, arg, flags, field, doc): with argp's flags (OPTION_HIDDEN;
 *                                           OPTION_ARG_OPTIONAL: an absent argument
 *                                           stores NULL)
 *   OPT_END()
 * Rows without a short letter get their argp key from the table; a parser
 * that needs to see a key uses OPT_ROW with its own. Shared options are
 * declared once, below: OPT_INPUT, OPT_FORCE, OPT_VERBOSE, OPT_QUIET (the
 * input group), and the target group (OPT_EVENT, OPT_FILTER, OPT_CGROUP,
 * OPT_ALL_CPUS, OPT_CPU, OPT_PID, OPT_TID); each takes the sentence -h
 * shows, as git's OPT__QUIET does, since the commands say it their way.
 * The groups are rows in the command's table, not argp children: argp
 * sorts a child's options apart from its parent's, which would reorder
 * every -h that has them.
 *
 * The command's own parser (struct cmd_argp's, may be NULL) gets the keys
 * of OPT_ROW rows and argp's special keys (ARGP_KEY_ARG for a non-option
 * word), as an argp parser would. A word that no parser takes (none, or
 * it answers ARGP_ERR_UNKNOWN) is a usage error, "unexpected argument 'x'".
 *
 * The order of the rows does not matter to -h: argp sorts them (by short
 * letter, else long name). Numbers are checked whole and in range (the
 * error names the option and the range, exit 129).
 */
#ifndef LUPE_CMD_OPTIONS_H
#define LUPE_CMD_OPTIONS_H

#include <argp.h>
#include <stddef.h>
#include <stdint.h>

struct lupe_cpu_map;
struct lupe_thread_map;

enum cmd_opt_type {
	CMD_OPT_END,
	CMD_OPT_ROW,      /* the command's parser handles it (or an alias) */
	CMD_OPT_SET,      /* field = value: bool, set_int */
	CMD_OPT_BIT,      /* field |= value */
	CMD_OPT_COUNTUP,
	CMD_OPT_STRING,
	CMD_OPT_INT,
	CMD_OPT_UINT,
	CMD_OPT_DOUBLE,
	CMD_OPT_LIST,
	CMD_OPT_CALLBACK,
	CMD_OPT_ARGS,     /* the words that are no option: a list */
};

struct cmd_option;
typedef error_t cmd_opt_fn(struct argp_state *state, const struct cmd_option *opt, char *arg);

struct cmd_option {
	struct argp_option row;   /* what argp sees; key 0: the table gives one */
	enum cmd_opt_type type;
	size_t off, size;         /* the field: offset in CMD_OPTS and its size */
	size_t nr_off;            /* OPT_LIST: the count's offset (an int) */
	long long value;          /* OPT_SET_INT's value, OPT_BIT's mask */
	double min, max;          /* OPT_DOUBLE's range */
	long long imin, imax;     /* OPT_INT's range */
	unsigned long long umin, umax; /* OPT_UINT's range */
	cmd_opt_fn *fn;           /* OPT_CALLBACK */
};

/* A command's options: the rows, its own parser for OPT_ROW keys and
 * ARGP_KEY_ARG (NULL: none), and argp's args_doc and doc. */
struct cmd_argp {
	const struct cmd_option *options;
	argp_parser_t parser;
	const char *args_doc;
	const char *doc;
};

/*
 * cmd_argp_parse() (builtin.h; cmd_parse_options() picks it for a struct
 * cmd_argp): -h and --help, stop_at_arg, *idx and the exit status of a bad
 * option as for an argp table. Returns 0, or -1 when argp refused the
 * arguments.
 */

/* The field opt names in the options struct being parsed (for callbacks). */
void *cmd_opt_field(const struct argp_state *state, const struct cmd_option *opt);

/* "-x" for a row with a short letter, else "--long": for messages. */
const char *cmd_opt_name(const struct cmd_option *opt, char buf[64]);

/* ---- the row macros ---- */

/* 0, or a compile error unless cond: the rows check their fields' types. */
#define CMD_OPT_CHECK(cond) (0 * sizeof(char[1 - 2 * !(cond)]))
#define CMD_OPT_TYPE(field) __typeof__(((CMD_OPTS *)0)->field)
#define CMD_OPT_AT(field) .off = offsetof(CMD_OPTS, field), .size = sizeof(((CMD_OPTS *)0)->field)
#define CMD_OPT_ROW(s, l, a, f, d) .row = { (l), (s), (a), (f), (d), 0 }

#define OPT_END() { .type = CMD_OPT_END }
#define OPT_ROW(key, l, a, f, d) { CMD_OPT_ROW(key, l, a, f, d), .type = CMD_OPT_ROW }
#define OPT_ALIAS(l, a) { CMD_OPT_ROW(0, l, a, OPTION_ALIAS, NULL), .type = CMD_OPT_ROW }
#define OPT_SET_INT_F(s, l, f, field, v, d)                                                       \
	{ CMD_OPT_ROW(s, l, NULL, f, d), .type = CMD_OPT_SET, CMD_OPT_AT(field), .value = (v) }
#define OPT_SET_INT(s, l, field, v, d) OPT_SET_INT_F(s, l, 0, field, v, d)
#define OPT_BOOL_F(s, l, f, field, d) OPT_SET_INT_F(s, l, f, field, 1, d)
#define OPT_BOOL(s, l, field, d) OPT_SET_INT_F(s, l, 0, field, 1, d)
#define OPT_BIT(s, l, field, mask, d)                                                             \
	{ CMD_OPT_ROW(s, l, NULL, 0, d), .type = CMD_OPT_BIT, CMD_OPT_AT(field), .value = (mask) }
#define OPT_COUNTUP(s, l, field, d)                                                               \
	{ CMD_OPT_ROW(s, l, NULL, 0, d), .type = CMD_OPT_COUNTUP, CMD_OPT_AT(field) }
#define OPT_STRING_F(s, l, a, f, field, d)                                                        \
	{ CMD_OPT_ROW(s, l, a, f, d), .type = CMD_OPT_STRING,                                       \
	  .off = offsetof(CMD_OPTS, field) +                                                         \
		 CMD_OPT_CHECK(__builtin_types_compatible_p(__typeof__(*((CMD_OPTS *)0)->field), char) && \
			       sizeof(((CMD_OPTS *)0)->field) == sizeof(char *)) }
#define OPT_STRING(s, l, a, field, d) OPT_STRING_F(s, l, a, 0, field, d)
#define OPT_INT(s, l, a, field, lo, hi, d)                                                        \
	{ CMD_OPT_ROW(s, l, a, 0, d), .type = CMD_OPT_INT, CMD_OPT_AT(field), .imin = (lo), .imax = (hi) }
#define OPT_UINT(s, l, a, field, lo, hi, d)                                                       \
	{ CMD_OPT_ROW(s, l, a, 0, d), .type = CMD_OPT_UINT, CMD_OPT_AT(field), .umin = (lo), .umax = (hi) }
#define OPT_DOUBLE(s, l, a, field, lo, hi, d)                                                     \
	{ CMD_OPT_ROW(s, l, a, 0, d), .type = CMD_OPT_DOUBLE,                                       \
	  .off = offsetof(CMD_OPTS, field) +                                                         \
		 CMD_OPT_CHECK(__builtin_types_compatible_p(CMD_OPT_TYPE(field), double)),           \
	  .min = (lo), .max = (hi) }
#define CMD_OPT_LIST_AT(list, nr)                                                                 \
	.off = offsetof(CMD_OPTS, list) +                                                          \
	       CMD_OPT_CHECK(__builtin_types_compatible_p(CMD_OPT_TYPE(list), char **)),            \
	.nr_off = offsetof(CMD_OPTS, nr) +                                                         \
		  CMD_OPT_CHECK(__builtin_types_compatible_p(CMD_OPT_TYPE(nr), int))
#define OPT_LIST(s, l, a, list, nr, d)                                                            \
	{ CMD_OPT_ROW(s, l, a, 0, d), .type = CMD_OPT_LIST, CMD_OPT_LIST_AT(list, nr) }
#define OPT_CALLBACK(s, l, a, f, fn_, d)                                                          \
	{ CMD_OPT_ROW(s, l, a, f, d), .type = CMD_OPT_CALLBACK, .fn = (fn_) }
#define OPT_CALLBACK_FIELD(s, l, a, f, field, fn_, d)                                             \
	{ CMD_OPT_ROW(s, l, a, f, d), .type = CMD_OPT_CALLBACK, CMD_OPT_AT(field), .fn = (fn_) }
#define OPT_ARGS(list, nr) { .type = CMD_OPT_ARGS, CMD_OPT_LIST_AT(list, nr) }

/*
 * ---- the shared options: each declared here once ----
 * The input group: the file a command reads and how.
 */
#define OPT_INPUT(field, d) OPT_STRING('i', "input", "FILE", field, d)
#define OPT_FORCE(field, d) OPT_BOOL('f', "force", field, d)
#define OPT_VERBOSE(field, d) OPT_COUNTUP('v', "verbose", field, d)
#define OPT_QUIET(field, d) OPT_BOOL('q', "quiet", field, d)
/* The tasks whose samples a reading command keeps: s.pids, s.tids (comma lists). */
#define OPT_TASK_FILTERS(s)                                                                       \
	OPT_STRING(0, "pid", "LIST", s.pids, "only these process ids"),                           \
	OPT_STRING(0, "tid", "LIST", s.tids, "only these thread ids")

/*
 * The target group: what record, top and stat open events on. A command's
 * options struct holds CMD_TARGET (below) and declares the rows it takes;
 * cmd_target_cpus() and cmd_target_threads() build the maps from them.
 * -e and --filter pair (a filter is for the -e before it), as do -e and -G.
 * OPT_PID and OPT_ALL_CPUS also serve commands without the group (trace):
 * field is then the command's own; OPT_EVENT_FIELD is -e for a command that
 * reads the word its own way (mem's memory events), fn given the field.
 */
#define CMD_TARGET_FIELDS                                                                        \
	char **events;      /* -e, in order */                                                   \
	char **filters;     /* --filter after events[i], or NULL */                             \
	int nr_events;                                                                           \
	char **cgroups;     /* -G lists, paired with the events in order */                     \
	int nr_cgroups;                                                                          \
	const char *cpu_list; /* -C */                                                           \
	const char *pids, *tids; /* -p, -t: comma lists */                                       \
	int system_wide     /* -a */
struct cmd_target { CMD_TARGET_FIELDS; };
/* In an options struct: the fields by their names and, all together, as .target
 * (Linux's struct_group). */
#define CMD_TARGET union { struct { CMD_TARGET_FIELDS; }; struct cmd_target target; }

error_t cmd_target_event(struct argp_state *state, const struct cmd_option *opt, char *arg);
error_t cmd_target_filter(struct argp_state *state, const struct cmd_option *opt, char *arg);
error_t cmd_target_cgroup(struct argp_state *state, const struct cmd_option *opt, char *arg);

#define OPT_EVENT_FIELD(field, fn, d) OPT_CALLBACK_FIELD('e', "event", "EVENT", 0, field, fn, d)
#define OPT_EVENT(d) OPT_EVENT_FIELD(target, cmd_target_event, d)
#define OPT_FILTER(d) OPT_CALLBACK_FIELD(0, "filter", "FILTER", 0, target, cmd_target_filter, d)
#define OPT_CGROUP(d) OPT_CALLBACK_FIELD('G', "cgroup", "NAME", 0, target, cmd_target_cgroup, d)
#define OPT_ALL_CPUS(field, d) OPT_BOOL('a', "all-cpus", field, d)
#define OPT_CPU(a, field, d) OPT_STRING('C', "cpu", a, field, d)
#define OPT_PID(field, d) OPT_STRING('p', "pid", "PID", field, d)
#define OPT_TID(field, d) OPT_STRING('t', "tid", "TID", field, d)

/*
 * The maps of a target, said wrong in a sentence with verb ("count",
 * "record") and NULL returned. _cpus: the CPUs of -C, all online without
 * (the caller chooses lupe_cpu_map_any() for a task's events).
 * _threads: the tasks of -p or -t, else one "any task" entry (-1).
 */
struct lupe_cpu_map *cmd_target_cpus(const struct cmd_target *t, const char *verb);
struct lupe_thread_map *cmd_target_threads(const struct cmd_target *t, const char *verb);
/* Free what parsing allocated (the lists, not their words). */
void cmd_target_clear(struct cmd_target *t);

#endif
