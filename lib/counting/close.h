/* SPDX-License-Identifier: GPL-2.0 */
/* Closing perf event fds whose last close blocks in the kernel. */
#ifndef LUPE_COUNTING_CLOSE_H
#define LUPE_COUNTING_CLOSE_H

#include <linux/perf_event.h>

/* 1 for an event whose last close waits for an RCU grace period (tracepoints, probes). */
int lupe_close_is_slow(const struct perf_event_attr *attr);

/*
 * Close the n fds of fds (each >= 0; the array is sorted in place). When
 * there are enough of them for the wait to matter, a detached process takes
 * the last references and closes them after we return; otherwise, or when
 * that process cannot be made, they are closed here.
 */
void lupe_close_slow_fds(int *fds, int n);

#endif
