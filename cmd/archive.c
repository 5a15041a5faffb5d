// SPDX-License-Identifier: GPL-2.0
/*
 * lupe archive [FILE]: what perf archive (a shell script in perf) does: a
 * tar of the build-id cache entries a perf.data's samples hit, FILE.tar.bz2,
 * to unpack into ~/.debug on the machine that reads the file. Each entry is
 * its .build-id link and the folder it points to, relative to the cache.
 * tar and bzip2 do the packing, as they do for perf; tar writes to the
 * output lupe opened (lupe/output.h: a device is written in place, a
 * link at FILE.tar.bz2 is replaced, never written through).
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lupe/core.h>
#include <lupe/output.h>
#include <lupe/symbols.h>
#include "builtin.h"
#include "options.h"

extern char **environ;

struct manifest {
	FILE *f;
	const char *dir;  /* the cache, as given */
	char real[PATH_MAX]; /* and resolved: the links resolve under it */
	int nr;
};

static int add_entry(void *arg, const char *hex, const char *name)
{
	struct manifest *m = arg;
	char link[PATH_MAX + 64], target[PATH_MAX];
	size_t rl = strlen(m->real);

	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", m->dir, hex, hex + 2);
	if (!realpath(link, target) || strncmp(target, m->real, rl) || target[rl] != '/') {
		warning("'%s' (%s) is not in the build-id cache '%s': left out (lupe buildid-cache -a adds it)",
			name, hex, m->dir);
		return 0;
	}
	fprintf(m->f, ".build-id/%.2s/%s\n%s\n", hex, hex + 2, target + rl + 1);
	m->nr++;
	return 0;
}

struct archive_opts {
	char **files; /* the perf.data: one at most */
	int nr;
};

#define CMD_OPTS struct archive_opts
static const struct cmd_option options[] = {
	OPT_ARGS(files, nr),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, "[FILE]",
	"Pack the build-id cache entries the samples of FILE (default perf.data) hit into "
	"FILE.tar.bz2, to unpack into ~/.debug where the file is read." };

int cmd_archive(int argc, char **argv)
{
	struct archive_opts a = { 0 };
	const char *input;
	struct manifest m = { .dir = lupe_buildid_dir() };
	char manifest[] = "/tmp/lupe-archive-manifest.XXXXXX", *out;
	char *targv[] = { "tar", "cjf", "-", "-C", NULL, "-T", manifest, NULL };
	posix_spawn_file_actions_t fa;
	struct lupe_output o;
	int fd, status, err, idx;
	pid_t pid;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &a))
		return EXIT_USAGE;
	input = a.nr ? a.files[0] : "perf.data"; /* argv's: the list alone is ours */
	free(a.files);
	if (a.nr > 1)
		return error("lupe archive takes one perf.data file, not %d words", a.nr), EXIT_USAGE;
	if (!realpath(m.dir, m.real)) /* no cache: no entry will be found in it */
		snprintf(m.real, sizeof(m.real), "%s", m.dir);
	fd = mkstemp(manifest);
	if (fd < 0 || !(m.f = fdopen(fd, "w")))
		return error("cannot create '%s': %s", manifest, strerror(errno)), 1;
	if (buildid_list(input, 0, 1, add_entry, &m)) {
		fclose(m.f);
		unlink(manifest);
		return 1;
	}
	if (fclose(m.f) || !m.nr) {
		unlink(manifest);
		printf("perf archive: no build-ids found\n");
		return 1;
	}
	if (asprintf(&out, "%s.tar.bz2", input) < 0)
		die("out of memory");
	targv[4] = (char *)m.dir;
	if ((err = lupe_output_open(&o, out, 0))) {
		unlink(manifest);
		error("cannot write '%s': %s", out, strerror(-err));
		free(out);
		return 1;
	}
	fflush(stdout);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, o.fd, STDOUT_FILENO);
	err = posix_spawnp(&pid, "tar", &fa, NULL, targv, environ) ||
	      waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status);
	posix_spawn_file_actions_destroy(&fa);
	close(o.fd);
	unlink(manifest);
	if (err || lupe_output_commit(&o)) {
		lupe_output_abort(&o);
		lupe_output_release(&o);
		error("cannot write '%s': tar failed (is tar with bzip2 installed?)", out);
		free(out);
		return 1;
	}
	lupe_output_release(&o);
	printf("Now please run:\n\n"
	       "$ tar xvf %s -C ~/.debug\n\n"
	       "wherever you need to run 'perf report' on.\n", out);
	free(out);
	return 0;
}
