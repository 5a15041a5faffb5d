// SPDX-License-Identifier: GPL-2.0
/*
 * Records and feature sections as typed fields (lupe/perf-format.h): the
 * layout knowledge perf's -D dump and `report --header` need, kept beside
 * the writer and reader that share the layouts, so that ui/dump.c and
 * ui/header.c only format. Every read is bounded by the record's or the
 * section's size: these run on files from anywhere (the fuzz corpus).
 * Lenient where perf is: a field cut short reads as zero and the printer
 * prints what there is, as perf does, rather than refusing the record.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <lupe/perf-format.h>

/* the names perf -D prints: each enum's name without its prefix */
#define R(name) [PERF_RECORD_##name] = #name
#define H(name) [PERF_RECORD_HEADER_##name] = #name
static const char *const record_names[PERF_RECORD_HEADER_MAX] = {
	R(MMAP), R(LOST), R(COMM), R(EXIT), R(THROTTLE), R(UNTHROTTLE), R(FORK), R(READ),
	R(SAMPLE), R(MMAP2), R(AUX), R(ITRACE_START), R(LOST_SAMPLES), R(SWITCH),
	R(SWITCH_CPU_WIDE), R(NAMESPACES), R(KSYMBOL), R(BPF_EVENT), R(CGROUP), R(TEXT_POKE),
	R(AUX_OUTPUT_HW_ID), H(ATTR), H(EVENT_TYPE), H(TRACING_DATA), H(BUILD_ID),
	R(FINISHED_ROUND), R(ID_INDEX), R(AUXTRACE_INFO), R(AUXTRACE), R(AUXTRACE_ERROR),
	R(THREAD_MAP), R(CPU_MAP), R(STAT_CONFIG), R(STAT), R(STAT_ROUND), R(EVENT_UPDATE),
	R(TIME_CONV), H(FEATURE), R(COMPRESSED), R(FINISHED_INIT),
};
#undef R
#undef H

const char *lupe_perf_record_name(unsigned type)
{
	return type < PERF_RECORD_HEADER_MAX ? record_names[type] : NULL;
}

#define F(name) [HEADER_##name] = #name
static const char *const feature_names[HEADER_LAST_FEATURE] = {
	F(TRACING_DATA), F(BUILD_ID), F(HOSTNAME), F(OSRELEASE), F(VERSION), F(ARCH), F(NRCPUS),
	F(CPUDESC), F(CPUID), F(TOTAL_MEM), F(CMDLINE), F(EVENT_DESC), F(CPU_TOPOLOGY),
	F(NUMA_TOPOLOGY), F(BRANCH_STACK), F(PMU_MAPPINGS), F(GROUP_DESC), F(AUXTRACE), F(STAT),
	F(CACHE), F(SAMPLE_TIME), F(MEM_TOPOLOGY), F(CLOCKID), F(DIR_FORMAT), F(BPF_PROG_INFO),
	F(BPF_BTF), F(COMPRESSED), F(CPU_PMU_CAPS), F(CLOCK_DATA), F(HYBRID_TOPOLOGY), F(PMU_CAPS),
};
#undef F

const char *lupe_perf_feature_name(unsigned id)
{
	return id < HEADER_LAST_FEATURE ? feature_names[id] : NULL;
}

/* A string field at s, cut at the record's end. */
static int str_len(const struct perf_event_header *ev, const char *s)
{
	const char *end = (const char *)ev + ev->size;

	return s >= end ? 0 : (int)strnlen(s, (size_t)(end - s));
}

/* How many entries of size each fit after the fixed part, at most nr. */
static uint64_t fit(const struct perf_event_header *ev, size_t fixed, size_t each, uint64_t nr)
{
	uint64_t max = (ev->size - fixed) / each;

	return nr < max ? nr : max;
}

#define NEED(layout) do { if (ev->size < sizeof(layout)) return -EINVAL; } while (0)

static int decode_event_update(const struct perf_event_header *ev,
			       struct lupe_perf_record_fields *out)
{
	const struct perf_record_event_update *u = (const void *)ev;
	size_t n = ev->size - sizeof(*u);

	NEED(*u);
	out->event_update = u;
	switch (u->type) {
	case PERF_EVENT_UPDATE__UNIT:
	case PERF_EVENT_UPDATE__NAME:
		out->str = u->data;
		out->str_len = (int)strnlen(u->data, n);
		break;
	case PERF_EVENT_UPDATE__SCALE:
		if (n >= sizeof(out->scale))
			memcpy(&out->scale, u->data, sizeof(out->scale));
		break;
	case PERF_EVENT_UPDATE__CPUS:
		out->cpus = u->data;
		out->cpus_size = n;
		break;
	}
	return 0;
}

/*
 * The records that are one fixed struct, perhaps followed by a string or by
 * entries: the struct's size (a shorter record is refused; 0: no layout
 * here), the string's offset (0: none), the offset of the u64 count of
 * entries (0: none) and an entry's size.
 */
struct layout {
	uint16_t fixed, str, nr, each;
};

#define FIXED(s) sizeof(struct s)
#define STR(s, f) FIXED(s), offsetof(struct s, f)
#define ENTRIES(s, n, f) FIXED(s), 0, offsetof(struct s, n), sizeof(((struct s *)0)->f[0])

static const struct layout layouts[PERF_RECORD_HEADER_MAX] = {
	[PERF_RECORD_MMAP] = { STR(perf_record_mmap, filename) },
	[PERF_RECORD_MMAP2] = { STR(perf_record_mmap2, filename) },
	[PERF_RECORD_COMM] = { STR(perf_record_comm, comm) },
	[PERF_RECORD_FORK] = { FIXED(perf_record_fork) },
	[PERF_RECORD_EXIT] = { FIXED(perf_record_fork) },
	[PERF_RECORD_LOST] = { FIXED(perf_record_lost) },
	[PERF_RECORD_LOST_SAMPLES] = { FIXED(perf_record_lost_samples) },
	[PERF_RECORD_SWITCH_CPU_WIDE] = { FIXED(perf_record_switch) },
	[PERF_RECORD_NAMESPACES] = { ENTRIES(perf_record_namespaces, nr_namespaces, link_info) },
	[PERF_RECORD_KSYMBOL] = { STR(perf_record_ksymbol, name) },
	[PERF_RECORD_BPF_EVENT] = { FIXED(perf_record_bpf_event) },
	[PERF_RECORD_CGROUP] = { STR(perf_record_cgroup, path) },
	[PERF_RECORD_ID_INDEX] = { ENTRIES(perf_record_id_index, nr, entries) },
	[PERF_RECORD_THREAD_MAP] = { ENTRIES(perf_record_thread_map, nr, entries) },
	[PERF_RECORD_HEADER_FEATURE] = { FIXED(perf_record_header_feature) },
};

int lupe_perf_record_decode(const struct perf_event_header *ev, struct lupe_perf_record_fields *out)
{
	const struct layout *l = ev->type < PERF_RECORD_HEADER_MAX ? &layouts[ev->type] : NULL;

	memset(out, 0, sizeof(*out));
	out->type = ev->type;
	switch (ev->type) {
	case PERF_RECORD_READ:
		memcpy(&out->read, ev, ev->size < sizeof(out->read) ? ev->size : sizeof(out->read));
		return 0;
	case PERF_RECORD_SWITCH:
		return 0;
	case PERF_RECORD_CPU_MAP:
		out->cpus = ev + 1;
		out->cpus_size = ev->size - sizeof(*ev);
		return 0;
	case PERF_RECORD_EVENT_UPDATE:
		return decode_event_update(ev, out);
	}
	if (!l || !l->fixed)
		return -EOPNOTSUPP;
	if (ev->size < l->fixed)
		return -EINVAL;
	/* the union's pointers are one pointer: the type says which to read */
	out->fork = (const void *)ev;
	if (l->str) {
		out->str = (const char *)ev + l->str;
		out->str_len = str_len(ev, out->str);
	}
	if (l->nr) {
		uint64_t nr;

		memcpy(&nr, (const char *)ev + l->nr, sizeof(nr));
		out->nr = fit(ev, l->fixed, l->each, nr);
	}
	return 0;
}

int lupe_perf_cpu_map_decode(const void *data, size_t size, uint16_t *cpus, size_t max)
{
	const uint8_t *p = data;
	uint16_t type, nr;
	size_t n = 0;

	if (size < 4)
		return -EINVAL;
	memcpy(&type, p, 2);
	if (type == 0) { /* a list of u16 */
		memcpy(&nr, p + 2, 2);
		for (size_t i = 0; i < nr && 4 + 2 * i + 2 <= size && n < max; i++)
			memcpy(&cpus[n++], p + 4 + 2 * i, 2);
	} else if (type == 1) { /* u16 nr, u16 long_size, then nr longs of 32 or 64 bits from offset 8 */
		uint16_t long_size;

		memcpy(&nr, p + 2, 2);
		memcpy(&long_size, p + 4, 2);
		if (long_size != 4 && long_size != 8)
			return -EINVAL;
		for (size_t w = 0; w < nr; w++) {
			size_t at = 8 + w * long_size;
			uint64_t v = 0;

			if (at + long_size > size)
				break;
			memcpy(&v, p + at, long_size);
			for (unsigned b = 0; b < long_size * 8u && n < max; b++)
				if (v >> b & 1)
					cpus[n++] = (uint16_t)(w * long_size * 8 + b);
		}
	} else if (type == 2) { /* a range: u8 any_cpu, u8 pad, u16 start, u16 end */
		uint16_t start, end;

		if (size < 8)
			return -EINVAL;
		memcpy(&start, p + 4, 2);
		memcpy(&end, p + 6, 2);
		if (p[2] && n < max)
			cpus[n++] = 0xffff;
		for (unsigned c = start; c <= end && n < max; c++)
			cpus[n++] = (uint16_t)c;
	} else {
		return -EINVAL;
	}
	return (int)n;
}

/* ---- feature sections ---- */

static uint64_t get(struct lupe_perf_feature *f, size_t n)
{
	uint64_t v = 0;

	if ((size_t)(f->end_ - f->p_) < n) {
		f->bad = 1;
		f->p_ = f->end_;
		return 0;
	}
	memcpy(&v, f->p_, n);
	f->p_ += n;
	return v;
}

/* perf's header string: u32 length (with padding), then the bytes. */
static const char *get_str(struct lupe_perf_feature *f, int *len)
{
	uint32_t n = (uint32_t)get(f, 4);
	const char *s = f->p_;

	if (f->bad || (size_t)(f->end_ - f->p_) < n) {
		f->bad = 1;
		*len = 0;
		return "";
	}
	f->p_ += n;
	*len = (int)strnlen(s, n);
	return s;
}

int lupe_perf_feature_decode(int id, const void *data, size_t size, struct lupe_perf_feature *out)
{
	struct lupe_perf_feature *f = out;

	memset(f, 0, sizeof(*f));
	if (!data)
		return -EINVAL;
	f->id = id;
	f->p_ = data;
	f->end_ = f->p_ + size;
	switch (id) {
	case HEADER_HOSTNAME: case HEADER_OSRELEASE: case HEADER_VERSION: case HEADER_ARCH:
	case HEADER_CPUDESC: case HEADER_CPUID:
		f->str.s = get_str(f, &f->str.len);
		break;
	case HEADER_NRCPUS:
		f->nrcpus.avail = (uint32_t)get(f, 4);
		f->nrcpus.online = (uint32_t)get(f, 4);
		break;
	case HEADER_TOTAL_MEM:
		f->total_mem_kb = get(f, 8);
		break;
	case HEADER_SAMPLE_TIME:
		f->sample_time.first = get(f, 8);
		f->sample_time.last = get(f, 8);
		break;
	case HEADER_CLOCKID:
		f->clockid_res_ns = get(f, 8);
		break;
	case HEADER_DIR_FORMAT:
		f->dir_format = get(f, 8);
		break;
	case HEADER_CLOCK_DATA:
		f->clock_data.version = (uint32_t)get(f, 4);
		f->clock_data.clockid = (uint32_t)get(f, 4);
		f->clock_data.tod_ns = get(f, 8);
		f->clock_data.clock_ns = get(f, 8);
		break;
	case HEADER_COMPRESSED:
		f->compressed.version = (uint32_t)get(f, 4);
		f->compressed.type = (uint32_t)get(f, 4);
		f->compressed.level = (uint32_t)get(f, 4);
		f->compressed.ratio = (uint32_t)get(f, 4);
		break;
	case HEADER_CMDLINE: case HEADER_PMU_MAPPINGS: case HEADER_GROUP_DESC:
	case HEADER_CPU_PMU_CAPS: case HEADER_PMU_CAPS:
		f->nr = (uint32_t)get(f, 4);
		break;
	default:
		break;
	}
	return 0;
}

static void get_cap(struct lupe_perf_feature *f, struct lupe_perf_feature_entry *e)
{
	e->kind = LUPE_FEAT_CAP;
	e->name = get_str(f, &e->name_len);
	e->value = get_str(f, &e->value_len);
}

/*
 * PMU_CAPS: for each PMU, u32 nr_caps, the caps (name and value strings),
 * then the PMU's name: flattened to its caps, then a PMU_END entry.
 */
static int next_pmu_cap(struct lupe_perf_feature *f, struct lupe_perf_feature_entry *e)
{
	if (!f->in_pmu_) {
		if (f->i_ >= f->nr || f->bad)
			return 0;
		f->nr_caps_ = (uint32_t)get(f, 4);
		f->j_ = 0;
		f->in_pmu_ = 1;
	}
	if (f->j_ < f->nr_caps_ && !f->bad) {
		f->j_++;
		get_cap(f, e);
		return 1;
	}
	e->kind = LUPE_FEAT_PMU_END;
	e->name = get_str(f, &e->name_len);
	e->nr_caps = f->nr_caps_;
	f->in_pmu_ = 0;
	f->i_++;
	return 1;
}

int lupe_perf_feature_next(struct lupe_perf_feature *f, struct lupe_perf_feature_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->name = e->value = "";
	if (f->id == HEADER_PMU_CAPS)
		return next_pmu_cap(f, e);
	if (f->i_ >= f->nr || f->bad)
		return 0;
	f->i_++;
	switch (f->id) {
	case HEADER_CMDLINE:
		e->name = get_str(f, &e->name_len);
		return 1;
	case HEADER_PMU_MAPPINGS:
		e->type = (uint32_t)get(f, 4);
		e->name = get_str(f, &e->name_len);
		return 1;
	case HEADER_GROUP_DESC:
		e->name = get_str(f, &e->name_len);
		e->leader = (uint32_t)get(f, 4);
		e->members = (uint32_t)get(f, 4);
		return 1;
	case HEADER_CPU_PMU_CAPS:
		get_cap(f, e);
		return 1;
	default:
		return 0;
	}
}
