/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The browser view of a profile (report --web, report --html, diff --web):
 * one page of our own (web/, built into the binary), with the profile's
 * data from lib/export/web.c, served over HTTP (exporter-http.h, on
 * libmicrohttpd) or written as one self-contained HTML file.
 */
#ifndef LUPE_CMD_WEB_H
#define LUPE_CMD_WEB_H

struct web_opts {
	const char *listen; /* "ADDR:PORT" to serve on; NULL: 127.0.0.1, a free port */
	const char *html;   /* write the page to this file instead of serving ("-": stdout) */
	int force;          /* read files not owned by the caller */
};

/*
 * The page of the perf.data at input, served until SIGINT or SIGTERM (the
 * URL with its token printed on stdout), or written to o->html. Returns
 * the exit status, after saying why when it is not 0.
 */
int web_report(const char *input, const struct web_opts *o);

/* The same for two files: the page's diff view compares before and after. */
int web_diff(const char *before, const char *after, const struct web_opts *o);

/*
 * top --web: lupe record_argv (a "record ... -o -" command line, run by a
 * child lupe) samples; the page is served as web_report's and its data made
 * again every delay seconds, the page keeping its selection. The exit status.
 */
int web_top(char **record_argv, double delay, const struct web_opts *o);

#endif
