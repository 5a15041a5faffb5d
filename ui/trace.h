/* SPDX-License-Identifier: GPL-2.0 */
/* lupe trace's output: strace -f style lines and the per-thread summary. */
#ifndef LUPE_UI_TRACE_H
#define LUPE_UI_TRACE_H

#include <stdbool.h>
#include <stdio.h>
#include <lupe/trace.h>

struct trace_print_opts {
	FILE *out;
	unsigned int max_strlen;
	bool events;          /* print a line per call (not with -s alone) */
	bool summary;         /* -s / -S */
	bool time;            /* -T: the call's duration at the end of its line */
	bool failure;         /* --failure: only failed calls */
	double min_ms;        /* --duration: only calls at least this long */
	pid_t main_pid;       /* lines of other threads get "[pid N] " (0: always) */
	bool fd_paths;        /* -y: fd<path> */
	bool workload;        /* main_pid is lupe's child: hide its execvp PATH search */
	bool first_is_main;   /* no main_pid: the first event's process is the main one (a file) */
};

struct trace_printer;

struct trace_printer *trace_printer_new(const struct trace_print_opts *o);
/* With -y: learn the paths of pid's open fds now, while it is alive. */
void trace_printer_prime_fds(struct trace_printer *p, pid_t pid);
/* A lupe_sc_fn: p is the printer. */
int trace_printer_event(const struct lupe_sc_event *ev, void *p);
/* Calls that never returned (exit_group, detach) are printed with "= ?". */
void trace_printer_finish(struct trace_printer *p);
/* strace's "+++ exited with N +++" for the workload, from its wait status. */
void trace_printer_exited(struct trace_printer *p, pid_t pid, int status);
void trace_printer_summary(struct trace_printer *p);
void trace_printer_delete(struct trace_printer *p);

#endif
