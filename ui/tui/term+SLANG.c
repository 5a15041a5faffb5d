// SPDX-License-Identifier: GPL-2.0
/*
 * The terminal the slang browsers share, and their small widgets. The
 * terminal is the browsers' from the first tui_enter() to its tui_leave():
 * every way out of a key loop (a key, SIGINT/SIGTERM/SIGHUP, a read error
 * when the terminal went away) passes through that one reset.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tui/slang.h"

volatile sig_atomic_t tui_got_signal, tui_resized;

static int depth;
static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction old[4];

static void on_signal(int sig)
{
	tui_got_signal = sig;
	SLKeyBoard_Quit = 1; /* a read looping inside slang returns */
	/*
	 * Someone ends us (or the terminal went): should a slang loop not
	 * notice, SIGALRM's default action ends the process in 3 s (the
	 * way out after a signal takes a few ms).
	 * NEEDSWORK: under load a killed pane once left report running; the
	 * place it waited is not found yet.
	 */
	alarm(3);
}

static void on_winch(int sig)
{
	tui_resized = 1;
}

int tui_enter(void)
{
	struct sigaction sa = { .sa_handler = on_signal }, wa = { .sa_handler = on_winch };
	char *term = getenv("TERM");

	if (depth) {
		depth++;
		return 0;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "lupe: the TUI needs a terminal (use --stdio)\n");
		return -1;
	}
	if (!term || SLtt_initialize(term) < 0) {
		fprintf(stderr,
			"lupe: the terminal type '%s' is unknown (set TERM or use --stdio)\n",
			term ? term : "");
		return -1;
	}
	if (SLang_init_tty(-1, 0, 0) < 0) {
		fprintf(stderr, "lupe: cannot set up the terminal (use --stdio)\n");
		return -1;
	}
	SLang_set_abort_signal(NULL);
	SLtt_get_screen_size();
	if (SLsmg_init_smg() < 0) {
		SLang_reset_tty();
		fprintf(stderr, "lupe: cannot set up the terminal (use --stdio)\n");
		return -1;
	}
	SLtt_set_color(C_NORMAL, NULL, "default", "default");
	SLtt_set_color(C_HIGH, NULL, "red", "default");
	SLtt_set_color(C_MEDIUM, NULL, "green", "default");
	SLtt_set_color(C_SELECTED, NULL, "black", "cyan");
	SLtt_set_color(C_TITLE, NULL, "white", "blue");
	SLtt_set_color(C_STATUS, NULL, "white", "blue");
	tui_got_signal = tui_resized = 0;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	sigaction(SIGWINCH, &wa, &old[3]);
	depth = 1;
	return 0;
}

int tui_leave(void)
{
	if (!depth || --depth)
		return 0;
	SLsmg_reset_smg();
	SLang_reset_tty();
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	sigaction(SIGWINCH, &old[3], NULL);
	/* Ctrl-C is a way to quit, as q is; the others are someone ending us */
	return tui_got_signal && tui_got_signal != SIGINT ? 128 + tui_got_signal : 0;
}

void tui_resize(void)
{
	tui_resized = 0;
	SLtt_get_screen_size();
	SLsmg_reinit_smg();
}

/* (a hung-up tty reads EOF for ever, and slang's read would spin on it) */
int tui_wait_key(void)
{
	struct pollfd p = { .fd = SLang_TT_Read_FD, .events = POLLIN };

	if (SLang_Input_Buffer_Len)
		return 1;
	if (poll(&p, 1, 100) <= 0)
		return 0;
	return p.revents & (POLLHUP | POLLERR | POLLNVAL) ? -1 : 1;
}

/*
 * Escape sequences are decoded here rather than by SLkp_getkey(): on an
 * unknown or cut sequence slang flushes the input, and on a tty that hung
 * up that flush never ends. A lone ESC is told from a sequence by whether
 * more follows within 100 ms. 0 for a sequence lupe does not use.
 */
int tui_getkey(void)
{
	static const struct {
		const char *seq;
		int key;
	} seqs[] = {
		{ "[A", SL_KEY_UP },	 { "OA", SL_KEY_UP },	 { "[B", SL_KEY_DOWN },
		{ "OB", SL_KEY_DOWN },	 { "[C", SL_KEY_RIGHT }, { "OC", SL_KEY_RIGHT },
		{ "[D", SL_KEY_LEFT },	 { "OD", SL_KEY_LEFT },	 { "[5~", SL_KEY_PPAGE },
		{ "[6~", SL_KEY_NPAGE }, { "[H", SL_KEY_HOME },	 { "OH", SL_KEY_HOME },
		{ "[1~", SL_KEY_HOME },	 { "[7~", SL_KEY_HOME }, { "[F", SL_KEY_END },
		{ "OF", SL_KEY_END },	 { "[4~", SL_KEY_END },	 { "[8~", SL_KEY_END },
		{ "OM", SL_KEY_ENTER },	 { "[Z", KEY_UNTAB },
	};
	char seq[16];
	size_t n = 0;
	int k = SLang_getkey(), w = 0;

	if (k == SLANG_GETKEY_ERROR)
		return SL_KEY_ERR;
	if (k != 27)
		return k;
	/* the rest of a sequence: up to its final letter or ~ */
	while (n + 1 < sizeof(seq) && (w = tui_wait_key()) > 0) {
		k = SLang_getkey();
		if (k == SLANG_GETKEY_ERROR)
			return SL_KEY_ERR;
		seq[n++] = (char)k;
		if (n > 1 && ((k >= 'A' && k <= 'Z') || (k >= 'a' && k <= 'z') || k == '~'))
			break;
	}
	if (w < 0)
		return SL_KEY_ERR;
	seq[n] = 0;
	if (!n)
		return 27;
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		if (!strcmp(seq, seqs[i].seq))
			return seqs[i].key;
	return 0;
}

int tui_wait_getkey(void)
{
	int k = 0;

	while (!tui_got_signal && !(k = tui_wait_key()))
		;
	if (tui_got_signal || k < 0)
		return 0;
	k = tui_getkey();
	return k == SL_KEY_ERR ? 0 : k;
}

int tui_move(long *sel, long *top, long nr, long page, int k)
{
	switch (k) {
	case SL_KEY_UP:
		if (*sel > 0)
			(*sel)--;
		return 1;
	case SL_KEY_DOWN:
		if (*sel + 1 < nr)
			(*sel)++;
		return 1;
	case SL_KEY_PPAGE:
		*sel = *sel > page ? *sel - page : 0;
		*top = *sel;
		return 1;
	case SL_KEY_NPAGE:
	case ' ':
		*sel = *sel + page < nr ? *sel + page : nr - 1;
		if (*sel < 0)
			*sel = 0;
		return 1;
	case SL_KEY_HOME: *sel = 0; return 1;
	case SL_KEY_END: *sel = nr ? nr - 1 : 0; return 1;
	default: return 0;
	}
}

long tui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

void tui_frame(long sel, long *top, int nlist, const char *title)
{
	if (sel < *top)
		*top = sel;
	if (sel >= *top + nlist)
		*top = sel - nlist + 1;
	SLsmg_cls();
	SLsmg_gotorc(0, 0);
	SLsmg_set_color(C_TITLE);
	SLsmg_write_nstring((char *)title, (unsigned)SLtt_Screen_Cols);
}

void tui_status(const char *text)
{
	SLsmg_gotorc(SLtt_Screen_Rows - 1, 0);
	SLsmg_set_color(C_STATUS);
	SLsmg_write_nstring((char *)text, (unsigned)SLtt_Screen_Cols);
	SLsmg_gotorc(SLtt_Screen_Rows - 1, SLtt_Screen_Cols - 1);
	SLsmg_refresh();
}

int tui_prompt(const char *what, char *out, size_t size)
{
	char buf[128];
	size_t len = 0;

	buf[0] = 0;
	for (;;) {
		char line[200];
		int k = 0;

		snprintf(line, sizeof(line), "%s%s", what, buf);
		SLsmg_gotorc(SLtt_Screen_Rows - 1, 0);
		SLsmg_set_color(C_STATUS);
		SLsmg_write_nstring(line, (unsigned)SLtt_Screen_Cols);
		SLsmg_gotorc(SLtt_Screen_Rows - 1, (int)strlen(line));
		SLsmg_refresh();
		while (!tui_got_signal && !(k = tui_wait_key()))
			;
		if (tui_got_signal || k < 0)
			return -1;
		k = SLang_getkey();
		if (k == '\r' || k == '\n') {
			snprintf(out, size, "%s", buf);
			return 0;
		}
		if (k == 27 || k == 3 || k == SLANG_GETKEY_ERROR)
			return -1;
		if ((k == 127 || k == 8) && len)
			buf[--len] = 0;
		else if (k >= ' ' && k < 127 && len + 1 < sizeof(buf)) {
			buf[len++] = (char)k;
			buf[len] = 0;
		}
	}
}

static void box_line(int row, int col, int width, int color, const char *text)
{
	SLsmg_gotorc(row, col);
	SLsmg_set_color(color);
	SLsmg_write_nstring(" ", 1);
	SLsmg_write_nstring((char *)text, (unsigned)width);
	SLsmg_write_nstring(" ", 1);
}

int tui_menu(const char *title, const char *const *items, int nr)
{
	int sel = 0, width = (int)strlen(title);

	for (int i = 0; i < nr; i++)
		if ((int)strlen(items[i]) > width)
			width = (int)strlen(items[i]);
	if (width > SLtt_Screen_Cols - 10)
		width = SLtt_Screen_Cols - 10;
	for (;;) {
		int top = 3, k;

		box_line(top, 4, width, C_TITLE, title);
		for (int i = 0; i < nr; i++)
			box_line(top + 1 + i, 4, width, i == sel ? C_SELECTED : C_TITLE, items[i]);
		SLsmg_gotorc(top + 1 + sel, 5);
		SLsmg_refresh();
		k = tui_wait_getkey();
		switch (k) {
		case 0:
		case 27:
		case 'q':
		case SL_KEY_LEFT: return -1;
		case SL_KEY_UP: sel = sel ? sel - 1 : nr - 1; break;
		case SL_KEY_DOWN: sel = sel + 1 < nr ? sel + 1 : 0; break;
		case '\r':
		case '\n':
		case SL_KEY_ENTER:
		case SL_KEY_RIGHT: return sel;
		default: break;
		}
	}
}

void tui_text(const char *title, const char *const *lines, int nr)
{
	int top = 0;

	for (;;) {
		int rows = SLtt_Screen_Rows - 2, k;

		SLsmg_cls();
		SLsmg_gotorc(0, 0);
		SLsmg_set_color(C_TITLE);
		SLsmg_write_nstring((char *)title, (unsigned)SLtt_Screen_Cols);
		SLsmg_set_color(C_NORMAL);
		for (int i = 0; i < rows && top + i < nr; i++) {
			SLsmg_gotorc(1 + i, 0);
			SLsmg_write_nstring((char *)lines[top + i], (unsigned)SLtt_Screen_Cols);
		}
		SLsmg_gotorc(SLtt_Screen_Rows - 1, 0);
		SLsmg_set_color(C_STATUS);
		SLsmg_write_nstring("UP/DOWN PGUP/PGDN: scroll, q/ESC/LEFT: back", (unsigned)SLtt_Screen_Cols);
		SLsmg_refresh();
		k = tui_wait_getkey();
		switch (k) {
		case 0:
		case 27:
		case 'q':
		case SL_KEY_LEFT: return;
		case SL_KEY_UP: top = top ? top - 1 : 0; break;
		case SL_KEY_DOWN: top = top + rows < nr ? top + 1 : top; break;
		case SL_KEY_PPAGE: top = top > rows ? top - rows : 0; break;
		case SL_KEY_NPAGE:
		case ' ': top = top + 2 * rows <= nr ? top + rows : (nr > rows ? nr - rows : 0); break;
		default: break;
		}
	}
}

void tui_text_str(const char *title, const char *text)
{
	char *copy = strdup(text ? text : ""), *p, *nl;
	const char **lines = NULL;
	int nr = 0, alloc = 0;

	for (p = copy; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		if (nr == alloc) {
			const char **n = realloc(lines, (size_t)(alloc = alloc ? 2 * alloc : 64) * sizeof(*n));

			if (!n)
				break;
			lines = n;
		}
		lines[nr++] = p;
	}
	tui_text(title, lines, nr);
	free(lines);
	free(copy);
}

void tui_help(const char *const *lines, int nr)
{
	for (int i = 0; i < nr; i++)
		box_line(2 + i, 4, 68, C_TITLE, lines[i]);
	box_line(2 + nr, 4, 68, C_TITLE, "");
	box_line(3 + nr, 4, 68, C_TITLE, "press any key");
	SLsmg_refresh();
	tui_wait_getkey();
}
