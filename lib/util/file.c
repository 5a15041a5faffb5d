// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/util.h"

int lupe_dir_foreach_num(const char *path, const char *prefix, int (*fn)(int n, void *arg),
			 void *arg)
{
	size_t len = strlen(prefix);
	DIR *dir = opendir(path);
	struct dirent *d;
	int ret = 0;

	if (!dir)
		return -errno;
	while (!ret && (d = readdir(dir)))
		if (!strncmp(d->d_name, prefix, len) && isdigit((unsigned char)d->d_name[len]))
			ret = fn(atoi(d->d_name + len), arg);
	closedir(dir);
	return ret;
}

int lupe_read_small_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return (int)n;
}

char *lupe_read_whole_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = NULL, *tmp;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t r;

		if (!buf || n + 1 >= cap) {
			cap *= 2;
			tmp = realloc(buf, cap);
			if (!tmp)
				goto fail;
			buf = tmp;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	{
		int err = errno;

		free(buf);
		close(fd);
		errno = err;
	}
	return NULL;
}

int lupe_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	if (!list)
		return 1;
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

int lupe_list_has_id(const char *list, int id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", id);
	return lupe_list_has(list, buf);
}
