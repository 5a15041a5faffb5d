// SPDX-License-Identifier: GPL-2.0
/*
 * lupe config: get, set and list the variables of perf's configuration
 * files, as `perf config` does, and cmd_config_get() for the commands that
 * take their defaults from them (report.children, ...). The files and their
 * grammar are the library's (lupe/config.h); this file says what went
 * wrong and where the values are written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/config.h>
#include <lupe/output.h>
#include "builtin.h"
#include "options.h"

/* perf's files, in perf's order; each bad file said once. NULL when out of memory. */
static struct lupe_config *load(const char *only)
{
	struct lupe_config *c = lupe_config_new();
	const char *files[3];
	int n = only ? 1 : lupe_config_files(files, 3);

	if (only)
		files[0] = only;
	for (int i = 0; c && i < n; i++) {
		int line = 0, err = lupe_config_read(c, files[i], &line);

		if (err == -EINVAL)
			warning("bad config file line %d in '%s': the rest of it is ignored", line, files[i]);
		else if (err && err != -ENOENT)
			warning("cannot read config file '%s': %s", files[i], strerror(-err));
	}
	return c;
}

const char *cmd_config_get(const char *var)
{
	static struct lupe_config *cfg;
	static int loaded;

	if (!loaded) {
		cfg = load(NULL);
		loaded = 1;
	}
	return cfg ? lupe_config_get(cfg, var) : NULL;
}

int cmd_config_bool(const char *var, int def)
{
	const char *v = cmd_config_get(var);
	int b;

	if (!v)
		return def;
	if ((b = lupe_config_bool(v)) < 0) {
		warning("config variable '%s' is '%s', not a boolean: ignored", var, v);
		return def;
	}
	return b;
}

struct config_args {
	int list, user, system;
	char **vars; /* the words: SECTION.KEY[=VALUE] */
	int nr;
};

#define CMD_OPTS struct config_args
static const struct cmd_option options[] = {
	OPT_BOOL('l', "list", list, "list every variable of the config files"),
	OPT_BOOL(0, "user", user, "the user's file, ~/.perfconfig"),
	OPT_BOOL(0, "system", system, "the system's file, /etc/perfconfig"),
	OPT_ARGS(vars, nr),
	OPT_END()
};

static const struct cmd_argp argp = { options, NULL, "[SECTION.KEY[=VALUE] ...]",
	"Get and set variables of perf's config files: SECTION.KEY prints its value, "
	"SECTION.KEY=VALUE sets it." };

/* Write c to path through a temporary file beside it, as perf config rewrites the file. */
static int write_file(const struct lupe_config *c, const char *path)
{
	struct lupe_output out;
	FILE *f;
	int err;

	/* the one open of every output: a link planted at the path is replaced, not followed */
	err = lupe_output_open(&out, path, 0);
	if (err)
		return error("cannot write '%s': %s", path, strerror(-err));
	f = fdopen(out.fd, "w");
	if (!f) {
		err = -errno;
		close(out.fd);
	} else {
		err = lupe_config_write(c, f);
		if (fclose(f) && !err)
			err = -errno;
	}
	if (!err)
		err = lupe_output_commit(&out);
	if (err) {
		lupe_output_abort(&out);
		lupe_output_release(&out);
		return error("cannot write '%s': %s", path, strerror(err < 0 ? -err : EIO));
	}
	lupe_output_release(&out);
	return 0;
}

int cmd_config(int argc, char **argv)
{
	struct config_args a = { 0 };
	const char *only = NULL, *sec, *name, *val;
	struct lupe_config *c;
	int idx, status = 0, changed = 0;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &a)) {
		free(a.vars);
		return EXIT_USAGE;
	}
	if (!a.list && !a.nr) {
		free(a.vars);
		return error("nothing to do: say --list, SECTION.KEY or SECTION.KEY=VALUE"), EXIT_USAGE;
	}
	if (a.user && a.system) {
		free(a.vars);
		return error("--user and --system name different files: give one"), EXIT_USAGE;
	}
	/* $PERF_CONFIG is the one file, unless --user or --system names another */
	if (a.user)
		only = lupe_config_user_file();
	else if (a.system)
		only = lupe_config_system_file();
	else if (getenv("PERF_CONFIG"))
		only = getenv("PERF_CONFIG");
	if (!(c = load(only && *only ? only : NULL))) {
		free(a.vars);
		return error("out of memory"), 1;
	}
	if (a.list) {
		for (size_t i = 0; !lupe_config_item(c, i, &sec, &name, &val); i++)
			printf("%s.%s=%s\n", sec, name, val);
	}
	for (int i = 0; i < a.nr; i++) {
		char *eq = strchr(a.vars[i], '=');

		if (!strchr(a.vars[i], '.') || (eq && strchr(a.vars[i], '.') > eq)) {
			error("config variable '%s' has no section: say SECTION.KEY", a.vars[i]);
			status = 1;
			continue;
		}
		if (!eq) {
			if ((val = lupe_config_get(c, a.vars[i])))
				printf("%s=%s\n", a.vars[i], val);
			continue;
		}
		*eq = '\0';
		if (lupe_config_set(c, a.vars[i], eq + 1)) {
			error("'%s' is not a config variable name (SECTION.KEY, letters, digits, - and _)",
			      a.vars[i]);
			status = 1;
			continue;
		}
		changed = 1;
	}
	if (changed && !status) {
		const char *path = only && *only ? only : lupe_config_user_file();

		if (write_file(c, path))
			status = 1;
	}
	lupe_config_delete(c);
	free(a.vars);
	return status;
}
