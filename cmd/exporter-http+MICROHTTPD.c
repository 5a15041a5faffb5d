// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's HTTP server on libmicrohttpd: one internal thread polls
 * the listening socket and the connections and calls the page function,
 * so scrapes never run at the same time and need no lock. The library
 * parses the requests and answers malformed ones with 400 itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <microhttpd.h>
#include "exporter-http.h"

const int exporter_http_available = 1;

struct exporter_http {
	struct MHD_Daemon *daemon;
	exporter_page_fn page;
	void *arg;
	const char *user, *password; /* basic authentication; user NULL: none */
};

/* Equal strings, in a time that does not tell how much of them matched. */
static int same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = la != lb;

	for (size_t i = 0; i < la; i++)
		diff |= (unsigned char)a[i] ^ (unsigned char)b[i % (lb ? lb : 1)];
	return !diff;
}

static int authorized(struct exporter_http *http, struct MHD_Connection *conn)
{
	char *pass = NULL, *user;
	int ok;

	if (!http->user)
		return 1;
	user = MHD_basic_auth_get_username_password(conn, &pass);
	ok = user && pass && same(user, http->user) && same(pass, http->password);
	MHD_free(user);
	MHD_free(pass);
	return ok;
}

static enum MHD_Result deny(struct MHD_Connection *conn)
{
	static const char body[] = "authentication required\n";
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body,
					       MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	ret = MHD_queue_basic_auth_fail_response(conn, "lupe exporter", resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result reply(struct MHD_Connection *conn, int status, char *body, size_t len,
			     const char *ctype)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size, void **state)
{
	struct exporter_http *http = cls;
	static int first_call;
	const char *ctype = "text/plain; charset=utf-8";
	char *body = NULL;
	size_t len = 0;
	int status;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		body = strdup("only GET and HEAD are served here\n");
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, body, body ? strlen(body) : 0,
			     ctype);
	}
	/* the first call only announces the headers; answer on the second */
	if (!*state) {
		*state = &first_call;
		return MHD_YES;
	}
	if (*upload_data_size) { /* a GET with a body: ignore the body */
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!authorized(http, conn))
		return deny(conn);
	status = http->page(http->arg, url, &body, &len, &ctype);
	return reply(conn, status, body, len, ctype);
}

struct exporter_http *exporter_http_start(int listen_fd, exporter_page_fn page, void *arg,
					  const struct exporter_http_opts *opts)
{
	struct exporter_http *http = calloc(1, sizeof(*http));

	if (!http)
		return NULL;
	http->page = page;
	http->arg = arg;
	http->user = opts->user;
	http->password = opts->password;
	if (opts->tls_cert && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		free(http);
		errno = ENOTSUP;
		return NULL;
	}
	/*
	 * Port 0: the socket is already bound. No MHD_USE_ERROR_LOG: a bad
	 * request from a client is the client's problem, not a line on our
	 * stderr. Connections are limited and time out, so a slow client
	 * cannot hold the exporter.
	 */
	if (opts->tls_cert)
		http->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
						MHD_USE_TLS, 0, NULL, NULL, on_request, http,
						MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
						MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64,
						MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
						MHD_OPTION_HTTPS_MEM_CERT, opts->tls_cert,
						MHD_OPTION_HTTPS_MEM_KEY, opts->tls_key,
						MHD_OPTION_END);
	else
		http->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0,
						NULL, NULL, on_request, http,
						MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
						MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64,
						MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
						MHD_OPTION_END);
	if (!http->daemon) {
		free(http);
		errno = errno ? errno : EIO;
		return NULL;
	}
	return http;
}

void exporter_http_stop(struct exporter_http *http)
{
	if (!http)
		return;
	/* MHD_stop_daemon closes the listening socket it was given */
	MHD_stop_daemon(http->daemon);
	free(http);
}
