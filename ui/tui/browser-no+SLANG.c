// SPDX-License-Identifier: GPL-2.0
/* Without slang there is no TUI: report prints text, top asks for --stdio. */
#include "tui/tui.h"

int tui_built(void)
{
	return 0;
}

int tui_browse_hists(struct tui_hists *th)
{
	return -1;
}
