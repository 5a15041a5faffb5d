// SPDX-License-Identifier: GPL-2.0
/*
 * TRACING_DATA: magic, version "0.6", endianness, sizeof(long), page size,
 * the ring-buffer header formats, the ftrace formats (none needed), then
 * per system the formats of the events recorded, then kallsyms, printk
 * formats and saved cmdlines, which we leave empty: readers fall back to
 * the sample's own data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/events.h>
#include "data/tracing-data.h"
#include "util/util.h"

/* u64 size, then the file's bytes. */
static int put_file(struct fbuf *b, const char *path)
{
	size_t len;
	char *data = lupe_read_whole_file(path, &len);

	if (!data)
		return -errno;
	lupe_fbuf_u64(b, len);
	lupe_fbuf_add(b, data, len);
	free(data);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int lupe_tracing_data_build(struct fbuf *b, char *const *names, size_t nr)
{
	static const char magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	/* the same tracefs the events were found in */
	const char *dir = lupe_tracefs_dir();
	char path[4096], **sorted;
	uint32_t nr_sys = 0;
	int err = 0;

	if (!dir)
		return errno ? -errno : -LUPE_ERR_NO_TRACEFS;
	sorted = malloc((nr ? nr : 1) * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, names, nr * sizeof(*sorted));
	qsort(sorted, nr, sizeof(*sorted), cmp_str);

	lupe_fbuf_add(b, magic, sizeof(magic));
	lupe_fbuf_add(b, "0.6", 4);
	lupe_fbuf_add(b, &(char){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	lupe_fbuf_add(b, &(char){ sizeof(long) }, 1);
	lupe_fbuf_u32(b, (uint32_t)sysconf(_SC_PAGESIZE));

	lupe_fbuf_add(b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	err = put_file(b, path);
	lupe_fbuf_add(b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	if (!err)
		err = put_file(b, path);
	lupe_fbuf_u32(b, 0); /* ftrace formats */

	for (size_t i = 0; i < nr; i++)
		if (!i || strncmp(sorted[i], sorted[i - 1], strcspn(sorted[i], ":") + 1))
			nr_sys++;
	lupe_fbuf_u32(b, nr_sys);
	for (size_t i = 0; i < nr && !err;) {
		size_t slen = strcspn(sorted[i], ":"), j = i;
		uint32_t count = 0;

		while (j < nr && !strncmp(sorted[j], sorted[i], slen + 1))
			j++;
		lupe_fbuf_add(b, sorted[i], slen);
		lupe_fbuf_add(b, "", 1);
		for (size_t k = i; k < j; k++)
			if (k == i || strcmp(sorted[k], sorted[k - 1]))
				count++;
		lupe_fbuf_u32(b, count);
		for (size_t k = i; k < j && !err; k++) {
			if (k != i && !strcmp(sorted[k], sorted[k - 1]))
				continue;
			snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", dir, (int)slen,
				 sorted[k], sorted[k] + slen + 1);
			err = put_file(b, path);
		}
		i = j;
	}
	lupe_fbuf_u32(b, 0); /* kallsyms */
	lupe_fbuf_u32(b, 0); /* printk formats */
	lupe_fbuf_u64(b, 0); /* saved cmdlines */
	free(sorted);
	return err ? err : b->err;
}
