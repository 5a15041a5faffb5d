// SPDX-License-Identifier: GPL-2.0
/*
 * report --web, report --html, diff --web: the browser view of a profile.
 *
 * The page (web/index.html, app.js, style.css) is built into the binary
 * (web/embed.cmake makes web-assets.c) and assembled here into one HTML
 * document: served, it fetches its data from "data"; written with --html,
 * the data sits inside it, so the file needs no server. The data is made
 * once, before the URL is printed (lib/export/web.c: a million samples
 * take about 27 MB), and each request gets a copy.
 *
 * Security: the server listens on 127.0.0.1 unless an address is given;
 * every path starts with a random 128-bit token (/TOKEN/...) printed with
 * the URL on stdout, and any other path gets 403, so another local user
 * cannot read the profile (command lines, paths, symbols). Only GET and
 * HEAD are answered (exporter-http), and nothing is written.
 * Source and disassembly (/TOKEN/annotate/FUNC) are made on demand: the
 * file is read once more for the function's samples (lupe annotate's
 * model), and its code disassembled.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <lupe/annotate.h>
#include <lupe/diff.h>
#include <lupe/evlist.h>
#include <lupe/export.h>
#include <lupe/number.h>
#include <lupe/session.h>
#include <lupe/symbols.h>
#include "annotate.h"
#include "builtin.h"
#include "export-out.h"
#include "listen.h"
#include "web-http.h"
#include "web.h"
#include "web-assets.h"

struct web {
	char token[33];
	char *page;        /* the HTML, data fetched */
	size_t page_len;
	char *data;        /* the JSON */
	size_t data_len;
	const char *input; /* the file annotated */
	int force;
	struct lupe_profile *prof; /* function names for annotate */
	/* top --web: the data is made again each refresh, under the lock */
	pthread_mutex_t lock;
	double live;       /* seconds between refreshes; 0: not live */
	unsigned version;  /* of the data, counted by refreshes */
	const char *title;
	pid_t recorder;    /* lupe record writing input */
};

/* s as a JSON string, with '<', '>' and '&' escaped too (the page embeds the JSON). */
static void json_text(FILE *m, const char *s)
{
	fputc('"', m);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(m, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(m, "\\u%04x", c);
		else
			fputc(c, m);
	}
	fputc('"', m);
}

/* The HTML document: index.html with the style, script and (when given) the data in it. */
static char *make_page(const char *data, size_t data_len, size_t *len)
{
	static const char *const marks[] = { "<!--LUPE_STYLE-->", "<!--LUPE_DATA-->",
					     "<!--LUPE_SCRIPT-->" };
	const char *parts[] = { web_asset_style_css, data ? data : "", web_asset_app_js };
	size_t lens[] = { strlen(web_asset_style_css), data ? data_len : 0, strlen(web_asset_app_js) };
	const char *at = web_asset_index_html;
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m)
		return NULL;
	for (int i = 0; i < 3; i++) {
		const char *mark = strstr(at, marks[i]);

		if (!mark)
			break;
		fwrite(at, 1, (size_t)(mark - at), m);
		fwrite(parts[i], 1, lens[i], m);
		at = mark + strlen(marks[i]);
	}
	fputs(at, m);
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	*len = size;
	return text;
}

/*
 * The JSON the page reads: {"title": ..., "profile": {...}} and, for a
 * diff, "before": {...}; "annotate": whether the server answers annotate.
 */
static char *make_data(const char *title, const struct lupe_profile *after,
		       const struct lupe_profile *before, const char *rows, int annotate,
		       double live, unsigned version, size_t *len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);
	int err;

	if (!m)
		return NULL;
	fputs("{\"title\":", m);
	json_text(m, title);
	fprintf(m, ",\"annotate\":%d,\"live\":%g,\"version\":%u,\"profile\":", annotate, live,
		version);
	err = lupe_profile_write_web(after, m);
	if (!err && before) {
		fputs(",\"before\":", m);
		err = lupe_profile_write_web(before, m);
	}
	if (rows)
		fprintf(m, ",\"diff_rows\":%s", rows);
	fputs("}", m);
	if (fclose(m) || err) {
		free(text);
		errno = err ? -err : ENOMEM;
		return NULL;
	}
	*len = size;
	return text;
}

/* The profile of input, or NULL after saying why (quiet: silently). */
static struct lupe_profile *collect(const char *input, int force, int quiet)
{
	LUPE_OPTS(lupe_collect_opts, co, .force = force, .keep_samples = 1);
	struct lupe_profile *p = lupe_profile_collect(input, &co);

	if (!p && !quiet)
		error("cannot read '%s' for the browser view", input);
	else if (p && !p->nr_samples) {
		if (!quiet)
			error("'%s' holds no samples", input);
		lupe_profile_delete(p);
		p = NULL;
	}
	return p;
}

/*
 * lupe diff's rows of the baseline's first event, in its order (default
 * options: dso,sym keys, delta-abs): [[dso, sym, kernel, baseline percent
 * or null, delta or null]] as JSON text. NULL after saying why.
 */
static char *diff_rows(const char *before, const char *after, int force)
{
	LUPE_OPTS(lupe_diff_opts, opts, .order = -1);
	struct lupe_diff *d = lupe_diff_new(&opts);
	char *text = NULL, name[64];
	size_t size = 0;
	FILE *m;

	if (!d)
		return NULL;
	if (lupe_diff_add(d, before, force) || lupe_diff_add(d, after, force) ||
	    lupe_diff_finish(d) || !(m = open_memstream(&text, &size))) {
		lupe_diff_delete(d);
		return NULL;
	}
	fputc('[', m);
	for (long r = 0, n = 0; lupe_diff_nr_events(d) && r < lupe_diff_nr_rows(d, 0); r++) {
		const struct lupe_diff_row *row = lupe_diff_row(d, 0, r);
		const struct lupe_hist_entry *e = row->cells[0].e ? row->cells[0].e : row->cells[1].e;

		if (!e)
			continue;
		snprintf(name, sizeof(name), "%#018llx", (unsigned long long)e->addr);
		fputs(n++ ? ",\n[" : "[", m);
		json_text(m, e->dso ? lupe_dso_short_name(e->dso) : "[unknown]");
		fputc(',', m);
		json_text(m, e->sym ? e->sym->name : name);
		fprintf(m, ",%d,", e->kernel);
		if (row->cells[0].e)
			fprintf(m, "%.6f,", row->cells[0].percent);
		else
			fputs("null,", m);
		if (row->cells[1].e)
			fprintf(m, "%.6f]", row->cells[1].delta);
		else
			fputs("null]", m);
	}
	fputc(']', m);
	lupe_diff_delete(d);
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

/* ---- annotate: the samples of one function over its instructions ---- */

/*
 * The listing's instructions as [addr, text, file, line, period, samples]
 * rows, file an index into its files. Without source, one line per
 * instruction, in the listing's order.
 */
static void json_insns(FILE *m, const struct annotate_lines *al, const struct lupe_listing *l)
{
	for (size_t i = 0; i < al->nr; i++) {
		const struct lupe_insn *in = al->lines[i].in;
		long file = -1;

		for (size_t k = 0; in->file && k < l->nr_files; k++)
			if (l->files[k] == in->file)
				file = (long)k;
		fprintf(m, "%s[%" PRIu64 ",", i ? ",\n" : "", in->addr);
		json_text(m, in->text);
		fprintf(m, ",%ld,%d,%" PRIu64 ",%" PRIu64 "]", file, in->line, al->lines[i].period,
			al->lines[i].samples);
	}
}

/* The listing's source files: {"name", "lines": {line: text}} for the lines with code. */
static void json_files(FILE *m, const struct lupe_listing *l)
{
	for (size_t k = 0; k < l->nr_files; k++) {
		struct annotate_source src;
		int last = -1;

		ui_annotate_source(&src, l->files[k]);
		fputs(k ? ",{\"name\":" : "{\"name\":", m);
		json_text(m, l->files[k]);
		fputs(",\"lines\":{", m);
		for (size_t i = 0; i < l->nr; i++) {
			const struct lupe_insn *in = &l->insns[i];

			if (in->file != l->files[k] || in->line == last || in->line < 1)
				continue;
			fprintf(m, "%s\"%d\":", last < 0 ? "" : ",", in->line);
			json_text(m, in->line <= src.nr ? src.lines[in->line - 1] : "");
			last = in->line;
		}
		fputs("}}", m);
		free(src.text);
		free(src.lines);
	}
}

/*
 * {"name", "dso", "samples", "period", "insns": [[addr, text, file, line,
 * period, samples]], "files": [...], "lines": {file: {line: text}}} or
 * {"error": "..."}: the model of lupe annotate for one function.
 */
static int annotate_json(struct web *w, uint32_t func, FILE *m)
{
	const struct lupe_profile *p = w->prof;
	const struct lupe_prof_func *f = &p->funcs[func];
	struct annotate_data d = { 0 };
	struct annotate_lines al = { 0 };
	struct lupe_annotated_sym *as;
	struct lupe_listing l = { 0 };
	char why[512] = "";

	if (!f->name || f->dso == LUPE_PROF_NONE || p->dsos[f->dso].kernel ||
	    p->dsos[f->dso].name[0] == '[') {
		fputs("{\"error\":\"no code to show: the function is unresolved or in the kernel\"}", m);
		return 200;
	}
	/* lupe annotate's model (ui/annotate.c): the first event's samples */
	if (ui_annotate_load(&d, w->input, w->force, 0, f->name, why, sizeof(why))) {
		if (!why[0])
			snprintf(why, sizeof(why), "cannot read the file again");
		goto out;
	}
	as = ui_annotate_find(&d, f->name, p->dsos[f->dso].name);
	if (!as) {
		snprintf(why, sizeof(why), "no samples in the function's own code");
		goto out;
	}
	if (ui_annotate_disasm(as, true, &l, why, sizeof(why)) ||
	    ui_annotate_lines(as, &l, false, &al)) {
		if (!why[0])
			snprintf(why, sizeof(why), "out of memory");
		goto out;
	}
	fputs("{\"name\":", m);
	json_text(m, as->sym->name);
	fputs(",\"dso\":", m);
	json_text(m, lupe_dso_long_name(as->dso));
	fprintf(m, ",\"event\":");
	json_text(m, d.evsel ? lupe_evsel_name(d.evsel) : "");
	fprintf(m, ",\"start\":%" PRIu64 ",\"samples\":%" PRIu64 ",\"period\":%" PRIu64 ",\"insns\":[",
		as->sym->start, as->nr_samples, as->total_period);
	json_insns(m, &al, &l);
	fputs("],\"files\":[", m);
	json_files(m, &l);
	fputs("]}", m);
out:
	if (why[0]) {
		fputs("{\"error\":", m);
		json_text(m, why);
		fputs("}", m);
	}
	ui_annotate_lines_clear(&al);
	lupe_listing_clear(&l);
	ui_annotate_unload(&d);
	return 200;
}

/* ---- the server ---- */

static int same_token(const char *a, const char *b, size_t n)
{
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

static char *copy(const char *s, size_t n)
{
	char *c = malloc(n ? n : 1);

	if (c)
		memcpy(c, s, n);
	return c;
}

static int page_locked(struct web *w, const char *path, char **body, size_t *len,
		       const char **ctype);

static int page(void *arg, const char *path, char **body, size_t *len, const char **ctype)
{
	struct web *w = arg;
	int status;

	pthread_mutex_lock(&w->lock);
	status = page_locked(w, path, body, len, ctype);
	pthread_mutex_unlock(&w->lock);
	return status;
}

static int page_locked(struct web *w, const char *path, char **body, size_t *len,
		       const char **ctype)
{
	const char *rest;
	char *text = NULL;
	size_t size = 0;
	FILE *m;
	int status;

	/* /TOKEN/...: anything else is refused alike (no hint of what is there) */
	if (path[0] != '/' || strlen(path) < 33 || !same_token(path + 1, w->token, 32) ||
	    (path[33] && path[33] != '/')) {
		*body = strdup("forbidden: the URL lupe printed has the token this page needs\n");
		*len = *body ? strlen(*body) : 0;
		return 403;
	}
	rest = path[33] ? path + 34 : "";
	if (!*rest || !strcmp(rest, "index.html")) {
		*ctype = "text/html; charset=utf-8";
		*body = copy(w->page, w->page_len);
		*len = w->page_len;
		return *body ? 200 : 500;
	}
	if (!strcmp(rest, "data")) {
		*ctype = "application/json";
		*body = copy(w->data, w->data_len);
		*len = w->data_len;
		return *body ? 200 : 500;
	}
	if (!strncmp(rest, "annotate/", 9) && w->prof) {
		int64_t func;

		if (lupe_parse_i64(rest + 9, 10, 0, (int64_t)w->prof->nr_funcs - 1, &func)) {
			*body = strdup("no such function\n");
			*len = *body ? strlen(*body) : 0;
			return 404;
		}
		if (!(m = open_memstream(&text, &size)))
			return 500;
		status = annotate_json(w, (uint32_t)func, m);
		if (fclose(m))
			return 500;
		*ctype = "application/json";
		*body = text;
		*len = size;
		return status;
	}
	*body = strdup("not found\n");
	*len = *body ? strlen(*body) : 0;
	return 404;
}

/*
 * top --web: the recorder's file read again, and the data made of it
 * swapped in. The whole file each time (NEEDSWORK: an incremental model fed
 * by the live source would cost a refresh's samples, not all of them).
 */
static void refresh_live(struct web *w)
{
	struct lupe_profile *p = collect(w->input, 1, 1), *old;
	size_t len;
	char *data;

	if (!p)
		return;
	data = make_data(w->title, p, NULL, NULL, 1, w->live, w->version + 1, &len);
	if (!data) {
		lupe_profile_delete(p);
		return;
	}
	pthread_mutex_lock(&w->lock);
	free(w->data);
	w->data = data;
	w->data_len = len;
	old = w->prof;
	w->prof = p;
	w->version++;
	pthread_mutex_unlock(&w->lock);
	lupe_profile_delete(old);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int serve(struct web *w, const char *listen_spec)
{
	double next = now_s() + w->live;
	struct exporter_http_opts hopts = { 0 };
	struct exporter_http *http;
	struct web_http h;
	uint8_t raw[16];
	char addr[128];
	sigset_t sigs;
	int fd, sig;

	if (getrandom(raw, sizeof(raw), 0) != sizeof(raw))
		return error("cannot serve: no random token (%s)", strerror(errno)), 1;
	for (int i = 0; i < 16; i++)
		snprintf(w->token + 2 * i, 3, "%02x", raw[i]);
	if (web_http_load(&h))
		return 1;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* --web: 127.0.0.1 and a free port; --web=:PORT that port on 127.0.0.1 */
	fd = cmd_listen(!listen_spec ? "0" : listen_spec[0] == ':' ? listen_spec + 1 : listen_spec,
			"--web=ADDR:PORT", addr, sizeof(addr), NULL);
	if (fd < 0)
		return 1;
	http = h.start(fd, page, w, &hopts);
	if (!http)
		return error("cannot start the HTTP server: %s", strerror(errno)), 1;
	printf("http://%s/%s/\n", addr, w->token);
	fflush(stdout);
	fprintf(stderr, "lupe: serving the profile at the URL above%s; Ctrl-C stops\n",
		listen_spec ? "" : " (this machine only: --web=ADDR:PORT serves others)");
	for (;;) {
		struct timespec tick = { 0, 250000000 };

		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
			break;
		h.tick(http);
		if (w->recorder > 0 && waitpid(w->recorder, NULL, WNOHANG) == w->recorder) {
			w->recorder = 0;
			warning("the recording stopped: the page shows what it had");
		}
		if (w->live && now_s() >= next) {
			refresh_live(w);
			next = now_s() + w->live;
		}
	}
	h.stop(http);
	return 0;
}

static int web_run(const char *title, const char *input, struct lupe_profile *after,
		   struct lupe_profile *before, const char *rows, const struct web_opts *o)
{
	struct web w = { .input = input, .force = o->force, .prof = after,
			 .lock = PTHREAD_MUTEX_INITIALIZER };
	struct export_out out;
	int ret = 1;

	w.data = make_data(title, after, before, rows, !o->html, 0, 0, &w.data_len);
	if (!w.data) {
		error("cannot make the page's data: %s", strerror(errno));
		return 1;
	}
	w.page = make_page(o->html ? w.data : NULL, w.data_len, &w.page_len);
	if (!w.page) {
		error("cannot make the page: out of memory");
		goto out;
	}
	if (o->html) {
		if (!export_open(&out, o->html)) {
			fwrite(w.page, 1, w.page_len, out.f);
			ret = export_close(&out, ferror(out.f) ? -EIO : 0);
		}
		if (!ret && strcmp(o->html, "-"))
			fprintf(stderr, "lupe: wrote %s\n", o->html);
	} else {
		ret = serve(&w, o->listen);
	}
out:
	free(w.page);
	free(w.data);
	return ret;
}

/* Whether the page can be served (or is written to a file): said before a file is read. */
static int can_serve(const struct web_opts *o)
{
	struct web_http h;

	return o->html || !web_http_load(&h);
}

int web_report(const char *input, const struct web_opts *o)
{
	struct lupe_profile *p = can_serve(o) ? collect(input, o->force, 0) : NULL;
	int ret;

	if (!p)
		return 1;
	ret = web_run(input, input, p, NULL, NULL, o);
	lupe_profile_delete(p);
	return ret;
}

int web_diff(const char *before, const char *after, const struct web_opts *o)
{
	struct lupe_profile *a, *b = can_serve(o) ? collect(before, o->force, 0) : NULL;
	char title[1024], *rows;
	int ret;

	if (!b)
		return 1;
	a = collect(after, o->force, 0);
	if (!a) {
		lupe_profile_delete(b);
		return 1;
	}
	snprintf(title, sizeof(title), "%s -> %s", before, after);
	rows = diff_rows(before, after, o->force);
	if (!rows) {
		error("cannot compare '%s' with '%s'", before, after);
		ret = 1;
	} else {
		ret = web_run(title, after, a, b, rows, o);
	}
	free(rows);
	lupe_profile_delete(a);
	lupe_profile_delete(b);
	return ret;
}

int web_top(char **record_argv, double delay, const struct web_opts *o)
{
	struct web w = { .force = 1, .live = delay, .title = "lupe top",
			 .lock = PTHREAD_MUTEX_INITIALIZER };
	char tmpl[] = "/tmp/lupe-top-web.XXXXXX", path[64];
	int fd, ret = 1, status;

	struct web_http h;

	if (web_http_load(&h)) /* before the recording starts */
		return 1;
	/*
	 * lupe record writes pipe mode into a file no one else can open (it
	 * is unlinked at once); each refresh reads it again up to where the
	 * recorder has got: a pipe-mode file reads well while it grows.
	 */
	fd = mkstemp(tmpl);
	if (fd < 0)
		return error("cannot make the recording's file: %s", strerror(errno)), 1;
	unlink(tmpl);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	w.input = path;
	w.recorder = fork();
	if (w.recorder < 0) {
		close(fd);
		return error("cannot start the recording: %s", strerror(errno)), 1;
	}
	if (!w.recorder) {
		dup2(fd, STDOUT_FILENO);
		execv("/proc/self/exe", record_argv);
		fprintf(stderr, "lupe: cannot run lupe record: %s\n", strerror(errno));
		_exit(127);
	}
	/* the page needs samples: wait for the first ones */
	for (int i = 0; !w.prof && i < 600; i++) {
		if (waitpid(w.recorder, &status, WNOHANG) == w.recorder) {
			w.recorder = 0;
			error("the recording failed (see above)");
			goto out;
		}
		usleep(100000);
		if (i % 5 == 4)
			w.prof = collect(w.input, 1, 1);
	}
	if (!w.prof) {
		error("no samples in 60 seconds: nothing to show");
		goto out;
	}
	w.version = 1;
	w.data = make_data(w.title, w.prof, NULL, NULL, 1, w.live, w.version, &w.data_len);
	w.page = w.data ? make_page(NULL, 0, &w.page_len) : NULL;
	if (!w.page) {
		error("cannot make the page: out of memory");
		goto out;
	}
	ret = serve(&w, o->listen);
out:
	if (w.recorder > 0) {
		kill(w.recorder, SIGINT);
		waitpid(w.recorder, NULL, 0);
	}
	close(fd);
	free(w.page);
	free(w.data);
	lupe_profile_delete(w.prof);
	return ret;
}
