/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dynamic probes, as perf probe makes them: a probe definition
 * ("parse%return +0($retval):string", "demo.c:37 slot", "leaf_a n:u64") is
 * parsed, placed in a binary with its ELF symbols and DWARF (file offset,
 * variables turned into fetch arguments), and written to tracefs
 * uprobe_events (kprobe_events without a binary). The new event is then a
 * tracepoint like any other, probe_BINARY:FUNC, that stat and record open.
 *
 *   struct lupe_probe p;
 *   lupe_probe_parse(&p, "parse%return +0($retval):string", "/bin/w");
 *   lupe_probe_place(&p);    ELF and DWARF: offset and arguments
 *   lupe_probe_add(&p);      writes the definition line to tracefs
 *   lupe_probe_clear(&p);
 *
 * Errors are a negative errno, with p->why holding a sentence (lowercase,
 * no full stop) that names what went wrong.
 */
#ifndef LUPE_PROBE_H
#define LUPE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>

#define LUPE_PROBE_MAX_ARGS 32

struct lupe_probe_arg {
	char *text;   /* as given: "line:string", "cnt=count" */
	char *name;   /* "n", "line_string" (perf's: the text made a name), "arg1" */
	char *var;    /* the DWARF variable asked for, or NULL for a fetch argument */
	char *fetch;  /* what the tracer fetches: "%di", "+0($retval)", "-8(%bp)" */
	char *type;   /* "string", "u64", "x64"; NULL: the tracer's default */
};

struct lupe_probe {
	char *group;     /* "probe_demo" ("probe" for the kernel) */
	char *event;     /* "leaf_a", "leaf_a__return" */
	char *target;    /* the binary (absolute path); NULL: a kernel probe */
	char *func;      /* function, or NULL for SRC:LINE */
	char *src;       /* SRC of SRC:LINE, or NULL */
	int line;        /* SRC:LINE's line; 0 if none */
	uint64_t off;    /* FUNC+OFF's offset */
	bool retprobe;   /* FUNC%return */
	bool user_event; /* EVENT= or GROUP:EVENT= was given */
	int nr_args;
	struct lupe_probe_arg args[LUPE_PROBE_MAX_ARGS];
	/* set by lupe_probe_place(): */
	uint64_t addr;       /* the probed address in the binary */
	uint64_t file_off;   /* its offset in the file (what uprobes take) */
	char *where;         /* "leaf_a", "leaf_a+4", "@demo.c:37": perf's words */
	char *at;            /* "leaf_a+8": the function holding addr and the offset in it */
	char why[256];       /* the reason of the last failure */
};

/*
 * Parse perf probe's definition: [[GROUP:]EVENT=]FUNC[+OFF|%return] or
 * SRC:LINE, then arguments [NAME=]VAR|FETCHARG[:TYPE]. target is the binary
 * (-x), NULL for a kernel probe. Returns 0 or -EINVAL (p->why says why).
 */
LUPE_API int lupe_probe_parse(struct lupe_probe *p, const char *def, const char *target);

/*
 * Find the probe's place in its binary: the function's symbol or the line's
 * address from DWARF, the file offset, and each DWARF variable argument as a
 * fetch argument valid there (registers, frame slots), with a type from its
 * DWARF type unless one was given. A kernel probe keeps FUNC+OFF for the
 * kernel to resolve. Returns 0 or a negative errno (-ENOENT: no such
 * function, line or variable; -LUPE_ERR_NOT_SUPPORTED: built without libdw).
 */
LUPE_API int lupe_probe_place(struct lupe_probe *p);

/* The line uprobe_events (kprobe_events) takes: "p:probe_demo/leaf_a /bin/demo:0x123c n=%di:x64". Free it. */
LUPE_API char *lupe_probe_definition(const struct lupe_probe *p);

/*
 * Write the definition to tracefs. -EEXIST when the event exists already;
 * -LUPE_ERR_NOT_SUPPORTED for a kernel probe on a kernel without kprobes;
 * the kernel's own complaint from tracefs error_log goes into p->why.
 */
LUPE_API int lupe_probe_add(struct lupe_probe *p);

/* Free every string p holds (arguments included) and zero it. */
LUPE_API void lupe_probe_clear(struct lupe_probe *p);

/* One probe event of uprobe_events or kprobe_events. */
struct lupe_probe_event {
	char *group, *event;
	bool retprobe, kernel;
	char *target;   /* binary, or NULL for a kernel probe */
	uint64_t off;   /* file offset (uprobes) */
	char *place;    /* kprobes: "FUNC+OFF"; uprobes: the symbol+off found in target, or NULL */
	char *args;     /* "n=%di:x64 ..." as tracefs shows them, or "" */
	char *argnames; /* "n slot", or "" */
};

/*
 * The probe events defined now, uprobes then kprobes, each in tracefs order,
 * those whose GROUP:EVENT matches glob (fnmatch; an EVENT alone matches any
 * group; NULL: all). *out is an array the caller frees with
 * lupe_probe_events_delete(). Returns the count or a negative errno.
 */
LUPE_API int lupe_probe_events(struct lupe_probe_event **out, const char *glob);
LUPE_API void lupe_probe_events_delete(struct lupe_probe_event *evs, int nr);

/*
 * Remove the probe events matching glob ([GROUP:]EVENT). Calls done() with
 * each removed "GROUP:EVENT" (may be NULL). Returns the count removed (0:
 * none matched), or a negative errno (-EBUSY: an event is in use).
 */
LUPE_API int lupe_probe_del(const char *glob, void (*done)(const char *name, void *arg), void *arg);

/*
 * The variables reachable at the probe's place (-V), from DWARF: for each,
 * "TYPE\tNAME" ("long unsigned int\tn"), into a NULL-terminated array the
 * caller frees with lupe_probe_vars_delete(). Call after lupe_probe_place().
 * Returns the count or a negative errno.
 */
LUPE_API int lupe_probe_vars(struct lupe_probe *p, char ***out);
LUPE_API void lupe_probe_vars_delete(char **vars);

/* perf probe's filter of --funcs when none is given: no _names, no PLT entries. */
#define LUPE_PROBE_FUNC_FILTER "!_* & !*@plt"

/*
 * The functions (and data symbols) of the binary target (NULL: the
 * kernel's functions, from /proc/kallsyms, modules left out) that filter
 * lets through, sorted by name: perf probe --funcs. filter is perf's: glob
 * patterns joined by '&' and '|', negated by '!', grouped by parentheses
 * ("(m*|f*) & !foo"); NULL: LUPE_PROBE_FUNC_FILTER. *out is a
 * NULL-terminated array the caller frees with lupe_probe_names_delete().
 * Returns the count; -EINVAL for a filter that does not parse (*errpos,
 * if not NULL, gets the byte offset where it failed); another negative
 * errno when target cannot be read.
 */
LUPE_API int lupe_probe_funcs(const char *target, const char *filter, char ***out, int *errpos);
LUPE_API void lupe_probe_names_delete(char **names);
/* Whether filter parses: 0, or -EINVAL with *errpos where it stops (as lupe_probe_funcs). */
LUPE_API int lupe_probe_filter_check(const char *filter, int *errpos);

/* Whether this kernel takes kernel probes (kprobe_events in tracefs). */
LUPE_API bool lupe_probe_have_kprobes(void);

#endif
