/* SPDX-License-Identifier: GPL-2.0 */
/* Private helpers of the export writers. */
#ifndef LUPE_EXPORT_PROFILE_H
#define LUPE_EXPORT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <lupe/export.h>

/*
 * An open-addressing table of indexes (into one of the profile's arrays),
 * for the many "find or add by key" lookups of the model.
 */
struct lupe_ihash {
	uint32_t *slots; /* index + 1; 0: empty */
	uint64_t *hashes;
	size_t nr, cap;
};

/*
 * The slot for a key of the given hash: *slot is 0 (not there: store
 * index + 1 in it and call lupe_ihash_added) or index + 1 of the item for
 * which eq(arg, index) is true. NULL when out of memory.
 */
uint32_t *lupe_ihash_find(struct lupe_ihash *t, uint64_t hash,
			  int (*eq)(const void *arg, uint32_t idx), const void *arg);
void lupe_ihash_added(struct lupe_ihash *t, uint32_t *slot, uint64_t hash);
void lupe_ihash_free(struct lupe_ihash *t);

/* Write s as the inside of a JSON string (quotes not included). */
void lupe_json_str(FILE *out, const char *s);
/* Write s with XML's special characters escaped. */
void lupe_xml_str(FILE *out, const char *s, size_t len);

/* The function's name as perf report shows it: the symbol, else the address. */
const char *lupe_prof_func_name(const struct lupe_profile *p, uint32_t func, char *buf,
				size_t size);

/* For each tid (in order of first appearance): its last thread entry. */
uint32_t *lupe_prof_tids(const struct lupe_profile *p, size_t *nr, uint32_t **thread_tid);

#endif
