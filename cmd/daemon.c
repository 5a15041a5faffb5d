// SPDX-License-Identifier: GPL-2.0
/*
 * lupe daemon: perf daemon's record sessions in the background. The config
 * file (perf's syntax, lupe/config.h) names a base directory and sessions:
 *
 *     [daemon]
 *     base = /var/lib/lupe
 *     [session-cycles]
 *     run = -e cpu-clock --switch-output -m 1 -a
 *
 * `start` forks a server that owns BASE (BASE/lock, flock'ed, holds its
 * pid), logs to BASE/output and listens on a unix socket, BASE/control.
 * Each session is a `lupe record --control=fifo:control,ack RUN` run in
 * BASE/session-NAME, its stdout and stderr in that folder's output file.
 * The server watches the config file (inotify) and starts, restarts or
 * kills the sessions whose run line appeared, changed or went; a session
 * whose record exits is dropped until the config names it again, as in
 * perf. The clients (list, ping, signal, stop) send one line on the socket
 * and print what comes back: list the sessions (-x SEP: perf's
 * colon-separated fields), ping one through its control FIFO (OK when its
 * record answers ack), signal sends SIGUSR2 (a --switch-output snapshot),
 * stop ends every session (stop on its FIFO, then SIGTERM, then SIGKILL,
 * 10 s apart) and the server.
 *
 * Errors say "failed: ..." as perf daemon's do: perf's daemon test looks
 * for that word.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <lupe/config.h>
#include "builtin.h"
#include "options.h"
#include "export-out.h"

enum session_state { S_OK, S_RECONFIG, S_KILL };

struct session {
	char *name, *run, *base;
	pid_t pid;		/* -1: not running */
	enum session_state state;
	time_t start;
	struct session *next;
};

struct daemon {
	const char *config, *base_user, *session, *sep, *verb;
	int verbose, foreground;
	char *config_real, *base, *exe;
	struct session *sessions;
	time_t start;
	int sigfd;
};

static volatile sig_atomic_t done;

/* -x: perf's list with fields separated by SEP (',' when none is given) */
static error_t set_sep(struct argp_state *state, const struct cmd_option *opt, char *arg)
{
	(void)opt;
	((struct daemon *)state->input)->sep = arg && *arg ? arg : ",";
	return 0;
}

/* the one word: the verb */
static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct daemon *d = state->input;

	if (key != ARGP_KEY_ARG || d->verb)
		return ARGP_ERR_UNKNOWN;
	if (strcmp(arg, "start") && strcmp(arg, "stop") && strcmp(arg, "signal") &&
	    strcmp(arg, "ping") && strcmp(arg, "list"))
		argp_error(state, "unknown command '%s': give start, stop, signal, ping or list", arg);
	d->verb = arg;
	return 0;
}

#define CMD_OPTS struct daemon
static const struct cmd_option options[] = {
	OPT_STRING(0, "config", "FILE", config, "the config file (default: /etc/perfconfig if readable, else ~/.perfconfig)"),
	OPT_STRING(0, "base", "DIR", base_user, "the base directory, over the config's daemon.base"),
	OPT_CALLBACK('x', "field-separator", "SEP", OPTION_ARG_OPTIONAL, set_sep, "list: perf's fields separated by SEP (default ',')"),
	OPT_BOOL('v', "verbose", verbose, "list: each session's files and up time"),
	OPT_BOOL('f', "foreground", foreground, "start: stay on the console"),
	OPT_STRING(0, "session", "NAME", session, "ping, signal: this session only (default: all)"),
	OPT_END()
};

static const struct cmd_argp argp = { options, parse_opt, "[start|stop|signal|ping|list]",
	"Run record sessions in the background, as the config file's [session-NAME] run lines say; "
	"with no command (or list), list them." };

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("failed: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* the server's log, BASE/output: a time stamp on each line */
static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;

	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%F %T", &tm);
	printf("[%s] ", ts);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* --config, else perf's choice: the system file if readable, else the user's */
static int setup_config(struct daemon *d)
{
	const char *path = d->config;

	if (!path) {
		path = lupe_config_system_file();
		if (!path || access(path, R_OK))
			path = lupe_config_user_file();
	}
	if (!path)
		return fail("config not found (give --config FILE)");
	d->config_real = realpath(path, NULL);
	if (!d->config_real)
		return fail("config '%s': %s", path, strerror(errno));
	return 0;
}

static struct session *find_session(struct daemon *d, const char *name)
{
	for (struct session *s = d->sessions; s; s = s->next)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

/*
 * Read the config: daemon.base (unless --base), and, for the server
 * (sessions), each session's state: new or changed run -> RECONFIG, gone
 * -> KILL, same -> OK.
 */
static int read_config(struct daemon *d, int sessions)
{
	struct lupe_config *c = lupe_config_new();
	const char *section, *name, *value, *base;
	int bad = 0, err;

	if (!c)
		return fail("out of memory");
	err = lupe_config_read(c, d->config_real, &bad);
	if (err) {
		lupe_config_delete(c);
		if (err == -EINVAL)
			return fail("config '%s': line %d is not perf's config syntax", d->config_real, bad);
		return fail("config '%s': %s", d->config_real, strerror(-err));
	}
	base = d->base_user ? d->base_user : lupe_config_get(c, "daemon.base");
	if (d->base && base && strcmp(d->base, base)) {
		lupe_config_delete(c);
		return fail("the config's daemon.base changed from '%s' to '%s': stop the daemon first", d->base, base);
	}
	if (!d->base && base)
		d->base = strdup(base);
	for (struct session *s = d->sessions; sessions && s; s = s->next)
		s->state = S_KILL;
	for (size_t i = 0; sessions && i < lupe_config_count(c); i++) {
		struct session *s;

		if (lupe_config_item(c, i, &section, &name, &value) || strncmp(section, "session-", 8) ||
		    strcmp(name, "run"))
			continue;
		s = find_session(d, section + 8);
		if (!s) {
			s = calloc(1, sizeof(*s));
			if (!s || !(s->name = strdup(section + 8))) {
				free(s);
				break;
			}
			s->pid = -1;
			s->state = S_RECONFIG;
			/* at the end: list keeps the config's order */
			struct session **p = &d->sessions;

			while (*p)
				p = &(*p)->next;
			*p = s;
		} else if (s->state == S_KILL) {
			s->state = S_OK;
		}
		if (!s->run || strcmp(s->run, value)) {
			free(s->run);
			s->run = strdup(value);
			s->state = S_RECONFIG;
		}
	}
	lupe_config_delete(c);
	if (!d->base)
		return fail("base not defined (set daemon.base in '%s' or give --base)", d->config_real);
	struct stat st;

	if (stat(d->base, &st))
		return fail("base '%s': %s", d->base, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail("base '%s' is not a directory", d->base);
	return 0;
}

/* BASE/control: the server's socket; path too long for sun_path -> -1 */
static int control_addr(const struct daemon *d, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if ((size_t)snprintf(a->sun_path, sizeof(a->sun_path), "%s/control", d->base) >= sizeof(a->sun_path))
		return fail("control path too long '%s/control' (choose a shorter base)", d->base);
	return 0;
}

static char **split(const char *line, int extra, int *argc)
{
	char *copy = strdup(line), *save = NULL;
	char **argv = calloc(strlen(line) / 2 + 2 + extra, sizeof(*argv));
	int n = extra;

	if (!copy || !argv) {
		free(copy);
		free(argv);
		return NULL;
	}
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	*argc = n;
	return argv; /* the words live in copy, which the exec keeps */
}

/* stdout and stderr to DIR/output, opened as every output is (lupe/output.h); 0 or -1 said why */
static int output_to(const char *dir)
{
	char path[PATH_MAX];
	mode_t mask = umask(022); /* 0644 as before, though the server runs with umask 0 */
	FILE *f;

	snprintf(path, sizeof(path), "%s/output", dir);
	f = output_fopen(path, 0);
	umask(mask);
	if (!f)
		return -1;
	dup2(fileno(f), 1);
	dup2(fileno(f), 2);
	fclose(f);
	return 0;
}

static int session_run(struct daemon *d, struct session *s)
{
	char **argv;
	int argc, fd;

	free(s->base);
	if (asprintf(&s->base, "%s/session-%s", d->base, s->name) < 0)
		return s->base = NULL, -1;
	if (mkdir(s->base, 0755) && errno != EEXIST) {
		logf_("failed: mkdir '%s': %s", s->base, strerror(errno));
		return -1;
	}
	s->start = time(NULL);
	s->pid = fork();
	if (s->pid < 0) {
		logf_("failed: fork: %s", strerror(errno));
		return -1;
	}
	if (s->pid > 0) {
		logf_("session '%s' [%d] started: lupe record %s", s->name, s->pid, s->run);
		return 0;
	}
	/* the session: its folder, its output, its FIFOs, then record */
	if (chdir(s->base))
		_exit(127);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0)
		dup2(fd, 0), close(fd);
	output_to(s->base);
	if ((mkfifo("control", 0600) && errno != EEXIST) || (mkfifo("ack", 0600) && errno != EEXIST)) {
		fprintf(stderr, "failed: cannot make the control FIFOs in '%s': %s\n", s->base, strerror(errno));
		_exit(127);
	}
	argv = split(s->run, 3, &argc);
	if (!argv)
		_exit(127);
	argv[0] = "lupe";
	argv[1] = "record";
	argv[2] = "--control=fifo:control,ack";
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	execv(d->exe, argv);
	fprintf(stderr, "failed: cannot run '%s': %s\n", d->exe, strerror(errno));
	_exit(127);
}

/* Reap the sessions that ended: each is dropped at the next reconfig. */
static void reap(struct daemon *d)
{
	struct signalfd_siginfo si;
	int st;

	/* SIGCHLDs coalesce: the read only says "look", waitpid says who */
	while (read(d->sigfd, &si, sizeof(si)) == sizeof(si))
		;
	for (struct session *s = d->sessions; s; s = s->next) {
		if (s->pid <= 0 || waitpid(s->pid, &st, WNOHANG) != s->pid)
			continue;
		if (WIFEXITED(st))
			logf_("session '%s' exited, status=%d", s->name, WEXITSTATUS(st));
		else if (WIFSIGNALED(st))
			logf_("session '%s' killed (signal %d)", s->name, WTERMSIG(st));
		s->pid = -1;
		/* a session that ended by itself goes; one being reconfigured runs again */
		if (s->state == S_OK)
			s->state = S_KILL;
	}
}

/* Write msg on the session's control FIFO; with ack, wait up to 2 s for "ack\n". 0 or -1. */
static int session_control(struct session *s, const char *msg, int want_ack)
{
	char path[PATH_MAX], buf[16];
	int ctl, ack = -1, ret = -1;
	struct pollfd p;

	if (!s->base)
		return -1;
	snprintf(path, sizeof(path), "%s/control", s->base);
	/* no reader yet (record still starting): ENXIO, a failed ping */
	ctl = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (ctl < 0)
		return -1;
	if (want_ack) {
		snprintf(path, sizeof(path), "%s/ack", s->base);
		ack = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (ack < 0)
			goto out;
		while (read(ack, buf, sizeof(buf)) > 0) /* an answer that came too late */
			;
	}
	if (write(ctl, msg, strlen(msg)) != (ssize_t)strlen(msg))
		goto out;
	if (!want_ack) {
		ret = 0;
		goto out;
	}
	p = (struct pollfd){ .fd = ack, .events = POLLIN };
	if (poll(&p, 1, 2000) == 1 && read(ack, buf, sizeof(buf)) >= 4 && !memcmp(buf, "ack\n", 4))
		ret = 0;
out:
	if (ack >= 0)
		close(ack);
	close(ctl);
	return ret;
}

/* Wait up to secs for the session (or, s NULL, every session) to end. */
static int wait_sessions(struct daemon *d, struct session *s, int secs)
{
	time_t end = time(NULL) + secs;

	for (;;) {
		int alive = 0;
		struct pollfd p = { .fd = d->sigfd, .events = POLLIN };

		reap(d);
		for (struct session *x = d->sessions; x; x = x->next)
			alive |= (!s || x == s) && x->pid > 0;
		if (!alive)
			return 0;
		if (time(NULL) > end)
			return -1;
		poll(&p, 1, 200);
	}
}

/* stop on the FIFO, then SIGTERM, then SIGKILL, 10 s each */
static void kill_sessions(struct daemon *d, struct session *only)
{
	for (int how = 0; how < 3; how++) {
		for (struct session *s = d->sessions; s; s = s->next) {
			if ((only && s != only) || s->pid <= 0)
				continue;
			if (how == 0)
				session_control(s, "stop", 0);
			else
				kill(s->pid, how == 1 ? SIGTERM : SIGKILL);
		}
		if (!wait_sessions(d, only, 10))
			return;
	}
	logf_("failed: a session did not end, even on SIGKILL");
}

static void free_session(struct session *s)
{
	free(s->name);
	free(s->run);
	free(s->base);
	free(s);
}

/* Act on the states read_config() set: every session is OK after it. */
static void reconfig(struct daemon *d)
{
	struct session **p = &d->sessions;

	while (*p) {
		struct session *s = *p;

		if (s->state != S_OK && s->pid > 0) {
			kill_sessions(d, s);
			logf_("session '%s' %s", s->name, s->state == S_KILL ? "killed" : "stopped for its new run line");
		}
		if (s->state == S_KILL) {
			*p = s->next;
			free_session(s);
			continue;
		}
		if (s->state == S_RECONFIG && session_run(d, s))
			s->pid = -1;
		s->state = S_OK;
		p = &s->next;
	}
}

static void list(struct daemon *d, FILE *out, const char *sep, int verbose)
{
	time_t now = time(NULL);

	if (*sep) {
		fprintf(out, "%d%s%s%s%s%s%s/output%s%s/lock%s%ld\n", getpid(), sep, "daemon", sep, d->base, sep,
			d->base, sep, d->base, sep, (long)(now - d->start) / 60);
	} else {
		fprintf(out, "[%d:daemon] base: %s\n", getpid(), d->base);
		if (verbose)
			fprintf(out, "  output:  %s/output\n  lock:    %s/lock\n  up:      %ld minutes\n", d->base,
				d->base, (long)(now - d->start) / 60);
	}
	for (struct session *s = d->sessions; s; s = s->next) {
		if (*sep) {
			fprintf(out, "%d%s%s%s%s%s%s%s%s/output%s%s/control%s%s/ack%s%ld\n", s->pid, sep, s->name, sep,
				s->run, sep, s->base, sep, s->base, sep, s->base, sep, s->base, sep,
				(long)(now - s->start) / 60);
			continue;
		}
		fprintf(out, "[%d:%s] lupe record %s\n", s->pid, s->name, s->run);
		if (verbose)
			fprintf(out, "  base:    %s\n  output:  %s/output\n  control: %s/control\n"
				     "  ack:     %s/ack\n  up:      %ld minutes\n",
				s->base, s->base, s->base, s->base, (long)(now - s->start) / 60);
	}
}

/*
 * One client request: a line "list VERBOSE [SEP]", "ping NAME",
 * "signal NAME" or "stop"; the answer is the text sent back.
 */
static void serve(struct daemon *d, int sock)
{
	int fd = accept4(sock, NULL, NULL, SOCK_CLOEXEC);
	char req[256] = "", verb[16] = "", arg[200] = "";
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	FILE *out;

	if (fd < 0)
		return;
	/* a client that connects and says nothing is dropped after a second */
	while (got < sizeof(req) - 1 && !memchr(req, '\n', got) && poll(&p, 1, 1000) == 1) {
		ssize_t n = read(fd, req + got, sizeof(req) - 1 - got);

		if (n <= 0)
			break;
		got += n;
	}
	req[strcspn(req, "\n")] = '\0';
	sscanf(req, "%15s %199[^\n]", verb, arg);
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		return;
	}
	if (!strcmp(verb, "list")) {
		/* "list V" or "list V SEP": the separator may be any text */
		list(d, out, arg[0] && arg[1] == ' ' ? arg + 2 : "", arg[0] == '1');
	} else if (!strcmp(verb, "ping") || !strcmp(verb, "signal")) {
		int all = !strcmp(arg, "all"), found = 0;

		for (struct session *s = d->sessions; s; s = s->next) {
			if (!all && strcmp(arg, s->name))
				continue;
			found = 1;
			if (verb[0] == 'p') {
				fprintf(out, "%-4s %s\n", session_control(s, "ping", 1) ? "FAIL" : "OK", s->name);
			} else {
				if (s->pid > 0)
					kill(s->pid, SIGUSR2);
				fprintf(out, "signal %d sent to session '%s [%d]'\n", SIGUSR2, s->name, s->pid);
			}
		}
		if (!found && !all && verb[0] == 'p')
			fprintf(out, "%-4s %s (not found)\n", "FAIL", arg);
	} else if (!strcmp(verb, "stop")) {
		done = 1;
		logf_("stop asked for");
	} else {
		fprintf(out, "failed: unknown request '%s'\n", verb);
	}
	fclose(out);
}

static void on_term(int sig)
{
	(void)sig;
	done = 1;
}

/* Take BASE/lock, or say who holds it. The fd stays open (and locked) in the server. */
static int take_lock(struct daemon *d)
{
	char path[PATH_MAX], buf[32] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/lock", d->base);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0640);
	if (fd < 0)
		return fail("cannot open '%s': %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = '\0';
		close(fd);
		return fail("another lupe daemon (pid %d) owns %s", atoi(buf), d->base);
	}
	return fd;
}

static int write_pid(int fd)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%d", getpid());

	return pwrite(fd, buf, len, 0) == len && !ftruncate(fd, len) ? 0 : -1;
}

/* Listen on the control socket; the socket, or -1 said. */
static int listen_control(const struct sockaddr_un *addr)
{
	int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct stat st;

	/* a stale socket of a server gone; anything else there makes bind say EADDRINUSE */
	if (!lstat(addr->sun_path, &st) && S_ISSOCK(st.st_mode))
		unlink(addr->sun_path);
	if (sock < 0 || bind(sock, (const struct sockaddr *)addr, sizeof(*addr)) || listen(sock, 8))
		return fail("cannot listen on %s: %s", addr->sun_path, strerror(errno)), -1;
	return sock;
}

/*
 * An inotify fd on the config's folder: an editor or cp replaces the file,
 * a watch on it would go stale. -1 said.
 */
static int watch_config(struct daemon *d)
{
	char *dir = strdup(d->config_real), *slash = dir ? strrchr(dir, '/') : NULL;
	int ino;

	if (!slash)
		return fail("out of memory"), -1;
	*slash = '\0';
	ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ino < 0 || inotify_add_watch(ino, *dir ? dir : "/", IN_CLOSE_WRITE | IN_MOVED_TO) < 0)
		return fail("cannot watch '%s': %s", d->config_real, strerror(errno)), -1;
	free(dir);
	return ino;
}

/* Whether the events waiting on ino touched the config file. */
static int config_changed(int ino, const char *cfg_name)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	int changed = 0;

	while ((n = read(ino, buf, sizeof(buf))) > 0)
		for (char *q = buf; q < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)q;

			if (e->len && !strcmp(e->name, cfg_name))
				changed = 1;
			q += sizeof(*e) + e->len;
		}
	return changed;
}

/* SIGCHLD through d->sigfd; SIGINT and SIGTERM end the server. */
static void catch_signals(struct daemon *d)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	d->sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	signal(SIGINT, on_term);
	signal(SIGTERM, on_term);
	signal(SIGPIPE, SIG_IGN);
}

/* Serve clients, reap sessions and follow the config until SIGINT or SIGTERM. */
static void serve_until_done(struct daemon *d, int sock, int ino)
{
	const char *cfg_name = strrchr(d->config_real, '/') + 1;

	while (!done) {
		struct pollfd p[3] = { { .fd = sock, .events = POLLIN }, { .fd = ino, .events = POLLIN },
				       { .fd = d->sigfd, .events = POLLIN } };

		reconfig(d);
		if (poll(p, 3, -1) < 0)
			continue;
		if (p[2].revents)
			reap(d);
		if (p[0].revents)
			serve(d, sock);
		if (p[1].revents && config_changed(ino, cfg_name)) {
			logf_("config changed: reconfiguring");
			if (read_config(d, 1))
				logf_("failed: the config could not be read: the sessions are kept");
		}
	}
}

static int cmd_start(struct daemon *d)
{
	struct sockaddr_un addr;
	int lock, sock, ino, ready[2] = { -1, -1 };

	d->exe = realpath("/proc/self/exe", NULL);
	if (!d->exe)
		return fail("cannot find lupe's own executable: %s", strerror(errno)), 1;
	if (read_config(d, 1) || control_addr(d, &addr))
		return 1;
	lock = take_lock(d);
	if (lock < 0)
		return 1;
	if (!d->foreground) {
		pid_t pid;
		char c;

		if (pipe2(ready, O_CLOEXEC))
			return fail("pipe: %s", strerror(errno)), 1;
		pid = fork();
		if (pid < 0)
			return fail("fork: %s", strerror(errno)), 1;
		if (pid > 0) {
			/* back when the server listens: a ping right after start reaches it */
			close(ready[1]);
			if (read(ready[0], &c, 1) != 1)
				return fail("the daemon did not start: see %s/output", d->base), 1;
			return 0;
		}
		close(ready[0]);
		setsid();
	}
	if (write_pid(lock))
		return fail("cannot write the pid to %s/lock: %s", d->base, strerror(errno)), 1;
	umask(0);
	if (chdir(d->base))
		return fail("chdir '%s': %s", d->base, strerror(errno)), 1;
	if (!d->foreground) {
		int nul;

		if (output_to(d->base))
			return 1;
		nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, 0), close(nul);
	}
	d->start = time(NULL);
	logf_("daemon started (pid %d)", getpid());

	sock = listen_control(&addr);
	if (sock < 0)
		return 1;
	ino = watch_config(d);
	if (ino < 0)
		return 1;
	catch_signals(d);
	if (ready[1] >= 0) {
		if (write(ready[1], "r", 1) != 1) {
			/* the starter went away: nobody waits for the word */
		}
		close(ready[1]);
	}
	serve_until_done(d, sock, ino);
	kill_sessions(d, NULL);
	for (struct session *s = d->sessions, *n; s; s = n) {
		n = s->next;
		free_session(s);
	}
	d->sessions = NULL;
	close(sock);
	unlink(addr.sun_path);
	close(ino);
	logf_("daemon exited");
	close(lock);
	return 0;
}

/* A client: send req to the server, copy the answer to stdout. */
static int send_request(struct daemon *d, const char *req)
{
	struct sockaddr_un addr;
	char buf[4096];
	ssize_t n;
	int fd;

	if (read_config(d, 0) || control_addr(d, &addr))
		return 1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		fail("no daemon answers on %s: %s (start one with 'lupe daemon start')", addr.sun_path,
		     strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		close(fd);
		return fail("cannot write to %s: %s", addr.sun_path, strerror(errno)), 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, n, stdout) != (size_t)n)
			break;
	close(fd);
	fflush(stdout);
	return 0;
}

int cmd_daemon(int argc, char **argv)
{
	struct daemon d = { .sigfd = -1 };
	const char *verb;
	char *req = NULL;
	int idx, ret;

	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &d))
		return EXIT_USAGE;
	verb = d.verb ? d.verb : "list";
	if (d.foreground && strcmp(verb, "start"))
		return error("-f/--foreground goes with start only"), EXIT_USAGE;
	if (d.session && strcmp(verb, "ping") && strcmp(verb, "signal"))
		return error("--session goes with ping and signal only"), EXIT_USAGE;
	if (d.sep && strcmp(verb, "list"))
		return error("-x goes with list only"), EXIT_USAGE;
	if (d.session && (!*d.session || strchr(d.session, '\n')))
		return error("invalid --session '%s'", d.session), EXIT_USAGE;
	if (setup_config(&d))
		return 1;
	if (!strcmp(verb, "start")) {
		ret = cmd_start(&d);
	} else {
		if (!strcmp(verb, "list"))
			ret = asprintf(&req, "list %d%s%s\n", d.verbose, d.sep ? " " : "", d.sep ? d.sep : "");
		else if (!strcmp(verb, "stop"))
			ret = asprintf(&req, "stop\n");
		else
			ret = asprintf(&req, "%s %s\n", verb, d.session ? d.session : "all");
		ret = ret < 0 ? (fail("out of memory"), 1) : send_request(&d, req);
		free(req);
	}
	free(d.config_real);
	free(d.base);
	free(d.exe);
	return ret;
}
