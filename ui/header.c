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
#include <lupe/perf-format.h>
#include "header.h"

/* The feature id's section in f, decoded; 0 when f lacks it. */
static int feature(struct lupe_perf_file *f, int id, struct lupe_perf_feature *feat)
{
	size_t size;
	const void *d = lupe_perf_file_feature(f, id, &size);

	return d && !lupe_perf_feature_decode(id, d, size, feat);
}

static void print_string(FILE *fp, struct lupe_perf_file *f, int id, const char *label)
{
	struct lupe_perf_feature feat;

	if (feature(f, id, &feat))
		fprintf(fp, "# %s : %.*s\n", label, feat.str.len, feat.str.s);
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
static void print_groups(FILE *fp, struct lupe_perf_file *f, struct lupe_perf_feature *feat)
{
	struct lupe_perf_feature_entry g;

	while (lupe_perf_feature_next(feat, &g) > 0) {
		int len = g.name_len;

		if (feat->bad || g.members < 2 || g.leader + g.members > lupe_perf_file_nr_evsels(f))
			continue;
		/* "{anon_group}" is perf's name for a group without one */
		if (len == 12 && !memcmp(g.name, "{anon_group}", 12))
			len = 0;
		fprintf(fp, "# group: %.*s{", len, g.name);
		for (uint32_t m = 0; m < g.members; m++) {
			const char *ev = lupe_evsel_name(lupe_perf_file_evsel(f, g.leader + m));

			fprintf(fp, "%s%s", m ? "," : "", ev ? ev : "");
		}
		fputs("}\n", fp);
	}
}

/* perf's clockid_name(): the first name its table gives the id. */
static const char *clock_name(uint32_t id)
{
	switch (id) {
	case CLOCK_REALTIME: return "realtime";
	case CLOCK_MONOTONIC: return "monotonic";
	case CLOCK_MONOTONIC_RAW: return "monotonic_raw";
	case CLOCK_BOOTTIME: return "boottime";
	case CLOCK_TAI: return "tai";
	default: return "(not found)";
	}
}

static void print_clock_data(FILE *fp, const struct lupe_perf_feature *feat)
{
	uint64_t tod = feat->clock_data.tod_ns, clk = feat->clock_data.clock_ns;
	uint32_t id = feat->clock_data.clockid;
	time_t sec = (time_t)(tod / 1000000000ULL);
	char date[64] = "<error>";
	struct tm tm;

	if (feat->bad || feat->clock_data.version != 1) {
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

/*
 * The caps up to the end of the section or of a PMU_CAPS PMU, as perf
 * prints them: "name=value, ...". *pmu: a PMU_CAPS entry ended them. NULL
 * without memory.
 */
static char *caps_line(struct lupe_perf_feature *feat, struct lupe_perf_feature_entry *e, int *pmu)
{
	char *line = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&line, &size);
	int n = 0;

	*pmu = 0;
	if (!m)
		return NULL;
	while (lupe_perf_feature_next(feat, e) > 0) {
		if (e->kind != LUPE_FEAT_CAP) {
			*pmu = 1;
			break;
		}
		fprintf(m, "%s%.*s=%.*s", n++ ? ", " : "", e->name_len, e->name, e->value_len, e->value);
	}
	fclose(m);
	return line;
}

/* CPU_PMU_CAPS: the cpu PMU's capabilities; PMU_CAPS: each PMU's. */
static void print_caps(FILE *fp, struct lupe_perf_feature *feat)
{
	struct lupe_perf_feature_entry e;
	int pmu;
	char *line;

	if (feat->id == HEADER_CPU_PMU_CAPS) {
		if ((line = caps_line(feat, &e, &pmu)))
			fprintf(fp, "# cpu pmu capabilities: %s\n", feat->nr ? line : "not available");
		free(line);
		return;
	}
	while ((line = caps_line(feat, &e, &pmu)) && pmu) {
		fprintf(fp, "# %.*s pmu capabilities: %s\n", e.name_len, e.name,
			e.nr_caps ? line : "not available");
		free(line);
	}
	free(line);
}

static void print_cmdline(FILE *fp, struct lupe_perf_feature *feat)
{
	struct lupe_perf_feature_entry e;

	fputs("# cmdline : ", fp);
	while (lupe_perf_feature_next(feat, &e) > 0)
		fprintf(fp, "%.*s ", e.name_len, e.name);
	fputc('\n', fp);
}

static void print_pmu_mappings(FILE *fp, struct lupe_perf_feature *feat)
{
	struct lupe_perf_feature_entry e;

	fputs("# pmu mappings:", fp);
	for (int i = 0; lupe_perf_feature_next(feat, &e) > 0; i++)
		fprintf(fp, "%s %.*s = %u", i ? "," : "", e.name_len, e.name, e.type);
	fputc('\n', fp);
}

static void print_sample_time(FILE *fp, const struct lupe_perf_feature *feat)
{
	uint64_t first = feat->sample_time.first, last = feat->sample_time.last;

	fprintf(fp, "# time of first sample : %llu.%06llu\n", (unsigned long long)(first / 1000000000ULL),
		(unsigned long long)(first % 1000000000ULL / 1000));
	fprintf(fp, "# time of last sample : %llu.%06llu\n", (unsigned long long)(last / 1000000000ULL),
		(unsigned long long)(last % 1000000000ULL / 1000));
	fprintf(fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
}

static void print_feature(FILE *fp, struct lupe_perf_file *f, int id)
{
	struct lupe_perf_feature feat;

	switch (id) {
	case HEADER_HOSTNAME: print_string(fp, f, id, "hostname"); return;
	case HEADER_OSRELEASE: print_string(fp, f, id, "os release"); return;
	case HEADER_VERSION: print_string(fp, f, id, "perf version"); return;
	case HEADER_ARCH: print_string(fp, f, id, "arch"); return;
	case HEADER_CPUDESC: print_string(fp, f, id, "cpudesc"); return;
	case HEADER_CPUID: print_string(fp, f, id, "cpuid"); return;
	case HEADER_EVENT_DESC: print_events(fp, f); return;
	}
	if (!feature(f, id, &feat))
		return;
	switch (id) {
	case HEADER_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", feat.nrcpus.online,
			feat.nrcpus.avail);
		break;
	case HEADER_TOTAL_MEM:
		fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)feat.total_mem_kb);
		break;
	case HEADER_CMDLINE: print_cmdline(fp, &feat); break;
	case HEADER_CPU_TOPOLOGY: case HEADER_NUMA_TOPOLOGY: case HEADER_CACHE:
	case HEADER_MEM_TOPOLOGY: case HEADER_HYBRID_TOPOLOGY:
		fprintf(fp, "# %s info available, use -I to display\n", lupe_perf_feature_name(id));
		break;
	case HEADER_PMU_MAPPINGS: print_pmu_mappings(fp, &feat); break;
	case HEADER_SAMPLE_TIME: print_sample_time(fp, &feat); break;
	case HEADER_BRANCH_STACK: fputs("# contains samples with branch stack\n", fp); break;
	case HEADER_AUXTRACE: fputs("# contains AUX area data (e.g. instruction trace)\n", fp); break;
	case HEADER_STAT: fputs("# contains stat data\n", fp); break;
	case HEADER_GROUP_DESC: print_groups(fp, f, &feat); break;
	case HEADER_CLOCKID:
		fprintf(fp, "# clockid frequency: %llu MHz\n", (unsigned long long)feat.clockid_res_ns * 1000);
		break;
	case HEADER_DIR_FORMAT:
		fprintf(fp, "# directory data version : %llu\n", (unsigned long long)feat.dir_format);
		break;
	case HEADER_CLOCK_DATA: print_clock_data(fp, &feat); break;
	case HEADER_CPU_PMU_CAPS: case HEADER_PMU_CAPS: print_caps(fp, &feat); break;
	case HEADER_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %u, ratio = %u\n",
			feat.compressed.type == 1 ? "Zstd" : "Unknown", feat.compressed.level,
			feat.compressed.ratio);
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
		for (int id = 1; id < HEADER_LAST_FEATURE; id++)
			print_feature(fp, f, id);
	}
	if (full && !pipe) {
		fputs("# missing features:", fp);
		for (int id = 1; id < HEADER_LAST_FEATURE; id++)
			if (!lupe_perf_file_feature(f, id, &fsz))
				fprintf(fp, " %s", lupe_perf_feature_name(id));
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
	struct lupe_perf_record_fields r;

	if (ev->type == PERF_RECORD_HEADER_FEATURE && !lupe_perf_record_decode(ev, &r)) {
		uint64_t id = r.feature->feat_id;

		if (id < HEADER_LAST_FEATURE)
			print_feature(h->fp, h->f, (int)id);
		else if (id == HEADER_LAST_FEATURE && !in) /* perf's end of the features: --header-only stops */
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
