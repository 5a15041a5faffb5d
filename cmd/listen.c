// SPDX-License-Identifier: GPL-2.0
/*
 * The listening socket of lupe exporter --listen and of --web (report,
 * top, diff): one parser of ADDR:PORT and one set of refusal sentences.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <lupe/number.h>
#include "builtin.h"
#include "listen.h"

int cmd_listen(const char *spec, const char *opt, char *shown, size_t size, int *loopback)
{
	char host[256];
	const char *port, *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd, one = 1, err;

	if (!colon) {
		snprintf(host, sizeof(host), "127.0.0.1");
		port = spec;
	} else {
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
		port = colon + 1;
		if (host[0] == '[' && host[strlen(host) - 1] == ']') {
			memmove(host, host + 1, strlen(host));
			host[strlen(host) - 1] = 0;
		}
	}
	if (!*host || !*port || strspn(port, "0123456789") != strlen(port) ||
	    lupe_parse_i64(port, 10, 0, 65535, &(int64_t){ 0 })) {
		error("cannot listen on '%s': not an address such as 127.0.0.1:9333 or [::1]:9333", spec);
		return -1;
	}
	err = getaddrinfo(host, port, &hints, &ai);
	if (err) {
		error("cannot listen on '%s': '%s' is not a numeric IPv4 or IPv6 address", spec, host);
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		error("cannot listen on '%s': %s", spec, strerror(errno));
		freeaddrinfo(ai);
		return -1;
	}
	/* a restart must not wait for the old connections' TIME_WAIT */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 64) < 0) {
		int e = errno;

		freeaddrinfo(ai);
		close(fd);
		if (e == EADDRINUSE)
			error("cannot listen on '%s': the port is in use (stop what serves there, "
			      "or pick another port with %s)", spec, opt);
		else if (e == EACCES || e == EPERM)
			error("cannot listen on '%s': permission denied (ports below 1024 need root "
			      "or CAP_NET_BIND_SERVICE; pick a port above 1023 with %s)", spec, opt);
		else if (e == EADDRNOTAVAIL)
			error("cannot listen on '%s': no such address on this machine "
			      "(see 'ip addr', or use 127.0.0.1)", spec);
		else
			error("cannot listen on '%s': %s", spec, strerror(e));
		return -1;
	}
	if (loopback)
		*loopback = ai->ai_family == AF_INET ?
		(ntohl(((struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr) >> 24) == 127 :
		IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr);
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	snprintf(shown, size, ai->ai_family == AF_INET6 ? "[%s]:%d" : "%s:%d", host,
		 ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
						  ((struct sockaddr_in *)&ss)->sin_port));
	freeaddrinfo(ai);
	return fd;
}
