// SPDX-License-Identifier: GPL-2.0
/* lupe help [CMD]: the manual pages are Documentation/lupe-CMD.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "pager.h"

static FILE *open_page(const char *page)
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

int cmd_help(int argc, char **argv)
{
	char page[256], buf[8192];
	size_t n;
	FILE *f;

	if (argc < 2 || !strcmp(argv[1], "lupe"))
		snprintf(page, sizeof(page), "lupe");
	else
		snprintf(page, sizeof(page), "lupe-%s", argv[1]);
	if (argc >= 2 && !strcmp(argv[1], "-h")) {
		printf("Usage: lupe help [COMMAND]\nShow the manual page of lupe or of COMMAND.\n");
		return 0;
	}
	if (argc >= 2 && argv[1][0] == '-')
		return error("usage: lupe help [COMMAND]"), EXIT_USAGE;
	f = open_page(page);
	if (!f)
		return error("no manual page for '%s' (looked for %s.md in %s)",
			     argc < 2 ? "lupe" : argv[1], page, LUPE_DOC_DIR), 1;
	setup_pager();
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			break;
	fclose(f);
	return 0;
}
