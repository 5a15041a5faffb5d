/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LUPE_UI_PAGER_H
#define LUPE_UI_PAGER_H

/*
 * When stdout is a terminal, start $LUPE_PAGER, $PAGER or "less -FRX" and
 * send stdout to it; the pager is waited for at exit. "cat" or an empty
 * value means no pager. Does nothing when stdout is not a terminal.
 */
void setup_pager(void);

/* Whether a pager was started (its output is still a terminal). */
int pager_in_use(void);

#endif
