// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data header as perf report --header-only prints it: the file
 * layout, then one line per feature section in feature order, then the
 * features the file lacks.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "header.h"

/* Feature ids and names, as perf.data's HEADER_* (lib/data/format.h). */
static const char *const feat_names[] = {
	NULL, "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
	"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY",
	"NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
	"CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO",
	"BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};
enum { F_HOSTNAME = 3, F_OSRELEASE, F_VERSION, F_ARCH, F_NRCPUS, F_CPUDESC, F_CPUID,
       F_TOTAL_MEM, F_CMDLINE, F_EVENT_DESC, F_CPU_TOPOLOGY, F_NUMA_TOPOLOGY,
       F_BRANCH_STACK, F_PMU_MAPPINGS, F_GROUP_DESC, F_AUXTRACE, F_STAT, F_CACHE, F_SAMPLE_TIME,
       F_MEM_TOPOLOGY, F_CLOCKID, F_DIR_FORMAT, F_COMPRESSED = 27, F_CPU_PMU_CAPS, F_CLOCK_DATA,
       F_HYBRID_TOPOLOGY, F_PMU_CAPS, F_LAST };

enum { REC_HEADER_FEATURE = 80 }; /* perf.data's PERF_RECORD_HEADER_FEATURE */

/* A cursor over a feature section; reads past its end yield zeros and set bad. */
struct fcur {
	const char *p, *end;
	int bad;
};

static uint64_t get(struct fcur *c, size_t n)
{
	uint64_t v = 0;

	if ((size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, n);
	c->p += n;
	return v;
}

/* perf's header string: u32 length (with padding), then the bytes. */
static const char *get_str(struct fcur *c, int *len)
{
	uint32_t n = (uint32_t)get(c, 4);
	const char *s = c->p;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		*len = 0;
		return "";
	}
	c->p += n;
	*len = (int)strnlen(s, n);
	return s;
}

static int feature(struct lupe_perf_file *f, int id, struct fcur *c)
{
	size_t size;
	const char *d = lupe_perf_file_feature(f, id, &size);

	if (!d)
		return 0;
	*c = (struct fcur){ d, d + size, 0 };
	return 1;
}

static void print_string(FILE *fp, struct lupe_perf_file *f, int id, const char *label)
{
	struct fcur c;
	const char *s;
	int n;

	if (!feature(f, id, &c))
		return;
	s = get_str(&c, &n);
	fprintf(fp, "# %s : %.*s\n", label, n, s);
}

static void print_flags(FILE *fp, uint64_t v, const char *const *names, int nr)
{
	int first = 1;

	for (int i = 0; i < nr; i++) {
		if (!(v & (1ULL << i)) || !names[i])
			continue;
		fprintf(fp, "%s%s", first ? "" : "|", names[i]);
		first = 0;
	}
}

/* One "name = value" of an attr: the first after first, the rest after ", ". */
static void attr_field(FILE *fp, int *n, const char *first, const char *kv, const char *name)
{
	fprintf(fp, "%s%s%s", (*n)++ ? ", " : first, name, kv);
}

void ui_attr_fprintf(FILE *fp, const struct perf_event_attr *a, const char *first, const char *kv)
{
	int n = 0;

	static const char *const st[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
		"STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT",
		"DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX",
		"CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
	};
	static const char *const rf[] = {
		"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
	};
#define U(name, v) do { if (v) { attr_field(fp, &n, first, kv, name); fprintf(fp, "%llu", (unsigned long long)(v)); } } while (0)
#define X(name, v) do { if (v) { attr_field(fp, &n, first, kv, name); fprintf(fp, "%#llx", (unsigned long long)(v)); } } while (0)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type) {
		attr_field(fp, &n, first, kv, "sample_type");
		print_flags(fp, a->sample_type, st, (int)(sizeof(st) / sizeof(*st)));
	}
	if (a->read_format) {
		attr_field(fp, &n, first, kv, "read_format");
		print_flags(fp, a->read_format, rf, (int)(sizeof(rf) / sizeof(*rf)));
	}
	U("disabled", a->disabled);
	U("inherit", a->inherit);
	U("pinned", a->pinned);
	U("exclusive", a->exclusive);
	U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel);
	U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle);
	U("mmap", a->mmap);
	U("comm", a->comm);
	U("freq", a->freq);
	U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec);
	U("task", a->task);
	U("watermark", a->watermark);
	U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data);
	U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host);
	U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user);
	U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec);
	U("use_clockid", a->use_clockid);
	U("context_switch", a->context_switch);
	U("write_backward", a->write_backward);
	U("namespaces", a->namespaces);
	U("ksymbol", a->ksymbol);
	U("bpf_event", a->bpf_event);
	U("aux_output", a->aux_output);
	U("cgroup", a->cgroup);
	U("text_poke", a->text_poke);
	U("build_id", a->build_id);
	U("inherit_thread", a->inherit_thread);
	U("remove_on_exec", a->remove_on_exec);
	U("sigtrap", a->sigtrap);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	X("branch_sample_type", a->branch_sample_type);
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		attr_field(fp, &n, first, kv, "clockid");
		fprintf(fp, "%d", a->clockid);
	}
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
#undef U
#undef X
}

static void print_events(FILE *fp, struct lupe_perf_file *f)
{
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(f); i++) {
		const struct lupe_evsel *e = lupe_perf_file_evsel(f, i);
		const char *name = lupe_evsel_name(e);
		size_t nr_ids;
		const uint64_t *ids = lupe_evsel_ids(e, &nr_ids);

		fprintf(fp, "# event : name = %s, ", name ? name : "");
		if (nr_ids) {
			fputs(", id = {", fp);
			for (size_t j = 0; j < nr_ids; j++)
				fprintf(fp, "%s %llu", j ? "," : "", (unsigned long long)ids[j]);
			fputs(" }", fp);
		}
		ui_attr_fprintf(fp, lupe_evsel_attr(e), ", ", " = ");
		fputc('\n', fp);
	}
}

/* perf's group lines: "# group: NAME{leader,member...}" for groups of two or more. */
static void print_groups(FILE *fp, struct lupe_perf_file *f, struct fcur *c)
{
	uint32_t nr = (uint32_t)get(c, 4);

	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		int len;
		const char *name = get_str(c, &len);
		uint32_t leader = (uint32_t)get(c, 4), members = (uint32_t)get(c, 4);

		if (c->bad || members < 2 || leader + members > lupe_perf_file_nr_evsels(f))
			continue;
		/* "{anon_group}" is perf's name for a group without one */
		if (len == 12 && !memcmp(name, "{anon_group}", 12))
			len = 0;
		fprintf(fp, "# group: %.*s{", len, name);
		for (uint32_t m = 0; m < members; m++) {
			const char *ev = lupe_evsel_name(lupe_perf_file_evsel(f, leader + m));

			fprintf(fp, "%s%s", m ? "," : "", ev ? ev : "");
		}
		fputs("}\n", fp);
	}
}

/* perf's clockid_name(): the first name its table gives the id. */
static const char *clock_name(uint32_t id)
{
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

/* CLOCK_DATA: u32 version (1), u32 clockid, u64 time of day and clock time (ns) at one instant. */
static void print_clock_data(FILE *fp, struct fcur *c)
{
	uint32_t ver = (uint32_t)get(c, 4), id = (uint32_t)get(c, 4);
	uint64_t tod = get(c, 8), clk = get(c, 8);
	time_t sec = (time_t)(tod / 1000000000ULL);
	char date[64] = "<error>";
	struct tm tm;

	if (c->bad || ver != 1) {
		fputs("# reference time disabled\n", fp);
		return;
	}
	if (localtime_r(&sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	fprintf(fp, "# clockid: %s (%u)\n", clock_name(id), id);
	fprintf(fp, "# reference time: %s.%06u = %lld.%06u (TOD) = %llu.%09llu (%s)\n", date,
		(unsigned)(tod % 1000000000ULL / 1000), (long long)sec, (unsigned)(tod % 1000000000ULL / 1000),
		(unsigned long long)(clk / 1000000000ULL), (unsigned long long)(clk % 1000000000ULL),
		clock_name(id));
}

/* perf's PMU capabilities: u32 count, then name and value strings; "name=value, ...". */
static void print_caps(FILE *fp, struct fcur *c, const char *pmu, int named)
{
	uint32_t nr = (uint32_t)get(c, 4);
	char *line = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&line, &size);

	if (!m)
		return;
	for (uint32_t i = 0; i < nr && !c->bad; i++) {
		int nl, vl;
		const char *n = get_str(c, &nl), *v = get_str(c, &vl);

		fprintf(m, "%s%.*s=%.*s", i ? ", " : "", nl, n, vl, v);
	}
	fclose(m);
	if (named) {
		int len;

		pmu = get_str(c, &len);
		fprintf(fp, "# %.*s pmu capabilities: %s\n", len, pmu, nr ? line : "not available");
	} else {
		fprintf(fp, "# %s pmu capabilities: %s\n", pmu, nr ? line : "not available");
	}
	free(line);
}

static void print_feature(FILE *fp, struct lupe_perf_file *f, int id)
{
	struct fcur c;

	switch (id) {
	case F_HOSTNAME: print_string(fp, f, id, "hostname"); break;
	case F_OSRELEASE: print_string(fp, f, id, "os release"); break;
	case F_VERSION: print_string(fp, f, id, "perf version"); break;
	case F_ARCH: print_string(fp, f, id, "arch"); break;
	case F_CPUDESC: print_string(fp, f, id, "cpudesc"); break;
	case F_CPUID: print_string(fp, f, id, "cpuid"); break;
	case F_NRCPUS:
		if (feature(f, id, &c)) {
			uint32_t avail = (uint32_t)get(&c, 4), online = (uint32_t)get(&c, 4);

			fprintf(fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
		}
		break;
	case F_TOTAL_MEM:
		if (feature(f, id, &c))
			fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)get(&c, 8));
		break;
	case F_CMDLINE:
		if (feature(f, id, &c)) {
			uint32_t n = (uint32_t)get(&c, 4);

			fputs("# cmdline : ", fp);
			for (uint32_t i = 0; i < n && !c.bad; i++) {
				int len;
				const char *s = get_str(&c, &len);

				fprintf(fp, "%.*s ", len, s);
			}
			fputc('\n', fp);
		}
		break;
	case F_EVENT_DESC:
		print_events(fp, f);
		break;
	case F_CPU_TOPOLOGY: case F_NUMA_TOPOLOGY: case F_CACHE: case F_MEM_TOPOLOGY:
	case F_HYBRID_TOPOLOGY:
		if (feature(f, id, &c))
			fprintf(fp, "# %s info available, use -I to display\n", feat_names[id]);
		break;
	case F_PMU_MAPPINGS:
		if (feature(f, id, &c)) {
			uint32_t n = (uint32_t)get(&c, 4);

			fputs("# pmu mappings:", fp);
			for (uint32_t i = 0; i < n && !c.bad; i++) {
				uint32_t type = (uint32_t)get(&c, 4);
				int len;
				const char *s = get_str(&c, &len);

				fprintf(fp, "%s %.*s = %u", i ? "," : "", len, s, type);
			}
			fputc('\n', fp);
		}
		break;
	case F_SAMPLE_TIME:
		if (feature(f, id, &c)) {
			uint64_t first = get(&c, 8), last = get(&c, 8);

			fprintf(fp, "# time of first sample : %llu.%06llu\n",
				(unsigned long long)(first / 1000000000ULL),
				(unsigned long long)(first % 1000000000ULL / 1000));
			fprintf(fp, "# time of last sample : %llu.%06llu\n",
				(unsigned long long)(last / 1000000000ULL),
				(unsigned long long)(last % 1000000000ULL / 1000));
			fprintf(fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
		}
		break;
	case F_BRANCH_STACK:
		if (feature(f, id, &c))
			fputs("# contains samples with branch stack\n", fp);
		break;
	case F_AUXTRACE:
		if (feature(f, id, &c))
			fputs("# contains AUX area data (e.g. instruction trace)\n", fp);
		break;
	case F_STAT:
		if (feature(f, id, &c))
			fputs("# contains stat data\n", fp);
		break;
	case F_GROUP_DESC:
		if (feature(f, id, &c))
			print_groups(fp, f, &c);
		break;
	case F_CLOCKID:
		if (feature(f, id, &c))
			fprintf(fp, "# clockid frequency: %llu MHz\n", (unsigned long long)get(&c, 8) * 1000);
		break;
	case F_DIR_FORMAT:
		if (feature(f, id, &c))
			fprintf(fp, "# directory data version : %llu\n", (unsigned long long)get(&c, 8));
		break;
	case F_CLOCK_DATA:
		if (feature(f, id, &c))
			print_clock_data(fp, &c);
		break;
	case F_CPU_PMU_CAPS:
		if (feature(f, id, &c))
			print_caps(fp, &c, "cpu", 0);
		break;
	case F_PMU_CAPS:
		if (feature(f, id, &c)) {
			uint32_t nr = (uint32_t)get(&c, 4);

			for (uint32_t i = 0; i < nr && !c.bad; i++)
				print_caps(fp, &c, NULL, 1);
		}
		break;
	case F_COMPRESSED:
		if (feature(f, id, &c)) {
			uint32_t ver = (uint32_t)get(&c, 4), type = (uint32_t)get(&c, 4);
			uint32_t level = (uint32_t)get(&c, 4), ratio = (uint32_t)get(&c, 4);

			(void)ver;
			fprintf(fp, "# compressed : %s, level = %u, ratio = %u\n",
				type == 1 ? "Zstd" : "Unknown", level, ratio);
		}
		break;
	default:
		break;
	}
}

void print_header(FILE *fp, struct lupe_perf_file *f, const char *path, int full)
{
	uint64_t off = 0, size = 0;
	struct stat st;
	size_t fsz;
	int pipe = lupe_perf_file_is_pipe(f);

	fputs("# ========\n", fp);
	/* perf: the input's mtime (stdin's for "-"), then the file header; for a pipe all 0 */
	if (!(strcmp(path, "-") ? stat(path, &st) : fstat(STDIN_FILENO, &st))) {
		char when[64];
		struct tm tm;

		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime_r(&st.st_mtime, &tm));
		fprintf(fp, "# captured on    : %s\n", when);
	}
	if (!pipe)
		lupe_perf_file_data_section(f, &off, &size);
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %llu\n", (unsigned long long)off);
	fprintf(fp, "# data size      : %llu\n", (unsigned long long)size);
	fprintf(fp, "# feat offset    : %llu\n", (unsigned long long)(off + size));
	/* a pipe's features come as records, printed as they are read (header_tool) */
	if (!pipe) {
		for (int id = 1; id < F_LAST; id++)
			print_feature(fp, f, id);
	}
	if (full && !pipe) {
		fputs("# missing features:", fp);
		for (int id = 1; id < F_LAST; id++)
			if (!lupe_perf_file_feature(f, id, &fsz))
				fprintf(fp, " %s", feat_names[id]);
		fputs(" \n", fp);
	}
	fputs("# ========\n#\n", fp);
}

static int header_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
			 const struct lupe_sample *sample, struct lupe_thread *thread,
			 const struct perf_event_header *ev)
{
	struct lupe_tool *in = ((struct header_tool *)tool)->inner;

	return in && in->sample ? in->sample(in, s, evsel, sample, thread, ev) : 0;
}

static int header_other(struct lupe_tool *tool, struct lupe_session *s, const struct perf_event_header *ev)
{
	struct lupe_tool *in = ((struct header_tool *)tool)->inner;

	return in && in->other ? in->other(in, s, ev) : 0;
}

static int header_record(struct lupe_tool *tool, struct lupe_session *s, const struct perf_event_header *ev,
			 uint64_t offset, struct lupe_evsel *evsel, const struct lupe_sample *sample)
{
	struct header_tool *h = (struct header_tool *)tool;
	struct lupe_tool *in = h->inner;

	if (ev->type == REC_HEADER_FEATURE && ev->size >= sizeof(struct perf_event_header) + 8) {
		uint64_t id;

		memcpy(&id, ev + 1, sizeof(id));
		if (id < F_LAST)
			print_feature(h->fp, h->f, (int)id);
		else if (id == F_LAST && !in) /* perf's end of the features: --header-only stops */
			return 1;
	}
	return in && in->record ? in->record(in, s, ev, offset, evsel, sample) : 0;
}

struct lupe_tool *header_tool(struct header_tool *h, struct lupe_tool *inner, FILE *fp,
			      struct lupe_perf_file *f)
{
	*h = (struct header_tool){
		.tool = {
			.sample = header_sample, .other = header_other, .record = header_record,
			.ordered = inner ? inner->ordered : 0,
		},
		.inner = inner, .fp = fp, .f = f,
	};
	return &h->tool;
}
