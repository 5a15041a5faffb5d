/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on-disk layouts of perf.data, shared by the writer and the reader:
 * one definition, so the two cannot drift. Learned from
 * tools/perf/Documentation/perf.data-file-format.txt and
 * tools/perf/util/{header,event}.h in the Linux tree; kernel record types
 * (PERF_RECORD_SAMPLE ...) come from <linux/perf_event.h>.
 *
 * All fields are in the byte order of the machine that wrote the file;
 * "PERFILE2" read byte-swapped means the other endianness.
 */
#ifndef LUPE_DATA_FORMAT_H
#define LUPE_DATA_FORMAT_H

#include <stdint.h>
#include <linux/perf_event.h>

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
	uint64_t adds_features[4];            /* bitmap of HEADER_* below */
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
 */
enum perf_header_feature {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
	HEADER_FEAT_BITS = 256,
};

/* Strings in feature sections: a u32 length (padded to 64 bytes), then the bytes. */
struct perf_header_string {
	uint32_t len;
	char string[];
};

/* Record types perf adds after the kernel's (PERF_RECORD_USER_TYPE_START). */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65, /* obsolete */
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_HEADER_MAX
};

/* The records below are laid out as the kernel and perf write them. */

struct perf_record_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {
			uint8_t build_id_size;
			uint8_t reserved_1;
			uint16_t reserved_2;
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[]; /* NUL-terminated, padded to 8 bytes; sample_id follows */
};

struct perf_record_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct perf_record_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[]; /* padded to 8 bytes; sample_id follows */
};

struct perf_record_fork { /* also PERF_RECORD_EXIT */
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct perf_record_lost {
	struct perf_event_header header;
	uint64_t id, lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
};

struct perf_record_header_attr { /* pipe mode: attr, then its ids */
	struct perf_event_header header;
	struct perf_event_attr attr;
	/* uint64_t id[] follows attr.size bytes of attr */
};

struct perf_record_header_feature { /* pipe mode: a feature section as a record */
	struct perf_event_header header;
	uint64_t feat_id;
	char data[];
};

struct perf_record_header_build_id { /* BUILD_ID feature entries */
	struct perf_event_header header; /* misc: PERF_RECORD_MISC_KERNEL/USER... */
	int32_t pid;
	union {
		uint8_t build_id[24];
		struct {
			uint8_t data[20];
			uint8_t size;
			uint8_t reserved1__;
			uint16_t reserved2__;
		};
	};
	char filename[]; /* NUL-terminated, padded to 64 bytes (NAME_ALIGN) */
};
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

struct perf_record_compressed {
	struct perf_event_header header; /* size is a u16: a record holds under 64 KiB */
	char data[];                     /* zstd-compressed records, not padded to 8 */
};

/*
 * Pipe mode: the TRACING_DATA feature as a record. header.size covers only
 * these 12 bytes; size bytes of tracing data (padded to 8) follow it.
 */
struct perf_record_header_tracing_data {
	struct perf_event_header header;
	uint32_t size;
};

struct perf_record_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct perf_record_time_conv {
	struct perf_event_header header;
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short, reserved[6];
};

#endif
