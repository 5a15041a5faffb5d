// SPDX-License-Identifier: GPL-2.0
/* lupe built without libmicrohttpd: the browser view says so instead of serving. */
#include "builtin.h"
#include "web-http.h"

int web_http_load(struct web_http *h)
{
	(void)h;
	return error("this lupe was built without libmicrohttpd, so it cannot serve the page "
		     "(install libmicrohttpd-dev and build again, or write a file with --html -o FILE)");
}
