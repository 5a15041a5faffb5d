/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An open-addressing hash table of pointers, for the many "find or add by
 * key" tables of the reader (threads, DSOs, stacks, entries). The table
 * keeps each item's hash, so growing never calls back into the caller.
 */
#ifndef LUPE_UTIL_PHASH_H
#define LUPE_UTIL_PHASH_H

#include <stddef.h>
#include <stdint.h>

struct phash {
	void **items;
	uint64_t *hashes;
	size_t nr, cap;
};

/*
 * The slot for key: *slot is the matching item (eq(item, key) true), or
 * NULL where a new one goes (store it with lupe_phash_fill). Grows first, so a
 * slot stays valid until the next call. NULL when out of memory.
 */
void **lupe_phash_find(struct phash *t, uint64_t hash, int (*eq)(const void *item, const void *key),
		  const void *key);

/* Store item in the empty slot lupe_phash_find returned for hash. */
void lupe_phash_fill(struct phash *t, void **slot, uint64_t hash, void *item);

/* Empty a slot lupe_phash_find returned for a stored item (the item is not freed). */
void lupe_phash_remove(struct phash *t, void **slot);

/* Frees the table, not the items. */
void lupe_phash_free(struct phash *t);

/*
 * A table of strings: one copy of each, so that keys compare by pointer.
 * Returns the table's copy of s (made on first sight), NULL when out of
 * memory. lupe_phash_free_strings() frees the copies and the table.
 */
const char *lupe_phash_intern(struct phash *t, const char *s);
void lupe_phash_free_strings(struct phash *t);

/*
 * The same table holding indexes (into an array the caller keeps) rather
 * than pointers: a slot holds index + 1, so an empty one (NULL) is no index.
 * lupe_ihash_find is lupe_phash_find with eq(arg, idx) asked of the index
 * in a slot; lupe_ihash_idx reads a slot (-1 when empty), lupe_ihash_fill
 * stores idx in the empty slot found for hash. Free with lupe_phash_free.
 */
void **lupe_ihash_find(struct phash *t, uint64_t hash, int (*eq)(const void *arg, uint32_t idx),
		       const void *arg);
void lupe_ihash_fill(struct phash *t, void **slot, uint64_t hash, uint32_t idx);

static inline long lupe_ihash_idx(void *const *slot)
{
	return *slot ? (long)((uintptr_t)*slot - 1) : -1;
}

/* A hash of a string and a mixer of 64-bit words, for keys. */
uint64_t lupe_phash_str(const char *s);
uint64_t lupe_phash_mix(uint64_t h, uint64_t v);
/* FNV-1a's start, and its step over len bytes at p from h: the caches' file keys. */
#define LUPE_PHASH_SEED 0xcbf29ce484222325ULL
uint64_t lupe_phash_bytes(uint64_t h, const void *p, size_t len);

#endif
