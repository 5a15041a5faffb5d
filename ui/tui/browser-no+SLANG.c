// SPDX-License-Identifier: GPL-2.0
/* Without slang there is no TUI: report prints text, top asks for --stdio. */
#include <stdio.h>
#include "tui/tui.h"

int tui_built(void)
{
	return 0;
}

int tui_browse_hists(struct tui_hists *th)
{
	fprintf(stderr,
		"lupe: the TUI is not built into this lupe (slang was missing): showing text\n");
	return -1;
}

int tui_annotate(struct annotate_data *d, struct lupe_annotated_sym *as, bool source)
{
	fprintf(stderr,
		"lupe: the TUI is not built into this lupe (slang was missing): showing text\n");
	return -1;
}
