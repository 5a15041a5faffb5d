// SPDX-License-Identifier: GPL-2.0
/*
 * lupe exporter: perf counters served to Prometheus. The counters are
 * opened once (per CPU for -a/-C/-G, per process for -p) and read at each
 * scrape of /metrics; the values are cumulative since the exporter started,
 * scaled as perf scales multiplexed counters, so they are Prometheus
 * counters and rate() gives events per second.
 *
 * A scrape of 2 CPUs x 10 events is 20 read(2)s and a few KB of text: the
 * cost is the HTTP round trip, not the counting (scripts/bench/exporter).
 * The CPU set is fixed at start: a CPU taken offline keeps its last counts
 * (the kernel stops its events) and one brought online is not counted
 * until a restart, as with perf stat -a.
 */
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/capability.h>
#include <unistd.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>
#include <lupe/evlist.h>
#include <lupe/evsel.h>
#include <lupe/number.h>
#include "builtin.h"
#include "options.h"
#include "exporter-http.h"
#include "listen.h"
#include "parse-error.h"
#include "prometheus.h"

#define DEFAULT_LISTEN "127.0.0.1:9333"
#define DEFAULT_USER "nobody"
/* what node_exporter's perf collector counts, so that --names node_exporter fills its dashboards */
#define DEFAULT_EVENTS \
	"cycles,instructions,branches,branch-misses,cache-references,cache-misses,ref-cycles," \
	"page-faults,context-switches,cpu-migrations,minor-faults,major-faults," \
	"L1-dcache-loads,L1-dcache-load-misses,L1-dcache-stores,L1-icache-load-misses," \
	"iTLB-loads,iTLB-load-misses,LLC-loads,LLC-load-misses,LLC-stores,LLC-store-misses," \
	"branch-loads,branch-load-misses"

enum names { NAMES_LUPE, NAMES_NODE_EXPORTER };

struct exp_opts {
	const char *listen;
	CMD_TARGET; /* -e, -a, -C, -p; -G the cgroups, on their own */
	enum names names;
	const char *auth_file;
	const char *tls_cert, *tls_key;
	const char *user; /* served as, once the counters are open */
};

/* One set of counters with its label: the CPUs, one cgroup on the CPUs, or one process. */
struct exp_target {
	const char *label; /* "cgroup", "pid", or NULL */
	char *value;
	struct lupe_evlist *evlist;
	struct lupe_thread_map *threads;
	int cgroup_fd;
};

/* What a scrape prints for each event of the list. */
struct exp_metric {
	int skip;        /* left out: unsupported, a tool event, or a name already taken */
	char name[256];  /* the family (node_exporter names) */
	char help[320];
};

struct exporter {
	struct exp_opts *o;
	struct lupe_event_list events;
	struct lupe_cpu_map *cpus;
	struct exp_target *targets;
	int nr_targets;
	int per_cpu;
	struct exp_metric *metrics;
	int nr_unsupported;
	uint64_t scrapes;
};

/* -G: names, or comma lists of them, each counted per CPU (no -e pairing: perf stat's) */
static error_t add_cgroups(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct exp_opts *o = state->input;

	(void)opt;
	for (char *s = strtok(arg, ","); s; s = strtok(NULL, ",")) {
		char **l = realloc(o->cgroups, (o->nr_cgroups + 1) * sizeof(*l));

		if (!l)
			argp_failure(state, EXIT_DIE, ENOMEM, "-G");
		o->cgroups = l;
		l[o->nr_cgroups++] = s;
	}
	return 0;
}

static error_t set_names(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	struct exp_opts *o = state->input;

	(void)opt;
	if (strcmp(arg, "lupe") && strcmp(arg, "node_exporter"))
		argp_error(state, "--names takes lupe or node_exporter, not '%s'", arg);
	o->names = strcmp(arg, "lupe") ? NAMES_NODE_EXPORTER : NAMES_LUPE;
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key == ARGP_KEY_ARG)
		argp_error(state, "the exporter runs no command: count one with -p PID or -G CGROUP");
	return ARGP_ERR_UNKNOWN;
}

#define CMD_OPTS struct exp_opts
static const struct cmd_option options[] = {
	OPT_STRING(0, "listen", "ADDR:PORT", listen, "address to serve /metrics on (default " DEFAULT_LISTEN ", loopback only)"),
	OPT_EVENT("event selector; use 'lupe list' to list available events"),
	OPT_ALL_CPUS(system_wide, "count on every online CPU (the default)"),
	OPT_CPU("CPU", cpu_list, "list of CPUs to count on"),
	OPT_CALLBACK('G', "cgroup", "NAME", 0, add_cgroups, "count what runs in the cgroup NAME (a list, or given again), per CPU"),
	OPT_PID(pids, "count the processes of a list of pids, each on its own"),
	OPT_CALLBACK(0, "names", "STYLE", 0, set_names, "metric names: lupe (default) or node_exporter (its perf collector's)"),
	OPT_STRING(0, "basic-auth-file", "FILE", auth_file, "require HTTP basic authentication with the USER:PASSWORD in FILE"),
	OPT_STRING(0, "tls-cert", "FILE", tls_cert, "serve HTTPS with this PEM certificate (and --tls-key)"),
	OPT_STRING(0, "tls-key", "FILE", tls_key, "the PEM private key of --tls-cert"),
	OPT_STRING(0, "user", "USER", user, "serve as USER, with no capabilities, once the counters are open (default " DEFAULT_USER "; root only)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, parse_opt, NULL,
	"Serve perf counters to Prometheus at http://ADDR:PORT/metrics.\v"
	"The counters are opened once and read at each scrape. It listens on "
	DEFAULT_LISTEN " unless --listen says otherwise, and stops on SIGTERM or SIGINT." };

/* node_exporter's perf collector: its metric for each event it counts. */
#define CACHE(id, op, res) \
	(PERF_COUNT_HW_CACHE_##id | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##res << 16)
static const struct {
	uint32_t type;
	uint64_t config;
	const char *name, *help;
} node_names[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cpucycles", "Number of CPU cycles (frequency scaled)" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", "Number of CPU instructions" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branch_instructions", "Number of CPU branch instructions" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch_misses", "Number of CPU branch misses" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "cache_refs", "Number of cache references (non frequency scaled)" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache_misses", "Number of cache misses" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "ref_cpucycles", "Number of CPU cycles" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page_faults", "Number of page faults" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context_switches", "Number of context switches" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu_migrations", "Number of CPU process migrations" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor_faults", "Number of minor page faults" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major_faults", "Number of major page faults" },
	{ PERF_TYPE_HW_CACHE, CACHE(L1D, READ, ACCESS), "cache_l1d_read_hits", "Number L1 data cache read hits" },
	{ PERF_TYPE_HW_CACHE, CACHE(L1D, READ, MISS), "cache_l1d_read_misses", "Number L1 data cache read misses" },
	{ PERF_TYPE_HW_CACHE, CACHE(L1D, WRITE, ACCESS), "cache_l1d_write_hits", "Number L1 data cache write hits" },
	{ PERF_TYPE_HW_CACHE, CACHE(L1I, READ, MISS), "cache_l1_instr_read_misses", "Number instruction L1 instruction read misses" },
	{ PERF_TYPE_HW_CACHE, CACHE(ITLB, READ, ACCESS), "cache_tlb_instr_read_hits", "Number instruction TLB read hits" },
	{ PERF_TYPE_HW_CACHE, CACHE(ITLB, READ, MISS), "cache_tlb_instr_read_misses", "Number instruction TLB read misses" },
	{ PERF_TYPE_HW_CACHE, CACHE(LL, READ, ACCESS), "cache_ll_read_hits", "Number last level read hits" },
	{ PERF_TYPE_HW_CACHE, CACHE(LL, READ, MISS), "cache_ll_read_misses", "Number last level read misses" },
	{ PERF_TYPE_HW_CACHE, CACHE(LL, WRITE, ACCESS), "cache_ll_write_hits", "Number last level write hits" },
	{ PERF_TYPE_HW_CACHE, CACHE(LL, WRITE, MISS), "cache_ll_write_misses", "Number last level write misses" },
	{ PERF_TYPE_HW_CACHE, CACHE(BPU, READ, ACCESS), "cache_bpu_read_hits", "Number BPU read hits" },
	{ PERF_TYPE_HW_CACHE, CACHE(BPU, READ, MISS), "cache_bpu_read_misses", "Number BPU read misses" },
};

/* The family node_exporter would give the event; tracepoints have no _total there. */
static void node_exporter_name(const struct lupe_event *ev, struct exp_metric *m)
{
	for (size_t i = 0; i < sizeof(node_names) / sizeof(node_names[0]); i++) {
		if (node_names[i].type == ev->attr.type && node_names[i].config == ev->attr.config) {
			prom_metric_name(m->name, sizeof(m->name), "node_perf_", node_names[i].name,
					 "_total");
			snprintf(m->help, sizeof(m->help), "%s", node_names[i].help);
			return;
		}
	}
	if (ev->attr.type == PERF_TYPE_TRACEPOINT) {
		prom_metric_name(m->name, sizeof(m->name), "node_perf_", ev->name, "");
		snprintf(m->help, sizeof(m->help), "Perf tracepoint %s", ev->name);
		return;
	}
	prom_metric_name(m->name, sizeof(m->name), "node_perf_", ev->name, "_total");
	snprintf(m->help, sizeof(m->help), "Number of %s events (perf event %s)", ev->name, ev->name);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Counters that were multiplexed or never ran in this scrape. */
struct scrape_health {
	int multiplexed, not_counted;
};

static void emit_event(struct exporter *x, FILE *f, int idx, struct scrape_health *h)
{
	const char *family = x->o->names == NAMES_LUPE ? "lupe_events_total" : x->metrics[idx].name;
	int naggr = x->per_cpu ? lupe_cpu_map_nr(x->cpus) : 1;

	for (int t = 0; t < x->nr_targets; t++) {
		struct exp_target *tg = &x->targets[t];
		struct lupe_evsel *evsel = lupe_evlist_evsel(tg->evlist, idx);

		if (!lupe_evsel_supported(evsel))
			continue;
		for (int a = 0; a < naggr; a++) {
			struct lupe_counts c = lupe_evsel_aggr_counts(evsel, x->per_cpu ?
				LUPE_AGGR_CPU : LUPE_AGGR_GLOBAL, a);
			char cpu[16];
			struct prom_label labels[] = {
				{ "event", x->o->names == NAMES_LUPE ? lupe_evsel_name(evsel) : NULL },
				{ "cpu", x->per_cpu ? cpu : NULL },
				{ tg->label, tg->value },
			};
			int scaled = lupe_counts_scale(&c);

			/* never enabled is nothing happened; enabled but never run is unknown */
			if (scaled < 0 && c.ena) {
				h->not_counted++;
				continue;
			}
			h->multiplexed += scaled > 0;
			snprintf(cpu, sizeof(cpu), "%d", lupe_cpu_map_cpu(x->cpus, a));
			prom_sample_u64(f, family, labels, 3, c.val);
		}
	}
}

static void emit_self(struct exporter *x, FILE *f, const struct scrape_health *h, uint64_t t0)
{
	prom_family(f, "lupe_exporter_events_unsupported", "gauge",
		    "Events left out because this machine cannot count them");
	prom_sample_u64(f, "lupe_exporter_events_unsupported", NULL, 0, x->nr_unsupported);
	prom_family(f, "lupe_exporter_counters_multiplexed", "gauge",
		    "Counters whose values in this scrape are estimates: the kernel multiplexed "
		    "them and they were scaled by time enabled / time running");
	prom_sample_u64(f, "lupe_exporter_counters_multiplexed", NULL, 0, h->multiplexed);
	prom_family(f, "lupe_exporter_counters_not_counted", "gauge",
		    "Counters left out of this scrape: enabled but never on a PMU");
	prom_sample_u64(f, "lupe_exporter_counters_not_counted", NULL, 0, h->not_counted);
	prom_family(f, "lupe_exporter_scrapes_total", "counter", "Scrapes of /metrics served");
	prom_sample_u64(f, "lupe_exporter_scrapes_total", NULL, 0, ++x->scrapes);
	prom_family(f, "lupe_exporter_scrape_duration_seconds", "gauge",
		    "Seconds this scrape took to read the counters and format them");
	prom_sample_double(f, "lupe_exporter_scrape_duration_seconds", NULL, 0,
			   (now_ns() - t0) / 1e9);
}

static int render_metrics(struct exporter *x, FILE *f)
{
	struct scrape_health h = { 0, 0 };
	uint64_t t0 = now_ns();

	for (int t = 0; t < x->nr_targets; t++) {
		int err = lupe_evlist_read(x->targets[t].evlist);

		if (err) {
			fprintf(f, "cannot read the counters: %s\n", lupe_strerror(err));
			return 500;
		}
	}
	if (x->o->names == NAMES_LUPE)
		prom_family(f, "lupe_events_total", "counter",
			    "perf event counts since the exporter started, by event (perf's name) "
			    "and CPU, scaled when multiplexed");
	for (int i = 0; i < lupe_evlist_nr(x->targets[0].evlist); i++) {
		if (x->metrics[i].skip)
			continue;
		if (x->o->names == NAMES_NODE_EXPORTER)
			prom_family(f, x->metrics[i].name, "counter", x->metrics[i].help);
		emit_event(x, f, i, &h);
	}
	emit_self(x, f, &h, t0);
	return 200;
}

static int page(void *arg, const char *path, char **body, size_t *len, const char **ctype)
{
	struct exporter *x = arg;
	FILE *f = open_memstream(body, len);
	int status;

	if (!f) {
		*body = NULL;
		*len = 0;
		return 500;
	}
	if (!strcmp(path, "/metrics")) {
		status = render_metrics(x, f);
		if (status == 200)
			*ctype = PROM_CONTENT_TYPE;
	} else if (!strcmp(path, "/")) {
		fputs("<html><head><title>lupe exporter</title></head><body>"
		      "<h1>lupe exporter</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n", f);
		*ctype = "text/html; charset=utf-8";
		status = 200;
	} else {
		fputs("not found: the counters are at /metrics\n", f);
		status = 404;
	}
	if (fclose(f)) {
		free(*body);
		*body = NULL;
		*len = 0;
		return 500;
	}
	return status;
}

/* The cgroup NAME, relative to that root, as perf -G takes it. */
static int open_cgroup(const char *name)
{
	char root[4096];
	int fd = lupe_cgroup_open(name); /* under the root perf finds (lupe_cgroup_root) */

	if (fd >= 0)
		return fd;
	if (lupe_cgroup_root(root, sizeof(root)))
		return error("cannot count cgroup '%s': no cgroup2 or perf_event cgroup "
			     "hierarchy is mounted", name);
	return error("cannot count cgroup '%s': no such cgroup under %s (give its path "
		     "relative to it, as 'system.slice/cron.service')", name, root);
}

static int add_target(struct exporter *x, const char *label, const char *value)
{
	struct exp_target *t = realloc(x->targets, (x->nr_targets + 1) * sizeof(*t));

	if (!t)
		return error("out of memory");
	x->targets = t;
	t = &x->targets[x->nr_targets++];
	memset(t, 0, sizeof(*t));
	t->label = label;
	t->cgroup_fd = -1;
	t->value = value ? strdup(value) : NULL;
	t->evlist = lupe_evlist_new(&x->events);
	if (!t->evlist || (value && !t->value))
		return error("cannot set up the events: %s", strerror(errno));
	return 0;
}

static int make_targets(struct exporter *x)
{
	struct exp_opts *o = x->o;

	x->per_cpu = !o->pids;
	x->cpus = o->pids ? lupe_cpu_map_any() : cmd_target_cpus(&o->target, "count");
	if (!x->cpus) /* cmd_target_cpus() said why */
		return o->pids ? error("out of memory") : -1;
	if (o->pids) {
		char *list = strdup(o->pids), *save = NULL;

		if (!list)
			return error("out of memory");
		for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
			if (add_target(x, "pid", p))
				return free(list), -1;
			x->targets[x->nr_targets - 1].threads = lupe_thread_map_new_pids(p);
			if (!x->targets[x->nr_targets - 1].threads) {
				error("cannot count process '%s': %s", p, pid_list_error(errno));
				return free(list), -1;
			}
		}
		free(list);
		return 0;
	}
	if (!o->nr_cgroups) {
		if (add_target(x, NULL, NULL))
			return -1;
		x->targets[0].threads = lupe_thread_map_new_one(-1);
		return x->targets[0].threads ? 0 : error("cannot count: %s", strerror(errno));
	}
	for (int i = 0; i < o->nr_cgroups; i++) {
		struct exp_target *t;

		if (add_target(x, "cgroup", o->cgroups[i]))
			return -1;
		t = &x->targets[x->nr_targets - 1];
		t->cgroup_fd = open_cgroup(o->cgroups[i]);
		if (t->cgroup_fd < 0)
			return -1;
		t->threads = lupe_thread_map_new_one(t->cgroup_fd);
		if (!t->threads)
			return error("cannot count: %s", strerror(errno));
	}
	return 0;
}

static int open_targets(struct exporter *x)
{
	LUPE_OPTS(lupe_evlist_opts, opts, .inherit = x->o->pids != NULL, .cgroup = x->o->nr_cgroups > 0);

	for (int t = 0; t < x->nr_targets; t++) {
		struct lupe_open_failure fail = { .evsel = -1 };
		struct exp_target *tg = &x->targets[t];
		int err = lupe_evlist_open(tg->evlist, x->cpus, tg->threads, &opts, &fail);
		char msg[512];

		if (!err)
			continue;
		if (err == -ENOMEM || fail.evsel < 0)
			return error("cannot open the events: %s", lupe_strerror(err));
		if (tg->label && !strcmp(tg->label, "cgroup") && fail.err == -EBADF)
			return error("cannot count cgroup '%s': the kernel refused it as a perf "
				     "event cgroup", tg->value);
		fail.pid = tg->label && !strcmp(tg->label, "cgroup") ? -1 : fail.pid;
		{
			struct lupe_evsel *evsel = lupe_evlist_evsel(tg->evlist, fail.evsel);

			return error("%s", lupe_open_strerror(fail.err, lupe_evsel_attr(evsel),
							       lupe_evsel_name(evsel), fail.cpu,
							       fail.pid, msg, sizeof(msg)));
		}
	}
	return 0;
}

/*
 * Decide what each event becomes: left out when the machine lacks it (one
 * notice for all of them), when it is a tool event (no counter to read),
 * or when its metric would repeat one already served.
 */
static int plan_metrics(struct exporter *x)
{
	struct lupe_evlist *evlist = x->targets[0].evlist;
	int nr = lupe_evlist_nr(evlist);
	char *unsup = NULL;
	size_t unsup_len = 0;
	FILE *u = open_memstream(&unsup, &unsup_len);

	x->metrics = calloc(nr ? nr : 1, sizeof(*x->metrics));
	if (!x->metrics || !u)
		return error("out of memory");
	for (int i = 0; i < nr; i++) {
		struct lupe_evsel *evsel = lupe_evlist_evsel(evlist, i);
		struct exp_metric *m = &x->metrics[i];
		const char *name = lupe_evsel_name(evsel);

		if (lupe_evsel_tool(evsel)) {
			warning("'%s' is a tool event with no counter to read; left out", name);
			m->skip = 1;
			continue;
		}
		if (!lupe_evsel_supported(evsel)) {
			fprintf(u, "%s%s", x->nr_unsupported++ ? ", " : "", name);
			m->skip = 1;
			continue;
		}
		if (x->o->names == NAMES_NODE_EXPORTER)
			node_exporter_name(&x->events.events[i], m);
		else
			snprintf(m->name, sizeof(m->name), "%s", name);
		for (int j = 0; j < i; j++) {
			if (!x->metrics[j].skip && !strcmp(x->metrics[j].name, m->name)) {
				warning("'%s' is given twice (as '%s'); served once", name, m->name);
				m->skip = 1;
				break;
			}
		}
	}
	fclose(u);
	if (x->nr_unsupported)
		warning("left out %d event%s this machine cannot count: %s", x->nr_unsupported,
			x->nr_unsupported > 1 ? "s" : "", unsup);
	free(unsup);
	for (int i = 0; i < nr; i++)
		if (!x->metrics[i].skip)
			return 0;
	return error("none of the events can be counted here (see 'lupe list' for those that can)");
}

static int parse_events(struct exporter *x)
{
	struct exp_opts *o = x->o;
	int n = o->nr_events ? o->nr_events : 1;

	for (int i = 0; i < n; i++) {
		int err = ui_parse_events(&x->events, o->nr_events ? o->events[i] : DEFAULT_EVENTS);

		if (err)
			return err == -LUPE_ERR_PARSE ? EXIT_USAGE : 1;
	}
	return 0;
}

static void teardown(struct exporter *x)
{
	for (int t = 0; t < x->nr_targets; t++) {
		struct exp_target *tg = &x->targets[t];

		if (tg->evlist)
			lupe_evlist_disable(tg->evlist);
		lupe_evlist_delete(tg->evlist);
		lupe_thread_map_put(tg->threads);
		if (tg->cgroup_fd >= 0)
			close(tg->cgroup_fd);
		free(tg->value);
	}
	free(x->targets);
	free(x->metrics);
	lupe_cpu_map_put(x->cpus);
	lupe_event_list_clear(&x->events);
}

static void describe(struct exporter *x, char *buf, size_t size)
{
	int nev = 0;

	for (int i = 0; i < lupe_evlist_nr(x->targets[0].evlist); i++)
		nev += !x->metrics[i].skip;
	if (x->o->pids)
		snprintf(buf, size, "%d event%s for %d process%s", nev, nev > 1 ? "s" : "",
			 x->nr_targets, x->nr_targets > 1 ? "es" : "");
	else if (x->o->nr_cgroups)
		snprintf(buf, size, "%d event%s for %d cgroup%s on %d CPU%s", nev, nev > 1 ? "s" : "",
			 x->nr_targets, x->nr_targets > 1 ? "s" : "", lupe_cpu_map_nr(x->cpus),
			 lupe_cpu_map_nr(x->cpus) > 1 ? "s" : "");
	else
		snprintf(buf, size, "%d event%s on %d CPU%s", nev, nev > 1 ? "s" : "",
			 lupe_cpu_map_nr(x->cpus), lupe_cpu_map_nr(x->cpus) > 1 ? "s" : "");
}

/* USER:PASSWORD from the first line of path, into buf; *password points into it. */
static int read_auth(const char *path, char *buf, size_t size, char **password)
{
	FILE *f = fopen(path, "r");
	char *colon;

	if (!f)
		return error("cannot read '%s': %s", path, strerror(errno));
	if (!fgets(buf, size, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\r\n")] = 0;
	colon = strchr(buf, ':');
	if (!colon || colon == buf || !colon[1])
		return error("cannot use '%s': its first line must be USER:PASSWORD", path);
	*colon = 0;
	*password = colon + 1;
	return 0;
}

/* A whole PEM file, NUL-terminated and malloc'ed; NULL after saying why. */
static char *read_pem(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[4096];
	size_t n;

	if (!f || !m) {
		error("cannot read '%s': %s", path, strerror(errno));
		if (f)
			fclose(f);
		if (m)
			fclose(m);
		free(buf);
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	if (!strstr(buf, "-----BEGIN ")) {
		error("cannot use '%s': not a PEM file (-----BEGIN ... lines)", path);
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The counters are open and the port bound: what is left to do (read the
 * open counters, answer on the open socket) needs no privilege, so the
 * server runs as an unprivileged user with no capabilities and no way to
 * gain one (no_new_privs, an empty bounding set). Started as root: becomes
 * --user (default nobody). Started as another user: keeps its uid, drops
 * any capability it was given (CAP_PERFMON as a file capability).
 */
static int drop_privileges(const struct exp_opts *o)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct none[2];
	const char *user = o->user ? o->user : DEFAULT_USER;

	memset(none, 0, sizeof(none));
	if (getuid() == 0 || geteuid() == 0) {
		struct passwd *pw = getpwnam(user);

		if (!pw)
			return error("cannot serve as '%s': no such user (name one with --user)", user);
		if (pw->pw_uid == 0)
			return error("cannot serve as '%s': it is root (name an unprivileged user with --user)",
				     user);
		for (int cap = 0; cap < 64; cap++)
			prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
		if (setgroups(1, &pw->pw_gid) || setgid(pw->pw_gid) || setuid(pw->pw_uid))
			return error("cannot serve as '%s': %s", user, strerror(errno));
	} else if (o->user) {
		struct passwd *pw = getpwnam(o->user);

		if (!pw || pw->pw_uid != getuid())
			return error("cannot serve as '%s': only root can change users (leave out --user)",
				     o->user);
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(SYS_capset, &h, none))
		return error("cannot drop the exporter's capabilities: %s", strerror(errno));
	return 0;
}

static int exporter_run(struct exp_opts *o)
{
	struct exporter x = { .o = o };
	struct exporter_http *http = NULL;
	char addr[300], what[128], auth[512], *password = NULL, *cert = NULL, *key = NULL;
	struct exporter_http_opts hopts = { NULL, NULL, NULL, NULL };
	sigset_t sigs;
	int fd = -1, loopback = 0, ret, sig;

	if (!exporter_http_available)
		return error("this lupe was built without libmicrohttpd, so it cannot serve HTTP "
			     "(install libmicrohttpd-dev and build again)"), 1;
	/*
	 * Signals are taken by sigwait() once serving; blocked from the start,
	 * so that a SIGTERM during the open still goes through the fast close,
	 * and inherited by the server's thread so that they come to us.
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	ret = parse_events(&x);
	if (ret)
		goto out;
	ret = 1;
	if (o->auth_file && read_auth(o->auth_file, auth, sizeof(auth), &password))
		goto out;
	if (o->tls_cert && (!(cert = read_pem(o->tls_cert)) || !(key = read_pem(o->tls_key))))
		goto out;
	hopts = (struct exporter_http_opts){ password ? auth : NULL, password, cert, key };
	/* the port first: a refused address must not cost an open of every counter */
	fd = cmd_listen(o->listen, "--listen", addr, sizeof(addr), &loopback);
	if (fd < 0)
		goto out;
	if (make_targets(&x) || open_targets(&x) || plan_metrics(&x))
		goto out;
	for (int t = 0; t < x.nr_targets; t++)
		lupe_evlist_enable(x.targets[t].evlist);
	if (drop_privileges(o))
		goto out;
	http = exporter_http_start(fd, page, &x, &hopts);
	fd = -1; /* the server owns it now, or closed it */
	if (!http) {
		if (errno == ENOTSUP)
			error("cannot serve HTTPS: this libmicrohttpd was built without TLS");
		else if (cert)
			error("cannot serve HTTPS with '%s' and '%s': the TLS library refused them "
			      "(is the key the certificate's, both PEM?)", o->tls_cert, o->tls_key);
		else
			error("cannot start the HTTP server: %s", strerror(errno));
		goto out;
	}
	describe(&x, what, sizeof(what));
	fprintf(stderr, "lupe exporter: serving %s at %s://%s/metrics%s\n", what,
		cert ? "https" : "http", addr,
		loopback ? " (loopback only: --listen 0.0.0.0:PORT serves other machines)" : "");
	fflush(stderr);
	/* 4 times a second, the requests past their deadline are cut */
	for (;;) {
		struct timespec tick = { 0, 250000000 };

		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
			break;
		exporter_http_tick(http);
	}
	ret = 0;
out:
	exporter_http_stop(http);
	if (fd >= 0)
		close(fd);
	teardown(&x);
	free(cert);
	free(key);
	return ret;
}

static int check_opts(const struct exp_opts *o)
{
	int targets = (o->system_wide || o->cpu_list) + !!o->pids;

	if (targets > 1)
		return error("-p counts processes wherever they run: it cannot be used with -a or -C");
	if (o->pids && o->nr_cgroups)
		return error("-G counts cgroups on CPUs and -p counts processes: pick one");
	if (!o->tls_cert != !o->tls_key)
		return error("HTTPS needs both --tls-cert and --tls-key");
	return 0;
}

int cmd_exporter(int argc, char **argv)
{
	struct exp_opts o = { .listen = DEFAULT_LISTEN };
	int idx, ret = EXIT_USAGE;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o))
		goto out;
	if (check_opts(&o))
		goto out;
	ret = exporter_run(&o);
out:
	cmd_target_clear(&o.target);
	return ret;
}
