// SPDX-License-Identifier: GPL-2.0
/*
 * Callchain completion, the step between reading a sample and using its
 * chain: the user part unwound from the stack copy (--call-graph dwarf),
 * then, as frames are resolved, the functions inlined at each user
 * address. The session owns one completer and calls it from
 * lupe_session_resolve(); nothing past the session unwinds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/srcline.h"
#include "unwind/unwind.h"
#include "util/util.h"

struct lupe_completer {
	struct lupe_unwinder *unwinder;
	struct lupe_srcline *srcline;
	int no_inline;
	uint64_t cc[LUPE_SESSION_MAX_CHAIN];
};

struct lupe_completer *lupe_completer_new(void)
{
	struct lupe_completer *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->unwinder = lupe_unwinder_new();
	c->srcline = lupe_srcline_new();
	if (!c->unwinder || !c->srcline) {
		lupe_completer_delete(c);
		return err_ptr(-ENOMEM);
	}
	return c;
}

void lupe_completer_delete(struct lupe_completer *c)
{
	if (!c)
		return;
	lupe_unwinder_delete(c->unwinder);
	lupe_srcline_delete(c->srcline);
	free(c);
}

void lupe_completer_set_inline(struct lupe_completer *c, int on)
{
	c->no_inline = !on;
}

int lupe_completer_chain(struct lupe_completer *c, struct lupe_thread *t,
			 const struct lupe_sample *s, const uint64_t **ips, uint64_t *nr)
{
	int n = lupe_callchain_complete(c->unwinder, t, s, c->cc, (int)ARRAY_SIZE(c->cc));

	if (n <= 0)
		return 0;
	*ips = c->cc;
	*nr = (uint64_t)n;
	return 1;
}

int lupe_completer_inlines(struct lupe_completer *c, struct lupe_frame *frames, int n, int max)
{
	struct lupe_frame base = frames[n];
	const struct lupe_inline_frame *v;
	int k, i;

	if (c->no_inline || base.kernel || !base.sym || !base.map)
		return 1;
	k = lupe_srcline_inlines(c->srcline, base.map->dso, base.vaddr, base.sym, &v);
	for (i = 0; i < k && n + i < max; i++) {
		frames[n + i] = base;
		frames[n + i].sym = v[i].sym;
		frames[n + i].inlined = (uint8_t)v[i].inlined;
		frames[n + i].src_file = v[i].file;
		frames[n + i].src_line = v[i].line;
	}
	return i ? i : 1;
}

int lupe_completer_srcline(struct lupe_completer *c, const struct lupe_frame *f,
			   const char **file, unsigned *line)
{
	if (!f->map || f->kernel)
		return -ENOENT;
	return lupe_srcline_find(c->srcline, f->map->dso, f->vaddr, file, line);
}

int lupe_completer_srcline_text(struct lupe_completer *c, const struct lupe_frame *f, char *buf,
				size_t size)
{
	const char *file = f->src_file, *slash;
	unsigned line = f->src_line;

	if (f->kernel || !f->map)
		return f->sym ? snprintf(buf, size, "%s+%llu", f->sym->name,
					 (unsigned long long)(f->vaddr - f->sym->start))
			      : snprintf(buf, size, "??:0");
	if (!file && lupe_completer_srcline(c, f, &file, &line))
		file = NULL;
	if (!file || !line)
		return snprintf(buf, size, "??:0");
	if ((slash = strrchr(file, '/')))
		file = slash + 1;
	return snprintf(buf, size, "%s:%u", file, line);
}
