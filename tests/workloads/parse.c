// SPDX-License-Identifier: GPL-2.0
/*
 * parse: calls parse() a known number of times, each returning one of a
 * known set of strings, for the probe tests (parse%return +0($retval):string,
 * parse's arguments by name).
 *
 * Usage: parse [-n CALLS]   (default 6: alpha beta gamma alpha beta gamma)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const words[] = { "alpha", "beta", "gamma" };

char *parse(const char *line, long count)
{
	volatile long slot = count;

	if (!line[0])
		return NULL;
	return (char *)words[slot % 3];
}

int main(int argc, char **argv)
{
	long n = 6, total = 0;

	if (argc == 3 && !strcmp(argv[1], "-n"))
		n = atol(argv[2]);
	for (long i = 0; i < n; i++)
		total += strlen(parse("line", i));
	printf("%ld\n", total);
	return 0;
}
