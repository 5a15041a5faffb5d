// SPDX-License-Identifier: GPL-2.0
/*
 * The HTTP server of --web, loaded from lupe-http.so (exporter-http+MICROHTTPD.c
 * built as a module) next to lupe, in ../libexec/lupe from it (an install
 * moved as a whole), or in the install's libexec directory: where
 * cmd/main.c looks for lupe-exporter.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "web-http.h"

int web_http_load(struct web_http *h)
{
	char self[PATH_MAX], path[3][PATH_MAX + 48];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *why = "not found";
	void *mod = NULL;
	int n = 0;

	if (len > 0) {
		self[len] = '\0';
		if (strrchr(self, '/'))
			*strrchr(self, '/') = '\0';
		snprintf(path[n++], sizeof(path[0]), "%s/lupe-http.so", self);
		snprintf(path[n++], sizeof(path[0]), "%s/../libexec/lupe/lupe-http.so", self);
	}
	snprintf(path[n++], sizeof(path[0]), "%s/lupe-http.so", LUPE_LIBEXEC_DIR);
	for (int i = 0; i < n && !mod; i++) {
		if (access(path[i], R_OK))
			continue;
		mod = dlopen(path[i], RTLD_NOW | RTLD_LOCAL);
		if (!mod)
			why = dlerror();
	}
	if (mod) {
		*(void **)&h->start = dlsym(mod, "exporter_http_start");
		*(void **)&h->tick = dlsym(mod, "exporter_http_tick");
		*(void **)&h->stop = dlsym(mod, "exporter_http_stop");
		if (h->start && h->tick && h->stop)
			return 0;
		why = "it lacks the server's functions";
	}
	return error("cannot load lupe's HTTP server '%s': %s (reinstall lupe)", path[n - 1], why);
}
