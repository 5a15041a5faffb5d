// SPDX-License-Identifier: GPL-2.0
/*
 * The event-spec parser: comma lists, {groups}:mod, and each event's kind
 * decided from its text the way perf's lexer decides it. A hand-written
 * recursive descent keeps the error position exact: each failure names the
 * byte where the caret goes (Documentation/event-specs.md lists the rules).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/hw_breakpoint.h>
#include <string.h>
#include "events/internal.h"
#include "events/parse.h"
#include "util/util.h"

int lupe_parse_fail(struct parser *p, size_t pos, const char *help, const char *fmt, ...)
{
	va_list ap;

	/* the first failure wins: it is the one the caret belongs to */
	if (p->failed)
		return -LUPE_ERR_PARSE;
	p->failed = true;
	p->err->pos = (int)pos;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	snprintf(p->err->help, sizeof(p->err->help), "%s", help ? help : "");
	return -LUPE_ERR_PARSE;
}

void lupe_event_free(struct lupe_event *ev)
{
	free(ev->name);
	free(ev->pmu_name);
	free(ev->group_name);
	free(ev->cpus);
	free(ev->config_terms);
	free(ev->filter);
	memset(ev, 0, sizeof(*ev));
}

struct lupe_event *lupe_event_list_add(struct lupe_event_list *list)
{
	struct lupe_event *ev;

	if (lupe_grow(&list->events, &list->alloc, list->nr + 1, sizeof(*list->events)))
		return NULL;
	ev = &list->events[list->nr];
	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	/* perf's event_attr_init: guests are excluded until a modifier says otherwise */
	ev->attr.exclude_guest = 1;
	ev->leader = (int)list->nr;
	ev->group_size = 1;
	list->nr++;
	return ev;
}

void lupe_event_list_clear(struct lupe_event_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->nr; i++)
		lupe_event_free(&list->events[i]);
	free(list->events);
	list->events = NULL;
	list->nr = list->alloc = 0;
}

/* Characters of a PMU or group name. */
static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* Characters any event text may hold outside pmu terms. */
static bool is_event_char(char c)
{
	return is_name_char(c) || strchr(":/*?[]!=", c);
}

static bool is_end(char c)
{
	return !c || c == ',' || c == '{' || c == '}';
}

/* Apply the modifier at spec[at..at+len), ':' at colon (or none: SIZE_MAX). */
int lupe_parse_modifier(struct parser *p, struct lupe_event *ev, size_t colon, size_t at,
		   size_t len, bool add, bool leader)
{
	char msg[sizeof(p->err->msg)];
	size_t bad;
	int ret;

	/* "faults:" has no modifier to apply: perf leaves the defaults alone */
	if (!len)
		return 0;
	ret = lupe_modifier_apply(ev, p->spec + at, len, add, leader, &bad, msg, sizeof(msg));
	if (!ret)
		return 0;
	/* as in perf: an unknown letter puts the caret on the ':', a bad mix on the letters */
	if (ret == -1)
		return lupe_parse_fail(p, colon != SIZE_MAX ? colon : at + bad, NULL, "%s", msg);
	return lupe_parse_fail(p, at, NULL, "%s", msg);
}

/* Name the event from the spec text, as perf does: the text up to a '/'. */
static int name_from_text(struct lupe_event *ev, const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);

	ev->name = strndup(s, slash ? (size_t)(slash - s) : len);
	return ev->name ? 0 : -ENOMEM;
}

static int add_simple(struct parser *p, size_t s, size_t end, size_t head_len, __u32 type,
		      __u64 config, const char *pmu, enum lupe_tool_event tool, bool keep_mod_in_name)
{
	struct lupe_event *ev = lupe_event_list_add(p->list);
	size_t colon = s + head_len;

	if (!ev)
		return -ENOMEM;
	ev->attr.type = type;
	ev->attr.config = config;
	ev->tool = tool;
	if (pmu && !(ev->pmu_name = strdup(pmu)))
		return -ENOMEM;
	if (name_from_text(ev, p->spec + s, keep_mod_in_name ? end - s : head_len))
		return -ENOMEM;
	if (colon < end)
		return lupe_parse_modifier(p, ev, colon, colon + 1, end - colon - 1, false, true);
	return 0;
}

static bool is_raw(const char *s, size_t len)
{
	if (len < 2 || s[0] != 'r')
		return false;
	for (size_t i = 1; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* "mem:ADDR[/LEN][:rwx][:mod]" */
static int parse_breakpoint(struct parser *p, size_t s, size_t end)
{
	const char *spec = p->spec;
	size_t at = s + 4, colon = SIZE_MAX;
	unsigned long long addr, len = 0;
	unsigned int type = 0;
	struct lupe_event *ev;
	char *e;

	if (!isdigit((unsigned char)spec[at]))
		return lupe_parse_fail(p, s, NULL, "breakpoint address expected after 'mem:'");
	addr = strtoull(spec + at, &e, 0);
	at = e - spec;
	if (spec[at] == '/') {
		if (!isdigit((unsigned char)spec[at + 1]))
			return lupe_parse_fail(p, at + 1, NULL, "breakpoint length expected after '/'");
		len = strtoull(spec + at + 1, &e, 0);
		at = e - spec;
	}
	if (spec[at] == ':') {
		size_t n = strspn(spec + at + 1, "rwx");

		colon = at;
		if (n && (at + 1 + n == end || spec[at + 1 + n] == ':')) {
			for (size_t i = at + 1; i < at + 1 + n; i++) {
				unsigned int bit = spec[i] == 'r' ? HW_BREAKPOINT_R :
						   spec[i] == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;

				if (type & bit)
					return lupe_parse_fail(p, at + 1, NULL,
							  "bad breakpoint access '%.*s': '%c' given twice",
							  (int)n, spec + at + 1, spec[i]);
				type |= bit;
			}
			at += 1 + n;
			colon = spec[at] == ':' ? at : SIZE_MAX;
		}
	}
	if (colon == SIZE_MAX && at != end)
		return lupe_parse_fail(p, at, NULL, "unexpected '%c' in breakpoint", spec[at]);
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (!len)
		len = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	ev = lupe_event_list_add(p->list);
	if (!ev)
		return -ENOMEM;
	ev->attr.type = PERF_TYPE_BREAKPOINT;
	ev->attr.bp_addr = addr;
	ev->attr.bp_type = type;
	ev->attr.bp_len = len;
	if (!(ev->pmu_name = strdup("breakpoint")) ||
	    name_from_text(ev, spec + s, end - s))
		return -ENOMEM;
	if (colon != SIZE_MAX)
		return lupe_parse_modifier(p, ev, colon, colon + 1, end - colon - 1, false, true);
	return 0;
}

struct tp_add {
	struct parser *p;
	size_t colon, mod, mod_len;
	size_t terms, terms_len; /* between the slashes of sys:name/terms/; 0 if none */
};

static int add_tracepoint(const char *sys, const char *name, __u64 id, void *arg)
{
	struct tp_add *t = arg;
	struct lupe_event *ev = lupe_event_list_add(t->p->list);

	if (!ev)
		return -ENOMEM;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = id;
	if (!(ev->pmu_name = strdup("tracepoint")) ||
	    asprintf(&ev->name, "%s:%s", sys, name) < 0) {
		ev->name = NULL;
		return -ENOMEM;
	}
	if (t->terms) {
		int ret = lupe_parse_tracepoint_terms(t->p, ev, t->terms, t->terms_len);

		if (ret)
			return ret;
	}
	if (t->colon != SIZE_MAX)
		return lupe_parse_modifier(t->p, ev, t->colon, t->mod, t->mod_len, false, true);
	return 0;
}

/*
 * "sys:name[/terms/][:mod]" with globs in sys and name; head_len is the
 * length of sys.
 */
static int parse_tracepoint(struct parser *p, size_t s, size_t head_len, size_t end)
{
	const char *spec = p->spec, *tracefs;
	size_t name_at = s + head_len + 1, name_end = name_at, after;
	struct tp_add t = { p, SIZE_MAX, 0, 0, 0, 0 };
	char *sys = NULL, *name = NULL;
	char help[256];
	int ret;

	while (name_end < end && spec[name_end] != ':' && spec[name_end] != '/')
		name_end++;
	after = name_end;
	if (spec[name_end] == '/') {
		const char *close = memchr(spec + name_end + 1, '/', end - name_end - 1);

		if (!close)
			return lupe_parse_fail(p, name_end, NULL,
					  "this '/' is never closed: terms end with '/'");
		t.terms = name_end + 1;
		t.terms_len = close - spec - t.terms;
		after = close - spec + 1;
	}
	if (spec[after] == ':') {
		t.colon = after;
		t.mod = after + 1;
		t.mod_len = end - after - 1;
	} else if (after != end) {
		return lupe_parse_fail(p, after, NULL, "unexpected '%c'", spec[after]);
	}
	sys = strndup(spec + s, head_len);
	name = strndup(spec + name_at, name_end - name_at);
	if (!sys || !name) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = s; i < name_end; i++)
		if (spec[i] == '=') {
			ret = lupe_parse_fail(p, i, NULL, "unexpected '='");
			goto out;
		}
	if (!*sys || !*name) {
		ret = lupe_parse_fail(p, s, NULL, "unknown event '%.*s'", (int)(end - s), spec + s);
		goto out;
	}
	tracefs = lupe_tracefs_dir();
	if (!tracefs && errno == LUPE_ERR_NO_TRACEFS) {
		ret = lupe_parse_fail(p, s, "mount it with: mount -t tracefs nodev /sys/kernel/tracing",
				 "cannot look up tracepoint '%s:%s': tracefs is not mounted", sys, name);
		goto out;
	}
	if (!tracefs) {
		ret = lupe_parse_fail(p, s, "tracepoints need root, or read access to /sys/kernel/tracing",
				 "cannot look up tracepoint '%s:%s': %s", sys, name, strerror(errno));
		goto out;
	}
	if (lupe_has_glob(sys, head_len) || lupe_has_glob(name, name_end - name_at)) {
		ret = lupe_tracepoint_foreach(sys, name, add_tracepoint, &t, true);
		if (ret == 0 || (ret < 0 && ret != -ENOMEM && !p->failed))
			ret = lupe_parse_fail(p, s, "'lupe list tracepoint' shows the tracepoints of this kernel",
					 "no tracepoint matches '%s:%s'", sys, name);
		else if (ret > 0)
			ret = 0;
		goto out;
	}
	{
		__u64 id;

		ret = lupe_tracepoint_id(sys, name, &id);
		if (ret == -ENOENT && strspn(name, "ukhGHIpPSDWeb") == strlen(name) &&
		    !lupe_tracepoint_system_exists(sys)) {
			/* "foo:u" is an unknown event with a modifier, not a tracepoint */
			ret = lupe_parse_fail(p, s, NULL, "unknown event '%s'", sys);
		} else if (ret == -ENOENT) {
			snprintf(help, sizeof(help), "%s/events/%s/%s does not exist: "
				 "'lupe list tracepoint' shows the tracepoints of this kernel",
				 tracefs, sys, name);
			ret = lupe_parse_fail(p, s, help, "unknown tracepoint '%s:%s'", sys, name);
		} else if (ret < 0) {
			ret = lupe_parse_fail(p, s, NULL, "cannot read the id of tracepoint '%s:%s': %s",
					 sys, name, lupe_strerror(ret));
		} else {
			ret = add_tracepoint(sys, name, id, &t);
		}
	}
out:
	free(sys);
	free(name);
	return ret;
}

/*
 * "cs/period=10/k", "L1-dcache-loads/name=x/", "r1a//": a symbolic, cache
 * or raw event with terms, as perf's grammar has them. Returns 1 when the
 * name before the slash is none of those (a PMU then), else 0 or an error.
 */
static int parse_legacy_with_terms(struct parser *p, size_t s, size_t slash, size_t end)
{
	const char *spec = p->spec;
	const char *close = memchr(spec + slash + 1, '/', end - slash - 1);
	const struct event_symbol *sym = lupe_event_symbol_find(spec + s, slash - s);
	char msg[sizeof(p->err->msg)];
	struct lupe_event *ev;
	__u64 config = 0;
	size_t bad, mod;
	int cache = 0, ret;

	if (!sym && !is_raw(spec + s, slash - s)) {
		cache = lupe_cache_event_parse(spec + s, slash - s, &config, &bad, msg, sizeof(msg));
		if (cache < 0)
			return lupe_parse_fail(p, s + bad, NULL, "%s", msg);
		if (!cache)
			return 1;
	}
	if (!close)
		return lupe_parse_fail(p, slash, NULL, "this '/' is never closed: terms end with '/'");
	if (!(ev = lupe_event_list_add(p->list)))
		return -ENOMEM;
	if (sym) {
		ev->attr.type = sym->type;
		ev->attr.config = sym->config;
		ev->tool = sym->tool;
	} else if (cache) {
		ev->attr.type = PERF_TYPE_HW_CACHE;
		ev->attr.config = config;
	} else {
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = strtoull(spec + s + 1, NULL, 16);
	}
	if ((!ev->tool && !(ev->pmu_name = strdup(ev->attr.type == PERF_TYPE_SOFTWARE ? "software" : "cpu"))) ||
	    !(ev->name = strndup(spec + s, cache ? slash - s : end - s)))
		return -ENOMEM;
	ret = lupe_parse_legacy_terms(p, ev, slash + 1, close - spec - slash - 1);
	if (ret)
		return ret;
	/* as after a PMU's terms: the modifier follows the '/', perf's caret goes on it */
	mod = close - spec + 1;
	if (mod < end)
		return lupe_parse_modifier(p, ev, mod - 1, mod, end - mod, false, true);
	return 0;
}

/* One event at spec[*pos]; *pos ends past it. */
static int parse_event(struct parser *p, size_t *pos)
{
	const char *spec = p->spec;
	size_t s = *pos, end = s, n = s, head_len;
	const struct event_symbol *sym;
	const char *colon;
	__u64 config;
	char msg[sizeof(p->err->msg)];
	size_t bad;
	int ret;

	while (is_name_char(spec[n]))
		n++;
	/* pmu/terms/: the terms may hold ',' so the event does not end there */
	if (spec[n] == '/' && n > s && strncmp(spec + s, "mem:", 4)) {
		const char *close = strchr(spec + n + 1, '/');

		end = close ? (size_t)(close - spec) + 1 : n + 1 + strlen(spec + n + 1);
		while (!is_end(spec[end]))
			end++;
		*pos = end;
		ret = parse_legacy_with_terms(p, s, n, end);
		if (ret <= 0)
			return ret;
		return lupe_parse_pmu_event(p, s, n, end);
	}
	while (!is_end(spec[end])) {
		/* a tracepoint's terms may hold ',' as well */
		const char *close = spec[end] == '/' && strncmp(spec + s, "mem:", 4) ?
				    strchr(spec + end + 1, '/') : NULL;

		end = close ? (size_t)(close - spec) + 1 : end + 1;
	}
	*pos = end;
	for (size_t i = s, in_terms = 0; i < end; i++) {
		if (spec[i] == '/' && strncmp(spec + s, "mem:", 4))
			in_terms = !in_terms;
		else if (!in_terms && !is_event_char(spec[i]))
			return lupe_parse_fail(p, i, NULL, "unexpected '%c'", spec[i]);
	}
	/* perf's caret for an empty event is on the comma before it */
	if (end == s)
		return lupe_parse_fail(p, s && spec[s - 1] == ',' ? s - 1 : s, NULL, "event expected");
	if (!strncmp(spec + s, "mem:", 4))
		return parse_breakpoint(p, s, end);

	colon = memchr(spec + s, ':', end - s);
	head_len = colon ? (size_t)(colon - spec) - s : end - s;
	sym = lupe_event_symbol_find(spec + s, head_len);
	if (sym)
		return add_simple(p, s, end, head_len, sym->type, sym->config,
				  sym->tool ? NULL : sym->type == PERF_TYPE_HARDWARE ? "cpu" : "software",
				  sym->tool, true);
	if (is_raw(spec + s, head_len))
		return add_simple(p, s, end, head_len, PERF_TYPE_RAW,
				  strtoull(spec + s + 1, NULL, 16), "cpu", LUPE_TOOL_NONE, true);
	ret = lupe_cache_event_parse(spec + s, head_len, &config, &bad, msg, sizeof(msg));
	if (ret < 0)
		return lupe_parse_fail(p, s + bad, NULL, "%s", msg);
	/* perf names cache events by their words, without the modifier */
	if (ret > 0)
		return add_simple(p, s, end, head_len, PERF_TYPE_HW_CACHE, config, "cpu",
				  LUPE_TOOL_NONE, false);
	/* "sys:name" is no alias with a modifier: spare the PMU scan */
	if (!colon || strspn(colon + 1, "ukhGHIpPSDWeb") == (size_t)(spec + end - colon - 1)) {
		ret = lupe_parse_pmu_alias(p, s, head_len, end);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	if (colon)
		return parse_tracepoint(p, s, head_len, end);
	return lupe_parse_fail(p, s, NULL, "unknown event '%.*s'", (int)head_len, spec + s);
}

static int parse_items(struct parser *p, size_t *pos, bool in_group);

/* "[name]{a,b,...}[:mod]" at spec[*pos]; name_len bytes of group name come first. */
static int parse_group(struct parser *p, size_t *pos, size_t name_len)
{
	const char *spec = p->spec;
	size_t open = *pos + name_len, first = p->list->nr, mod, end;
	struct lupe_event *leader;
	int ret;

	*pos = open + 1;
	if (spec[*pos] == '}')
		return lupe_parse_fail(p, open, NULL, "empty group");
	ret = parse_items(p, pos, true);
	if (ret)
		return ret;
	if (spec[*pos] != '}')
		return lupe_parse_fail(p, open, NULL, "group is not closed: '}' expected");
	(*pos)++;
	end = mod = *pos;
	if (spec[mod] == ':') {
		end = mod + 1;
		while (!is_end(spec[end]))
			end++;
	}
	*pos = end;
	for (size_t i = first; i < p->list->nr; i++) {
		struct lupe_event *ev = &p->list->events[i];

		ev->leader = (int)first;
		ev->group_size = 1;
		if (end > mod) {
			ret = lupe_parse_modifier(p, ev, mod, mod + 1, end - mod - 1, true, i == first);
			if (ret)
				return ret;
		}
	}
	leader = &p->list->events[first];
	leader->group_size = (int)(p->list->nr - first);
	if (name_len && !(leader->group_name = strndup(spec + open - name_len, name_len)))
		return -ENOMEM;
	return 0;
}

static int parse_items(struct parser *p, size_t *pos, bool in_group)
{
	const char *spec = p->spec;
	int ret;

	for (;;) {
		size_t n = *pos;

		while (is_name_char(spec[n]))
			n++;
		if (spec[n] == '{') {
			if (in_group)
				return lupe_parse_fail(p, n, NULL, "groups cannot be nested");
			ret = parse_group(p, pos, n - *pos);
		} else {
			ret = parse_event(p, pos);
		}
		if (ret)
			return ret;
		switch (spec[*pos]) {
		case ',':
			(*pos)++;
			continue;
		case '\0':
			return 0;
		case '}':
			if (in_group)
				return 0;
			return lupe_parse_fail(p, *pos, NULL, "unexpected '}' outside a group");
		default:
			return lupe_parse_fail(p, *pos, NULL, "unexpected '%c'", spec[*pos]);
		}
	}
}

int lupe_events_parse(struct lupe_event_list *list, const char *spec,
		      struct lupe_parse_error *err)
{
	struct lupe_parse_error dummy;
	struct parser p = { spec, list, err ? err : &dummy, false };
	size_t pos = 0, before = list->nr;
	int ret;

	p.err->pos = -1;
	p.err->msg[0] = p.err->help[0] = '\0';
	ret = parse_items(&p, &pos, false);
	if (ret == -ENOMEM && !p.failed)
		snprintf(p.err->msg, sizeof(p.err->msg), "%s", lupe_strerror(ret));
	if (ret) {
		while (list->nr > before)
			lupe_event_free(&list->events[--list->nr]);
		/* left as it was: an empty list holds no memory a caller must free */
		if (!before)
			lupe_event_list_clear(list);
	}
	return ret;
}
