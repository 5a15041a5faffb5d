/* SPDX-License-Identifier: GPL-2.0 */
/* Private to lib/events: the event tables, sysfs PMUs and tracefs lookups. */
#ifndef LUPE_EVENTS_INTERNAL_H
#define LUPE_EVENTS_INTERNAL_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <lupe/events.h>

/* A symbolic event: hardware, software or tool. */
struct event_symbol {
	const char *name;
	const char *alias;  /* NULL if none */
	__u32 type;
	__u64 config;
	enum lupe_tool_event tool;
};

extern const struct event_symbol lupe_event_symbols_hw[];
extern const struct event_symbol lupe_event_symbols_sw[];
extern const struct event_symbol lupe_event_symbols_tool[];
extern const size_t lupe_event_symbols_hw_nr, lupe_event_symbols_sw_nr, lupe_event_symbols_tool_nr;

/* The symbol named (or aliased) by the len bytes at s; NULL if none. */
const struct event_symbol *lupe_event_symbol_find(const char *s, size_t len);

/*
 * Hardware cache events "L1-dcache-load-misses": a type, then up to two
 * words naming the operation and the result, joined by '-', as perf's lexer
 * takes them (case matters). Returns 1 and sets *config when the len bytes
 * at s are one; 0 when they do not start with a cache type; -1 when they do
 * but the rest is wrong: *bad gets the offset of the '-' before the bad
 * word (where perf puts its caret), msg a reason.
 */
int lupe_cache_event_parse(const char *s, size_t len, __u64 *config, size_t *bad,
		      char *msg, size_t msg_size);

/* Whether a cache type takes an operation (perf's table of valid pairs). */
bool lupe_cache_op_valid(unsigned int type, unsigned int op);

/* perf's names: "L1-dcache", "load"/"loads", "misses" for listing. */
const char *lupe_cache_type_name(unsigned int type);
const char *lupe_cache_op_name(unsigned int op, bool plural);
const char *lupe_cache_result_name(unsigned int result);

/*
 * Modifiers ":ukhGHIpPSDWeb" applied the way perf applies them: an event's
 * own modifier starts from nothing (add false), a group's adds to what each
 * member has (add true). Returns 0; -1 for a letter that is no modifier
 * (*bad: its offset in mod), -2 for a bad combination ("uu", "pppp"; *bad
 * 0); msg says why.
 */
int lupe_modifier_apply(struct lupe_event *ev, const char *mod, size_t len, bool add,
		   bool leader, size_t *bad, char *msg, size_t msg_size);
/* Check a modifier without applying it, with the same errors. */
int lupe_modifier_check(const char *mod, size_t len, size_t *bad, char *msg, size_t msg_size);

/* The sysfs root for PMUs: "<root>/bus/event_source/devices". */
const char *lupe_pmu_devices_dir(void);

/* One sysfs PMU, loaded on demand. */
struct pmu_format {
	char *name;
	int field;          /* 0 config, 1 config1, 2 config2 */
	unsigned char bits[64]; /* bit positions in the field, low value bit first */
	int nr_bits;
};

struct pmu_alias {
	char *name;
	char *terms;        /* "event=0x3c,umask=0x00" */
};

struct pmu {
	char *name;
	__u32 type;
	char *cpus;                 /* cpumask file, NULL if none */
	struct pmu_format *formats;
	size_t nr_formats;
	struct pmu_alias *aliases;  /* sorted by name */
	size_t nr_aliases;
};

/* Load the PMU named name (exact directory name). NULL and errno on failure. */
struct pmu *lupe_pmu_load(const char *name);
void lupe_pmu_free(struct pmu *pmu);
const struct pmu_format *lupe_pmu_format_find(const struct pmu *pmu, const char *name);
const struct pmu_alias *lupe_pmu_alias_find(const struct pmu *pmu, const char *name);
/* Put value into config word(s) of attr as format f lays it out. -ERANGE if it does not fit. */
int lupe_pmu_format_apply(const struct pmu_format *f, __u64 value, struct perf_event_attr *attr);

/*
 * The names of d's entries that keep(de, arg) takes (dot files never), in
 * readdir order; d is closed. NULL with errno 0 when there are none, with
 * ENOMEM when out of memory. The caller frees with lupe_strv_free.
 */
char **lupe_dir_collect(DIR *d, bool (*keep)(const struct dirent *de, void *arg), void *arg,
			size_t *nr);

/*
 * Names in dir, sorted, without dot files; events_only also drops names
 * with a '.' (events/foo.scale, .unit describe foo). NULL with errno 0 when
 * there are none, ENOMEM or the opendir errno otherwise.
 */
char **lupe_dir_names(const char *dir, bool events_only, size_t *nr);

/* Names of all PMU directories, sorted; the caller frees with lupe_strv_free. */
char **lupe_pmu_names(size_t *nr);

/* Replace *slot with a copy of dir (NULL: no override). 0 or -ENOMEM. */
int lupe_set_dir_override(char **slot, const char *dir);

/* Append a copy of str to the array *v (*n used, *cap allocated). 0 or -ENOMEM. */
int lupe_strv_push(char ***v, size_t *n, size_t *cap, const char *str);
void lupe_strv_free(char **v, size_t nr);

/*
 * Tracepoints: the id of sys:name from tracefs; -ENOENT when there is no
 * such tracepoint, -LUPE_ERR_NO_TRACEFS without tracefs.
 */
int lupe_tracepoint_id(const char *sys, const char *name, __u64 *id);

/* Whether tracefs has the system events/<sys>. */
bool lupe_tracepoint_system_exists(const char *sys);

/* Calls fn for each sys:name matching the globs (NULL matches all), in
 * readdir order as perf expands globs. Returns the number of matches or a
 * negative errno (or fn's negative return). want_id reads each id; without
 * it only the id file's presence is checked. */
int lupe_tracepoint_foreach(const char *sys_glob, const char *name_glob,
		       int (*fn)(const char *sys, const char *name, __u64 id, void *arg),
		       void *arg, bool want_id);

/* Glob characters perf takes in tracepoint names. */
bool lupe_has_glob(const char *s, size_t len);

/* Append a zeroed event; NULL on ENOMEM. */
struct lupe_event *lupe_event_list_add(struct lupe_event_list *list);
void lupe_event_free(struct lupe_event *ev);

#endif
