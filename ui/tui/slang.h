/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the slang browsers share (ui/tui/term+SLANG.c): the terminal from
 * tui_enter() to tui_leave() (nested calls share it: report's annotate
 * browser runs inside the hists browser), keys with escape sequences
 * decoded, a prompt on the status line, a popup menu and a text viewer.
 */
#ifndef LUPE_UI_TUI_SLANG_H
#define LUPE_UI_TUI_SLANG_H

#include <signal.h>
#include <slang.h>

enum { C_NORMAL, C_HIGH, C_MEDIUM, C_SELECTED, C_TITLE, C_STATUS };

/* shift-TAB, as the terminal sends it (ESC [ Z) */
#define KEY_UNTAB 0x2001

extern volatile sig_atomic_t tui_got_signal, tui_resized;

/* Set up the terminal (said why and -1 when it cannot be). */
int tui_enter(void);
/* Restore it; returns 128 + the signal that ended the browser, or 0. */
int tui_leave(void);
/* After a resize: take the new size. */
void tui_resize(void);

/* Wait up to 100 ms for a key: 1 one is there, 0 none came, -1 the terminal went. */
int tui_wait_key(void);
/* A key (SL_KEY_*, KEY_UNTAB, or the character); SL_KEY_ERR: the terminal went. */
int tui_getkey(void);
/* Wait for a key; 0 after a signal or when the terminal went. */
int tui_wait_getkey(void);

/*
 * The cursor keys (UP DOWN PGUP PGDN, SPACE a page too, HOME END) on a
 * list of nr rows, page of them on screen; 0 when k is none of them.
 */
int tui_move(long *sel, long *top, long nr, long page, int k);

/* CLOCK_MONOTONIC in ms: the refresh timers */
long tui_now_ms(void);
/* A list's frame: top scrolled so that sel shows in nlist rows, the screen cleared, title on row 0. */
void tui_frame(long sel, long *top, int nlist, const char *title);
/* The status row (the last) says text, and the screen is refreshed. */
void tui_status(const char *text);

/* Read a line on the status row into out: 0 on Enter, -1 on ESC or a signal. */
int tui_prompt(const char *what, char *out, size_t size);
/* A popup of items: the index picked with Enter, or -1 (ESC, q, a signal). */
int tui_menu(const char *title, const char *const *items, int nr);
/* Lines to read (Up/Down/PgUp/PgDn), until q, ESC or Left. */
void tui_text(const char *title, const char *const *lines, int nr);
/* A help box over the screen until any key. */
void tui_help(const char *const *lines, int nr);
/* text split at its newlines, shown with tui_text */
void tui_text_str(const char *title, const char *text);

struct tui_hists;
struct lupe_hist_entry;
/* a: annotate e from the hists browser (msg: why not); 1 to quit all */
int tui_annotate_entry(struct tui_hists *th, const struct lupe_hist_entry *e, char *msg, size_t size);

/* perf's colours of a percentage: hotter is redder */
static inline int tui_pct_color(double p)
{
	return p >= 5.0 ? C_HIGH : p >= 0.5 ? C_MEDIUM : C_NORMAL;
}

#endif
