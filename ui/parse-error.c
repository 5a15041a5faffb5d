// SPDX-License-Identifier: GPL-2.0
/* perf's layout for event-spec errors, so that users see the caret they know. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "parse-error.h"

#define PREFIX "event syntax error: "
/* perf cuts the front of the spec so the caret sits at most this far in */
#define MAX_ERR_IDX 13

static int term_width(void)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;

	if (cols && atoi(cols) > 0)
		return atoi(cols);
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

void ui_print_parse_error_width(FILE *f, const char *spec, const struct lupe_parse_error *err,
				int width)
{
	int len = (int)strlen(spec), pos = err->pos, cut = 0;
	int max_len = width - 2 - (int)strlen(PREFIX);
	char *buf;

	if (pos < 0 || pos > len) {
		fprintf(f, "invalid or unsupported event: '%s'\n", spec);
		if (err->msg[0])
			fprintf(f, "%s\n", err->msg);
		goto out;
	}
	if (max_len < MAX_ERR_IDX + 4)
		max_len = MAX_ERR_IDX + 4;
	if (pos > MAX_ERR_IDX)
		cut = pos - MAX_ERR_IDX;
	buf = strndup(spec + cut, max_len);
	if (!buf) {
		fprintf(f, PREFIX "'%s'\n", spec);
		goto out;
	}
	if (cut)
		buf[0] = buf[1] = '.';
	if (len - cut > max_len)
		buf[max_len - 1] = buf[max_len - 2] = '.';
	fprintf(f, PREFIX "'%s'\n", buf);
	free(buf);
	/* +1 for the opening quote */
	fprintf(f, "%*s\\___ %s\n", (int)strlen(PREFIX) + pos - cut + 1, "", err->msg);
	if (err->help[0])
		fprintf(f, "\n%s\n", err->help);
out:
	fprintf(f, "Run 'lupe list' for a list of valid events\n");
}

void ui_print_parse_error(FILE *f, const char *spec, const struct lupe_parse_error *err)
{
	ui_print_parse_error_width(f, spec, err, term_width());
}

int ui_parse_events(struct lupe_event_list *list, const char *spec)
{
	struct lupe_parse_error perr = { .pos = -1 };
	int err = lupe_events_parse(list, spec, &perr);

	if (err == -LUPE_ERR_PARSE)
		ui_print_parse_error(stderr, spec, &perr);
	else if (err)
		fprintf(stderr, "lupe: cannot use events '%s': %s\n", spec, lupe_strerror(err));
	return err;
}
