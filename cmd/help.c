// SPDX-License-Identifier: GPL-2.0
/*
 * lupe help [CMD]: the manual page lupe-CMD(1). The pages are written in
 * Documentation/lupe-CMD.md and made into man pages at build time
 * (scripts/md2man): help runs man(1) on the page that belongs to this lupe,
 * the one installed beside it (BINDIR/../share/man, so a relocated install
 * finds its own) or the build tree's. Without man(1) or a page, the
 * Markdown is shown as plain text: its markup (underlines, backticks,
 * definition markers) taken out and the body indented as man indents it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "pager.h"

static FILE *open_markdown(const char *page)
{
	const char *dirs[] = { getenv("LUPE_DOC_DIR"), LUPE_DOC_DIR, LUPE_INSTALL_DOC_DIR };
	char path[4096];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		FILE *f;

		if (!dirs[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s.md", dirs[i], page);
		f = fopen(path, "r");
		if (f)
			return f;
	}
	return NULL;
}

/* The man page of this lupe: beside the binary, the build tree's, the configured prefix's. */
static int find_man_page(const char *page, char *path, size_t size)
{
	char self[PATH_MAX], *slash;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *fmt[] = { "%s/../share/man/man1/%s.1.gz", "%s/../share/man/man1/%s.1" };

	if (getenv("LUPE_DOC_DIR")) /* the Markdown asked for by name */
		return 0;
	if (len > 0) {
		self[len] = '\0';
		if ((slash = strrchr(self, '/'))) {
			*slash = '\0';
			for (size_t i = 0; i < sizeof(fmt) / sizeof(*fmt); i++) {
				if (snprintf(path, size, fmt[i], self, page) < (int)size &&
				    !access(path, R_OK))
					return 1;
			}
		}
	}
	if (snprintf(path, size, "%s/man1/%s.1", LUPE_MAN_DIR, page) < (int)size &&
	    !access(path, R_OK))
		return 1;
	return snprintf(path, size, "%s/man1/%s.1.gz", LUPE_INSTALL_MAN_DIR, page) < (int)size &&
	       !access(path, R_OK);
}

/* Inline markup out: `code` and **strong** keep their words. */
static void put_text(const char *s, FILE *out)
{
	for (; *s && *s != '\n'; s++) {
		if (*s == '`')
			continue;
		if (s[0] == '*' && s[1] == '*') {
			s++;
			continue;
		}
		fputc(*s, out);
	}
	fputc('\n', out);
}

static int underline(const char *s, char c)
{
	size_t n = strspn(s, (char[]){ c, 0 });

	return n >= 3 && (s[n] == '\n' || !s[n]);
}

/* The Markdown of a page as text: headings at the margin, the rest indented. */
static void format_markdown(FILE *in, FILE *out)
{
	char *cur = NULL, *next = NULL, *tmp;
	size_t cur_cap = 0, next_cap = 0, cap;
	int have = getline(&cur, &cur_cap, in) >= 0;

	while (have) {
		int have_next = getline(&next, &next_cap, in) >= 0;

		if (have_next && (underline(next, '=') || underline(next, '-'))) {
			put_text(cur, out); /* a heading: its underline goes */
			have_next = getline(&next, &next_cap, in) >= 0;
		} else if (cur[0] == '\n') {
			fputc('\n', out);
		} else if (!strncmp(cur, ":   ", 4)) {
			fputs("           ", out); /* a definition, under its term */
			put_text(cur + 4, out);
		} else {
			fputs("       ", out);
			put_text(cur, out);
		}
		tmp = cur, cur = next, next = tmp;
		cap = cur_cap, cur_cap = next_cap, next_cap = cap;
		have = have_next;
	}
	free(cur);
	free(next);
}

int cmd_help(int argc, char **argv)
{
	char page[256], path[PATH_MAX + 64];
	FILE *f;

	if (argc >= 2 && !strcmp(argv[1], "-h")) {
		printf("Usage: lupe help [COMMAND]\nShow the manual page of lupe or of COMMAND.\n");
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--list-opts"))
		return 0;
	if (argc >= 2 && argv[1][0] == '-')
		return error("usage: lupe help [COMMAND]"), EXIT_USAGE;
	if (argc < 2 || !strcmp(argv[1], "lupe"))
		snprintf(page, sizeof(page), "lupe");
	else
		snprintf(page, sizeof(page), "lupe-%s", argv[1]);
	if (find_man_page(page, path, sizeof(path))) {
		fflush(stdout);
		execlp("man", "man", "-l", path, (char *)NULL);
		/* no man(1) here: the text below */
	}
	f = open_markdown(page);
	if (!f)
		return error("no manual page for '%s' (looked for %s.md in %s)",
			     argc < 2 ? "lupe" : argv[1], page, LUPE_DOC_DIR), 1;
	setup_pager();
	format_markdown(f, stdout);
	fclose(f);
	return 0;
}
