// SPDX-License-Identifier: GPL-2.0
/*
 * lupe: the dispatcher. One sorted table of subcommands, a loop that finds
 * the one asked for, lupe-foo on PATH for the rest, and a last check that
 * what we wrote to stdout really got out.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/core.h>
#include <lupe/symbols.h>
#include "builtin.h"
#include "pager.h"

#define NEED_PAGER 0x1 /* page the output when stdout is a terminal */
/*
 * The command is its own executable, lupe-NAME, found next to lupe (the
 * build tree) or in lupe's libexec directory, as git runs git-remote-https:
 * a long-running daemon should not map the libraries of every other
 * command (the exporter's memory is half what it is inside lupe).
 */
#define HELPER     0x2

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	int flags;
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "annotate", cmd_annotate, 0,          "show a symbol's samples per instruction, with source" },
	/* tools16: build-id and file tools */
	{ "archive", cmd_archive, 0,          "pack the build-id cache files a perf.data refers to" },
	{ "bench",   cmd_bench,   0,          "run perf bench's scheduler, memory, syscall and futex benchmarks" },
	{ "buildid-cache", cmd_buildid_cache, 0, "add, remove and list binaries in the build-id cache" },
	{ "buildid-list", cmd_buildid_list, 0, "list the build-ids a perf.data holds" },
	{ "config",  cmd_config,  0,          "get and set variables of perf's config files" },
	{ "convert", cmd_convert, 0,          "convert a perf.data for pprof, Firefox Profiler, speedscope" },
	{ "daemon",  cmd_daemon,  0,          "run record sessions in the background, from the config file" },
	{ "data",    cmd_data,    0,          "convert a perf.data to JSON, as perf data convert does" },
	{ "diff",    cmd_diff,    0,          "compare perf.data files: the change per symbol against a baseline" },
	{ "evlist",  cmd_evlist,  0,          "list the events a perf.data was recorded with" },
	{ "exporter", NULL,      HELPER,      "serve perf counters to Prometheus (/metrics)" },
	{ "flamegraph", cmd_flamegraph, 0,    "draw a perf.data as an interactive SVG flame graph" },
	{ "ftrace",  cmd_ftrace,  0,          "trace kernel functions with the kernel's function tracer" },
	{ "help",    cmd_help,    0,          "show a command's manual page" },
	{ "inject",  cmd_inject,  0,          "copy a perf.data into a finalized file (recovers a cut one)" },
	{ "list",    cmd_list,    NEED_PAGER, "list the events this machine offers" },
	{ "lock",    cmd_lock,    0,          "kernel lock contention: record, report, contention" },
	{ "mem",     cmd_mem,     0,          "profile memory accesses (lists the memory events; perf mem's front end)" },
	{ "probe",   cmd_probe,   0,          "define, list and delete dynamic probe events" },
	{ "record",  cmd_record,  0,          "sample a command (or the system) into perf.data" },
	{ "report",  cmd_report,  0,          "show the profile in a perf.data" },
	{ "sched",   cmd_sched,   0,          "scheduler latency per task, from the sched tracepoints" },
	{ "script",  cmd_script,  NEED_PAGER, "print the samples of a perf.data as text" },
	{ "stat",    cmd_stat,    0,          "count events for a command, a pid or the system" },
	{ "top",     cmd_top,     0,          "show where the system spends its time, live" },
	{ "trace",   cmd_trace,   0,          "trace the syscalls of a command, as strace does" },
	{ "version", cmd_version, 0,          "print lupe's version" },
};

static void print_usage(FILE *f)
{
	int width = 0;

	fprintf(f, "\n usage: lupe [--version] [--help] [-v] [--buildid-dir DIR] COMMAND [ARGS]\n\n"
		   " The lupe commands are:\n");
	/* one column for the summaries, as wide as the longest name */
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if ((int)strlen(commands[i].name) > width)
			width = (int)strlen(commands[i].name);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-*s  %s\n", width, commands[i].name, commands[i].summary);
	fprintf(f, "\n See 'lupe help COMMAND' for more information on a specific command.\n\n");
}

static const struct cmd_struct *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Damerau-free Levenshtein distance, enough to suggest a command. */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[64], prev, tmp;

	if (lb >= sizeof(row) / sizeof(row[0]))
		return 1000;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

static int unknown_command(const char *name)
{
	int best = 1000, n = 0;

	fprintf(stderr, "lupe: '%s' is not a lupe command. See 'lupe --help'.\n", name);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		int d = edit_distance(name, commands[i].name);

		if (!strncmp(commands[i].name, name, strlen(name)))
			d = 1; /* a prefix is as good as one typo */
		if (d < best)
			best = d;
	}
	if (best > 2)
		return 1;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		int d = edit_distance(name, commands[i].name);

		if (!strncmp(commands[i].name, name, strlen(name)))
			d = 1;
		if (d == best)
			fprintf(stderr, "%s\t%s\n", n++ ? "" : "\nThe most similar command is\n",
				commands[i].name);
	}
	return 1;
}

/* lupe foo -> lupe-foo on PATH, as git does. Returns only if it was not found. */
static void try_external(char **argv)
{
	char *orig = argv[0], *name;

	if (asprintf(&name, "lupe-%s", orig) < 0)
		return;
	argv[0] = name;
	execvp(name, argv);
	if (errno != ENOENT)
		die("cannot run '%s': %s", name, strerror(errno));
	argv[0] = orig;
	free(name);
}

/* After the command: output that did not reach its file is a failure. */
static int check_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		/* A reader that went away (pager quit) is not our error. */
		if (errno == EPIPE)
			return status;
		error("write failure on standard output: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	if (fclose(stdout) && errno != EPIPE && errno != EBADF) {
		error("close failure on standard output: %s", strerror(errno));
		return 1;
	}
	return status;
}

/* Exec lupe-NAME for a HELPER command; returns only on failure. */
static int run_helper(const struct cmd_struct *cmd, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 32];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len > 0) {
		self[len] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/lupe-%s", self, cmd->name);
			execv(path, argv);
			/* an install moved as a whole (cmake --install --prefix, a package) */
			snprintf(path, sizeof(path), "%s/../libexec/lupe/lupe-%s", self, cmd->name);
			execv(path, argv);
		}
	}
	snprintf(path, sizeof(path), "%s/lupe-%s", LUPE_LIBEXEC_DIR, cmd->name);
	execv(path, argv);
	return error("cannot run '%s': %s (reinstall lupe)", path, strerror(errno)), 1;
}

static int run_command(const struct cmd_struct *cmd, int argc, char **argv)
{
	int status;

	if (cmd->flags & HELPER)
		return run_helper(cmd, argv);

	if (cmd->flags & NEED_PAGER)
		setup_pager();
	status = cmd->fn(argc, argv);
	/* a command that returned error()'s -1 failed: exit 1, not 255 */
	return check_stdout(status < 0 ? 1 : status);
}

int main(int argc, char **argv)
{
	const struct cmd_struct *cmd;

	cmd_setup();
	argv++;
	argc--;

	/* Global options come before the command. */
	while (argc > 0 && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--version") || !strcmp(argv[0], "-v"))
			return check_stdout(cmd_version(0, NULL));
		/* perf's: the command names, one a line, for shell completion */
		if (!strcmp(argv[0], "--list-cmds")) {
			for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
				printf("%s\n", commands[i].name);
			return check_stdout(0);
		}
		if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
			print_usage(stdout);
			return check_stdout(0);
		}
		/* perf's: the build-id cache folder, for the command and the ones it runs */
		if (!strcmp(argv[0], "--buildid-dir")) {
			if (argc < 2) {
				fprintf(stderr, "lupe: --buildid-dir needs a folder\n");
				print_usage(stderr);
				return EXIT_USAGE;
			}
			lupe_buildid_dir_set(argv[1]);
			setenv("PERF_BUILDID_DIR", argv[1], 1);
			argv += 2;
			argc -= 2;
			continue;
		}
		if (!strcmp(argv[0], "--debug")) {
			lupe_log_set_level(LUPE_LOG_DEBUG);
			argv++;
			argc--;
			continue;
		}
		fprintf(stderr, "lupe: unknown option '%s'\n", argv[0]);
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (argc == 0) {
		print_usage(stdout);
		check_stdout(0);
		return 1;
	}

	/* lupe CMD --help is lupe help CMD, as in git and perf. */
	if (argc >= 2 && !strcmp(argv[1], "--help") && find_command(argv[0])) {
		char *help_argv[] = { "help", argv[0], NULL };

		return run_command(find_command("help"), 2, help_argv);
	}

	cmd = find_command(argv[0]);
	if (cmd)
		return run_command(cmd, argc, argv);
	try_external(argv);
	return unknown_command(argv[0]);
}
