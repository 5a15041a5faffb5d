/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's HTTP server, behind one small interface so that the
 * library that speaks HTTP (libmicrohttpd) is optional: exporter-http+MICROHTTPD.c
 * serves with it, exporter-http-no+MICROHTTPD.c says it is missing.
 */
#ifndef LUPE_CMD_EXPORTER_HTTP_H
#define LUPE_CMD_EXPORTER_HTTP_H

#include <stddef.h>

/* 1 when this lupe was built with an HTTP server library. */
extern const int exporter_http_available;

/*
 * Answer a GET of path: fill *body (malloc'ed; the server frees it), *len
 * and *ctype, and return the HTTP status. Called from the server's one
 * thread, one request at a time.
 */
typedef int (*exporter_page_fn)(void *arg, const char *path, char **body, size_t *len,
				const char **ctype);

struct exporter_http;

/* How to serve; NULL fields are features left off. The strings must outlive the server. */
struct exporter_http_opts {
	const char *user, *password; /* HTTP basic authentication: 401 without them */
	const char *tls_cert;        /* PEM certificate chain and key: HTTPS only */
	const char *tls_key;
};

/*
 * Serve on listen_fd (bound and listening; the server takes it over) from
 * a thread of its own. Malformed requests get 400 from the server and do
 * not stop it; methods other than GET and HEAD get 405. Returns NULL with
 * errno set on failure (ENOTSUP: the library cannot do TLS).
 */
struct exporter_http *exporter_http_start(int listen_fd, exporter_page_fn page, void *arg,
					  const struct exporter_http_opts *opts);

/*
 * Cut the connections whose request has run past its deadline; call it a
 * few times a second from another thread. NULL is ok.
 */
void exporter_http_tick(struct exporter_http *http);

/* Stop serving, close the socket and free; NULL is ok. */
void exporter_http_stop(struct exporter_http *http);

#endif
