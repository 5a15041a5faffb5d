// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's HTTP server on libmicrohttpd: one internal thread polls
 * the listening socket and the connections and calls the page function,
 * so scrapes never run at the same time and need no lock. The library
 * parses the requests and answers malformed ones with 400 itself.
 *
 * Slow clients: a client that sends a byte a second keeps libmicrohttpd's
 * idle timeout from ever firing, and 64 of them held every slot (0 of 3
 * scrapes answered). So each connection is known here (the library's
 * connection notifications) with the time its current request began, and
 * 1. a request not answered within REQUEST_DEADLINE_S is cut, whatever it
 *    sends (exporter_http_tick, from the main thread, 4 times a second);
 * 2. a new connection over MAX_CONNS in all, or over MAX_PER_CLIENT from
 *    its address, cuts the oldest one (of that address) instead of being
 *    refused, so the clients that hold slots longest lose them first and
 *    a scrape, which asks at once, gets in.
 * Cutting is shutdown(2) of the socket: the library sees the end and
 * closes it, and tells us (CLOSED) before it closes the descriptor, so a
 * descriptor in our table is never one reused by another connection.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include "exporter-http.h"

#define REQUEST_DEADLINE_S 5
#define MAX_CONNS 64
#define MAX_PER_CLIENT 16

/* A connection the server holds, and since when its current request runs. */
struct conn {
	struct conn *next, *prev;
	int fd;
	int cut; /* shut down, waiting for the library to close it */
	double since;
	struct sockaddr_storage addr;
};

const int exporter_http_available = 1;

struct exporter_http {
	struct MHD_Daemon *daemon;
	exporter_page_fn page;
	void *arg;
	const char *user, *password; /* basic authentication; user NULL: none */
	pthread_mutex_t lock; /* conns: the server's thread and exporter_http_tick */
	struct conn conns; /* list head */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int same_client(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return 1;
}

static void cut(struct exporter_http *http, struct conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	c->cut = 1;
}

/* The oldest connection not yet cut, of client (NULL: of anyone), other than skip. */
static struct conn *oldest(struct exporter_http *http, const struct sockaddr_storage *client,
			   const struct conn *skip, int *nr)
{
	struct conn *best = NULL;

	*nr = 0;
	for (struct conn *c = http->conns.next; c != &http->conns; c = c->next) {
		if (c->cut || (client && !same_client(&c->addr, client)))
			continue;
		(*nr)++;
		if (c != skip && (!best || c->since < best->since))
			best = c;
	}
	return best;
}

/* The library's thread: a connection opened or closed. */
static void on_connection(void *cls, struct MHD_Connection *mc, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct exporter_http *http = cls;
	struct conn *c = *socket_context, *old;
	const union MHD_ConnectionInfo *fd, *addr;
	int nr;

	pthread_mutex_lock(&http->lock);
	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (c) {
			c->prev->next = c->next;
			c->next->prev = c->prev;
			free(c);
			*socket_context = NULL;
		}
		pthread_mutex_unlock(&http->lock);
		return;
	}
	fd = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
	addr = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	c = calloc(1, sizeof(*c));
	if (!c || !fd) {
		free(c);
		pthread_mutex_unlock(&http->lock);
		return;
	}
	c->fd = fd->connect_fd;
	c->since = now_s();
	if (addr && addr->client_addr)
		memcpy(&c->addr, addr->client_addr,
		       addr->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
								  sizeof(struct sockaddr_in));
	c->next = http->conns.next;
	c->prev = &http->conns;
	c->next->prev = c;
	http->conns.next = c;
	*socket_context = c;
	if ((old = oldest(http, &c->addr, c, &nr)) && nr > MAX_PER_CLIENT)
		cut(http, old);
	if ((old = oldest(http, NULL, c, &nr)) && nr > MAX_CONNS)
		cut(http, old);
	pthread_mutex_unlock(&http->lock);
}

/* A request was answered: the next one on the connection has its own deadline. */
static void answered(struct exporter_http *http, struct MHD_Connection *mc)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	pthread_mutex_lock(&http->lock);
	if (ci && ci->socket_context)
		((struct conn *)ci->socket_context)->since = now_s();
	pthread_mutex_unlock(&http->lock);
}

void exporter_http_tick(struct exporter_http *http)
{
	double limit = now_s() - REQUEST_DEADLINE_S;

	if (!http)
		return;
	pthread_mutex_lock(&http->lock);
	for (struct conn *c = http->conns.next; c != &http->conns; c = c->next)
		if (!c->cut && c->since < limit)
			cut(http, c);
	pthread_mutex_unlock(&http->lock);
}

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
	answered(http, conn);
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
	pthread_mutex_init(&http->lock, NULL);
	http->conns.next = http->conns.prev = &http->conns;
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
	 * stderr. The library's own limit is only a backstop: the limits
	 * above cut connections before it is reached.
	 */
	if (opts->tls_cert)
		http->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
						MHD_USE_TLS, 0, NULL, NULL, on_request, http,
						MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
						MHD_OPTION_CONNECTION_LIMIT, (unsigned int)512,
						MHD_OPTION_NOTIFY_CONNECTION, on_connection, http,
						MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
						MHD_OPTION_HTTPS_MEM_CERT, opts->tls_cert,
						MHD_OPTION_HTTPS_MEM_KEY, opts->tls_key,
						MHD_OPTION_END);
	else
		http->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0,
						NULL, NULL, on_request, http,
						MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
						MHD_OPTION_CONNECTION_LIMIT, (unsigned int)512,
						MHD_OPTION_NOTIFY_CONNECTION, on_connection, http,
						MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
						MHD_OPTION_END);
	if (!http->daemon) {
		pthread_mutex_destroy(&http->lock);
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
	pthread_mutex_destroy(&http->lock);
	free(http);
}
