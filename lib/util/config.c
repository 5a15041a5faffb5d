// SPDX-License-Identifier: GPL-2.0
/*
 * perf's configuration files, read and written as perf 6.1 does (its
 * util/config.c, which is git's config parser): see lupe/config.h. The
 * parser reads outside input, so it is one of the fuzz targets
 * (tests/fuzz/config.c); it never reads past len and a line it cannot read
 * is an error with its number, never a guess.
 *
 * Cost: a config holds a few dozen variables, so lookups are linear scans.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <lupe/config.h>
#include "util/util.h"

struct item {
	char *name, *value;
};

struct section {
	char *name;
	struct item *items;
	size_t nr, cap;
};

struct lupe_config {
	struct section *secs;
	size_t nr, cap;
};

struct lupe_config *lupe_config_new(void)
{
	return calloc(1, sizeof(struct lupe_config));
}

void lupe_config_delete(struct lupe_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		for (size_t j = 0; j < c->secs[i].nr; j++) {
			free(c->secs[i].items[j].name);
			free(c->secs[i].items[j].value);
		}
		free(c->secs[i].items);
		free(c->secs[i].name);
	}
	free(c->secs);
	free(c);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap * 2 : 8;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (!(q = realloc(*p, n * size)))
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* Set section.name (both already in their stored case) to value. */
static int set_split(struct lupe_config *c, const char *sec, size_t sec_len, const char *name,
		     const char *value)
{
	struct section *s = NULL;
	struct item *it;
	char *v;

	for (size_t i = 0; i < c->nr && !s; i++)
		if (strlen(c->secs[i].name) == sec_len && !memcmp(c->secs[i].name, sec, sec_len))
			s = &c->secs[i];
	for (size_t j = 0; s && j < s->nr; j++) {
		if (strcmp(s->items[j].name, name))
			continue;
		if (!(v = strdup(value)))
			return -ENOMEM;
		free(s->items[j].value);
		s->items[j].value = v;
		return 0;
	}
	if (!s) {
		if (grow((void **)&c->secs, &c->cap, c->nr + 1, sizeof(*c->secs)))
			return -ENOMEM;
		s = &c->secs[c->nr];
		*s = (struct section){ .name = strndup(sec, sec_len) };
		if (!s->name)
			return -ENOMEM;
		c->nr++;
	}
	if (grow((void **)&s->items, &s->cap, s->nr + 1, sizeof(*s->items)))
		return -ENOMEM;
	it = &s->items[s->nr];
	it->name = strdup(name);
	it->value = strdup(value);
	if (!it->name || !it->value) {
		free(it->name);
		free(it->value);
		return -ENOMEM;
	}
	s->nr++;
	return 0;
}

/* A variable's full name "section[.sub].key": perf splits it at the first dot. */
static int set_var(struct lupe_config *c, const char *var, const char *value)
{
	const char *dot = strchr(var, '.');

	if (!dot || dot == var || !dot[1])
		return -EINVAL;
	return set_split(c, var, (size_t)(dot - var), dot + 1, value);
}

int lupe_config_set(struct lupe_config *c, const char *var, const char *value)
{
	char buf[512], *last;
	const char *dot = strchr(var, '.');

	if (!dot || dot == var || !dot[1] || strlen(var) >= sizeof(buf))
		return -EINVAL;
	/* the section and the key are case-insensitive; a subsection is not */
	strcpy(buf, var);
	last = strrchr(buf, '.');
	for (char *p = buf; p < buf + (dot - var); p++)
		*p = (char)tolower((unsigned char)*p);
	for (char *p = last + 1; *p; p++) {
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return -EINVAL;
		*p = (char)tolower((unsigned char)*p);
	}
	if (!isalpha((unsigned char)last[1]))
		return -EINVAL;
	return set_var(c, buf, value);
}

/* ---- the parser: git's config grammar, on a bounded buffer ---- */

struct parse {
	const char *p, *end;
	int line;
	char var[512];  /* "section[.sub]." then the key */
	size_t base;    /* length of "section[.sub]." in var */
};

static int next_ch(struct parse *ps)
{
	int ch;

	if (ps->p >= ps->end)
		return EOF;
	ch = (unsigned char)*ps->p++;
	if (ch == '\n')
		ps->line++;
	return ch;
}

/* The value after '=', to the end of its line: quotes, escapes, comments. */
static int parse_value(struct parse *ps, char *out, size_t size)
{
	size_t n = 0, keep = 0; /* keep: length without trailing blanks outside quotes */
	int quote = 0, comment = 0, space = 0;

	for (;;) {
		int ch = next_ch(ps);

		if (ch == EOF || ch == '\n') {
			if (quote) {
				if (ch == '\n')
					ps->line--; /* perf's number: the value's line */
				return -EINVAL;
			}
			out[keep] = '\0';
			return 0;
		}
		if (comment)
			continue;
		if (isspace(ch) && !quote) {
			if (n)
				space++;
			continue;
		}
		if (!quote && (ch == ';' || ch == '#')) {
			comment = 1;
			continue;
		}
		for (; space; space--) {
			if (n + 1 >= size)
				return -EINVAL;
			out[n++] = ' ';
		}
		if (ch == '\\') {
			ch = next_ch(ps);
			switch (ch) {
			case '\n': continue; /* a continued line */
			case 't': ch = '\t'; break;
			case 'b': ch = '\b'; break;
			case 'n': ch = '\n'; break;
			case '\\': case '"': break;
			default: return -EINVAL;
			}
			if (n + 1 >= size)
				return -EINVAL;
			out[n++] = (char)ch;
			keep = n;
			continue;
		}
		if (ch == '"') {
			quote = !quote;
			keep = n;
			continue;
		}
		if (n + 1 >= size)
			return -EINVAL;
		out[n++] = (char)ch;
		keep = n;
	}
}

/* "[section]" or "[section \"sub\"]", after the '['. */
static int parse_section(struct parse *ps)
{
	size_t n = 0;
	int ch;

	for (;;) {
		ch = next_ch(ps);
		if (ch == ']' || ch == ' ' || ch == '\t')
			break;
		if (ch == EOF || (!isalnum(ch) && ch != '-' && ch != '.'))
			return -EINVAL;
		if (n + 2 >= sizeof(ps->var))
			return -EINVAL;
		ps->var[n++] = (char)tolower(ch);
	}
	if (!n)
		return -EINVAL;
	if (ch != ']') {
		while ((ch = next_ch(ps)) == ' ' || ch == '\t')
			;
		if (ch != '"')
			return -EINVAL;
		ps->var[n++] = '.';
		while ((ch = next_ch(ps)) != '"') {
			if (ch == '\\')
				ch = next_ch(ps);
			if (ch == EOF || ch == '\n' || n + 2 >= sizeof(ps->var))
				return -EINVAL;
			ps->var[n++] = (char)ch;
		}
		if (next_ch(ps) != ']')
			return -EINVAL;
	}
	ps->var[n++] = '.';
	ps->base = n;
	return 0;
}

/* "key = value" (key's first letter already read), into c. */
static int parse_var(struct lupe_config *c, struct parse *ps, int ch)
{
	char value[4096];
	size_t n = ps->base;
	int err;

	if (!ps->base) /* a variable before any section */
		return -EINVAL;
	for (; ch != EOF && (isalnum(ch) || ch == '-' || ch == '_'); ch = next_ch(ps)) {
		if (n + 1 >= sizeof(ps->var))
			return -EINVAL;
		ps->var[n++] = (char)tolower(ch);
	}
	ps->var[n] = '\0';
	while (ch == ' ' || ch == '\t')
		ch = next_ch(ps);
	/* perf takes no value-less "key" (git's true); the error is the key's line */
	if (ch != '=') {
		if (ch == '\n')
			ps->line--;
		return -EINVAL;
	}
	if ((err = parse_value(ps, value, sizeof(value))))
		return err;
	return set_var(c, ps->var, value);
}

int lupe_config_parse(struct lupe_config *c, const char *text, size_t len, int *bad_line)
{
	struct parse ps = { .p = text, .end = text + len, .line = 1 };
	int ch, err = 0;

	/* a UTF-8 byte order mark, as git skips it */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		ps.p += 3;
	while (!err && (ch = next_ch(&ps)) != EOF) {
		if (isspace(ch))
			continue;
		if (ch == '#' || ch == ';') {
			while ((ch = next_ch(&ps)) != EOF && ch != '\n')
				;
			continue;
		}
		if (ch == '[')
			err = parse_section(&ps);
		else if (isalpha(ch))
			err = parse_var(c, &ps, ch);
		else
			err = -EINVAL;
		/* perf's line number: where the parser stood when it gave up */
		if (err == -EINVAL && bad_line)
			*bad_line = ps.line;
	}
	return err;
}

int lupe_config_read(struct lupe_config *c, const char *path, int *bad_line)
{
	size_t len;
	char *text = lupe_read_whole_file(path, &len);
	int err;

	if (!text)
		return -errno;
	err = lupe_config_parse(c, text, len, bad_line);
	free(text);
	return err;
}

const char *lupe_config_user_file(void)
{
	static char path[PATH_MAX];
	const char *home = getenv("HOME");

	snprintf(path, sizeof(path), "%s/.perfconfig", home ? home : "");
	return path;
}

const char *lupe_config_system_file(void)
{
	return "/etc/perfconfig";
}

int lupe_config_files(const char **paths, int max)
{
	const char *env = getenv("PERF_CONFIG");
	int n = 0;

	if (env) {
		if (*env && n < max)
			paths[n++] = env;
		return n;
	}
	if (!getenv("PERF_CONFIG_NOSYSTEM") && n < max)
		paths[n++] = lupe_config_system_file();
	if (getenv("HOME") && n < max)
		paths[n++] = lupe_config_user_file();
	return n;
}

const char *lupe_config_get(const struct lupe_config *c, const char *var)
{
	const char *dot = strchr(var, '.');

	if (!dot)
		return NULL;
	for (size_t i = 0; i < c->nr; i++) {
		const struct section *s = &c->secs[i];

		if (strlen(s->name) != (size_t)(dot - var) || strncasecmp(s->name, var, dot - var))
			continue;
		for (size_t j = 0; j < s->nr; j++)
			if (!strcasecmp(s->items[j].name, dot + 1))
				return s->items[j].value;
	}
	return NULL;
}

size_t lupe_config_count(const struct lupe_config *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nr; i++)
		n += c->secs[i].nr;
	return n;
}

int lupe_config_item(const struct lupe_config *c, size_t i, const char **section,
		     const char **name, const char **value)
{
	for (size_t s = 0; s < c->nr; s++) {
		if (i >= c->secs[s].nr) {
			i -= c->secs[s].nr;
			continue;
		}
		*section = c->secs[s].name;
		*name = c->secs[s].items[i].name;
		*value = c->secs[s].items[i].value;
		return 0;
	}
	return -ERANGE;
}

int lupe_config_write(const struct lupe_config *c, FILE *f)
{
	fputs("# this file is auto-generated.\n", f);
	for (size_t i = 0; i < c->nr; i++) {
		fprintf(f, "[%s]\n", c->secs[i].name);
		for (size_t j = 0; j < c->secs[i].nr; j++)
			fprintf(f, "\t%s = %s\n", c->secs[i].items[j].name, c->secs[i].items[j].value);
	}
	return ferror(f) ? -EIO : 0;
}

int lupe_config_bool(const char *value)
{
	static const char *const yes[] = { "true", "yes", "on" }, *const no[] = { "false", "no", "off", "" };
	char *end;
	long n;

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcasecmp(value, yes[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcasecmp(value, no[i]))
			return 0;
	errno = 0;
	n = strtol(value, &end, 0);
	if (errno || end == value || *end)
		return -EINVAL;
	return n != 0;
}
