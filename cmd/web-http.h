/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The browser view's HTTP server: exporter-http.h's server, which lupe
 * loads when --web asks for it (web-http+MICROHTTPD.c opens lupe-http.so,
 * that file built as a module linked with libmicrohttpd), so that every
 * other command starts without mapping libmicrohttpd and the TLS libraries
 * it pulls in (10 more libraries at each start). web-http-no+MICROHTTPD.c:
 * lupe was built without it.
 */
#ifndef LUPE_CMD_WEB_HTTP_H
#define LUPE_CMD_WEB_HTTP_H

#include "exporter-http.h"

/* The server's functions: 0, or -1 after saying why it cannot serve. */
struct web_http {
	struct exporter_http *(*start)(int listen_fd, exporter_page_fn page, void *arg,
				       const struct exporter_http_opts *opts);
	void (*tick)(struct exporter_http *http);
	void (*stop)(struct exporter_http *http);
};
int web_http_load(struct web_http *h);

#endif
