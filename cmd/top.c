// SPDX-License-Identifier: GPL-2.0
/*
 * lupe top: report on the live source. A reader thread runs the session
 * over the live rings (system-wide by default, the /proc state synthesized
 * first, then COMM/MMAP2/EXIT as they come) into report's consumer; the
 * main thread re-finishes the same report on a timer and shows it, in the
 * TUI or, with --stdio, as report's text each refresh.
 *
 * One mutex keeps the two apart: the reader takes it around each record it
 * hands to the session (uncontended, a few tens of ns), the main thread
 * while it finishes and looks at the entries. With -z the reader feeds one
 * of two reports while the other is shown, and they swap at each refresh,
 * so the entries on screen are never freed under the browser.
 *
 * Cost: the session orders live data in a 1 s window and each sample is a
 * hash lookup in the histogram; a refresh is a sort of the distinct
 * entries. Nothing is written anywhere.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <lupe/annotate.h>
#include <lupe/cpumap.h>
#include <lupe/events.h>
#include <lupe/evlist.h>
#include <lupe/evsel.h>
#include <lupe/perf-format.h>
#include <lupe/record.h>
#include <lupe/report.h>
#include <lupe/session.h>
#include <lupe/source.h>
#include <lupe/unwind.h>
#include "builtin.h"
#include "hist.h"
#include "parse-error.h"
#include "sample-opts.h"
#include "tui/tui.h"
#include "web.h"

enum { KEY_WEB = 0x100 };

struct top_args {
	struct lupe_record_opts o;
	CMD_TARGET; /* system-wide unless -p or -t: -a changes nothing */
	const char *sort;
	double delay;
	int zero, hide_kernel, hide_user, tui;
	long entries;
	int web;            /* --web: the browser view (cmd/web.c) */
	const char *listen;
};

struct top {
	struct top_args *a;
	pthread_mutex_t mutex;
	struct lupe_source *live;
	struct lupe_event_list evs; /* live's events, CPUs and threads */
	struct lupe_cpu_map *cpus;
	struct lupe_thread_map *threads;
	struct lupe_source wrap; /* the live source, each record under the mutex */
	lupe_emit_fn emit;	 /* the session's, behind the wrap */
	void *emit_arg;
	struct lupe_session *s;
	struct lupe_report *rep[2]; /* fed: rep[cur]; with -z the other is shown */
	int cur;
	struct lupe_tool tool; /* hands samples to rep[cur] */
	struct tui_hists th;
	int enabled; /* the events, once the /proc state is out */
	/* the TUI's: a (the live annotation of ann_sym), z, f */
	struct lupe_annotation ann;
	const struct lupe_symbol *ann_sym;
	const struct lupe_report_opts *ro;
	int paused;
	volatile int reader_done;
	int reader_ret;
};

#define CMD_OPTS struct top_args
static const struct cmd_option options[] = {
	OPT_ALL_CPUS(system_wide, "system-wide (the default)"),
	OPT_CPU("LIST", cpu_list, "only these CPUs"),
	OPT_PID(pids, "only these processes (comma list)"),
	OPT_TID(tids, "only these threads (comma list)"),
	OPT_EVENT("event to sample; default cycles, or cpu-clock without a hardware PMU"),
	OPT_SAMPLE_FREQ(o, "sample at this frequency (default " LUPE_STR(LUPE_RECORD_DEFAULT_FREQ) ")"),
	OPT_SAMPLE_COUNT(o, "sample every N events"),
	OPT_SET_INT('g', NULL, o.callgraph, LUPE_CALLGRAPH_FP, "sample callchains (frame pointers)"),
	OPT_SAMPLE_CALL_GRAPH(o, "fp, or dwarf[,SIZE]"),
	OPT_ROW('d', "delay", "SECS", 0, "refresh every SECS seconds (default 2)"),
	OPT_BOOL('z', "zero", zero, "zero the histogram at each refresh"),
	OPT_BOOL('K', "hide_kernel_symbols", hide_kernel, "leave the kernel out (not sampled)"),
	OPT_BOOL('U', "hide_user_symbols", hide_user, "leave user space out (not sampled)"),
	OPT_STRING('s', "sort", "KEYS", sort, "sort by keys: comm,pid,tid,dso,sym,cpu (default dso,sym)"),
	OPT_INT('E', "entries", "N", entries, 1, INT32_MAX, "show at most N entries (--stdio: what fits the terminal, or 20)"),
	OPT_SET_INT(0, "stdio", tui, 0, "print the table at each refresh (for pipes and logs)"),
	OPT_SET_INT(0, "tui", tui, 1, "the interactive browser (the default)"),
	OPT_ROW(KEY_WEB, "web", "ADDR:PORT", OPTION_ARG_OPTIONAL, "serve a page for a web browser that updates every refresh (default: 127.0.0.1, a free port; the URL is printed)"),
	OPT_END()
};
#undef CMD_OPTS

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct top_args *a = state->input;
	char *end;

	switch (key) {
	case 'd':
		a->delay = strtod(arg, &end);
		if (end == arg || *end || !(a->delay > 0))
			argp_error(state, "invalid delay '%s': give seconds", arg);
		return 0;
	case KEY_WEB: a->web = 1; a->listen = arg; return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (top watches the system, -p or -t)",
			   arg);
		return EINVAL;
	case ARGP_KEY_END: /* top takes no --filter */
		free(a->filters);
		a->filters = NULL;
		return 0;
	default: return ARGP_ERR_UNKNOWN;
	}
}

static const struct cmd_argp argp = {
	.options = options,
	.parser = parse_opt,
	.doc = "Show where the system (or -p/-t tasks) spends its time, live, the way perf top "
	       "does.",
};

/*
 * --web: the page samples through a lupe record with top's targets, event
 * and sampling options, in pipe mode (cmd/web.c reads it as it grows).
 */
static int top_web(const struct top_args *a)
{
	char *argv[64], freq[32], cg[48];
	struct web_opts wo = { .listen = a->listen };
	int n = 0;

	argv[n++] = "lupe";
	argv[n++] = "record";
	argv[n++] = "-q";
	argv[n++] = "-o";
	argv[n++] = "-";
	if (a->pids || a->tids) {
		argv[n++] = a->pids ? "-p" : "-t";
		argv[n++] = (char *)(a->pids ? a->pids : a->tids);
	} else {
		argv[n++] = "-a";
	}
	if (a->cpu_list) {
		argv[n++] = "-C";
		argv[n++] = (char *)a->cpu_list;
	}
	for (int i = 0; i < a->nr_events && n < 50; i++) {
		argv[n++] = "-e";
		argv[n++] = a->events[i];
	}
	if (a->o.period || a->o.freq) {
		snprintf(freq, sizeof(freq), "%llu",
			 (unsigned long long)(a->o.period ? a->o.period : a->o.freq));
		argv[n++] = a->o.period ? "-c" : "-F";
		argv[n++] = freq;
	}
	if (a->o.callgraph == LUPE_CALLGRAPH_FP) {
		argv[n++] = "-g";
	} else if (a->o.callgraph == LUPE_CALLGRAPH_DWARF) {
		snprintf(cg, sizeof(cg), "--call-graph=dwarf,%u", a->o.stack_size);
		argv[n++] = cg;
	}
	argv[n] = NULL;
	return web_top(argv, a->delay, &wo);
}

/* ---- the reader thread and what it feeds ---- */

static int locked_emit(void *arg, const struct perf_event_header *ev, int stable)
{
	struct top *t = arg;
	int ret;

	/*
	 * The events start after the synthesis, so that top's own reading of
	 * /proc and kallsyms is not the first thing its profile shows. A task
	 * that starts in those few ms and maps files before the events are on
	 * is missed, as it would be by a later start of top.
	 */
	if (!t->enabled && ev->type == PERF_RECORD_FINISHED_INIT) {
		t->enabled = 1;
		if ((ret = lupe_live_start(t->live)) < 0)
			return ret;
	}
	pthread_mutex_lock(&t->mutex);
	ret = t->emit(t->emit_arg, ev, stable);
	pthread_mutex_unlock(&t->mutex);
	return ret;
}

static struct top *top_of_wrap(struct lupe_source *src)
{
	return (struct top *)((char *)src - offsetof(struct top, wrap));
}

static int wrap_read(struct lupe_source *src, lupe_emit_fn emit, void *arg)
{
	struct top *t = top_of_wrap(src);

	t->emit = emit;
	t->emit_arg = arg;
	return lupe_source_read(t->live, locked_emit, t);
}

static struct lupe_evlist *wrap_evlist(struct lupe_source *src)
{
	return lupe_source_evlist(top_of_wrap(src)->live);
}

static void wrap_destroy(struct lupe_source *src)
{
}

static const struct lupe_source_ops wrap_ops = {
	.evlist = wrap_evlist,
	.read = wrap_read,
	.destroy = wrap_destroy,
	.live = 1,
};

static struct top *top_of_tool(struct lupe_tool *tool)
{
	return (struct top *)((char *)tool - offsetof(struct top, tool));
}

static int top_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		      const struct lupe_sample *sample, struct lupe_thread *thread,
		      const struct perf_event_header *ev)
{
	struct top *t = top_of_tool(tool);
	struct lupe_tool *inner = lupe_report_tool(t->rep[t->cur]);

	if (t->paused) /* f */
		return 0;
	if (t->ann_sym) { /* a: the instruction too */
		uint8_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		struct lupe_frame fr;

		lupe_session_resolve_ip(s, thread, sample->ip, mode == PERF_RECORD_MISC_KERNEL, &fr);
		if (fr.sym == t->ann_sym && fr.map &&
		    lupe_annotation_add(&t->ann, fr.map->dso, fr.sym, fr.vaddr, sample->period ? sample->period : 1))
			return -ENOMEM;
	}
	return inner->sample(inner, s, evsel, sample, thread, ev);
}

static int top_other(struct lupe_tool *tool, struct lupe_session *s,
		     const struct perf_event_header *ev)
{
	struct lupe_tool *inner = lupe_report_tool(top_of_tool(tool)->rep[top_of_tool(tool)->cur]);

	return inner->other ? inner->other(inner, s, ev) : 0;
}

static void *reader(void *arg)
{
	struct top *t = arg;

	t->reader_ret = lupe_session_read(t->s, &t->wrap, &t->tool);
	t->reader_done = 1;
	return NULL;
}

/* ---- the refresh: with the mutex held ---- */

static void refresh(struct tui_hists *th)
{
	struct top *t = th->arg;
	struct lupe_report *rep = t->rep[t->cur];
	struct lupe_evlist *el = lupe_source_evlist(t->live);
	const struct lupe_session_stats *st = lupe_session_stats(t->s);

	lupe_report_finish(rep);
	th->view = lupe_report_view(rep);
	th->h = NULL;
	for (int i = 0; th->view && i < lupe_evlist_nr(el) && !th->h; i++) {
		th->h = lupe_report_hists(rep, i);
		th->evsel = lupe_evlist_evsel(el, i);
	}
	th->nr_samples = th->h ? lupe_hists_nr_samples(th->h) : 0;
	th->nr_lost = st->nr_lost + st->nr_lost_samples;
	if (t->a->zero) {
		/* show this one; the reader starts afresh on the other */
		t->cur ^= 1;
		lupe_report_reset(t->rep[t->cur]);
	}
}

/* a in the TUI: annotate sym from now on (NULL: stop) */
static struct lupe_annotated_sym *annotate(struct tui_hists *th, const struct lupe_dso *dso,
					   const struct lupe_symbol *sym)
{
	struct top *t = th->arg;

	if (sym != t->ann_sym)
		lupe_annotation_clear(&t->ann);
	t->ann_sym = sym;
	return sym ? lupe_annotation_sym_at(&t->ann, dso, sym->start) : NULL;
}

/* z in the TUI: -z on or off */
static int zero(struct tui_hists *th)
{
	struct top *t = th->arg;

	if (!t->rep[1] && !(t->rep[1] = lupe_report_new(t->ro)))
		return t->a->zero;
	t->a->zero = !t->a->zero;
	return t->a->zero;
}

/* f in the TUI: count samples or not (NEEDSWORK: perf disables the events themselves) */
static int toggle_events(struct tui_hists *th)
{
	struct top *t = th->arg;

	t->paused = !t->paused;
	return !t->paused;
}

static void lock(struct tui_hists *th)
{
	pthread_mutex_lock(&((struct top *)th->arg)->mutex);
}

static void unlock(struct tui_hists *th)
{
	pthread_mutex_unlock(&((struct top *)th->arg)->mutex);
}

/* ---- --stdio ---- */

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void print_refresh(struct top *t, int nr_cpus, double secs)
{
	struct tui_hists *th = &t->th;

	printf("   LupeTop: %8.0f samples/sec  lost: %llu [%s], (%s",
	       th->nr_samples / (secs > 0 ? secs : 1), (unsigned long long)th->nr_lost,
	       th->evsel ? lupe_evsel_name(th->evsel) : "",
	       t->a->pids   ? "pid "
	       : t->a->tids ? "tid "
			    : "all");
	if (t->a->pids || t->a->tids)
		printf("%s", t->a->pids ? t->a->pids : t->a->tids);
	printf(", %d CPU%s)\n", nr_cpus, nr_cpus == 1 ? "" : "s");
	printf("-------------------------------------------------------------------------------\n");
	if (th->view && th->h)
		report_print_hists(stdout, th->view, &th->po, th->evsel, th->h, th->nr_samples);
	else
		printf("# no samples yet\n\n");
	fflush(stdout);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static int run_stdio(struct top *t, int nr_cpus)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { .sa_handler = on_stop };
	long start = now_ms(), last = start;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	while (!stop_signal) {
		long next = last + t->th.refresh_ms, now;
		int done;

		while (!stop_signal && !t->reader_done && (now = now_ms()) < next) {
			struct timespec ts = { 0, 100 * 1000000L };

			nanosleep(&ts, NULL);
		}
		if (stop_signal)
			break;
		done = t->reader_done;
		now = now_ms();
		pthread_mutex_lock(&t->mutex);
		refresh(&t->th);
		print_refresh(t, nr_cpus,
			      t->a->zero ? (now - last) / 1000.0 : (now - start) / 1000.0);
		pthread_mutex_unlock(&t->mutex);
		last = now;
		if (done) /* every task we watched has exited */
			break;
	}
	return stop_signal && stop_signal != SIGINT ? 128 + stop_signal : 0;
}

/* ---- setup ---- */

/* Open the events (perf's default when none: lupe_record_default_event); the live source or NULL. */
static struct lupe_source *open_live(struct top_args *a, struct lupe_event_list *evs,
				     struct lupe_cpu_map *cpus, struct lupe_thread_map *threads)
{
	int failed, err;
	struct lupe_source *src;

	for (int i = 0; i < a->nr_events; i++)
		if (ui_parse_events(evs, a->events[i]))
			return NULL;
	if (!a->nr_events) {
		a->o.default_event = 1;
		if (lupe_record_default_event(evs)) {
			error("out of memory");
			return NULL;
		}
	}
	for (size_t i = 0; i < evs->nr; i++) {
		evs->events[i].attr.exclude_kernel |= a->hide_kernel;
		evs->events[i].attr.exclude_user |= a->hide_user;
	}
	src = lupe_live_source_new(&a->o, evs->events, evs->nr, cpus, threads);
	if (!src) {
		error("cannot sample: %s", strerror(errno));
		return NULL;
	}
	/* the default event falls back to cpu-clock inside (lupe_record_default_event) */
	err = lupe_live_open(src, &failed);
	if (err) {
		if (failed >= 0)
			sample_open_error(&evs->events[failed], err, lupe_thread_map_pid(threads, 0));
		else if (err == -EPERM)
			error("cannot mmap the rings: over kernel.perf_event_mlock_kb (try a lower "
			      "-F)");
		else
			error("cannot open the events: %s", lupe_strerror(err));
		lupe_source_delete(src);
		return NULL;
	}
	return src;
}

/* The view: --stdio's entries, or a terminal for the TUI; and the report's sort keys. */
static int top_check_view(struct top_args *a, struct lupe_report_opts *ro)
{
	ro->sort = a->sort ? a->sort : "dso,sym";
	if (lupe_report_check_opts(ro))
		return EXIT_USAGE;
	if (a->tui < 0)
		a->tui = 1;
	/* perf top --stdio shows what fits a screen: its rows less the header, 20 without one */
	if (!a->tui && !a->entries) {
		struct winsize ws;

		a->entries = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 15
				     ? ws.ws_row - 12
				     : 20;
	}
	if (a->tui && !tui_built())
		return error("the TUI is not built into this lupe (slang was missing): use "
			     "--stdio"),
		       1;
	if (a->tui && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return error("lupe top needs a terminal for its TUI: use --stdio to print the "
			     "table"),
		       1;
	return 0;
}

/* The CPUs and tasks to watch (system-wide unless -p/-t), and the live source on them. */
static int top_open(struct top *t)
{
	struct top_args *a = t->a;

	a->o.system_wide = !a->pids && !a->tids;
	a->o.sample_cpu = 1;
	if (!a->o.system_wide)
		a->cpu_list = NULL; /* -C with -p/-t: the tasks on every CPU, as before */
	t->cpus = cmd_target_cpus(&a->target, "watch");
	t->threads = t->cpus ? cmd_target_threads(&a->target, "watch") : NULL;
	if (!t->threads)
		return EXIT_USAGE;
	t->live = open_live(a, &t->evs, t->cpus, t->threads);
	return t->live ? 0 : 1;
}

/* The session and report(s) the reader feeds, and the browser's hooks. */
static int top_setup_report(struct top *t)
{
	t->s = lupe_session_new_empty();
	t->rep[0] = lupe_report_new(t->ro);
	t->rep[1] = t->a->zero ? lupe_report_new(t->ro) : NULL;
	if (!t->s || !t->rep[0] || (t->a->zero && !t->rep[1]))
		return error("cannot set up the report: %s", strerror(errno)), 1;
	/* --call-graph dwarf: the reader thread unwinds each sample in the session, as report does */
	if (lupe_unwind_install(t->s) == -ENOMEM)
		return error("cannot set up the unwinder: %s", strerror(ENOMEM)), 1;
	t->wrap.ops = &wrap_ops;
	t->tool = *lupe_report_tool(t->rep[0]);
	t->tool.sample = top_sample;
	t->tool.other = top_other;
	t->th = (struct tui_hists){
		.title = "lupe top",
		.refresh_ms = (int)(t->a->delay * 1000),
		.refresh = refresh,
		.lock = lock,
		.unlock = unlock,
		.arg = t,
		.po = { .max_entries = t->a->entries },
		.annotate = annotate,
		.zero = zero,
		.toggle_events = toggle_events,
	};
	return 0;
}

/* The reader thread feeds the report while this one shows it, until the user quits. */
static int top_run(struct top *t)
{
	sigset_t all, old;
	pthread_t tid;
	int ret;

	/* signals go to the main thread: it owns the terminal */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&tid, NULL, reader, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return error("cannot start the reader thread: %s", strerror(ret)), 1;
	if (t->a->tui) {
		ret = tui_browse_hists(&t->th);
		if (ret < 0)
			ret = 1;
	} else {
		ret = run_stdio(t, lupe_cpu_map_nr(t->cpus));
	}
	lupe_live_stop(t->live);
	pthread_join(tid, NULL);
	if (t->reader_ret < 0 && !ret) {
		/* NEEDSWORK: an enable that fails is only said when top ends */
		error("reading the rings failed: %s", lupe_strerror(t->reader_ret));
		ret = 1;
	}
	return ret;
}

static void top_delete(struct top *t)
{
	lupe_report_delete(t->rep[0]);
	lupe_report_delete(t->rep[1]);
	lupe_annotation_clear(&t->ann);
	lupe_session_delete(t->s);
	lupe_source_delete(t->live);
	pthread_mutex_destroy(&t->mutex);
	lupe_event_list_clear(&t->evs);
	lupe_cpu_map_put(t->cpus);
	lupe_thread_map_put(t->threads);
	free(t);
}

int cmd_top(int argc, char **argv)
{
	struct top_args a = { .o = { .sz = sizeof(struct lupe_record_opts) },
			      .delay = 2,
			      .tui = -1 };
	/* perf's config: top.children = false is --no-children */
	LUPE_OPTS(lupe_report_opts, ro, .children = cmd_config_bool("top.children", 1) ? -1 : 0);
	struct top *t;
	int idx, ret;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &a))
		return EXIT_USAGE;
	if ((a.pids || a.tids) && a.cpu_list)
		return error("-C and -p/-t do not go together: choose CPUs or tasks"), EXIT_USAGE;
	if (a.hide_kernel && a.hide_user)
		return error("-K and -U together hide everything: choose one"), EXIT_USAGE;
	if (a.web)
		return top_web(&a);
	ret = top_check_view(&a, &ro);
	if (ret)
		return ret;

	t = calloc(1, sizeof(*t));
	if (!t)
		return error("out of memory"), 1;
	t->a = &a;
	t->ro = &ro;
	pthread_mutex_init(&t->mutex, NULL);
	ret = top_open(t);
	if (!ret)
		ret = top_setup_report(t);
	if (!ret)
		ret = top_run(t);
	top_delete(t);
	free(a.events);
	return ret;
}
