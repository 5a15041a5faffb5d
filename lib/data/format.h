/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on-disk layouts of perf.data, shared by the writer and the reader:
 * one definition, so the two cannot drift. Learned from
 * tools/perf/Documentation/perf.data-file-format.txt and
 * tools/perf/util/{header,event}.h in the Linux tree. The record types,
 * feature ids and record layouts are public, in <lupe/perf-format.h>;
 * kernel record types (PERF_RECORD_SAMPLE ...) come from <linux/perf_event.h>.
 *
 * All fields are in the byte order of the machine that wrote the file;
 * "PERFILE2" read byte-swapped means the other endianness.
 */
#ifndef LUPE_DATA_FORMAT_H
#define LUPE_DATA_FORMAT_H

#include <stdint.h>
#include <linux/perf_event.h>
#include <lupe/perf-format.h> /* the record types, feature ids and record layouts */

#define PERF_MAGIC2         0x32454c4946524550ULL /* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED 0x50455246494c4532ULL

struct perf_file_section {
	uint64_t offset; /* from the start of the file */
	uint64_t size;
};

/* File mode: 104 bytes at offset 0, written last. */
struct perf_file_header {
	uint64_t magic;
	uint64_t size;      /* sizeof(struct perf_file_header) */
	uint64_t attr_size; /* sizeof(struct perf_file_attr) as written */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types; /* unused, zero */
	uint64_t adds_features[4];            /* bitmap of HEADER_* (lupe/perf-format.h) */
};

/* Pipe mode: 16 bytes, then records only (attrs and features as records). */
struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size; /* sizeof(struct perf_pipe_file_header) */
};

/* One entry of the attrs section: the attr, then where its ids are. */
struct perf_file_attr {
	struct perf_event_attr attr; /* attr.size says how much of it was written */
	struct perf_file_section ids; /* an array of u64 sample ids */
};

/*
 * Feature sections follow the data section: an array of perf_file_section,
 * one per set bit of adds_features in bit order, then their contents.
 * Strings in feature sections: a u32 length (padded to 64 bytes), then the bytes. */
struct perf_header_string {
	uint32_t len;
	char string[];
};

#endif
