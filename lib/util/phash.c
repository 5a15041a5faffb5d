// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "util/phash.h"

uint64_t lupe_phash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

uint64_t lupe_phash_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

uint64_t lupe_phash_bytes(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static int grow(struct phash *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	void **items = calloc(cap, sizeof(*items));
	uint64_t *hashes = calloc(cap, sizeof(*hashes));

	if (!items || !hashes) {
		free(items);
		free(hashes);
		return -1;
	}
	for (size_t i = 0; i < t->cap; i++) {
		size_t k;

		if (!t->items[i])
			continue;
		for (k = t->hashes[i] & (cap - 1); items[k]; k = (k + 1) & (cap - 1))
			;
		items[k] = t->items[i];
		hashes[k] = t->hashes[i];
	}
	free(t->items);
	free(t->hashes);
	t->items = items;
	t->hashes = hashes;
	t->cap = cap;
	return 0;
}

void **lupe_phash_find(struct phash *t, uint64_t hash, int (*eq)(const void *item, const void *key),
		  const void *key)
{
	size_t k;

	/* at most half full: probes stay short */
	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return NULL;
	for (k = hash & (t->cap - 1); t->items[k]; k = (k + 1) & (t->cap - 1))
		if (t->hashes[k] == hash && eq(t->items[k], key))
			break;
	return &t->items[k];
}

void lupe_phash_fill(struct phash *t, void **slot, uint64_t hash, void *item)
{
	*slot = item;
	t->hashes[slot - t->items] = hash;
	t->nr++;
}

void lupe_phash_remove(struct phash *t, void **slot)
{
	size_t mask = t->cap - 1, i = (size_t)(slot - t->items), j = i;

	t->items[i] = NULL;
	t->nr--;
	/* linear probing: pull back each item of the run that may no longer be reached */
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!t->items[j])
			return;
		home = t->hashes[j] & mask;
		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			t->items[i] = t->items[j];
			t->hashes[i] = t->hashes[j];
			t->items[j] = NULL;
			i = j;
		}
	}
}

void lupe_phash_free(struct phash *t)
{
	free(t->items);
	free(t->hashes);
	t->items = NULL;
	t->hashes = NULL;
	t->nr = t->cap = 0;
}

struct ihash_key {
	int (*eq)(const void *arg, uint32_t idx);
	const void *arg;
};

static int ihash_eq(const void *item, const void *key)
{
	const struct ihash_key *k = key;

	return k->eq(k->arg, (uint32_t)((uintptr_t)item - 1));
}

void **lupe_ihash_find(struct phash *t, uint64_t hash, int (*eq)(const void *arg, uint32_t idx),
		       const void *arg)
{
	struct ihash_key k = { eq, arg };

	return lupe_phash_find(t, hash, ihash_eq, &k);
}

void lupe_ihash_fill(struct phash *t, void **slot, uint64_t hash, uint32_t idx)
{
	lupe_phash_fill(t, slot, hash, (void *)((uintptr_t)idx + 1));
}

static int str_eq(const void *item, const void *key)
{
	return !strcmp(item, key);
}

const char *lupe_phash_intern(struct phash *t, const char *s)
{
	uint64_t hash = lupe_phash_str(s);
	void **slot = lupe_phash_find(t, hash, str_eq, s);
	char *copy;

	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	copy = strdup(s);
	if (copy)
		lupe_phash_fill(t, slot, hash, copy);
	return copy;
}

void lupe_phash_free_strings(struct phash *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->items[i]);
	lupe_phash_free(t);
}
