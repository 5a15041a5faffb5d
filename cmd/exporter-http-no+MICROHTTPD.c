// SPDX-License-Identifier: GPL-2.0
/* lupe built without libmicrohttpd: the exporter says so instead of serving. */
#include <errno.h>
#include <unistd.h>
#include "exporter-http.h"

const int exporter_http_available = 0;

struct exporter_http *exporter_http_start(int listen_fd, exporter_page_fn page, void *arg,
					  const struct exporter_http_opts *opts)
{
	close(listen_fd);
	errno = ENOSYS;
	return NULL;
}

void exporter_http_stop(struct exporter_http *http)
{
}

void exporter_http_tick(struct exporter_http *http)
{
}
