/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data's vocabulary: the record types perf adds to the kernel's
 * (PERF_RECORD_HEADER_ATTR ...), the header feature ids (HEADER_HOSTNAME
 * ...), the layouts of the records perf and the kernel write, and a
 * decoder that turns a record or a feature section into typed fields,
 * bounded by its size, so that a printer only formats. The one home of
 * these ids: lib/data's writer and reader use them, and nothing else in
 * the tree defines them (tests/shell/perf-ids.sh checks).
 *
 * The names are perf's (tools/perf/util/{event,header}.h, tools/lib/perf's
 * <perf/event.h>): do not include this header together with libperf's.
 * Kernel record types (PERF_RECORD_SAMPLE ...) come from <linux/perf_event.h>.
 * Fields are in the byte order of the machine that wrote the file.
 *
 * The lupe binary's own: not installed (CMakeLists.txt), its functions not
 * exported; the API hands out typed records instead (lupe/rec.h).
 */
#ifndef LUPE_PERF_FORMAT_H
#define LUPE_PERF_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

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
	PERF_RECORD_HEADER_MAX /* the record types perf 6.1 knows: 83 */
};

/*
 * Header features: in file mode a section each, after the data, one per
 * set bit of the file header's feature bitmap; in pipe mode a
 * PERF_RECORD_HEADER_FEATURE record each.
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

/* BUILD_ID entries: misc says the build id's size is in the record */
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

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

/* perf's fixed view of a READ record, whatever the event's read_format */
struct perf_record_read {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t value, time_enabled, time_running, id, lost;
};

struct perf_record_switch { /* PERF_RECORD_SWITCH_CPU_WIDE; SWITCH has no fields */
	struct perf_event_header header;
	uint32_t next_prev_pid, next_prev_tid;
};

struct perf_record_namespaces {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct {
		uint64_t dev, ino;
	} link_info[];
};

struct perf_record_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
};

struct perf_record_bpf_event {
	struct perf_event_header header;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8]; /* BPF_TAG_SIZE */
};

struct perf_record_cgroup {
	struct perf_event_header header;
	uint64_t id;
	char path[];
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

struct perf_record_id_index {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_id_index_entry entries[];
};

struct perf_record_thread_map_entry {
	uint64_t pid;
	char comm[16];
};

struct perf_record_thread_map {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_thread_map_entry entries[];
};

/* EVENT_UPDATE's type: what its data holds */
enum perf_event_update_type {
	PERF_EVENT_UPDATE__UNIT = 0,  /* a string */
	PERF_EVENT_UPDATE__SCALE = 1, /* a double */
	PERF_EVENT_UPDATE__NAME = 2,  /* a string */
	PERF_EVENT_UPDATE__CPUS = 3,  /* a CPU map's data, as CPU_MAP's */
};

struct perf_record_event_update {
	struct perf_event_header header;
	uint64_t type, id;
	char data[];
};

struct perf_record_time_conv {
	struct perf_event_header header;
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short, reserved[6];
};

/* perf's name of a record type ("MMAP", "FINISHED_ROUND"), NULL for one it does not know. */
const char *lupe_perf_record_name(unsigned type);

/* perf's name of a feature id ("HOSTNAME"), NULL for 0 and ids past HEADER_PMU_CAPS. */
const char *lupe_perf_feature_name(unsigned id);

/*
 * A record's fields: type says which member of the union is set. The
 * pointers point into the record given; counts and strings are cut at its
 * end, so a printer may read every entry and str_len bytes of str.
 */
struct lupe_perf_record_fields {
	uint32_t type;
	union {
		const struct perf_record_mmap *mmap;
		const struct perf_record_mmap2 *mmap2;
		const struct perf_record_comm *comm;
		const struct perf_record_fork *fork; /* FORK and EXIT */
		const struct perf_record_lost *lost;
		const struct perf_record_lost_samples *lost_samples;
		const struct perf_record_switch *cpu_wide; /* SWITCH_CPU_WIDE; NULL for SWITCH */
		const struct perf_record_namespaces *namespaces;
		const struct perf_record_ksymbol *ksymbol;
		const struct perf_record_bpf_event *bpf_event;
		const struct perf_record_cgroup *cgroup;
		const struct perf_record_id_index *id_index;
		const struct perf_record_thread_map *thread_map;
		const struct perf_record_event_update *event_update;
		const struct perf_record_header_feature *feature; /* pipe mode's HEADER_FEATURE */
	};
	/* MMAP, MMAP2: the file; COMM: the command; KSYMBOL: the name; CGROUP:
	 * the path; EVENT_UPDATE UNIT and NAME: the text */
	const char *str;
	int str_len;
	uint64_t nr;  /* NAMESPACES, ID_INDEX, THREAD_MAP: the entries in the record */
	const void *cpus; /* CPU_MAP, EVENT_UPDATE CPUS: the map's data (lupe_perf_cpu_map_decode) */
	size_t cpus_size;
	double scale; /* EVENT_UPDATE SCALE (0 when the record holds none) */
	struct perf_record_read read; /* READ: a copy, zero where the record ends early */
};

/*
 * Decode ev into *out. Returns 0, -EINVAL when ev is shorter than its
 * type's fixed fields, -EOPNOTSUPP for a type without a decoder (SAMPLE:
 * see lupe_session's lupe_sample; the records perf takes in without a
 * word). Reads only ev->size bytes.
 */
int lupe_perf_record_decode(const struct perf_event_header *ev, struct lupe_perf_record_fields *out);

/*
 * The CPUs of a CPU map's data (CPU_MAP's payload, EVENT_UPDATE's CPUS): a
 * list, a mask or a range, as perf 6.1 writes them. Up to max CPUs go to
 * cpus in the map's order, 0xffff for "any CPU" (-1). Returns how many, or
 * -EINVAL for a type or size perf would not write. Reads only size bytes.
 */
int lupe_perf_cpu_map_decode(const void *data, size_t size, uint16_t *cpus, size_t max);

/*
 * A feature section's fields. id says which member of the union is set:
 * str for HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID; nr for the
 * lists CMDLINE, PMU_MAPPINGS, GROUP_DESC, CPU_PMU_CAPS, PMU_CAPS, whose
 * entries lupe_perf_feature_next() reads; nothing for features without
 * fields here (TRACING_DATA, BUILD_ID, EVENT_DESC, the topologies...).
 * A field past the section's end reads as zero (or "") and sets bad.
 */
struct lupe_perf_feature {
	int id;
	int bad;
	union {
		struct {
			const char *s; /* not NUL-terminated: print len bytes */
			int len;
		} str;
		struct {
			uint32_t avail, online;
		} nrcpus;
		uint64_t total_mem_kb;
		struct {
			uint64_t first, last; /* ns */
		} sample_time;
		uint64_t clockid_res_ns; /* CLOCKID */
		uint64_t dir_format;
		struct {
			uint32_t version, clockid;
			uint64_t tod_ns, clock_ns; /* one instant, as time of day and on clockid */
		} clock_data;
		struct {
			uint32_t version, type, level, ratio; /* type 1: zstd */
		} compressed;
		uint32_t nr; /* list features: entries (PMU_CAPS: PMUs) */
	};
	/* the list's cursor, private to lupe_perf_feature_next() */
	const char *p_, *end_;
	uint32_t i_, j_, nr_caps_;
	int in_pmu_;
};

/*
 * Decode the section data (size bytes, as lupe_perf_file_feature() gives
 * it) of feature id into *out. Returns 0, or -EINVAL for a NULL data.
 * Reads only size bytes; data must outlive *out's use.
 */
int lupe_perf_feature_decode(int id, const void *data, size_t size, struct lupe_perf_feature *out);

/* One entry of a list feature. */
struct lupe_perf_feature_entry {
	enum {
		LUPE_FEAT_ENTRY,    /* CMDLINE: name is an argument; PMU_MAPPINGS: name and type; GROUP_DESC: name, leader, members */
		LUPE_FEAT_CAP,      /* CPU_PMU_CAPS, PMU_CAPS: name = value */
		LUPE_FEAT_PMU_END,  /* PMU_CAPS: the PMU whose caps came before: name, nr_caps */
	} kind;
	const char *name, *value; /* not NUL-terminated */
	int name_len, value_len;
	uint32_t type;            /* PMU_MAPPINGS */
	uint32_t leader, members; /* GROUP_DESC */
	uint32_t nr_caps;         /* PMU_END */
};

/*
 * The next entry of a list feature decoded by lupe_perf_feature_decode().
 * Returns 1 with *e filled, 0 after the last one or once the section ended
 * early (f->bad). An entry cut by the section's end comes back with "" and
 * zeros and sets f->bad, as perf prints it.
 */
int lupe_perf_feature_next(struct lupe_perf_feature *f, struct lupe_perf_feature_entry *e);

#endif
