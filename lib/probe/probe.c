// SPDX-License-Identifier: GPL-2.0
/*
 * Probe definitions and tracefs: parsing perf probe's syntax, writing the
 * uprobe_events / kprobe_events line, listing and deleting probe events.
 * Placing a probe in a binary (ELF, DWARF) is place+LIBDW.c's.
 *
 * The kernel checks a definition when it is written; its reason for a
 * refusal is in tracefs error_log, whose last entry is read back so that
 * the user sees it rather than a bare EINVAL.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/events.h>
#include <lupe/probe.h>
#include "probe/probe-internal.h"
#include "util/util.h"

static void free_one(struct lupe_probe_event *ev);

int lupe_probe_fail(struct lupe_probe *p, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
	return err;
}

int lupe_probe_fail_kernel_dwarf(struct lupe_probe *p, int err, const char *what, const char *name)
{
	return lupe_probe_fail(p, err,
			       "kernel probes by %s%s%s%s need the kernel's debug info (probe FUNC[+OFF] with "
			       "fetch arguments such as %%di or +0($retval) instead)\n"
			       "Failed to find the path for the kernel's debug info: lupe reads no vmlinux DWARF",
			       what, name ? " ('" : "", name ? name : "", name ? "')" : "");
}

/* a variable argument ("filename", "result->name:string") rather than a fetch argument */
static bool arg_is_var(const char *s)
{
	const char *eq = strchr(s, '=');

	if (eq && strcspn(s, "=%$+-@(") == (size_t)(eq - s))
		s = eq + 1;
	return isalpha((unsigned char)*s) || *s == '_';
}

/* perf's event names: letters, digits and '_'; others become '_' */
static char *event_name(const char *s, size_t len)
{
	char *n = strndup(s, len);

	for (char *c = n; c && *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			*c = '_';
	return n;
}

/* "probe_" and the binary's base name, as perf names a uprobe group */
static char *group_name(const char *target)
{
	const char *base = strrchr(target, '/');
	char *g, *n;

	base = base ? base + 1 : target;
	n = event_name(base, strcspn(base, "."));
	if (!n || asprintf(&g, "probe_%s", n) < 0)
		g = NULL;
	free(n);
	return g;
}

static int parse_arg(struct lupe_probe *p, const char *s)
{
	struct lupe_probe_arg *a = &p->args[p->nr_args];
	const char *eq = strchr(s, '='), *colon, *body = s;

	if (p->nr_args == LUPE_PROBE_MAX_ARGS)
		return lupe_probe_fail(p, -EINVAL, "too many arguments (at most %d)", LUPE_PROBE_MAX_ARGS);
	/* NAME=ARG, unless the '=' is inside a fetch argument */
	if (eq && eq != s && strcspn(s, "=%$+-@(") == (size_t)(eq - s)) {
		a->name = event_name(s, eq - s);
		body = eq + 1;
	}
	/* the type follows the last ':' outside parentheses */
	colon = strrchr(body, ':');
	if (colon && strchr(colon, ')'))
		colon = NULL;
	if (colon)
		a->type = strdup(colon + 1);
	a->fetch = strndup(body, colon ? (size_t)(colon - body) : strlen(body));
	if (!a->fetch || !*a->fetch || (colon && (!a->type || !*a->type)))
		return lupe_probe_fail(p, -EINVAL, "argument '%s' is empty or has no type after ':'", s);
	/* a variable name rather than a fetch argument (%reg, $retval, +0(...), @sym, 42) */
	if (isalpha((unsigned char)a->fetch[0]) || a->fetch[0] == '_') {
		a->var = a->fetch;
		a->fetch = NULL;
		for (char *c = a->var; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_')
				return lupe_probe_fail(p, -EINVAL, "argument '%s': only plain variable names are taken "
					    "(no fields or array elements yet)", s);
	}
	a->text = strdup(s);
	if (!a->name) {
		/* perf names a variable argument after its whole text: "line:string" -> line_string */
		if (a->var)
			a->name = event_name(s, strlen(s));
		else if (asprintf(&a->name, "arg%d", p->nr_args + 1) < 0)
			a->name = NULL;
	}
	if (!a->name || !a->text)
		return -ENOMEM;
	p->nr_args++;
	return 0;
}

int lupe_probe_parse(struct lupe_probe *p, const char *def, const char *target)
{
	char *copy = strdup(def), *save = NULL, *point, *tok, *eq, *plus, *pct, *colon;
	int err = 0;

	memset(p, 0, sizeof(*p));
	if (!copy)
		return -ENOMEM;
	point = strtok_r(copy, " \t", &save);
	if (!point) {
		err = lupe_probe_fail(p, -EINVAL, "the probe definition is empty: give FUNC, FUNC%%return or SRC:LINE");
		goto out;
	}
	/* [[GROUP:]EVENT=] */
	eq = strchr(point, '=');
	if (eq) {
		char *c;

		*eq = '\0';
		c = strchr(point, ':');
		if (c) {
			*c = '\0';
			p->group = strdup(point);
			p->event = strdup(c + 1);
		} else {
			p->event = strdup(point);
		}
		p->user_event = true;
		point = eq + 1;
	}
	pct = strchr(point, '%');
	if (pct) {
		if (strcmp(pct, "%return")) {
			err = lupe_probe_fail(p, -EINVAL, "unknown '%s' in '%s': only %%return follows a function", pct, def);
			goto out;
		}
		*pct = '\0';
		p->retprobe = true;
	}
	colon = strchr(point, ':');
	plus = strchr(point, '+');
	if (colon) {
		char *end;
		long line = strtol(colon + 1, &end, 10);

		if (*end || line <= 0 || colon == point) {
			/* a kernel FUNC:RLINE (perf's vfs_getname tests give "getname_flags:") */
			if (!target && colon != point)
				err = lupe_probe_fail_kernel_dwarf(p, -EINVAL, "line", NULL);
			else
				err = lupe_probe_fail(p, -EINVAL, "'%s' is not SRC:LINE such as demo.c:37", point);
			goto out;
		}
		*colon = '\0';
		p->src = strdup(point);
		p->line = line;
		if (p->retprobe) {
			err = lupe_probe_fail(p, -EINVAL, "%%return takes a function, not a line: '%s'", def);
			goto out;
		}
	} else {
		if (plus) {
			char *end;

			*plus = '\0';
			p->off = strtoull(plus + 1, &end, 0);
			if (*end || !plus[1]) {
				err = lupe_probe_fail(p, -EINVAL, "'%s' is not an offset in '%s'", plus + 1, def);
				goto out;
			}
			if (p->retprobe) {
				err = lupe_probe_fail(p, -EINVAL, "%%return and +OFF cannot go together in '%s'", def);
				goto out;
			}
		}
		if (!*point || strchr(point, '@')) {
			err = lupe_probe_fail(p, -EINVAL, "'%s' is not a function name%s", point,
				   strchr(point, '@') ? " (FUNC@SRC is not supported yet)" : "");
			goto out;
		}
		p->func = strdup(point);
	}
	while (!err && (tok = strtok_r(NULL, " \t", &save))) {
		err = parse_arg(p, tok);
		if (err && !target && arg_is_var(tok))
			err = lupe_probe_fail_kernel_dwarf(p, err, "variable", tok);
	}
	if (err)
		goto out;
	if (target) {
		p->target = realpath(target, NULL);
		if (!p->target) {
			err = lupe_probe_fail(p, -errno, "cannot probe '%s': %s", target, strerror(errno));
			goto out;
		}
	}
	if (!p->group)
		p->group = p->target ? group_name(p->target) : strdup("probe");
	if (!p->event && p->func) {
		char *e = event_name(p->func, strlen(p->func));

		if (e && p->retprobe && asprintf(&p->event, "%s__return", e) < 0)
			p->event = NULL;
		else if (e && !p->retprobe)
			p->event = e, e = NULL;
		free(e);
	}
	/* a line probe is named after its function once placed */
	if (!p->group || (!p->event && !p->src))
		err = -ENOMEM;
out:
	free(copy);
	return err;
}

char *lupe_probe_definition(const struct lupe_probe *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "%c:%s/%s ", p->retprobe ? 'r' : 'p', p->group, p->event);
	if (p->target)
		fprintf(f, "%s:0x%016llx", p->target, (unsigned long long)p->file_off);
	else if (p->off)
		fprintf(f, "%s+%llu", p->func, (unsigned long long)p->off);
	else
		fprintf(f, "%s", p->func);
	for (int i = 0; i < p->nr_args; i++) {
		const struct lupe_probe_arg *a = &p->args[i];

		fprintf(f, " %s=%s", a->name, a->fetch ? a->fetch : "");
		if (a->type)
			fprintf(f, ":%s", a->type);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static const char *events_file(bool kernel)
{
	return kernel ? "kprobe_events" : "uprobe_events";
}

bool lupe_probe_have_kprobes(void)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[PATH_MAX];

	if (!tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	return access(path, F_OK) == 0;
}

/* The kernel's last complaint, from tracefs error_log: "... error: Invalid argument type" */
static void last_error(char *out, size_t size)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[PATH_MAX], line[512], last[512] = "";
	FILE *f;

	if (!tracefs)
		return;
	snprintf(path, sizeof(path), "%s/error_log", tracefs);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *e = strstr(line, " error: ");

		if (e)
			snprintf(last, sizeof(last), "%s", e + 8);
	}
	fclose(f);
	last[strcspn(last, "\n")] = '\0';
	if (last[0])
		snprintf(out, size, "%s", last);
}

static int write_events(const char *file, const char *line)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (!tracefs)
		return -errno;
	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -LUPE_ERR_NOT_SUPPORTED : -errno;
	n = write(fd, line, strlen(line));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : 0;
}

/*
 * Whether GROUP:EVENT is defined. The kernel (5.x on) takes a definition
 * under a taken name as one more probe of that event, silently; perf
 * refuses it ("event leaf already exists"), and so do we.
 */
static int event_exists(const struct lupe_probe *p)
{
	struct lupe_probe_event *evs;
	char glob[512];
	int nr;

	snprintf(glob, sizeof(glob), "%s:%s", p->group, p->event);
	nr = lupe_probe_events(&evs, glob);
	if (nr > 0)
		lupe_probe_events_delete(evs, nr);
	return nr > 0;
}

int lupe_probe_add(struct lupe_probe *p)
{
	char *def, why[256] = "";
	int err;

	if (p->group && p->event && event_exists(p))
		return lupe_probe_fail(p, -EEXIST, "the event '%s:%s' exists already (delete it with -d, "
				       "add this one as %s_1 with -f, or name another with EVENT=)",
				       p->group, p->event, p->event);
	def = lupe_probe_definition(p);
	if (!def)
		return -ENOMEM;
	err = write_events(events_file(!p->target), def);
	if (err == -LUPE_ERR_NOT_SUPPORTED)
		lupe_probe_fail(p, err, "this kernel has no %s (no %s in tracefs)",
		     p->target ? "uprobes" : "kprobes", events_file(!p->target));
	else if (err == -EEXIST || err == -EBUSY)
		lupe_probe_fail(p, -EEXIST, "the event '%s:%s' exists already (delete it with -d, or name "
		     "another with EVENT=)", p->group, p->event);
	else if (err) {
		last_error(why, sizeof(why));
		lupe_probe_fail(p, err, "the kernel refused '%s': %s", def, why[0] ? why : strerror(-err));
	}
	free(def);
	return err == -EBUSY ? -EEXIST : err;
}

void lupe_probe_clear(struct lupe_probe *p)
{
	free(p->group);
	free(p->event);
	free(p->target);
	free(p->func);
	free(p->src);
	free(p->where);
	free(p->at);
	/* every slot: a failed argument leaves its strings past nr_args */
	for (int i = 0; i < LUPE_PROBE_MAX_ARGS; i++) {
		free(p->args[i].text);
		free(p->args[i].name);
		free(p->args[i].var);
		free(p->args[i].fetch);
		free(p->args[i].type);
	}
	memset(p, 0, sizeof(*p));
}

static bool matches(const char *glob, const char *group, const char *event)
{
	char full[512];

	if (!glob)
		return true;
	if (!strchr(glob, ':'))
		return !fnmatch(glob, event, 0);
	snprintf(full, sizeof(full), "%s:%s", group, event);
	return !fnmatch(glob, full, 0);
}

/* "p:probe_demo/leaf_a /bin/demo:0x000000000000123c n=%di:x64" */
static int parse_line(char *line, bool kernel, struct lupe_probe_event *ev)
{
	char *save = NULL, *head = strtok_r(line, " \t\n", &save);
	char *place = strtok_r(NULL, " \t\n", &save), *slash, *tok;
	size_t alen = 0, nlen = 0;
	FILE *args, *names;

	if (!head || !place || (head[0] != 'p' && head[0] != 'r') || head[1] != ':')
		return -EINVAL;
	slash = strchr(head + 2, '/');
	if (!slash)
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ev->retprobe = head[0] == 'r';
	ev->kernel = kernel;
	ev->group = strndup(head + 2, slash - head - 2);
	ev->event = strdup(slash + 1);
	if (kernel) {
		ev->place = strdup(place);
	} else {
		char *c = strrchr(place, ':');

		if (c) {
			*c = '\0';
			ev->off = strtoull(c + 1, NULL, 0);
		}
		ev->target = strdup(place);
	}
	args = open_memstream(&ev->args, &alen);
	names = open_memstream(&ev->argnames, &nlen);
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		if (args)
			fprintf(args, "%s%s", ftell(args) ? " " : "", tok);
		if (names)
			fprintf(names, "%s%.*s", ftell(names) ? " " : "", (int)strcspn(tok, "="), tok);
	}
	if (args)
		fclose(args);
	if (names)
		fclose(names);
	if (!ev->group || !ev->event || !ev->args || !ev->argnames)
		return -ENOMEM;
	return 0;
}

int lupe_probe_events(struct lupe_probe_event **out, const char *glob)
{
	const char *tracefs = lupe_tracefs_dir();
	struct lupe_probe_event *evs = NULL;
	int nr = 0;

	*out = NULL;
	if (!tracefs)
		return -errno;
	for (int kernel = 0; kernel < 2; kernel++) {
		char path[PATH_MAX], line[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", tracefs, events_file(kernel));
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			struct lupe_probe_event ev, *n;

			if (parse_line(line, kernel, &ev))
				continue;
			if (!matches(glob, ev.group, ev.event)) {
				free_one(&ev);
				continue;
			}
			n = realloc(evs, (nr + 1) * sizeof(*n));
			if (!n) {
				free_one(&ev);
				fclose(f);
				lupe_probe_events_delete(evs, nr);
				return -ENOMEM;
			}
			evs = n;
			lupe_probe_event_describe(&ev);
			evs[nr++] = ev;
		}
		fclose(f);
	}
	*out = evs;
	return nr;
}

static void free_one(struct lupe_probe_event *ev)
{
	free(ev->group);
	free(ev->event);
	free(ev->target);
	free(ev->place);
	free(ev->args);
	free(ev->argnames);
}

void lupe_probe_events_delete(struct lupe_probe_event *evs, int nr)
{
	for (int i = 0; i < nr; i++)
		free_one(&evs[i]);
	free(evs);
}

int lupe_probe_del(const char *glob, void (*done)(const char *name, void *arg), void *arg)
{
	struct lupe_probe_event *evs;
	int nr = lupe_probe_events(&evs, glob), removed = 0, err = 0;

	if (nr < 0)
		return nr;
	for (int i = 0; i < nr; i++) {
		char line[512], name[512];
		int e, seen = 0;

		/* an event of several probes is listed once per probe, and goes at once */
		for (int j = 0; j < i && !seen; j++)
			seen = evs[j].kernel == evs[i].kernel && !strcmp(evs[j].group, evs[i].group) &&
			       !strcmp(evs[j].event, evs[i].event);
		if (seen)
			continue;
		snprintf(line, sizeof(line), "-:%s/%s", evs[i].group, evs[i].event);
		e = write_events(events_file(evs[i].kernel), line);
		if (e) {
			err = err ? err : e;
			continue;
		}
		removed++;
		snprintf(name, sizeof(name), "%s:%s", evs[i].group, evs[i].event);
		if (done)
			done(name, arg);
	}
	lupe_probe_events_delete(evs, nr);
	return err ? err : removed;
}
