// SPDX-License-Identifier: GPL-2.0
/*
 * Header features from the host. perf's reader takes each section by its
 * size, so a feature we cannot fill is left out rather than written empty.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "data/features.h"
#include "util/util.h"

#define SYS_CPU "/sys/devices/system/cpu"

/* The value of "key : value" in /proc/cpuinfo (first CPU), spaces squeezed. */
static int cpuinfo_value(const char *cpuinfo, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	for (const char *l = cpuinfo; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *v;
		size_t n = 0;
		int space = 0;

		if (strncmp(l, key, klen) || (l[klen] != ' ' && l[klen] != '\t' && l[klen] != ':'))
			continue;
		v = strchr(l, ':');
		if (!v)
			return -ENOENT;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		for (; *v && *v != '\n' && n + 1 < size; v++) {
			if (*v == ' ' || *v == '\t') {
				space = 1;
				continue;
			}
			if (space && n)
				out[n++] = ' ';
			space = 0;
			if (n + 1 < size)
				out[n++] = *v;
		}
		out[n] = '\0';
		return 0;
	}
	return -ENOENT;
}

/* Highest CPU number in a sysfs list such as "0-3,5", plus one. */
static int cpu_list_max(const char *list)
{
	int max = 0;

	for (const char *p = list; *p;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v + 1 > max)
			max = (int)v + 1;
		p = *end ? end + 1 : end;
	}
	return max;
}

static void add_unique(char ***list, int *nr, const char *s)
{
	char **n;

	for (int i = 0; i < *nr; i++)
		if (!strcmp((*list)[i], s))
			return;
	n = realloc(*list, (*nr + 1) * sizeof(*n));
	if (!n)
		return;
	*list = n;
	n[*nr] = strdup(s);
	if (n[*nr])
		(*nr)++;
}

static void put_list(struct fbuf *b, char **list, int nr)
{
	lupe_fbuf_u32(b, nr);
	for (int i = 0; i < nr; i++) {
		lupe_fbuf_string(b, list[i]);
		free(list[i]);
	}
	free(list);
}

static int read_topo(int cpu, const char *name, const char *alt, char *buf, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, name);
	if (lupe_read_small_file(path, buf, size) >= 0)
		return 0;
	if (!alt)
		return -ENOENT;
	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, alt);
	return lupe_read_small_file(path, buf, size) >= 0 ? 0 : -ENOENT;
}

/*
 * CPU_TOPOLOGY: the distinct core (package) sibling lists, the distinct
 * thread sibling lists, core and socket id per CPU, then the die lists and
 * die ids. Offline CPUs get -1 ids as perf gives them.
 */
static void cpu_topology(struct fbuf *b, int nr_cpus)
{
	char **core = NULL, **thread = NULL, **die = NULL, buf[4096];
	int nr_core = 0, nr_thread = 0, nr_die = 0;

	for (int c = 0; c < nr_cpus; c++) {
		if (!read_topo(c, "package_cpus_list", "core_siblings_list", buf, sizeof(buf)))
			add_unique(&core, &nr_core, buf);
		if (!read_topo(c, "core_cpus_list", "thread_siblings_list", buf, sizeof(buf)))
			add_unique(&thread, &nr_thread, buf);
		if (!read_topo(c, "die_cpus_list", NULL, buf, sizeof(buf)))
			add_unique(&die, &nr_die, buf);
	}
	put_list(b, core, nr_core);
	put_list(b, thread, nr_thread);
	for (int c = 0; c < nr_cpus; c++) {
		int core_id = -1, socket_id = -1;

		if (!read_topo(c, "core_id", NULL, buf, sizeof(buf)))
			core_id = atoi(buf);
		if (!read_topo(c, "physical_package_id", NULL, buf, sizeof(buf)))
			socket_id = atoi(buf);
		lupe_fbuf_u32(b, core_id);
		lupe_fbuf_u32(b, socket_id);
	}
	put_list(b, die, nr_die);
	for (int c = 0; c < nr_cpus; c++) {
		int die_id = -1;

		if (!read_topo(c, "die_id", NULL, buf, sizeof(buf)))
			die_id = atoi(buf);
		lupe_fbuf_u32(b, die_id);
	}
}

/* PMU_MAPPINGS: nr, then (type, name) of each PMU in sysfs. */
static void pmu_mappings(struct fbuf *b)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct fbuf body = { 0 };
	struct dirent *de;
	uint32_t nr = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX], buf[32];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", de->d_name);
		if (lupe_read_small_file(path, buf, sizeof(buf)) < 0)
			continue;
		lupe_fbuf_u32(&body, (uint32_t)strtoul(buf, NULL, 10));
		lupe_fbuf_string(&body, de->d_name);
		nr++;
	}
	closedir(d);
	lupe_fbuf_u32(b, nr);
	lupe_fbuf_add(b, body.data, body.len);
	lupe_fbuf_free(&body);
}

/* CPUID as perf's x86 code prints it: vendor,family,model,stepping. */
static int x86_cpuid(const char *cpuinfo, char *out, size_t size)
{
	char vendor[64], family[16], model[16], stepping[16];

	if (cpuinfo_value(cpuinfo, "vendor_id", vendor, sizeof(vendor)) ||
	    cpuinfo_value(cpuinfo, "cpu family", family, sizeof(family)) ||
	    cpuinfo_value(cpuinfo, "model", model, sizeof(model)) ||
	    cpuinfo_value(cpuinfo, "stepping", stepping, sizeof(stepping)))
		return -ENOENT;
	snprintf(out, size, "%s,%s,%s,%s", vendor, family, model, stepping);
	return 0;
}

static int emit(struct perf_writer *w, int feat, struct fbuf *b, int pipe)
{
	int err;

	if (b->err) {
		err = b->err;
		lupe_fbuf_free(b);
		return err;
	}
	if (pipe) {
		err = lupe_perf_writer_pipe_feature(w, feat, b);
		lupe_fbuf_free(b);
		return err;
	}
	return lupe_perf_writer_add_feature(w, feat, b);
}

static long total_mem_kb(void)
{
	char *mi = lupe_read_whole_file("/proc/meminfo", NULL), *p;
	long kb = -1;

	if (!mi)
		return -1;
	p = strstr(mi, "MemTotal:");
	if (p)
		kb = strtol(p + 9, NULL, 10);
	free(mi);
	return kb;
}

int lupe_features_write(struct perf_writer *w, const struct feat_env *env, int pipe)
{
	struct utsname u;
	struct fbuf b = { 0 };
	char buf[PATH_MAX], *cpuinfo;
	int nr_avail = 0, nr_online = (int)sysconf(_SC_NPROCESSORS_ONLN), err = 0;
	long kb;

#define EMIT(feat) do { int e_ = emit(w, feat, &b, pipe); if (e_ && !err) err = e_; \
			memset(&b, 0, sizeof(b)); } while (0)

	if (uname(&u) == 0) {
		lupe_fbuf_string(&b, u.nodename);
		EMIT(HEADER_HOSTNAME);
		lupe_fbuf_string(&b, u.release);
		EMIT(HEADER_OSRELEASE);
	}
	lupe_fbuf_string(&b, env->version ? env->version : "lupe");
	EMIT(HEADER_VERSION);
	if (uname(&u) == 0) {
		lupe_fbuf_string(&b, u.machine);
		EMIT(HEADER_ARCH);
	}

	if (lupe_read_small_file(SYS_CPU "/present", buf, sizeof(buf)) >= 0)
		nr_avail = cpu_list_max(buf);
	if (nr_avail < nr_online)
		nr_avail = nr_online;
	lupe_fbuf_u32(&b, nr_avail);
	lupe_fbuf_u32(&b, nr_online);
	EMIT(HEADER_NRCPUS);

	cpuinfo = lupe_read_whole_file("/proc/cpuinfo", NULL);
	if (cpuinfo) {
		if (!cpuinfo_value(cpuinfo, "model name", buf, sizeof(buf))) {
			lupe_fbuf_string(&b, buf);
			EMIT(HEADER_CPUDESC);
		}
		if (!x86_cpuid(cpuinfo, buf, sizeof(buf))) {
			lupe_fbuf_string(&b, buf);
			EMIT(HEADER_CPUID);
		}
		free(cpuinfo);
	}

	kb = total_mem_kb();
	if (kb > 0) {
		lupe_fbuf_u64(&b, (uint64_t)kb);
		EMIT(HEADER_TOTAL_MEM);
	}

	{
		ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

		buf[n > 0 ? n : 0] = '\0';
		lupe_fbuf_u32(&b, env->argc + 1);
		lupe_fbuf_string(&b, n > 0 ? buf : "lupe");
		for (int i = 0; i < env->argc; i++)
			lupe_fbuf_string(&b, env->argv[i]);
		EMIT(HEADER_CMDLINE);
	}

	lupe_features_event_desc(w, &b);
	EMIT(HEADER_EVENT_DESC);

	cpu_topology(&b, nr_avail);
	EMIT(HEADER_CPU_TOPOLOGY);

	pmu_mappings(&b);
	EMIT(HEADER_PMU_MAPPINGS);

	if (env->tracing_data && env->tracing_data->len) {
		if (pipe) {
			/* pipe mode carries tracing data as its own record (see record.c) */
		} else {
			b = *env->tracing_data;
			memset(env->tracing_data, 0, sizeof(*env->tracing_data));
			EMIT(HEADER_TRACING_DATA);
		}
	}

	if (!pipe && env->build_ids && env->build_ids->len) {
		b = *env->build_ids;
		memset(env->build_ids, 0, sizeof(*env->build_ids));
		EMIT(HEADER_BUILD_ID);
	}

	if (!pipe && env->first_sample_time && env->last_sample_time) {
		lupe_fbuf_u64(&b, env->first_sample_time);
		lupe_fbuf_u64(&b, env->last_sample_time);
		EMIT(HEADER_SAMPLE_TIME);
	}

	if (env->use_clockid) {
		lupe_fbuf_u64(&b, env->clockid_res_ns);
		EMIT(HEADER_CLOCKID);
		lupe_fbuf_u32(&b, 1); /* version */
		lupe_fbuf_u32(&b, (uint32_t)env->clockid);
		lupe_fbuf_u64(&b, env->clock_tod_ns);
		lupe_fbuf_u64(&b, env->clock_ref_ns);
		EMIT(HEADER_CLOCK_DATA);
	}

	if (env->comp_level) {
		lupe_fbuf_u32(&b, 1);  /* version */
		lupe_fbuf_u32(&b, 1);  /* type: zstd */
		lupe_fbuf_u32(&b, env->comp_level);
		lupe_fbuf_u32(&b, env->comp_ratio);
		lupe_fbuf_u32(&b, env->comp_mmap_len);
		EMIT(HEADER_COMPRESSED);
	}
#undef EMIT
	return err;
}
